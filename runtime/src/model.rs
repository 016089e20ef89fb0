//! The tool model: the one description of a tool's arguments that the derive, the schema
//! compiler, the decoders, the checker and the hint builder share. [`ToolModel`] is a tool's
//! (its JSON Schema writer and reader included); [`Schema`] and its builders are what a
//! hand-written [`ToolArg::describe`](crate::ToolArg::describe) returns.

#[doc(inline)]
pub use toolgate_core::format::UnknownFormat;
#[doc(inline)]
pub use toolgate_core::model::read::keywords::MAX_WARNINGS;
#[doc(inline)]
pub use toolgate_core::model::{
    Additional, ArraySchema, Bounds, Definitions, EnumSchema, EnumValue, Field, FloatWidth, Format,
    IntWidth, IntegerSchema, Json, Kind, MapSchema, Num, NumberSchema, ObjectSchema, Pattern,
    Schema, SchemaError, SchemaErrors, SchemaWarning, StringSchema, ToolModel, UnionMode,
    UnionSchema, WarningKind, MOST_FOLLOWED_REFERENCES,
};
#[doc(inline)]
pub use toolgate_core::Never;

//! The derive's model of one item once parsed and checked: what the emit stage turns into
//! tokens. Data only: the check stage (`check.rs`, `fields.rs` and the modules of each kind
//! of body) builds it, the emit stage (`emit/`) reads it.

use proc_macro2::Span;
use serde_json::Value;
use syn::{Ident, Type};

use super::constraints::Setter;
use super::serde_attrs::DefaultValue;

/// A checked `#[derive(Tool)]` input, ready to emit.
pub(super) struct Plan {
    pub(super) ident: Ident,
    /// The type's name without `r#`, for `$defs` when it is used more than once or contains
    /// itself.
    pub(super) type_name: String,
    pub(super) description: Option<String>,
    /// `#[tool(annotations = "...")]` on the item: a JSON object, checked.
    pub(super) annotations: Option<String>,
    /// `#[tool(width_formats)]` on a tool: its model writes every width as a `format`.
    pub(super) width_formats: bool,
    pub(super) body: Body,
}

pub(super) enum Body {
    Struct {
        tool_name: String,
        fields: Vec<FieldPlan>,
        deny_unknown_fields: bool,
        /// `#[serde(default)]` on the container: where field defaults come from.
        container_default: Option<DefaultValue>,
        /// A `#[serde(flatten)]` map: where undeclared keys go.
        flatten: Option<Box<FlattenPlan>>,
        /// Every member of the struct is a field of its schema (none skipped or
        /// flattened): the struct can be built from its fields alone, so it has a reader.
        every_member_a_field: bool,
    },
    Enum {
        variants: Vec<VariantPlan>,
    },
    /// `struct Name(serde_json::Value);` with `#[tool(schema = "...")]`: a tool whose
    /// arguments are a JSON value checked against that schema.
    Checked(CheckedTool),
    /// A tuple struct: a JSON array of exactly its elements.
    Tuple(Vec<ElementPlan>),
    /// An enum with `#[serde(tag)]` or `#[serde(untagged)]`: a union.
    Union {
        tagging: Tagging,
        variants: Vec<DataVariant>,
        deny_unknown_fields: bool,
        /// `#[tool(any_of)]`: a tagged union written `anyOf`.
        any_of: bool,
    },
}

pub(super) struct FieldPlan {
    pub(super) ident: Ident,
    /// The field's type as written.
    pub(super) ty: Type,
    /// The type whose schema the field has: the field's type, or `T` of an optional
    /// `Option<T>` field.
    pub(super) described: Type,
    pub(super) wire_name: String,
    pub(super) rust_name: String,
    pub(super) aliases: Vec<String>,
    pub(super) required: bool,
    /// Where the default comes from, if the field has one.
    pub(super) default: Option<FieldDefault>,
    pub(super) description: Option<String>,
    pub(super) examples: Vec<Value>,
    pub(super) setters: Vec<Setter>,
    /// `null` is a value of the field: `#[tool(nullable)]` on an `Option<T>` (the field
    /// required unless it has a default; `None` is `null`), or a `Nullable<T>`.
    pub(super) nullable: bool,
    /// A `Nullable<T>` field: optional, with absent (`Nullable::Absent`, left out when
    /// written) apart from `null`.
    pub(super) absent_apart: bool,
    /// `#[tool(schema = "...")]`: the field's whole schema, as JSON Schema text.
    pub(super) schema_text: Option<String>,
    /// `annotations = "..."`: a JSON object, checked.
    pub(super) annotations: Option<String>,
}

impl FieldPlan {
    /// The wire name and the aliases, each with the field's span: what must differ across
    /// the fields of one object.
    pub(super) fn wire_names(&self) -> impl Iterator<Item = (&str, Span)> {
        let span = self.ident.span();
        std::iter::once((self.wire_name.as_str(), span))
            .chain(self.aliases.iter().map(move |a| (a.as_str(), span)))
    }
}

pub(super) enum FieldDefault {
    /// `Default::default()` of the field's type, or a function.
    Own(DefaultValue),
    /// The field of the container's default value.
    Container,
}

pub(super) struct VariantPlan {
    pub(super) ident: Ident,
    pub(super) wire_name: String,
    pub(super) aliases: Vec<String>,
    /// `#[serde(skip)]`: not accepted on the wire.
    pub(super) skip: bool,
}

/// How the enum's variants are told apart on the wire.
pub(super) enum Tagging {
    /// `#[serde(tag = "...")]`: a field naming the variant.
    Internal(String),
    /// `#[serde(untagged)]`: by shape.
    Untagged,
}

pub(super) struct DataVariant {
    pub(super) ident: Ident,
    pub(super) wire_name: String,
    pub(super) description: Option<String>,
    pub(super) data: VariantData,
}

pub(super) enum VariantData {
    Unit,
    Fields(Vec<FieldPlan>),
    /// `Name(Type)`, with the constraints written on the value (`Name(#[tool(length(min = 1))] String)`).
    One(Box<Type>, Vec<Setter>),
}

/// A tool whose arguments are one JSON value checked against a schema.
pub(super) struct CheckedTool {
    pub(super) tool_name: String,
    pub(super) text: String,
    /// The type of the struct's one field.
    pub(super) ty: Type,
}

/// One element of a tuple struct.
pub(super) struct ElementPlan {
    pub(super) ty: Type,
    pub(super) setters: Vec<Setter>,
    pub(super) description: Option<String>,
}

/// A flattened map field, checked.
pub(super) struct FlattenPlan {
    pub(super) ident: Ident,
    /// The type of the map's values.
    pub(super) value_type: Type,
    /// The `values(...)` constraints.
    pub(super) value_setters: Vec<Setter>,
}

//! The tool model: the one description of a tool's arguments that the derive, the schema
//! compiler, the checker and the hint builder all share.
//!
//! A [`ToolModel`] is a name, a description, the [`Schema`] of the arguments (an object) and
//! the named schemas that references point to. Its serialised form is JSON Schema draft
//! 2020-12 ([`ToolModel::json_schema`], read back by [`ToolModel::from_json_schema`]), with
//! `x-` keywords only for what JSON Schema cannot say:
//!
//! | keyword | where | holds |
//! | --- | --- | --- |
//! | `x-aliases` | a property's schema | other wire names accepted for the field |
//! | `x-rust-name` | a property's schema | the Rust field name, when it differs from the wire name |
//! | `x-enum-aliases` | an `enum` schema | other spellings accepted for each value: `{"business": ["biz"]}` |
//!
//! The root of a tool's JSON Schema carries the tool's name as `title`. Annotations
//! ([`Schema::annotations`]) are written back as read; keywords JSON Schema does not define are
//! dropped when read and listed in [`ToolModel::schema_warnings`] (see [`read::keywords`]).

mod build;
mod definitions;
mod json;
pub mod lookup;
mod pattern;
pub mod read;
mod warnings;
mod write;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::Value;

pub use definitions::Definitions;
pub(crate) use json::{json_reader, mark_number_texts, ArgumentSeed, ReadNotes};
pub use json::{value_depth, Json, JsonSeed, TOO_DEEP};
pub use pattern::Pattern;
pub use read::keywords::{SchemaWarning, WarningKind};
pub use read::{SchemaError, SchemaErrors};

pub use crate::format::Format;
pub use crate::num::Num;

/// A tool: its name, description and the schema of its arguments.
///
/// ```
/// use toolgate_core::model::{Field, Schema, ToolModel};
///
/// let model = ToolModel::new(
///     "get_weather",
///     Some("Current weather at a place".into()),
///     Schema::object(vec![Field::required("city", Schema::string().min_length(1))]),
///     Default::default(),
/// );
/// assert_eq!(
///     model.json_schema(),
///     r#"{"title":"get_weather","description":"Current weather at a place","type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"]}"#
/// );
/// assert_eq!(ToolModel::from_json_schema(model.json_schema()).unwrap(), model);
/// ```
#[derive(Debug)]
pub struct ToolModel {
    name: String,
    description: Option<String>,
    input: Schema,
    definitions: BTreeMap<String, Schema>,
    /// What the reader read past (not part of equality: two models that check the same
    /// values are equal, whatever text they were read from).
    warnings: Vec<SchemaWarning>,
    json_schema: OnceLock<String>,
    defaults_fit: OnceLock<bool>,
    lookups: OnceLock<lookup::Lookups>,
}

impl Clone for ToolModel {
    fn clone(&self) -> Self {
        ToolModel::new(
            self.name.clone(),
            self.description.clone(),
            self.input.clone(),
            self.definitions.clone(),
        )
        .with_schema_warnings(self.warnings.clone())
    }
}

impl PartialEq for ToolModel {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.description == other.description
            && self.input == other.input
            && self.definitions == other.definitions
    }
}

impl ToolModel {
    /// A model from its parts. `definitions` holds the schemas that [`Kind::Ref`]s name.
    ///
    /// The description belongs to the tool: when `description` is `None`, the input schema's
    /// own description is used, and the input schema keeps none.
    pub fn new(
        name: impl Into<String>,
        description: Option<String>,
        mut input: Schema,
        definitions: BTreeMap<String, Schema>,
    ) -> Self {
        let description = description.or(input.description.take());
        input.description = None;
        ToolModel {
            name: name.into(),
            description,
            input,
            definitions,
            warnings: Vec::new(),
            json_schema: OnceLock::new(),
            defaults_fit: OnceLock::new(),
            lookups: OnceLock::new(),
        }
    }

    /// Whether `holds` is true of every schema of this model: the input, the definitions, and
    /// every schema inside them (items, fields, the schema of undeclared keys, alternatives);
    /// references are not followed (what they name is a definition, visited itself).
    pub(crate) fn every_schema(&self, mut holds: impl FnMut(&Schema) -> bool) -> bool {
        let mut pending: Vec<&Schema> = std::iter::once(&self.input)
            .chain(self.definitions.values())
            .collect();
        while let Some(schema) = pending.pop() {
            if !holds(schema) {
                return false;
            }
            match &schema.kind {
                Kind::Array(array) => pending.extend(array.schemas()),
                Kind::Map(map) => pending.push(&map.values),
                Kind::Object(object) => {
                    pending.extend(object.fields.iter().map(|f| &f.schema));
                    if let Additional::Schema(extra) = &object.additional {
                        pending.push(extra);
                    }
                }
                Kind::Union(union) => pending.extend(&union.variants),
                _ => {}
            }
        }
        true
    }

    /// Whether every field default of this model fits the field's own schema (computed
    /// once): then the decoder fills every default serde would, and a typed value needs no
    /// second check after serde built it.
    pub(crate) fn defaults_fit(&self) -> bool {
        *self.defaults_fit.get_or_init(|| {
            self.every_schema(|schema| {
                let Kind::Object(object) = &schema.kind else {
                    return true;
                };
                object.fields.iter().all(|field| {
                    let Some(default) = &field.schema.default else {
                        return true;
                    };
                    let mut checker = crate::Checker::new(self);
                    checker.check_value(default, &field.schema);
                    checker.finish().is_ok()
                })
            })
        })
    }

    /// The lookup tables of `object` (a part of this model) when it is wide enough to have
    /// them (more than [`lookup::SCANNED_FIELDS`] fields); built for the whole model on
    /// first use.
    pub fn field_index(&self, object: &ObjectSchema) -> Option<&lookup::FieldIndex> {
        if object.fields.len() <= lookup::SCANNED_FIELDS {
            return None;
        }
        self.lookups().object(object)
    }

    /// The lookup tables of `enumeration` (a part of this model) when it is long enough to
    /// have them (more than [`lookup::SCANNED_VALUES`] values).
    pub fn enum_index(&self, enumeration: &EnumSchema) -> Option<&lookup::EnumIndex> {
        if enumeration.values.len() <= lookup::SCANNED_VALUES {
            return None;
        }
        self.lookups().enumeration(enumeration)
    }

    /// Whether `value` is one of `enumeration`'s values (a part of this model): a string is
    /// looked up in the enum's index where it has one, any other value compared in turn.
    pub fn enum_contains(&self, enumeration: &EnumSchema, value: &Value) -> bool {
        match value.as_str() {
            Some(text) => self.enum_contains_str(enumeration, text),
            None => enumeration.contains(value),
        }
    }

    /// [`ToolModel::enum_contains`] for a string, without making it a `Value`.
    pub fn enum_contains_str(&self, enumeration: &EnumSchema, text: &str) -> bool {
        match self.enum_index(enumeration) {
            Some(index) => index.string(text).is_some(),
            None => enumeration
                .values
                .iter()
                .any(|v| v.value.as_str() == Some(text)),
        }
    }

    fn lookups(&self) -> &lookup::Lookups {
        self.lookups.get_or_init(|| lookup::Lookups::of(self))
    }

    /// The tool's name, as a model calls it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the tool does, for the model.
    pub fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }

    /// The schema of the arguments.
    pub fn input(&self) -> &Schema {
        &self.input
    }

    /// The named schemas that references point to.
    pub fn definitions(&self) -> &BTreeMap<String, Schema> {
        &self.definitions
    }

    /// Follows references (at most 32 steps) to the schema that describes values.
    /// An unknown reference, or a cycle of references, gives `None`.
    pub fn resolve<'m>(&'m self, mut schema: &'m Schema) -> Option<&'m Schema> {
        for _ in 0..32 {
            match &schema.kind {
                Kind::Ref(name) => schema = self.definitions.get(name)?,
                _ => return Some(schema),
            }
        }
        None
    }

    /// Whether `schema` takes `null`: it, or a reference on the way to the schema that
    /// describes values, is nullable, or that schema is `any` or `null`. A nullable use of a
    /// shared type is a nullable reference; the type's own schema is not nullable.
    ///
    /// ```
    /// use toolgate_core::model::{Schema, ToolModel};
    ///
    /// let definitions = [("Point".to_owned(), Schema::object(Vec::new()))].into();
    /// let model = ToolModel::new("t", None, Schema::object(Vec::new()), definitions);
    /// assert!(model.accepts_null(&Schema::reference("Point").nullable()));
    /// assert!(!model.accepts_null(&Schema::reference("Point")));
    /// assert!(model.accepts_null(&Schema::any()));
    /// ```
    pub fn accepts_null<'m>(&'m self, mut schema: &'m Schema) -> bool {
        for _ in 0..32 {
            if schema.nullable {
                return true;
            }
            match &schema.kind {
                Kind::Ref(name) => match self.definitions.get(name) {
                    Some(target) => schema = target,
                    None => return false,
                },
                Kind::Any | Kind::Null => return true,
                _ => return false,
            }
        }
        false
    }

    /// The schema of the value at `path`, following fields, items, map values and references.
    /// The description of a field's own schema wins over the one of a referenced type.
    pub fn schema_at(&self, path: &crate::Path) -> Option<&Schema> {
        use crate::path::Segment;
        let mut schema = &self.input;
        for segment in path.segments() {
            let resolved = self.resolve(schema)?;
            schema = match (&resolved.kind, segment) {
                (Kind::Object(object), Segment::Key(key)) => match object.field(key) {
                    Some(field) => &field.schema,
                    None => match &object.additional {
                        Additional::Schema(extra) => extra,
                        _ => return None,
                    },
                },
                (Kind::Map(map), Segment::Key(_)) => &map.values,
                (Kind::Array(array), Segment::Index(index)) => array.item_schema(*index),
                _ => return None,
            };
        }
        Some(schema)
    }

    /// The JSON Schema (draft 2020-12) text of the arguments, compact, keys in a fixed order.
    /// Computed once per model.
    pub fn json_schema(&self) -> &str {
        self.json_schema
            .get_or_init(|| write::tool_to_string(self, false))
    }

    /// The same JSON Schema, indented for people.
    pub fn json_schema_pretty(&self) -> String {
        write::tool_to_string(self, true)
    }

    /// Reads a schema that arrives at run time: a tool definition of OpenAI (`parameters`),
    /// MCP (`inputSchema`) or Anthropic (`input_schema`), or a bare schema; JSON Schema
    /// 2020-12, draft-07 or BFCL's dialect (see [`read::normalize`] for what is accepted).
    ///
    /// ```
    /// use toolgate_core::model::ToolModel;
    ///
    /// let bfcl = r#"{"name": "math.factorial", "description": "n!",
    ///     "parameters": {"type": "dict", "properties": {"n": {"type": "integer"},
    ///     "exact": {"type": "boolean", "optional": true}}, "required": ["n", "exact"]}}"#;
    /// let model = ToolModel::from_definition_text(bfcl).unwrap();
    /// assert_eq!(model.name(), "math.factorial");
    /// assert_eq!(model.json_schema(), r#"{"title":"math.factorial","description":"n!","type":"object","properties":{"n":{"type":"integer"},"exact":{"type":"boolean"}},"required":["n"]}"#);
    /// ```
    ///
    /// From a `serde_json::Value`, properties come in that map's order (alphabetical, unless
    /// serde_json's `preserve_order` feature is on); [`ToolModel::from_definition_text`] and
    /// [`ToolModel::from_definition_json`] keep the order of the text.
    pub fn from_definition(definition: &Value) -> Result<ToolModel, SchemaErrors> {
        read::read_definition(Json::from(definition))
    }

    /// [`ToolModel::from_definition`] from text, keeping the order of properties.
    pub fn from_definition_text(text: &str) -> Result<ToolModel, SchemaErrors> {
        let json: Json = serde_json::from_str(text).map_err(SchemaErrors::syntax)?;
        read::read_definition(json)
    }

    /// [`ToolModel::from_definition`] from an order-keeping JSON tree.
    pub fn from_definition_json(definition: Json) -> Result<ToolModel, SchemaErrors> {
        read::read_definition(definition)
    }

    /// Reads a model back from JSON Schema text: the root's `title` is the name, its
    /// `description` the description, its `$defs` the definitions. Every keyword the model
    /// cannot hold is an error with its JSON pointer; none is dropped.
    pub fn from_json_schema(text: &str) -> Result<ToolModel, SchemaErrors> {
        let json: Json = serde_json::from_str(text).map_err(SchemaErrors::syntax)?;
        read::read_tool(&json)
    }
}

/// The schema of one value: what kind of value it is, with its constraints and annotations.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    /// What kind of value, with the constraints of that kind.
    pub kind: Kind,
    /// Whether `null` is accepted too (JSON Schema `"type": [..., "null"]`).
    pub nullable: bool,
    /// What the value means, for the model.
    pub description: Option<String>,
    /// The value used when the field is absent.
    pub default: Option<Value>,
    /// Example values.
    pub examples: Vec<Value>,
    /// The one value allowed (`const`).
    pub constant: Option<Value>,
    /// Annotations kept as written, keyword and value, written back in this order after the
    /// other keywords: `title` (below the root), `$comment`, `deprecated`, `readOnly`,
    /// `writeOnly`, `contentMediaType`, `contentEncoding`, `contentSchema`, and a `format`
    /// the model does not know (see [`read::keywords`]). They constrain nothing.
    pub annotations: Vec<(String, Value)>,
}

/// The kinds of values the model describes.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Any JSON value.
    Any,
    /// No value at all: the `false` schema (written back as `{"not": {}}`).
    Never,
    /// Only `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number, possibly of a fixed width.
    Integer(IntegerSchema),
    /// Any number.
    Number(NumberSchema),
    /// A string.
    String(StringSchema),
    /// One of a list of values.
    Enum(EnumSchema),
    /// A list of values of one schema.
    Array(ArraySchema),
    /// An object with any keys, all values of one schema.
    Map(MapSchema),
    /// An object with declared fields.
    Object(ObjectSchema),
    /// One of several schemas (`oneOf` / `anyOf`).
    Union(UnionSchema),
    /// The schema of that name in [`ToolModel::definitions`].
    Ref(String),
}

impl Kind {
    /// The JSON Schema type name of this kind (`"object"` for maps, `None` for kinds that are
    /// not one type).
    pub fn type_name(&self) -> Option<&'static str> {
        Some(match self {
            Kind::Null => "null",
            Kind::Boolean => "boolean",
            Kind::Integer(_) => "integer",
            Kind::Number(_) => "number",
            Kind::String(_) => "string",
            Kind::Array(_) => "array",
            Kind::Map(_) | Kind::Object(_) => "object",
            Kind::Any | Kind::Never | Kind::Enum(_) | Kind::Union(_) | Kind::Ref(_) => return None,
        })
    }
}

/// Lower and upper bounds of a number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bounds {
    /// `minimum`: the value is at least this.
    pub minimum: Option<Num>,
    /// `maximum`: the value is at most this.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum`: the value is above this.
    pub exclusive_minimum: Option<Num>,
    /// `exclusiveMaximum`: the value is below this.
    pub exclusive_maximum: Option<Num>,
}

impl Bounds {
    /// Sets `minimum` and `maximum` from a width's range where they are not written: a
    /// width is a range too.
    pub fn fill_range(&mut self, range: Option<(Num, Num)>) {
        if let Some((low, high)) = range {
            self.minimum.get_or_insert(low);
            self.maximum.get_or_insert(high);
        }
    }
}

/// The fixed width of an integer type; its range is a constraint too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntWidth {
    /// Number of bits: 8, 16, 32, 64 or 128.
    pub bits: u8,
    /// Whether negative values exist.
    pub signed: bool,
}

impl IntWidth {
    /// The JSON Schema `format` name: `int8` … `int128`, `uint8` … `uint128`.
    pub fn format_name(self) -> String {
        format!("{}int{}", if self.signed { "" } else { "u" }, self.bits)
    }

    /// Reads a `format` name written by [`IntWidth::format_name`].
    pub fn from_format_name(name: &str) -> Option<IntWidth> {
        let (signed, bits) = match name.strip_prefix('u') {
            Some(rest) => (false, rest.strip_prefix("int")?),
            None => (true, name.strip_prefix("int")?),
        };
        let bits = bits
            .parse()
            .ok()
            .filter(|b| [8, 16, 32, 64, 128].contains(b))?;
        Some(IntWidth { bits, signed })
    }

    /// The smallest and largest value of the type.
    pub fn range(self) -> (Num, Num) {
        let bits = u32::from(self.bits);
        if self.signed {
            let max = if bits == 128 {
                i128::MAX
            } else {
                (1i128 << (bits - 1)) - 1
            };
            (Num::from_i128(-max - 1), Num::from_i128(max))
        } else if bits == 128 {
            (Num::Int(0), Num::from(u128::MAX))
        } else {
            (Num::Int(0), Num::from_i128((1i128 << bits) - 1))
        }
    }
}

/// The fixed width of a float type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatWidth {
    /// `f32`, written as `"format": "float"`, range ±3.4028235e38.
    F32,
    /// `f64`, written as `"format": "double"`.
    F64,
}

impl FloatWidth {
    /// The JSON Schema `format` name.
    pub fn format_name(self) -> &'static str {
        match self {
            FloatWidth::F32 => "float",
            FloatWidth::F64 => "double",
        }
    }

    /// The finite range of the type, where it narrows JSON's numbers (`f32` only).
    pub fn range(self) -> Option<(Num, Num)> {
        match self {
            FloatWidth::F32 => Some((Num::from(f32::MIN), Num::from(f32::MAX))),
            FloatWidth::F64 => None,
        }
    }
}

/// Constraints of an integer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntegerSchema {
    /// The Rust width, if the value goes into one.
    pub width: Option<IntWidth>,
    /// Bounds (the width's range is already folded into `minimum`/`maximum`).
    pub bounds: Bounds,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
}

/// Constraints of a number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NumberSchema {
    /// The Rust width, if the value goes into one.
    pub width: Option<FloatWidth>,
    /// Bounds.
    pub bounds: Bounds,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
}

/// Constraints of a string.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StringSchema {
    /// `minLength`, in characters (Unicode scalar values).
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `pattern`: a regular expression the string must contain a match of.
    pub pattern: Option<Pattern>,
    /// `format`.
    pub format: Option<Format>,
}

/// One allowed value of an enum, with the other spellings accepted for it.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumValue {
    /// The value, as sent on the wire.
    pub value: Value,
    /// Other spellings accepted (serde `alias`), strings only.
    pub aliases: Vec<String>,
}

/// The allowed values of an enum.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EnumSchema {
    /// The values, in declaration order.
    pub values: Vec<EnumValue>,
}

impl EnumSchema {
    /// Whether `value` is one of the values (numbers compare by value).
    pub fn contains(&self, value: &Value) -> bool {
        self.values
            .iter()
            .any(|v| crate::check::json_equal(&v.value, value))
    }

    /// The values as JSON.
    pub fn value_list(&self) -> Vec<Value> {
        self.values.iter().map(|v| v.value.clone()).collect()
    }
}

/// A list of values, or a tuple: the first elements each with its own schema
/// (`prefixItems`), the rest with `items`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArraySchema {
    /// The schemas of the first elements, in order (`prefixItems`; draft-07's array form of
    /// `items`); empty for a plain list. Like JSON Schema's, they do not make the elements
    /// required: `minItems` does.
    pub prefix_items: Vec<Schema>,
    /// The schema of every element after `prefix_items` (of every element of a plain list);
    /// [`Kind::Never`], JSON Schema's `false`, where no more elements are allowed.
    pub items: Box<Schema>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`.
    pub unique_items: bool,
}

impl ArraySchema {
    /// The schema of the element at `index`.
    pub fn item_schema(&self, index: usize) -> &Schema {
        self.prefix_items.get(index).unwrap_or(&self.items)
    }

    /// How many elements the array may hold when `items` allows none past the prefix.
    pub fn tuple_length(&self) -> Option<usize> {
        matches!(self.items.kind, Kind::Never).then_some(self.prefix_items.len())
    }

    /// The element schemas: the prefix, then `items`.
    pub fn schemas(&self) -> impl Iterator<Item = &Schema> {
        self.prefix_items
            .iter()
            .chain(std::iter::once(&*self.items))
    }

    /// The element schemas, to change: the prefix, then `items`.
    pub fn schemas_mut(&mut self) -> impl Iterator<Item = &mut Schema> {
        self.prefix_items
            .iter_mut()
            .chain(std::iter::once(&mut *self.items))
    }
}

/// An object with free keys.
#[derive(Clone, Debug, PartialEq)]
pub struct MapSchema {
    /// The schema of every value.
    pub values: Box<Schema>,
    /// `propertyNames`: the schema of every key, a string (see [`ObjectSchema::property_names`]).
    pub property_names: Option<Box<Schema>>,
}

/// What an object does with keys it does not declare.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Additional {
    /// Allowed (JSON Schema's default). Typed tools drop them with a log entry; dynamic
    /// tools keep them.
    #[default]
    Allow,
    /// Refused with an `additionalProperties` issue (serde's `deny_unknown_fields`).
    Deny,
    /// Allowed when they match this schema.
    Schema(Box<Schema>),
}

/// An object with declared fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectSchema {
    /// The fields, in declaration order.
    pub fields: Vec<Field>,
    /// What happens to other keys.
    pub additional: Additional,
    /// `propertyNames`: the schema every key (declared or not) must meet, a string schema
    /// (`pattern`, `minLength`/`maxLength`, `format`, `enum`...). `None` when it constrains
    /// nothing: the reader leaves out a `propertyNames` that any string meets. A key that
    /// fails it is a `propertyNames` issue at the key's path; a key is never repaired to meet
    /// it (only `key_case` renames keys, towards declared fields).
    pub property_names: Option<Box<Schema>>,
}

impl ObjectSchema {
    /// The field with this wire name.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|field| field.name == name)
    }
}

/// One field of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The wire name.
    pub name: String,
    /// The Rust name, when it differs from the wire name.
    pub rust_name: Option<String>,
    /// Other wire names accepted (serde `alias`).
    pub aliases: Vec<String>,
    /// Whether the field must be present.
    pub required: bool,
    /// The field's value.
    pub schema: Schema,
}

/// How a union picks its alternative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnionMode {
    /// `oneOf`: exactly one alternative matches.
    OneOf,
    /// `anyOf`: at least one alternative matches.
    AnyOf,
}

/// One of several schemas.
#[derive(Clone, Debug, PartialEq)]
pub struct UnionSchema {
    /// `oneOf` or `anyOf`.
    pub mode: UnionMode,
    /// The alternatives, in order.
    pub variants: Vec<Schema>,
}

impl UnionSchema {
    /// The discriminator of a tagged union: a required field of every alternative with a
    /// `const` string value, distinct across alternatives (alternatives that are references
    /// are followed through `model`). Untagged unions give `None`.
    pub fn tag<'s>(&'s self, model: &'s ToolModel) -> Option<&'s str> {
        let object = |variant: &'s Schema| match &model.resolve(variant)?.kind {
            Kind::Object(object) => Some(object),
            _ => None,
        };
        let first = object(self.variants.first()?)?;
        'candidates: for candidate in &first.fields {
            let mut seen = Vec::new();
            for variant in &self.variants {
                let object = object(variant)?;
                match object.field(&candidate.name) {
                    Some(field) if field.required => match &field.schema.constant {
                        Some(Value::String(tag)) if !seen.contains(&tag) => seen.push(tag),
                        _ => continue 'candidates,
                    },
                    _ => continue 'candidates,
                }
            }
            return Some(&candidate.name);
        }
        None
    }
}

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
mod pattern;
pub mod positions;
pub mod read;
mod schema;
mod warnings;
mod write;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::Value;

pub use definitions::Definitions;
pub use json::{depth_within, value_depth, Json, JsonSeed, TOO_DEEP};
pub(crate) use json::{json_reader, mark_number_texts, ArgumentSeed, ReadNotes};
pub use pattern::Pattern;
pub use read::keywords::{SchemaWarning, WarningKind};
pub use read::{SchemaError, SchemaErrors};
pub use schema::{
    Additional, ArraySchema, Bounds, EnumSchema, EnumValue, Field, FloatWidth, IntWidth,
    IntegerSchema, Kind, MapSchema, NumberSchema, ObjectSchema, Schema, StringSchema, UnionMode,
    UnionSchema,
};
pub(crate) use write::DEFS_PREFIX;

pub use crate::format::Format;
pub use crate::num::Num;

/// The members of an annotations text (`#[tool(annotations = r#"{"title": "Region"}"#)]`),
/// keyword and value in the order written, numbers with their digits; nothing when the text
/// is not a JSON object (the derive checked it is one).
///
/// ```
/// let members = toolgate_core::model::annotation_members(r#"{"title": "Region", "$comment": "ISO"}"#);
/// assert_eq!(members[0], ("title".to_owned(), serde_json::json!("Region")));
/// assert_eq!(members.len(), 2);
/// ```
pub fn annotation_members(text: &str) -> Vec<(String, serde_json::Value)> {
    match Json::from_schema_text(text) {
        Ok(Json::Object(members)) => members
            .into_iter()
            .map(|(key, value)| (key, value.to_value()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Most references [`ToolModel::resolve`] follows in a row: a use of a definition, and the
/// 32 references to references (`read::references::MOST_REFERENCES_IN_A_ROW`) a definition
/// may be when the schema reader accepts it.
pub const MOST_FOLLOWED_REFERENCES: usize = read::references::MOST_REFERENCES_IN_A_ROW + 1;

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
    /// Boxed, so that its address, which the plan points to, stays when the model moves.
    input: Box<Schema>,
    definitions: BTreeMap<String, Schema>,
    /// What the reader read past (not part of equality: two models that check the same
    /// values are equal, whatever text they were read from).
    warnings: Vec<SchemaWarning>,
    json_schema: OnceLock<String>,
    plan: OnceLock<crate::plan::Plan>,
}

impl Clone for ToolModel {
    fn clone(&self) -> Self {
        ToolModel::new(
            self.name.clone(),
            self.description.clone(),
            (*self.input).clone(),
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
        // The root's `title` is the tool's name: a `title` the input's type carries (a
        // struct's `#[tool(annotations)]`) is its title where it is a value, not here.
        input.annotations.retain(|(key, _)| key != "title");
        ToolModel {
            name: name.into(),
            description,
            input: Box::new(input),
            definitions,
            warnings: Vec::new(),
            json_schema: OnceLock::new(),
            plan: OnceLock::new(),
        }
    }

    /// The same model, every number's Rust width written as its `format` (`"format":
    /// "uint8"`, `"double"`), as schemars writes them: what `#[tool(width_formats)]` on a
    /// tool asks for. A derived schema leaves them out otherwise: the bounds say the range,
    /// and strict providers drop the `format`.
    pub fn with_width_formats(self) -> ToolModel {
        let ToolModel {
            name,
            description,
            input,
            definitions,
            warnings,
            ..
        } = self;
        let definitions = definitions
            .into_iter()
            .map(|(key, schema)| (key, schema.width_formats()))
            .collect();
        ToolModel::new(name, description, (*input).width_formats(), definitions)
            .with_schema_warnings(warnings)
    }

    /// The plan's cell: [`ToolModel::plan`] fills it.
    pub(crate) fn plan_cell(&self) -> &OnceLock<crate::plan::Plan> {
        &self.plan
    }

    /// The lookup tables of `enumeration` (a part of this model) when it is long enough to
    /// have them (more than [`SCANNED_VALUES`](crate::plan::SCANNED_VALUES) values).
    #[doc(hidden)]
    pub fn enum_index(&self, enumeration: &EnumSchema) -> Option<&crate::plan::EnumTable> {
        if enumeration.values.len() <= crate::plan::SCANNED_VALUES {
            return None;
        }
        self.plan().enum_of(enumeration)
    }

    /// Whether `value` is one of `enumeration`'s values (a part of this model): a string is
    /// looked up in the enum's index where it has one, any other value compared in turn.
    #[doc(hidden)]
    pub fn enum_contains(&self, enumeration: &EnumSchema, value: &Value) -> bool {
        enum_contains_in(self.enum_index(enumeration), enumeration, value)
    }

    /// [`ToolModel::enum_contains`] for a string, without making it a `Value`.
    #[doc(hidden)]
    pub fn enum_contains_str(&self, enumeration: &EnumSchema, text: &str) -> bool {
        enum_contains_str_in(self.enum_index(enumeration), enumeration, text)
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

    /// Follows references to the schema that describes values: at most
    /// [`MOST_FOLLOWED_REFERENCES`] in a row, the use and the 32 references to references a
    /// definition may be (what the schema reader accepts, it follows). An unknown reference,
    /// a cycle of references, or a longer chain gives `None`.
    pub fn resolve<'m>(&'m self, mut schema: &'m Schema) -> Option<&'m Schema> {
        for _ in 0..=MOST_FOLLOWED_REFERENCES {
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

    /// The schema of the value at `path`, following fields (by wire name or alias, through
    /// the model's lookup: [`ToolModel::field_named`]), the schema of undeclared keys, items,
    /// map values and references: [`ToolModel::step`] at each segment. The description of a
    /// field's own schema wins over the one of a referenced type.
    pub fn schema_at(&self, path: &crate::Path) -> Option<&Schema> {
        let mut schema: &Schema = &self.input;
        for segment in path.segments() {
            schema = self.step(schema, segment, false).schema()?;
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
    /// MCP (`inputSchema`), Anthropic (`input_schema`) or Gemini (`parameters`,
    /// `parametersJsonSchema`), or a bare schema; JSON Schema
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
        let mut json = Json::from(definition);
        json.integers_by_digits();
        read::read_definition(json)
    }

    /// [`ToolModel::from_definition`] from text, keeping the order of properties.
    pub fn from_definition_text(text: &str) -> Result<ToolModel, SchemaErrors> {
        let json = Json::from_schema_text(text)?;
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
        let json = Json::from_schema_text(text)?;
        read::read_tool(&json)
    }
}

/// Whether `value` is one of `enumeration`'s values, `table` its index where it has one (a
/// string is looked up there; any other value is compared in turn).
pub(crate) fn enum_contains_in(
    table: Option<&crate::plan::EnumTable>,
    enumeration: &EnumSchema,
    value: &Value,
) -> bool {
    match value.as_str() {
        Some(text) => enum_contains_str_in(table, enumeration, text),
        None => enumeration.contains(value),
    }
}

/// [`enum_contains_in`] for a string, without making it a `Value`.
pub(crate) fn enum_contains_str_in(
    table: Option<&crate::plan::EnumTable>,
    enumeration: &EnumSchema,
    text: &str,
) -> bool {
    enum_index_in(table, enumeration, text).is_some()
}

/// The index of the string `text` among `enumeration`'s values, `table` its index where it
/// has one (else they are compared in turn).
pub(crate) fn enum_index_in(
    table: Option<&crate::plan::EnumTable>,
    enumeration: &EnumSchema,
    text: &str,
) -> Option<usize> {
    match table {
        Some(index) => index.string(text),
        None => enumeration
            .values
            .iter()
            .position(|v| v.value.as_str() == Some(text)),
    }
}

//! The JSON Schema writer: [`ToolModel`] → draft 2020-12 text, keys in a fixed order.
//!
//! `null` acceptance is written as a type array (`["string", "null"]`) where the kind has one
//! type, by adding `null` to an `enum`, and otherwise as `anyOf: [<schema>, {"type": "null"}]`.

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use super::*;

/// Where `$ref`s point: `#/$defs/<name>`.
pub(crate) const DEFS_PREFIX: &str = "#/$defs/";

pub(crate) fn tool_to_string(model: &ToolModel, pretty: bool) -> String {
    let root = Root(model);
    let result = if pretty {
        serde_json::to_string_pretty(&root)
    } else {
        serde_json::to_string(&root)
    };
    // Serialising our own types into a String cannot fail: keys are strings and non-finite
    // numbers are written by serde_json as `null`.
    result.unwrap_or_default()
}

impl Schema {
    /// This schema as JSON Schema (references point to `#/$defs/<name>`).
    pub fn to_json_value(&self) -> Value {
        serde_json::to_value(Out::plain(self)).unwrap_or(Value::Null)
    }
}

struct Root<'a>(&'a ToolModel);

impl Serialize for Root<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let model = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("title", model.name())?;
        if let Some(description) = model.description() {
            map.serialize_entry("description", description)?;
        }
        // `ToolModel::new` keeps the description on the model, not on the input schema.
        write_schema_entries(&mut map, model.input(), None, false)?;
        if !model.definitions().is_empty() {
            let defs: Vec<(&String, Out<'_>)> = model
                .definitions()
                .iter()
                .map(|(name, schema)| (name, Out::plain(schema)))
                .collect();
            map.serialize_entry("$defs", &Entries(defs))?;
        }
        map.end()
    }
}

/// A schema to write, with the field whose value it is (for `x-aliases` / `x-rust-name`).
struct Out<'a> {
    schema: &'a Schema,
    field: Option<&'a Field>,
}

impl<'a> Out<'a> {
    fn plain(schema: &'a Schema) -> Self {
        Out {
            schema,
            field: None,
        }
    }
}

impl Serialize for Out<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        write_schema_entries(&mut map, self.schema, self.field, true)?;
        map.end()
    }
}

/// Key/value pairs written as an object in this order.
struct Entries<K, V>(Vec<(K, V)>);

impl<K: Serialize, V: Serialize> Serialize for Entries<K, V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// The schema without its `null` acceptance, for the first branch of an `anyOf`.
struct NotNull<'a>(&'a Schema);

impl Serialize for NotNull<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        write_kind(&mut map, &self.0.kind, false)?;
        map.end()
    }
}

fn null_schema() -> Value {
    serde_json::json!({"type": "null"})
}

fn write_schema_entries<M: SerializeMap>(
    map: &mut M,
    schema: &Schema,
    field: Option<&Field>,
    with_description: bool,
) -> Result<(), M::Error> {
    let wrap_null = schema.nullable && matches!(schema.kind, Kind::Ref(_) | Kind::Union(_));
    if wrap_null {
        map.serialize_entry("anyOf", &(NotNull(schema), null_schema()))?;
    } else {
        write_kind(map, &schema.kind, schema.nullable)?;
    }
    if with_description {
        if let Some(description) = &schema.description {
            map.serialize_entry("description", description)?;
        }
    }
    if let Some(constant) = &schema.constant {
        map.serialize_entry("const", constant)?;
    }
    if let Some(default) = &schema.default {
        map.serialize_entry("default", default)?;
    }
    if !schema.examples.is_empty() {
        map.serialize_entry("examples", &schema.examples)?;
    }
    for (keyword, value) in &schema.annotations {
        // Only the annotations the reader keeps, and `format` where the kind writes none: a
        // hand-built schema cannot write a key twice.
        let kept = super::read::keywords::ANNOTATIONS.contains(&keyword.as_str())
            || (keyword == "format" && !writes_format(&schema.kind));
        if kept {
            map.serialize_entry(keyword, value)?;
        }
    }
    if let Some(field) = field {
        if !field.aliases.is_empty() {
            map.serialize_entry("x-aliases", &field.aliases)?;
        }
        if let Some(rust_name) = &field.rust_name {
            map.serialize_entry("x-rust-name", rust_name)?;
        }
    }
    Ok(())
}

/// Whether the kind writes a `format` of its own (a width, or a known string format).
fn writes_format(kind: &Kind) -> bool {
    match kind {
        Kind::Integer(integer) => integer.written_width().is_some(),
        Kind::Number(number) => number.written_width().is_some(),
        Kind::String(string) => string.format.is_some(),
        _ => false,
    }
}

fn type_entry<M: SerializeMap>(map: &mut M, name: &str, nullable: bool) -> Result<(), M::Error> {
    if nullable {
        map.serialize_entry("type", &[name, "null"])
    } else {
        map.serialize_entry("type", name)
    }
}

fn write_bounds<M: SerializeMap>(map: &mut M, bounds: &Bounds) -> Result<(), M::Error> {
    if let Some(minimum) = &bounds.minimum {
        map.serialize_entry("minimum", minimum)?;
    }
    if let Some(maximum) = &bounds.maximum {
        map.serialize_entry("maximum", maximum)?;
    }
    if let Some(minimum) = &bounds.exclusive_minimum {
        map.serialize_entry("exclusiveMinimum", minimum)?;
    }
    if let Some(maximum) = &bounds.exclusive_maximum {
        map.serialize_entry("exclusiveMaximum", maximum)?;
    }
    Ok(())
}

/// The JSON type shared by all enum values, if they share one.
pub(crate) fn enum_type(values: &[EnumValue]) -> Option<&'static str> {
    let mut common: Option<&'static str> = None;
    for value in values {
        let name = match &value.value {
            Value::String(_) => "string",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            _ => return None,
        };
        common = match (common, name) {
            (None, name) => Some(name),
            (Some(a), b) if a == b => Some(a),
            (Some("integer"), "number") | (Some("number"), "integer") => Some("number"),
            _ => return None,
        };
    }
    common
}

fn write_kind<M: SerializeMap>(map: &mut M, kind: &Kind, nullable: bool) -> Result<(), M::Error> {
    match kind {
        Kind::Any => {}
        Kind::Never => map.serialize_entry("not", &serde_json::json!({}))?,
        Kind::Null => type_entry(map, "null", false)?,
        Kind::Boolean => type_entry(map, "boolean", nullable)?,
        Kind::Integer(integer) => {
            type_entry(map, "integer", nullable)?;
            if let Some(width) = integer.written_width() {
                map.serialize_entry("format", &width.format_name())?;
            }
            write_bounds(map, &integer.bounds)?;
            if let Some(divisor) = &integer.multiple_of {
                map.serialize_entry("multipleOf", divisor)?;
            }
        }
        Kind::Number(number) => {
            type_entry(map, "number", nullable)?;
            if let Some(width) = number.written_width() {
                map.serialize_entry("format", width.format_name())?;
            }
            write_bounds(map, &number.bounds)?;
            if let Some(divisor) = &number.multiple_of {
                map.serialize_entry("multipleOf", divisor)?;
            }
        }
        Kind::String(string) => {
            type_entry(map, "string", nullable)?;
            if let Some(length) = string.min_length {
                map.serialize_entry("minLength", &length)?;
            }
            if let Some(length) = string.max_length {
                map.serialize_entry("maxLength", &length)?;
            }
            if let Some(pattern) = &string.pattern {
                map.serialize_entry("pattern", pattern.as_str())?;
            }
            if let Some(format) = string.format {
                map.serialize_entry("format", format.as_str())?;
            }
        }
        Kind::Enum(enumeration) => {
            if let Some(name) = enum_type(&enumeration.values) {
                type_entry(map, name, nullable)?;
            }
            let mut values = enumeration.value_list();
            if nullable {
                values.push(Value::Null);
            }
            map.serialize_entry("enum", &values)?;
            let aliases: Vec<(String, &Vec<String>)> = enumeration
                .values
                .iter()
                .filter(|v| !v.aliases.is_empty())
                .filter_map(|v| Some((v.value.as_str()?.to_owned(), &v.aliases)))
                .collect();
            if !aliases.is_empty() {
                map.serialize_entry("x-enum-aliases", &Entries(aliases))?;
            }
        }
        Kind::Array(array) => {
            type_entry(map, "array", nullable)?;
            if !array.prefix_items.is_empty() {
                let prefix: Vec<Out<'_>> = array.prefix_items.iter().map(Out::plain).collect();
                map.serialize_entry("prefixItems", &prefix)?;
            }
            // No more elements past a tuple's: JSON Schema's `false`, as it is usually written.
            if *array.items == Schema::new(Kind::Never) {
                map.serialize_entry("items", &false)?;
            } else {
                map.serialize_entry("items", &Out::plain(&array.items))?;
            }
            if let Some(count) = array.min_items {
                map.serialize_entry("minItems", &count)?;
            }
            if let Some(count) = array.max_items {
                map.serialize_entry("maxItems", &count)?;
            }
            if array.unique_items {
                map.serialize_entry("uniqueItems", &true)?;
            }
        }
        Kind::Map(values) => {
            type_entry(map, "object", nullable)?;
            map.serialize_entry("additionalProperties", &Out::plain(&values.values))?;
            if let Some(keys) = &values.property_names {
                map.serialize_entry("propertyNames", &Out::plain(keys))?;
            }
        }
        Kind::Object(object) => {
            type_entry(map, "object", nullable)?;
            let properties: Vec<(&String, Out<'_>)> = object
                .fields
                .iter()
                .map(|field| {
                    let out = Out {
                        schema: &field.schema,
                        field: Some(field),
                    };
                    (&field.name, out)
                })
                .collect();
            map.serialize_entry("properties", &Entries(properties))?;
            let required: Vec<&String> = object
                .fields
                .iter()
                .filter(|f| f.required)
                .map(|f| &f.name)
                .collect();
            if !required.is_empty() {
                map.serialize_entry("required", &required)?;
            }
            match &object.additional {
                Additional::Allow => {}
                Additional::Deny => map.serialize_entry("additionalProperties", &false)?,
                Additional::Schema(extra) => {
                    map.serialize_entry("additionalProperties", &Out::plain(extra))?
                }
            }
            if let Some(keys) = &object.property_names {
                map.serialize_entry("propertyNames", &Out::plain(keys))?;
            }
        }
        Kind::Union(union) => {
            let keyword = match union.mode {
                UnionMode::OneOf => "oneOf",
                UnionMode::AnyOf => "anyOf",
            };
            let variants: Vec<Out<'_>> = union.variants.iter().map(Out::plain).collect();
            map.serialize_entry(keyword, &variants)?;
        }
        Kind::Ref(name) => {
            let token = crate::path::escape_pointer_token(name).replace('%', "%25");
            map.serialize_entry("$ref", &format!("{DEFS_PREFIX}{token}"))?
        }
    }
    Ok(())
}

impl ToolModel {
    /// `schema` (a part of this model) as compact JSON Schema text that stands on its own:
    /// the definitions it reaches, through any number of references, go under `$defs`.
    /// Read back with [`read_value_schema`](super::read::read_value_schema) (or
    /// [`Definitions::schema_text`]), it checks values as `schema` does here. The schema
    /// compiler writes it for values a Rust type holds as JSON.
    ///
    /// ```
    /// use toolgate_core::model::ToolModel;
    ///
    /// let model = ToolModel::from_json_schema(r##"{"type": "object", "properties": {"p": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"type": "integer"}}}"##).unwrap();
    /// let toolgate_core::model::Kind::Object(object) = &model.input().kind else { unreachable!() };
    /// assert_eq!(model.schema_text(&object.fields[0].schema), r##"{"$ref":"#/$defs/n","$defs":{"n":{"type":"integer"}}}"##);
    /// ```
    pub fn schema_text(&self, schema: &Schema) -> String {
        let mut reached = BTreeMap::new();
        let mut pending = vec![schema];
        while let Some(next) = pending.pop() {
            if let Kind::Ref(key) = &next.kind {
                if let Some((name, body)) = self.definitions().get_key_value(key) {
                    if reached.insert(name, body).is_none() {
                        pending.push(body);
                    }
                }
            }
            pending.extend(next.kind.children());
        }
        let standing = Standing {
            schema,
            definitions: reached.into_iter().collect(),
        };
        serde_json::to_string(&standing).unwrap_or_default()
    }
}

/// A schema with the definitions it reaches.
struct Standing<'a> {
    schema: &'a Schema,
    definitions: Vec<(&'a String, &'a Schema)>,
}

impl Serialize for Standing<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        write_schema_entries(&mut map, self.schema, None, true)?;
        if !self.definitions.is_empty() {
            let defs: Vec<(&String, Out<'_>)> = self
                .definitions
                .iter()
                .map(|(name, schema)| (*name, Out::plain(schema)))
                .collect();
            map.serialize_entry("$defs", &Entries(defs))?;
        }
        map.end()
    }
}

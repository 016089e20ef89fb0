//! The JSON Schema reader: draft 2020-12 text → [`ToolModel`].
//!
//! Every keyword is either held by the model, an annotation the model has no use for
//! (`$schema`, `$id`, `$comment`, `title` below the root, `deprecated`, `readOnly`,
//! `writeOnly`), or an error naming its JSON pointer. No constraint is dropped.

use std::collections::BTreeMap;
use std::fmt;

mod dialect;
mod typed;

pub use dialect::{normalize, unwrap_definition, Unwrapped};

use super::json::Json;
use super::write::DEFS_PREFIX;
use super::*;
use crate::path::escape_pointer_token;

/// One reason a schema cannot be read, at a JSON pointer into the schema document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// Where in the schema: `/properties/origin/pattern`.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() {
            "(root)"
        } else {
            &self.pointer
        };
        write!(f, "{pointer}: {}", self.message)
    }
}

/// Every reason a schema cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", display_lines(.0))]
pub struct SchemaErrors(pub Vec<SchemaError>);

fn display_lines(errors: &[SchemaError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl SchemaErrors {
    pub(crate) fn syntax(error: serde_json::Error) -> Self {
        SchemaErrors(vec![SchemaError {
            pointer: String::new(),
            message: format!("not JSON: {error}"),
        }])
    }
}

/// Keywords that annotate and constrain nothing; the model does not keep them.
const IGNORED_ANNOTATIONS: [&str; 6] = [
    "$schema",
    "$id",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Reads a tool definition or bare schema in any dialect [`normalize`] knows.
pub(crate) fn read_definition(json: Json) -> Result<ToolModel, SchemaErrors> {
    let Unwrapped {
        name,
        description,
        schema,
        ..
    } = dialect::unwrap_definition(json);
    read_parts(name, description, schema)
}

/// Reads an arguments schema taken out of its definition ([`unwrap_definition`]), in any
/// dialect [`normalize`] knows; `name` and `description` win over the schema's `title` and
/// `description`. Error pointers are relative to `schema`.
///
/// ```
/// use toolgate_core::model::{read::read_parts, Json};
///
/// let schema: Json = serde_json::from_str(r#"{"type": "dict", "properties": {}}"#).unwrap();
/// let model = read_parts(Some("ping".into()), None, schema).unwrap();
/// assert_eq!(model.name(), "ping");
/// ```
pub fn read_parts(
    name: Option<String>,
    description: Option<String>,
    schema: Json,
) -> Result<ToolModel, SchemaErrors> {
    let schema = normalize(schema);
    let model = read_tool(&schema)?;
    let name = name.unwrap_or_else(|| model.name().to_owned());
    let description = description.or_else(|| model.description().map(str::to_owned));
    let definitions = model.definitions().clone();
    Ok(ToolModel::new(
        name,
        description,
        model.input().clone(),
        definitions,
    ))
}

pub(crate) fn read_tool(json: &Json) -> Result<ToolModel, SchemaErrors> {
    let mut reader = Reader::default();
    let name = match json.get("title") {
        Some(Json::String(title)) => title.clone(),
        Some(_) => {
            reader.error("/title", "`title` must be a string");
            String::new()
        }
        None => String::new(),
    };
    let mut definitions = BTreeMap::new();
    if let Some(defs) = json.get("$defs") {
        match defs {
            Json::Object(members) => {
                for (name, schema) in members {
                    let pointer = format!("/$defs/{}", escape_pointer_token(name));
                    definitions.insert(name.clone(), reader.schema(schema, &pointer, &["title"]));
                }
            }
            _ => reader.error("/$defs", "`$defs` must be an object"),
        }
    }
    let input = reader.schema(json, "", &["title", "$defs"]);
    for (pointer, name) in std::mem::take(&mut reader.references) {
        if !definitions.contains_key(&name) {
            reader.error(
                &pointer,
                format!("`$ref` to {name:?}, which `$defs` does not hold"),
            );
        }
    }
    if !matches!(input.kind, Kind::Object(_) | Kind::Map(_)) && reader.errors.is_empty() {
        reader.error(
            "",
            "the arguments of a tool must be an object (`\"type\": \"object\"`)",
        );
    }
    if reader.errors.is_empty() {
        let description = input.description.clone();
        Ok(ToolModel::new(name, description, input, definitions))
    } else {
        Err(SchemaErrors(reader.errors))
    }
}

#[derive(Default)]
struct Reader {
    errors: Vec<SchemaError>,
    references: Vec<(String, String)>,
}

/// The members of one schema object, each marked when a reader step used it.
struct Members<'j> {
    members: &'j [(String, Json)],
    used: Vec<bool>,
}

impl<'j> Members<'j> {
    fn take(&mut self, key: &str) -> Option<&'j Json> {
        let position = self.members.iter().position(|(k, _)| k == key)?;
        self.used[position] = true;
        Some(&self.members[position].1)
    }

    fn has(&self, key: &str) -> bool {
        self.members.iter().any(|(k, _)| k == key)
    }
}

impl Reader {
    fn error(&mut self, pointer: &str, message: impl Into<String>) {
        self.errors.push(SchemaError {
            pointer: pointer.to_owned(),
            message: message.into(),
        });
    }

    fn schema(&mut self, json: &Json, pointer: &str, also_allowed: &[&str]) -> Schema {
        let members = match json {
            Json::Bool(true) => return Schema::any(),
            Json::Object(members) => members,
            Json::Bool(false) => {
                self.error(
                    pointer,
                    "the `false` schema (nothing is valid) is not supported",
                );
                return Schema::any();
            }
            other => {
                self.error(
                    pointer,
                    format!("a schema must be an object, not {}", other.type_name()),
                );
                return Schema::any();
            }
        };
        let mut m = Members {
            members,
            used: vec![false; members.len()],
        };
        let mut seen = std::collections::HashSet::new();
        for (position, (key, _)) in members.iter().enumerate() {
            if !seen.insert(key.as_str()) {
                // Reported once, here; the reader uses the first one.
                m.used[position] = true;
                self.error(
                    &format!("{pointer}/{}", escape_pointer_token(key)),
                    format!("`{key}` appears twice"),
                );
            }
        }
        for key in IGNORED_ANNOTATIONS.iter().chain(also_allowed) {
            m.take(key);
        }
        let mut schema = self.kind(&mut m, pointer);
        if let Some(description) = self.string(&mut m, "description", pointer) {
            schema.description = Some(description);
        }
        if let Some(default) = m.take("default") {
            schema.default = Some(default.to_value());
        }
        match m.take("examples") {
            Some(Json::Array(examples)) => {
                schema.examples = examples.iter().map(Json::to_value).collect()
            }
            Some(_) => self.error(
                &format!("{pointer}/examples"),
                "`examples` must be an array",
            ),
            None => {}
        }
        if let Some(constant) = m.take("const") {
            let constant = constant.to_value();
            match &schema.constant {
                // A one-alternative `anyOf` folded into this schema brought its own `const`.
                Some(inner) if !crate::check::json_equal(inner, &constant) => {
                    self.error(
                        &format!("{pointer}/const"),
                        "`const` contradicts the `const` of the one alternative",
                    );
                }
                _ => schema.constant = Some(constant),
            }
        }
        for (position, (key, _)) in members.iter().enumerate() {
            if !m.used[position] {
                self.error(
                    &format!("{pointer}/{}", escape_pointer_token(key)),
                    format!("keyword `{key}` is not supported here"),
                );
            }
        }
        schema
    }

    fn string(&mut self, m: &mut Members<'_>, key: &str, pointer: &str) -> Option<String> {
        match m.take(key)? {
            Json::String(text) => Some(text.clone()),
            _ => {
                self.error(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` must be a string"),
                );
                None
            }
        }
    }

    fn count(&mut self, m: &mut Members<'_>, key: &str, pointer: &str) -> Option<u64> {
        match m.take(key)? {
            Json::Number(n) if n.as_u64().is_some() => n.as_u64(),
            Json::Number(n)
                if n.as_f64()
                    .is_some_and(|f| f >= 0.0 && f.fract() == 0.0 && f < 1e19) =>
            {
                n.as_f64().map(|f| f as u64)
            }
            _ => {
                self.error(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` must be a non-negative integer"),
                );
                None
            }
        }
    }

    fn number(&mut self, m: &mut Members<'_>, key: &str, pointer: &str) -> Option<Num> {
        match m.take(key)? {
            Json::Number(n) => Some(Num::from_json(n)),
            _ => {
                self.error(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` must be a number"),
                );
                None
            }
        }
    }

    fn bounds(&mut self, m: &mut Members<'_>, pointer: &str) -> Bounds {
        Bounds {
            minimum: self.number(m, "minimum", pointer),
            maximum: self.number(m, "maximum", pointer),
            exclusive_minimum: self.number(m, "exclusiveMinimum", pointer),
            exclusive_maximum: self.number(m, "exclusiveMaximum", pointer),
        }
    }

    /// The `type` keyword: the one non-null type name and whether `null` is allowed.
    fn type_keyword(&mut self, m: &mut Members<'_>, pointer: &str) -> (Option<String>, bool) {
        let at = format!("{pointer}/type");
        match m.take("type") {
            None => (None, false),
            Some(Json::String(name)) if name == "null" => (Some(name.clone()), false),
            Some(Json::String(name)) => (Some(name.clone()), false),
            Some(Json::Array(names)) => {
                let mut nullable = false;
                let mut others = Vec::new();
                for name in names {
                    match name.as_str() {
                        Some("null") => nullable = true,
                        Some(other) => others.push(other.to_owned()),
                        None => self.error(&at, "`type` entries must be strings"),
                    }
                }
                match others.as_slice() {
                    [] => (Some("null".into()), false),
                    [one] => (Some(one.clone()), nullable),
                    _ => {
                        self.error(
                            &at,
                            "a `type` array with more than one type besides null is not supported",
                        );
                        (None, nullable)
                    }
                }
            }
            Some(_) => {
                self.error(&at, "`type` must be a string or an array of strings");
                (None, false)
            }
        }
    }

    fn kind(&mut self, m: &mut Members<'_>, pointer: &str) -> Schema {
        if let Some(target) = m.take("$ref") {
            return match target.as_str().and_then(|t| t.strip_prefix(DEFS_PREFIX)) {
                Some(name) => {
                    let name = name.replace("~1", "/").replace("~0", "~");
                    self.references
                        .push((format!("{pointer}/$ref"), name.clone()));
                    Schema::reference(name)
                }
                None => {
                    self.error(
                        &format!("{pointer}/$ref"),
                        "only references to `#/$defs/<name>` are supported",
                    );
                    Schema::any()
                }
            };
        }
        for (keyword, mode) in [("oneOf", UnionMode::OneOf), ("anyOf", UnionMode::AnyOf)] {
            if let Some(variants) = m.take(keyword) {
                return self.union(variants, mode, &format!("{pointer}/{keyword}"));
            }
        }
        let (type_name, nullable) = self.type_keyword(m, pointer);
        let mut schema = if let Some(values) = m.take("enum") {
            self.enumeration(m, values, type_name.as_deref(), pointer)
        } else {
            match type_name.as_deref() {
                None => {
                    self.refuse_typed_keywords(m, pointer);
                    Schema::any()
                }
                Some(name) => self.typed(m, name, pointer),
            }
        };
        if nullable {
            schema = schema.nullable();
        }
        schema
    }

    fn refuse_typed_keywords(&mut self, m: &mut Members<'_>, pointer: &str) {
        const TYPED: [&str; 17] = [
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "items",
            "minItems",
            "maxItems",
            "uniqueItems",
            "properties",
            "required",
            "additionalProperties",
            "x-enum-aliases",
        ];
        for keyword in TYPED {
            if m.take(keyword).is_some() {
                self.error(
                    &format!("{pointer}/{keyword}"),
                    format!("`{keyword}` without a `type` is not supported"),
                );
            }
        }
    }

    fn union(&mut self, variants: &Json, mode: UnionMode, pointer: &str) -> Schema {
        let Json::Array(variants) = variants else {
            self.error(pointer, "must be an array of schemas");
            return Schema::any();
        };
        let mut nullable = false;
        let mut schemas = Vec::new();
        for (index, variant) in variants.iter().enumerate() {
            let schema = self.schema(variant, &format!("{pointer}/{index}"), &["title"]);
            if schema.kind == Kind::Null && schema == Schema::new(Kind::Null) {
                nullable = true;
            } else {
                schemas.push(schema);
            }
        }
        let schema = if schemas.len() == 1 && (mode == UnionMode::AnyOf || nullable) {
            schemas.remove(0)
        } else {
            Schema::new(Kind::Union(UnionSchema {
                mode,
                variants: schemas,
            }))
        };
        if nullable {
            schema.nullable()
        } else {
            schema
        }
    }
}

#[cfg(test)]
mod tests;

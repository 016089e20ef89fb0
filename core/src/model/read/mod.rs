//! The JSON Schema reader: draft 2020-12 text → [`ToolModel`].
//!
//! Every keyword is held by the model, kept as an annotation, ignored with a warning (a
//! keyword JSON Schema does not define, or one that applies to values of other types), or an
//! error naming its JSON pointer (a known constraint the model does not hold): no constraint
//! is dropped in silence. [`keywords`] lists the classes; the warnings are
//! [`ToolModel::schema_warnings`].
//!
//! Before reading, every local `$ref` (JSON pointers, `#`, `$anchor`, `$id`-relative,
//! `#/definitions/…`) is made a reference to a named definition of the root's `$defs`, so
//! the model and the writer only know `#/$defs/<name>`; a `$ref` beside constraints applies
//! them too; a remote reference is an error. See `references` for the rules.

use std::collections::BTreeMap;

mod all_of;
mod cycles;
mod dialect;
mod errors;
pub mod keywords;
pub(crate) mod references;
mod typed;
mod union_siblings;
mod uri;

pub use crate::provider::{unwrap_definition, Unwrapped};
pub(crate) use cycles::cycles_without_progress;
pub use dialect::normalize;
pub(super) use errors::write_at_pointer;
pub use errors::{SchemaError, SchemaErrors};
pub use keywords::{read_parts_with, ReadOptions};

use super::json::Json;
use super::write::DEFS_PREFIX;
use super::*;
use crate::path::escape_pointer_token;

/// Reads a tool definition or bare schema in any dialect [`normalize`] knows. Errors and
/// warnings point into the definition (`/parameters/properties/x/format`), as the schema
/// compiler's do into its file, so `check` and `gen` name the same place.
pub(crate) fn read_definition(json: Json) -> Result<ToolModel, SchemaErrors> {
    let Unwrapped {
        name,
        description,
        schema,
        pointer,
        ..
    } = unwrap_definition(json);
    let within = |at: &mut String| at.insert_str(0, &pointer);
    match read_parts(name, description, schema) {
        Ok(model) => {
            let mut warnings = model.schema_warnings().to_vec();
            warnings.iter_mut().for_each(|w| within(&mut w.pointer));
            Ok(model.with_schema_warnings(warnings))
        }
        Err(mut errors) => {
            errors.0.iter_mut().for_each(|e| within(&mut e.pointer));
            Err(errors)
        }
    }
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
    let description = tool_description(description, model.description());
    let definitions = model.definitions().clone();
    Ok(
        ToolModel::new(name, description, model.input().clone(), definitions)
            .with_schema_warnings(model.schema_warnings().to_vec()),
    )
}

/// The description of a tool whose definition has `tool`'s and whose arguments' root has
/// `root`'s: the model keeps one description, so neither is lost. The same text twice, or a
/// root that goes on from the tool's text at a white space, is taken once; a root the tool's
/// text holds is the tool's; two others are joined, a flavour's note (`(maxProperties: 3)`,
/// which the flavours' definitions leave at the root once the tool's description is taken
/// out) with a space, as the flavour wrote it, any other text after a blank line.
///
/// A definition a flavour writes reads back as the flavour's schema: its writer
/// ([`FlavouredSchema::definition`](crate::flavour::FlavouredSchema::definition)) takes the
/// tool's text out of the root only where this function joins them again to the same text.
pub(crate) fn tool_description(tool: Option<String>, root: Option<&str>) -> Option<String> {
    let (tool, root) = match (tool, root.filter(|r| !r.trim().is_empty())) {
        (Some(tool), Some(root)) if !tool.is_empty() => (tool, root),
        (tool, root) => return root.map(str::to_owned).or(tool),
    };
    let goes_on = root
        .strip_prefix(tool.as_str())
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace));
    if goes_on {
        return Some(root.to_owned());
    }
    if tool.contains(root) {
        return Some(tool);
    }
    let separator = if root.starts_with('(') { " " } else { "\n\n" };
    Some(format!("{tool}{separator}{root}"))
}

pub(crate) fn read_tool(json: &Json) -> Result<ToolModel, SchemaErrors> {
    read_root(json, true)
}

/// Reads a JSON Schema (draft 2020-12, no dialect) of any value, not only of a tool's
/// arguments: the root may be a string, an array, `true`... Its `$defs` become the model's
/// definitions and its `title` the name. For checking values that are not tool calls, with
/// [`ToolModel::check_against`]; the JSON-Schema-Test-Suite run uses it.
///
/// ```
/// use toolgate_core::model::{read::read_value_schema, Json};
///
/// let schema: Json = serde_json::from_str(r#"{"type": "integer", "minimum": 1}"#).unwrap();
/// let model = read_value_schema(&schema).unwrap();
/// assert!(model.check_against(model.input(), &serde_json::json!(2)).is_ok());
/// assert!(model.check_against(model.input(), &serde_json::json!(0)).is_err());
/// ```
pub fn read_value_schema(json: &Json) -> Result<ToolModel, SchemaErrors> {
    read_root(json, false)
}

fn read_root(json: &Json, arguments: bool) -> Result<ToolModel, SchemaErrors> {
    let mut reader = Reader::default();
    let resolved = references::resolve(json);
    reader.errors = resolved.errors;
    let json = resolved.document.as_ref().unwrap_or(json);
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
                reader.bodies = members.iter().cloned().collect();
                for (name, schema) in members {
                    let pointer = match resolved.origins.get(name) {
                        Some(origin) => origin.clone(),
                        None => format!("/$defs/{}", escape_pointer_token(name)),
                    };
                    definitions.insert(name.clone(), reader.schema(schema, &pointer, &[]));
                }
            }
            _ => reader.error("/$defs", "`$defs` must be an object"),
        }
    }
    let input = reader.schema(json, "", &["title", "$defs"]);
    // Definitions of references with sibling keywords; reading one may ask for more.
    while let Some((name, body, pointer)) = reader.pending.pop() {
        let schema = reader.schema(&body, &pointer, &[]);
        definitions.insert(name, schema);
    }
    for (pointer, name) in std::mem::take(&mut reader.references) {
        if !definitions.contains_key(&name) {
            reader.error(
                &pointer,
                format!("`$ref` to {name:?}, which `$defs` does not hold"),
            );
        }
    }
    if reader.errors.is_empty() {
        for (pointer, message) in cycles::endless_at_one_value(&input, &definitions) {
            reader.error(&pointer, message);
        }
    }
    if arguments && !object_shaped(&input, &definitions, 0) && reader.errors.is_empty() {
        reader.error(
            "",
            "the arguments of a tool must be an object (`\"type\": \"object\"`), or a union of objects",
        );
    }
    if reader.errors.is_empty() {
        let description = input.description.clone();
        Ok(ToolModel::new(name, description, input, definitions)
            .with_schema_warnings(reader.warnings.finish()))
    } else {
        Err(SchemaErrors(reader.errors))
    }
}

/// Whether the values of `schema` are objects: an object or a map, a reference to one, or a
/// union of such (`{"type": "object", "anyOf": [{...}, {...}]}`: a tool that takes one of
/// several argument shapes, as Cloudflare's generated MCP tools do).
fn object_shaped(schema: &Schema, definitions: &BTreeMap<String, Schema>, depth: usize) -> bool {
    match &schema.kind {
        Kind::Object(_) | Kind::Map(_) => true,
        Kind::Ref(name) if depth < 32 => definitions
            .get(name)
            .is_some_and(|target| object_shaped(target, definitions, depth + 1)),
        Kind::Union(union) if depth < 32 => {
            !union.variants.is_empty()
                && union
                    .variants
                    .iter()
                    .all(|variant| object_shaped(variant, definitions, depth + 1))
        }
        _ => false,
    }
}

#[derive(Default)]
struct Reader {
    errors: Vec<SchemaError>,
    references: Vec<(String, String)>,
    /// The root's `$defs` as written (after [`references::resolve`]).
    bodies: BTreeMap<String, Json>,
    /// Definitions made for a `$ref` with sibling constraints: (target, constraints) → name.
    made: std::collections::HashMap<String, String>,
    /// Such definitions still to read: name, body, pointer of the first use.
    pending: Vec<(String, Json, String)>,
    /// What the reader read past.
    warnings: keywords::Warnings,
    /// The schema's patterns, compiled within their joint budget.
    patterns: super::pattern::SchemaPatterns,
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
            Json::Bool(false) => return Schema::new(Kind::Never),
            other => {
                self.error(
                    pointer,
                    format!("a schema must be an object, not {}", other.type_name()),
                );
                return Schema::any();
            }
        };
        if members.iter().any(|(key, _)| key == "allOf") {
            return match self.merge_all_of(members, pointer) {
                Some(merged) => self.schema(&merged, pointer, also_allowed),
                None => Schema::any(),
            };
        }
        if let Some(distributed) = union_siblings::distribute_into_union(members, also_allowed) {
            return self.schema(&distributed, pointer, also_allowed);
        }
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
        for key in keywords::SILENT.iter().chain(also_allowed) {
            m.take(key);
        }
        let mut schema = self.kind(&mut m, pointer);
        let annotations: Vec<(String, Value)> = keywords::ANNOTATIONS
            .iter()
            .filter(|keyword| !also_allowed.contains(keyword))
            .filter_map(|keyword| Some((keyword.to_string(), m.take(keyword)?.to_value())))
            .collect();
        // This schema's own annotations win over those of a one-alternative `anyOf` folded in.
        schema
            .annotations
            .retain(|(key, _)| !annotations.iter().any(|(own, _)| own == key));
        schema.annotations.splice(0..0, annotations);
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
                Some(inner) if !crate::values::json_equal(inner, &constant) => {
                    self.error(
                        &format!("{pointer}/const"),
                        "`const` contradicts the `const` of the one alternative",
                    );
                }
                _ => schema.constant = Some(constant),
            }
        }
        self.unused(&m, pointer);
        // No value, or null (`anyOf: [false, {"type": "null"}]`): only null, which the
        // model says as `null` (a nullable `false` schema would write back without its null).
        if schema.kind == Kind::Never && schema.nullable {
            schema.kind = Kind::Null;
            schema.nullable = false;
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

    /// `multipleOf`, which JSON Schema requires to be greater than 0 (a divisor of 0 or
    /// below would refuse every value).
    fn multiple_of(&mut self, m: &mut Members<'_>, pointer: &str) -> Option<Num> {
        let divisor = self.number(m, "multipleOf", pointer)?;
        if divisor > Num::Int(0) && divisor.is_finite() {
            return Some(divisor);
        }
        self.error(
            &format!("{pointer}/multipleOf"),
            format!("`multipleOf` must be greater than 0, not {divisor}"),
        );
        None
    }

    fn bounds(&mut self, m: &mut Members<'_>, pointer: &str) -> Bounds {
        Bounds {
            minimum: self.number(m, "minimum", pointer),
            maximum: self.number(m, "maximum", pointer),
            exclusive_minimum: self.number(m, "exclusiveMinimum", pointer),
            exclusive_maximum: self.number(m, "exclusiveMaximum", pointer),
        }
    }

    /// The `type` keyword: the type names besides `null`, in order, and whether `null` is
    /// allowed. `"type": "null"` alone gives `["null"]`.
    fn type_keyword(&mut self, m: &mut Members<'_>, pointer: &str) -> (Vec<String>, bool) {
        let at = format!("{pointer}/type");
        match m.take("type") {
            None => (Vec::new(), false),
            Some(Json::String(name)) => (vec![name.clone()], false),
            Some(Json::Array(names)) => {
                let mut nullable = false;
                let mut others: Vec<String> = Vec::new();
                for name in names {
                    match name.as_str() {
                        Some("null") => nullable = true,
                        Some(other) if others.iter().any(|o| o == other) => {
                            self.error(&at, format!("{other:?} appears twice in `type`"))
                        }
                        Some(other) => others.push(other.to_owned()),
                        None => self.error(&at, "`type` entries must be strings"),
                    }
                }
                if others.is_empty() {
                    return (vec!["null".into()], false);
                }
                (others, nullable)
            }
            Some(_) => {
                self.error(&at, "`type` must be a string or an array of strings");
                (Vec::new(), false)
            }
        }
    }

    fn kind(&mut self, m: &mut Members<'_>, pointer: &str) -> Schema {
        if let Some(not) = m.take("not") {
            if !matches!(not, Json::Bool(true)) && *not != Json::Object(Vec::new()) {
                self.error(
                    &format!("{pointer}/not"),
                    "`not` is supported only as `{}` (no value allowed)",
                );
            }
            return Schema::new(Kind::Never);
        }
        if let Some(target) = m.take("$ref") {
            return match target.as_str().and_then(|t| t.strip_prefix(DEFS_PREFIX)) {
                Some(name) => {
                    let name = percent_decode(name).replace("~1", "/").replace("~0", "~");
                    self.references
                        .push((format!("{pointer}/$ref"), name.clone()));
                    Schema::reference(self.with_siblings(m, name, pointer))
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
        let (type_names, nullable) = self.type_keyword(m, pointer);
        if let Some(values) = m.take("enum") {
            let mut schema = self.enumeration(m, values, &type_names, pointer);
            // `null` is allowed when it is one of the values and `type` allows it too.
            let type_allows_null =
                type_names.is_empty() || nullable || type_names.iter().any(|n| n == "null");
            schema.nullable &= type_allows_null;
            return schema;
        }
        let mut schema = {
            match type_names.as_slice() {
                [] => self.untyped(m, pointer),
                [name] => self.typed(m, name, pointer),
                // `"type": ["string", "integer"]`: one alternative per type, each taking the
                // keywords of its type (`minLength` the string, `minimum` the integer).
                names => Schema::new(Kind::Union(UnionSchema {
                    mode: UnionMode::AnyOf,
                    variants: names
                        .iter()
                        .map(|name| self.typed(m, name, pointer))
                        .collect(),
                })),
            }
        };
        if nullable {
            schema = schema.nullable();
        }
        schema
    }

    /// A schema without `type`: any value, with each keyword constraining the values of its
    /// type only (`{"minimum": 1}` allows `"x"`). Where such keywords are written, the schema
    /// is the union of every JSON type, each with its own keywords, and `null` — exactly what
    /// JSON Schema means. `format` and `x-enum-aliases` are refused without a `type`.
    fn untyped(&mut self, m: &mut Members<'_>, pointer: &str) -> Schema {
        const TYPED: [&str; 18] = [
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "pattern",
            "items",
            "prefixItems",
            "additionalItems",
            "minItems",
            "maxItems",
            "uniqueItems",
            "properties",
            "required",
            "additionalProperties",
            "propertyNames",
        ];
        for keyword in ["format", "x-enum-aliases"] {
            if m.take(keyword).is_some() {
                self.error(
                    &format!("{pointer}/{keyword}"),
                    format!("`{keyword}` without a `type` is not supported"),
                );
            }
        }
        if !TYPED.iter().any(|keyword| m.has(keyword)) {
            return Schema::any();
        }
        let variants = ["object", "array", "string", "number", "boolean"]
            .iter()
            .map(|name| self.typed(m, name, pointer))
            .collect();
        Schema::new(Kind::Union(UnionSchema {
            mode: UnionMode::AnyOf,
            variants,
        }))
        .nullable()
    }

    fn union(&mut self, variants: &Json, mode: UnionMode, pointer: &str) -> Schema {
        let Json::Array(variants) = variants else {
            self.error(pointer, "must be an array of schemas");
            return Schema::any();
        };
        let mut nullable = false;
        let mut schemas = Vec::new();
        for (index, variant) in variants.iter().enumerate() {
            let schema = self.schema(variant, &format!("{pointer}/{index}"), &[]);
            // `{"type": "null"}`, annotations aside: the union takes `null`.
            let plain_null = Schema {
                annotations: Vec::new(),
                ..schema.clone()
            } == Schema::new(Kind::Null);
            if plain_null {
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

/// A URI fragment with its `%XX` escapes decoded (`percent%25field` → `percent%field`);
/// an escape that is not two hex digits, or bytes that are not UTF-8, stay as written.
fn percent_decode(fragment: &str) -> String {
    let bytes = fragment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let escaped = (bytes[index] == b'%')
            .then(|| fragment.get(index + 1..index + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                decoded.push(byte);
                index += 3;
            }
            None => {
                decoded.push(bytes[index]);
                index += 1;
            }
        }
    }
    String::from_utf8(decoded).unwrap_or_else(|_| fragment.to_owned())
}

#[cfg(test)]
mod integers_tests;
#[cfg(test)]
mod tests;

//! [`Flavour::Gemini`](crate::flavour::Flavour::Gemini) (`parameters`, an OpenAPI 3.0 `Schema`) and
//! [`Flavour::GeminiJson`](crate::flavour::Flavour::GeminiJson) (`parametersJsonSchema`): the rewrites;
//! the rules are in [`crate::flavour`]'s notes.

use crate::flavour::node::{rewrite_node, Entered, Hook};
use crate::flavour::walk::{definition_name, token, Walk};
use crate::flavour::{contains, get, get_mut, insert, remove, Action, FlavourError, Members};
use std::collections::BTreeMap;

use crate::model::positions::{holds, Holds};
use crate::model::Json;

/// The fields of Gemini's `Schema` object (Vertex AI and the Gemini API): sent as they are,
/// as advice (Gemini does not enforce them unless a request asks for `VALIDATED` mode).
const SCHEMA_FIELDS: [&str; 22] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// The keywords `parametersJsonSchema` supports (the rest it ignores).
const JSON_SCHEMA_FIELDS: [&str; 19] = [
    "$id",
    "$defs",
    "$ref",
    "$anchor",
    "type",
    "format",
    "title",
    "description",
    "enum",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "anyOf",
    "properties",
    "additionalProperties",
    "required",
];

/// The most schema nodes a tool's definitions may be inlined into: a schema that refers to
/// one definition from many places grows with each, and a hostile one exponentially.
pub const MAX_INLINED_NODES: usize = 20_000;

/// The deepest a schema may nest once its definitions are inlined, in schema nodes: a chain
/// of definitions, each holding the next, nests deeper with each, and every later walk of
/// the schema recurses that deep.
pub const MAX_INLINED_DEPTH: usize = 128;

/// What the inlining's byte count is checked as: the bytes of the schema with every copy
/// of a definition made so far (annotations the rewrite then takes out are counted: the
/// count stops the copying before it is done).
const INLINED_BYTES: &str = "bytes of schema once definitions are inlined";

/// Rewrites a tool's schema for `parameters`.
pub(crate) fn rewrite(walk: &mut Walk<'_>, schema: &mut Json) -> Result<(), FlavourError> {
    walk.no_root_union(schema)?;
    walk.object_root(schema)?;
    inline_definitions(walk, schema)?;
    rewrite_node::<Parameters>(walk, schema, "", 1)
}

/// Rewrites a tool's schema for `parametersJsonSchema`.
pub(crate) fn rewrite_json_schema(
    walk: &mut Walk<'_>,
    schema: &mut Json,
) -> Result<(), FlavourError> {
    walk.object_root(schema)?;
    rewrite_node::<ParametersJsonSchema>(walk, schema, "", 1)
}

/// Replaces every `$ref` with the definition it names (the use site's own keywords, such as
/// its description, win), and takes `$defs` out: the Gemini API's `Schema` has no
/// references. A recursive definition cannot be inlined and is refused.
pub(crate) fn inline_definitions(
    walk: &mut Walk<'_>,
    schema: &mut Json,
) -> Result<(), FlavourError> {
    let Json::Object(root) = schema else {
        return Ok(());
    };
    let Some(definitions) = remove(root, "$defs") else {
        return Ok(());
    };
    let names: Vec<Json> = match &definitions {
        Json::Object(members) => members
            .iter()
            .map(|(name, _)| Json::String(name.clone()))
            .collect(),
        _ => Vec::new(),
    };
    walk.drop("", "$defs", &Json::Array(names), Action::Rewritten);
    let sizes = match &definitions {
        Json::Object(members) => members
            .iter()
            .map(|(name, definition)| (name.clone(), crate::flavour::json_bytes(definition)))
            .collect(),
        _ => BTreeMap::new(),
    };
    let mut inliner = Inliner {
        definitions,
        sizes,
        bytes: crate::flavour::json_bytes(schema),
        open: Vec::new(),
        nodes: 0,
        depth: 0,
    };
    inliner.inline(walk, schema, "")
}

struct Inliner {
    definitions: Json,
    /// The bytes of each definition's compact JSON.
    sizes: BTreeMap<String, usize>,
    /// The bytes written so far: the schema without its definitions, and each definition
    /// once per copy inlined (counted before the copy is made, so a schema that would grow
    /// past [`MAX_FLAVOURED_BYTES`](crate::flavour::MAX_FLAVOURED_BYTES) is refused with no more than
    /// that built).
    bytes: usize,
    /// The definitions being inlined, outermost first.
    open: Vec<String>,
    nodes: usize,
    /// How deep the walk is, in nodes.
    depth: usize,
}

impl Inliner {
    /// Inlines the references at and below `value`, one level deeper than its parent.
    fn inline(
        &mut self,
        walk: &mut Walk<'_>,
        value: &mut Json,
        path: &str,
    ) -> Result<(), FlavourError> {
        self.depth += 1;
        walk.over(
            "levels of nesting once definitions are inlined",
            MAX_INLINED_DEPTH,
            self.depth,
        )?;
        let inlined = self.inline_node(walk, value, path);
        self.depth -= 1;
        inlined
    }

    fn inline_node(
        &mut self,
        walk: &mut Walk<'_>,
        value: &mut Json,
        path: &str,
    ) -> Result<(), FlavourError> {
        self.nodes += 1;
        walk.over(
            "schema nodes once definitions are inlined",
            MAX_INLINED_NODES,
            self.nodes,
        )?;
        let Json::Object(members) = value else {
            return Ok(());
        };
        let Some(Json::String(reference)) = get(members, "$ref").cloned() else {
            return self.children(walk, members, path);
        };
        let name = definition_name(&reference)
            .ok_or_else(|| walk.cannot(path, format!("the reference {reference:?}")))?;
        if self.open.contains(&name) {
            return Err(walk.cannot(
                path,
                format!("a recursive definition ({name:?} holds itself, and the Schema has no references)"),
            ));
        }
        self.bytes = self
            .bytes
            .saturating_add(self.sizes.get(&name).copied().unwrap_or(0));
        walk.over(
            INLINED_BYTES,
            crate::flavour::MAX_FLAVOURED_BYTES,
            self.bytes,
        )?;
        let Some(Json::Object(definition)) = self.definitions.get(&name).cloned() else {
            return Err(walk.cannot(path, format!("the reference {reference:?}")));
        };
        walk.drop(path, "$ref", &Json::String(reference), Action::Rewritten);
        remove(members, "$ref");
        let use_site = std::mem::replace(members, definition);
        for (key, value) in use_site {
            insert(members, &key, value);
        }
        self.open.push(name);
        let inlined = self.children(walk, members, path);
        self.open.pop();
        inlined
    }

    fn children(
        &mut self,
        walk: &mut Walk<'_>,
        members: &mut Members,
        path: &str,
    ) -> Result<(), FlavourError> {
        // The subschemas at the positions of the shared table (every walk's).
        for (key, value) in members.iter_mut() {
            let at = format!("{path}/{}", token(key));
            match (holds(key), value) {
                (Some(Holds::Map), Json::Object(named)) => {
                    for (name, schema) in named.iter_mut() {
                        self.inline(walk, schema, &format!("{at}/{}", token(name)))?;
                    }
                }
                (Some(Holds::List), Json::Array(items)) => {
                    for (index, item) in items.iter_mut().enumerate() {
                        self.inline(walk, item, &format!("{at}/{index}"))?;
                    }
                }
                (Some(Holds::One), schema) => self.inline(walk, schema, &at)?,
                _ => {}
            }
        }
        Ok(())
    }
}

fn is_null_schema(schema: &Json) -> bool {
    matches!(schema, Json::Object(members) if members.len() == 1)
        && schema.get("type").and_then(Json::as_str) == Some("null")
}

/// Gemini's `parameters` (an OpenAPI 3.0 `Schema`) at each node of the shared rewrite.
pub(crate) struct Parameters;

impl Hook for Parameters {
    /// The node's `type`, which says which `format`s it keeps.
    type Node = String;

    fn boolean(walk: &Walk<'_>, path: &str) -> Result<(), FlavourError> {
        Err(walk.cannot(path, "a boolean schema"))
    }

    fn enter(
        walk: &mut Walk<'_>,
        map: &mut Members,
        path: &str,
        type_name: &mut String,
        moved: &mut Vec<(String, serde_json::Value)>,
    ) -> Result<Entered, FlavourError> {
        let mut nullable = false;
        // The union first: a branch left alone is merged into the node, list of types and all.
        if let Some(Json::Array(branches)) = get_mut(map, "anyOf") {
            let before = branches.len();
            branches.retain(|branch| !is_null_schema(branch));
            if branches.len() < before {
                nullable = true;
                walk.drop(path, "anyOf", &Json::Null, Action::Rewritten);
            }
            if let [Json::Object(_)] = branches.as_slice() {
                // One branch left: its keywords are the node's (the node's own win).
                let Some(Json::Object(only)) = branches.pop() else {
                    unreachable!("one object branch")
                };
                remove(map, "anyOf");
                for (key, value) in only {
                    if !contains(map, &key) {
                        map.push((key, value));
                    }
                }
            }
        }
        // What a merged branch brought.
        walk.one_of_to_any_of(map, path);
        if contains(map, "not") {
            return Err(walk.cannot(path, "`not` (a value no schema takes)"));
        }
        if let Some(Json::Array(types)) = get(map, "type").cloned() {
            let named: Vec<&Json> = types
                .iter()
                .filter(|t| t.as_str() != Some("null"))
                .collect();
            let [one] = named.as_slice() else {
                return Err(walk.cannot(path, "a list of types"));
            };
            nullable |= named.len() < types.len();
            insert(map, "type", (*one).clone());
            walk.drop(path, "type", &Json::Array(types), Action::Rewritten);
        }
        if let Some(constant) = remove(map, "const") {
            walk.drop(path, "const", &constant, Action::Rewritten);
            insert(map, "enum", Json::Array(vec![constant]));
        }
        if let Some(Json::Array(values)) = get(map, "enum").cloned() {
            nullable |= enumeration(walk, map, path, values, moved)?;
        }
        if nullable {
            insert(map, "nullable", Json::Bool(true));
        }
        get(map, "type")
            .and_then(Json::as_str)
            .unwrap_or("")
            .clone_into(type_name);
        Ok(Entered::Go)
    }

    fn keeps(
        _: &mut Walk<'_>,
        _: &str,
        keyword: &str,
        value: &Json,
        type_name: &mut String,
    ) -> Option<bool> {
        Some(match keyword {
            // The Schema's `items` is a schema: `items: false` (no element past a tuple's,
            // whose `prefixItems` go to the description) cannot be said in it.
            "items" => matches!(value, Json::Object(_)),
            "format" => matches!(
                (type_name.as_str(), value.as_str()),
                ("string", Some("date-time" | "enum"))
                    | ("integer", Some("int32" | "int64"))
                    | ("number", Some("float" | "double"))
            ),
            _ => SCHEMA_FIELDS.contains(&keyword),
        })
    }

    fn written(
        walk: &mut Walk<'_>,
        map: &mut Members,
        path: &str,
        depth: usize,
    ) -> Result<(), FlavourError> {
        walk.count_values(map);
        walk.needs_type(
            map,
            path,
            &["type", "anyOf"],
            "the Schema wants a `type` on every value",
        )?;
        if let Some(Json::Object(properties)) = get(map, "properties") {
            walk.count_properties(properties, depth);
        }
        Ok(())
    }
}

/// An `enum` as the `Schema` takes it: strings only. `null` among the values makes the node
/// nullable (the return); numbers are written as text and the type made `string` (the
/// gate's `string_to_number` repair reads them back); booleans, and numbers whose text
/// would not read back as the same value, leave the enum for the description.
fn enumeration(
    walk: &mut Walk<'_>,
    map: &mut Members,
    path: &str,
    values: Vec<Json>,
    moved: &mut Vec<(String, serde_json::Value)>,
) -> Result<bool, FlavourError> {
    let nullable = values.iter().any(|v| matches!(v, Json::Null));
    let values: Vec<Json> = values
        .into_iter()
        .filter(|v| !matches!(v, Json::Null))
        .collect();
    if values
        .iter()
        .any(|v| matches!(v, Json::Array(_) | Json::Object(_)))
    {
        return Err(walk.cannot(path, "an enum of arrays or objects"));
    }
    let reads_back = |value: &Json| match value {
        Json::String(_) => true,
        Json::Number(number) => {
            number.is_i64() || number.is_u64() || number.as_f64().is_some_and(|f| f.fract() != 0.0)
        }
        _ => false,
    };
    let texts: Vec<String> = values
        .iter()
        .map(|value| match value {
            Json::String(text) => text.clone(),
            other => other.to_string(),
        })
        .collect();
    let distinct: std::collections::BTreeSet<&String> = texts.iter().collect();
    let all_strings = values.iter().all(|v| matches!(v, Json::String(_)));
    if all_strings {
        if nullable {
            insert(map, "enum", Json::Array(values));
        }
        if !contains(map, "type") {
            insert(map, "type", Json::String("string".to_owned()));
        }
        return Ok(nullable);
    }
    let original = get(map, "enum").cloned().unwrap_or(Json::Null);
    if values.iter().all(reads_back) && distinct.len() == texts.len() {
        walk.drop(path, "enum", &original, Action::Rewritten);
        insert(map, "type", Json::String("string".to_owned()));
        insert(
            map,
            "enum",
            Json::Array(texts.into_iter().map(Json::String).collect()),
        );
    } else {
        remove(map, "enum");
        walk.take_out(path, "enum", &original, moved);
    }
    Ok(nullable)
}

/// Gemini's `parametersJsonSchema` at each node of the shared rewrite.
pub(crate) struct ParametersJsonSchema;

impl Hook for ParametersJsonSchema {
    type Node = ();

    /// A boolean schema is JSON Schema, and stays.
    fn boolean(_: &Walk<'_>, _: &str) -> Result<(), FlavourError> {
        Ok(())
    }

    fn enter(
        walk: &mut Walk<'_>,
        map: &mut Members,
        path: &str,
        _: &mut (),
        _: &mut Vec<(String, serde_json::Value)>,
    ) -> Result<Entered, FlavourError> {
        // "If `$ref` is set on a sub-schema, no other properties, except for those starting
        // as a `$`, may be set." The reference's `$` siblings go on being read.
        walk.reference_alone(map, path, |sibling| sibling.starts_with('$'));
        if let Some(constant) = remove(map, "const") {
            walk.drop(path, "const", &constant, Action::Rewritten);
            insert(map, "enum", Json::Array(vec![constant]));
        }
        Ok(Entered::Go)
    }

    fn keeps(_: &mut Walk<'_>, _: &str, keyword: &str, value: &Json, _: &mut ()) -> Option<bool> {
        Some(match keyword {
            "format" => matches!(value.as_str(), Some("date-time" | "date" | "time")),
            // Ignored by Gemini, and harmless: annotations stay.
            _ => JSON_SCHEMA_FIELDS.contains(&keyword) || crate::flavour::is_annotation(keyword),
        })
    }

    fn written(_: &mut Walk<'_>, _: &mut Members, _: &str, _: usize) -> Result<(), FlavourError> {
        Ok(())
    }
}

//! A conformance checker per flavour, written from each provider's documented rules (the
//! sources are in `toolgate_core::flavour`'s docs), not from the code that rewrites: every
//! schema a flavour writes must pass its checker.

use serde_json::{json, Value};
use toolgate::flavour::{Flavour, FlavouredSchema};
use toolgate::model::ToolModel;

/// The keywords OpenAI's strict mode accepts.
const STRICT_KEYWORDS: [&str; 20] = [
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];
const STRICT_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Whether a schema obeys OpenAI's documented strict-mode rules, on every node wherever it
/// sits (properties, items, tuple elements, union branches, definitions, nullable
/// wrappers): the object root without `anyOf`; every object closed and every property
/// required; no free-form keys; supported keywords and formats only; a type on every
/// schema; `$ref` alone; at most 10 levels and 5,000 properties.
fn conforms_openai_strict(schema: &Value) -> Result<(), String> {
    if schema["type"] != "object" || schema.get("anyOf").is_some() {
        return Err("the root is not one object".into());
    }
    let mut properties = 0;
    each_node(schema, "", 1, &mut |node, path, depth| {
        let Value::Object(map) = node else {
            return Err(format!("{path}: not an object schema"));
        };
        if depth > 10 {
            return Err(format!("{path}: deeper than 10 levels"));
        }
        for keyword in map.keys() {
            if !STRICT_KEYWORDS.contains(&keyword.as_str()) && keyword != "multipleOf" {
                return Err(format!("{path}: keyword {keyword}"));
            }
        }
        if map.contains_key("$ref") && map.len() > 1 {
            return Err(format!("{path}: $ref with siblings"));
        }
        if !["type", "enum", "const", "anyOf", "$ref"]
            .iter()
            .any(|k| map.contains_key(*k))
        {
            return Err(format!("{path}: no type"));
        }
        if let Some(format) = map.get("format") {
            if !STRICT_FORMATS.contains(&format.as_str().unwrap_or_default()) {
                return Err(format!("{path}: format {format}"));
            }
        }
        if is_object(map) {
            closed(map, path)?;
            let names: Vec<&String> = map
                .get("properties")
                .and_then(Value::as_object)
                .map(|p| p.keys().collect())
                .unwrap_or_default();
            properties += names.len();
            let required: Vec<&str> = map
                .get("required")
                .and_then(Value::as_array)
                .ok_or(format!("{path}: no required"))?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            if names.iter().any(|name| !required.contains(&name.as_str()))
                || names.len() != required.len()
            {
                return Err(format!(
                    "{path}: required {required:?} is not every property {names:?}"
                ));
            }
        }
        Ok(())
    })?;
    if properties > 5000 {
        return Err(format!("{properties} properties"));
    }
    Ok(())
}

/// Whether a node describes objects: a `type` that is or lists `object`, or an object's
/// keyword.
fn is_object(map: &serde_json::Map<String, Value>) -> bool {
    let typed = match map.get("type") {
        Some(Value::String(name)) => name == "object",
        Some(Value::Array(names)) => names.iter().any(|name| name == "object"),
        _ => false,
    };
    typed
        || ["properties", "additionalProperties", "patternProperties"]
            .iter()
            .any(|k| map.contains_key(*k))
}

/// A closed object: `additionalProperties: false`, no `patternProperties` (strict grammars
/// take no free-form keys).
fn closed(map: &serde_json::Map<String, Value>, path: &str) -> Result<(), String> {
    if map.get("additionalProperties") != Some(&json!(false)) {
        return Err(format!("{path}: not closed"));
    }
    if map.contains_key("patternProperties") {
        return Err(format!("{path}: patternProperties"));
    }
    Ok(())
}

/// Keywords whose value is a map of names to schemas, one schema, a list of schemas.
const SCHEMA_MAPS: [&str; 5] = [
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];
const SCHEMA_ONE: [&str; 11] = [
    "items",
    "additionalProperties",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
];
const SCHEMA_LISTS: [&str; 4] = ["anyOf", "oneOf", "allOf", "prefixItems"];

/// Calls `visit` on every schema node below (and with) `node`, wherever it sits, with its
/// pointer and its object depth (one more below each `properties`). Boolean schemas are
/// nodes too, but for `false` where it means "nothing more" (`items`,
/// `additionalProperties`...).
fn each_node(
    node: &Value,
    path: &str,
    depth: usize,
    visit: &mut dyn FnMut(&Value, &str, usize) -> Result<(), String>,
) -> Result<(), String> {
    visit(node, path, depth)?;
    let Value::Object(map) = node else {
        return Ok(());
    };
    for (keyword, value) in map {
        let at = format!("{path}/{keyword}");
        let keyword = keyword.as_str();
        if SCHEMA_MAPS.contains(&keyword) {
            let named = value.as_object().ok_or(format!("{at}: not a map"))?;
            let below = depth + usize::from(keyword == "properties");
            for (name, schema) in named {
                each_node(schema, &format!("{at}/{name}"), below, visit)?;
            }
        } else if SCHEMA_LISTS.contains(&keyword) {
            let branches = value.as_array().ok_or(format!("{at}: not a list"))?;
            for (index, branch) in branches.iter().enumerate() {
                each_node(branch, &format!("{at}/{index}"), depth, visit)?;
            }
        } else if SCHEMA_ONE.contains(&keyword) && *value != json!(false) {
            each_node(value, &at, depth, visit)?;
        }
    }
    Ok(())
}

fn object_root(schema: &Value) -> Result<(), String> {
    match schema["type"] == "object" {
        true => Ok(()),
        false => Err("the root is not `type: object`".into()),
    }
}

fn no_root_union(schema: &Value) -> Result<(), String> {
    match ["anyOf", "oneOf", "allOf"]
        .iter()
        .find(|k| schema.get(**k).is_some())
    {
        Some(keyword) => Err(format!("a root `{keyword}`")),
        None => Ok(()),
    }
}

/// Annotations: they constrain nothing, and providers that do not read them ignore them.
fn annotation(keyword: &str) -> bool {
    toolgate_core::flavour::is_annotation(keyword)
}

/// Anthropic's strict tool use ("JSON Schema limitations"): the supported keywords and
/// formats, `minItems` 0 or 1, closed objects, primitive enums, simple patterns, a type on
/// every schema, no recursion, at most 24 optional properties and 16 unions.
fn conforms_anthropic_strict(schema: &Value) -> Result<(), String> {
    const KEYWORDS: [&str; 19] = [
        "type",
        "description",
        "title",
        "default",
        "examples",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "anyOf",
        "allOf",
        "$ref",
        "$defs",
        "definitions",
        "format",
        "pattern",
    ];
    const FORMATS: [&str; 10] = [
        "date-time",
        "time",
        "date",
        "duration",
        "email",
        "hostname",
        "uri",
        "ipv4",
        "ipv6",
        "uuid",
    ];
    object_root(schema)?;
    no_root_union(schema)?;
    let (mut optional, mut unions) = (0, 0);
    each_node(schema, "", 1, &mut |node, path, _| {
        let map = node
            .as_object()
            .ok_or(format!("{path}: a boolean schema"))?;
        if let Some(keyword) = map.keys().find(|k| !KEYWORDS.contains(&k.as_str())) {
            return Err(format!("{path}: keyword {keyword}"));
        }
        if !["type", "enum", "const", "anyOf", "allOf", "$ref"]
            .iter()
            .any(|k| map.contains_key(*k))
        {
            return Err(format!("{path}: no type"));
        }
        if let Some(format) = map.get("format") {
            if !FORMATS.contains(&format.as_str().unwrap_or_default()) {
                return Err(format!("{path}: format {format}"));
            }
        }
        if let Some(min) = map.get("minItems") {
            if min != 0 && min != 1 {
                return Err(format!("{path}: minItems {min}"));
            }
        }
        if let Some(Value::String(pattern)) = map.get("pattern") {
            let refused = ["(?=", "(?!", "(?<=", "(?<!", "\\b", "\\B", "\\1", "\\k"];
            if refused.iter().any(|r| pattern.contains(r)) {
                return Err(format!("{path}: pattern {pattern}"));
            }
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            if values.iter().any(|v| v.is_array() || v.is_object()) {
                return Err(format!("{path}: an enum of complex values"));
            }
        }
        if is_object(map) {
            closed(map, path)?;
            let required = map
                .get("required")
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            optional += map
                .get("properties")
                .and_then(Value::as_object)
                .map_or(0, |p| p.len())
                .saturating_sub(required);
        }
        if map.contains_key("anyOf") || map.get("type").is_some_and(Value::is_array) {
            unions += 1;
        }
        Ok(())
    })?;
    if refers_back(schema) {
        return Err("a recursive schema".into());
    }
    if optional > 24 || unions > 16 {
        return Err(format!("{optional} optional properties, {unions} unions"));
    }
    Ok(())
}

/// Whether a definition reaches itself through `$ref`s.
fn refers_back(schema: &Value) -> bool {
    let Some(definitions) = schema.get("$defs").and_then(Value::as_object) else {
        return false;
    };
    let targets = |definition: &Value| {
        let mut found = Vec::new();
        let _ = each_node(definition, "", 1, &mut |node, _, _| {
            if let Some(Value::String(target)) = node.get("$ref") {
                found.push(target.trim_start_matches("#/$defs/").to_owned());
            }
            Ok(())
        });
        found
    };
    definitions.keys().any(|start| {
        let mut seen = std::collections::BTreeSet::new();
        let mut stack = targets(&definitions[start]);
        while let Some(name) = stack.pop() {
            if name == *start {
                return true;
            }
            if seen.insert(name.clone()) {
                stack.extend(definitions.get(&name).map(targets).unwrap_or_default());
            }
        }
        false
    })
}

/// Gemini's `parameters`: an OpenAPI 3.0 `Schema` object, its fields only; one type per
/// node (no type lists: `nullable`), string enums, the formats the Schema knows, no
/// references.
fn conforms_gemini(schema: &Value) -> Result<(), String> {
    const FIELDS: [&str; 22] = [
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
    const TYPES: [&str; 7] = [
        "string", "number", "integer", "boolean", "array", "object", "null",
    ];
    object_root(schema)?;
    no_root_union(schema)?;
    each_node(schema, "", 1, &mut |node, path, _| {
        let map = node
            .as_object()
            .ok_or(format!("{path}: a boolean schema"))?;
        if let Some(keyword) = map.keys().find(|k| !FIELDS.contains(&k.as_str())) {
            return Err(format!("{path}: keyword {keyword}"));
        }
        let kind = match map.get("type") {
            Some(Value::String(kind)) if TYPES.contains(&kind.as_str()) => kind.as_str(),
            Some(other) => return Err(format!("{path}: type {other}")),
            None if map.contains_key("anyOf") => "",
            None => return Err(format!("{path}: no type")),
        };
        if map.get("items").is_some_and(|items| !items.is_object()) {
            return Err(format!("{path}: items that are not a schema"));
        }
        if let Some(Value::Array(values)) = map.get("enum") {
            if !values.iter().all(Value::is_string) {
                return Err(format!("{path}: an enum that is not all strings"));
            }
        }
        if let Some(format) = map.get("format").and_then(Value::as_str) {
            let known = matches!(
                (kind, format),
                ("string", "date-time" | "enum")
                    | ("integer", "int32" | "int64")
                    | ("number", "float" | "double")
            );
            if !known {
                return Err(format!("{path}: format {format} on {kind}"));
            }
        }
        Ok(())
    })
}

/// Gemini's `parametersJsonSchema`: the supported keywords (annotations, which it ignores,
/// may stay), formats date-time, date and time, `$ref` beside `$` keywords only.
fn conforms_gemini_json(schema: &Value) -> Result<(), String> {
    const KEYWORDS: [&str; 19] = [
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
    object_root(schema)?;
    each_node(schema, "", 1, &mut |node, path, _| {
        let Value::Object(map) = node else {
            return Ok(());
        };
        if let Some(keyword) = map
            .keys()
            .find(|k| !KEYWORDS.contains(&k.as_str()) && !annotation(k))
        {
            return Err(format!("{path}: keyword {keyword}"));
        }
        if let Some(format) = map.get("format").and_then(Value::as_str) {
            if !["date-time", "date", "time"].contains(&format) {
                return Err(format!("{path}: format {format}"));
            }
        }
        if map.contains_key("$ref") && map.keys().any(|k| !k.starts_with('$')) {
            return Err(format!("{path}: $ref with siblings"));
        }
        Ok(())
    })
}

/// Whether a schema obeys a flavour's rules.
pub fn conforms(
    flavour: Flavour,
    model: &ToolModel,
    flavoured: &FlavouredSchema,
) -> Result<(), String> {
    let schema = flavoured.schema.to_value();
    match flavour {
        Flavour::OpenAiStrict => conforms_openai_strict(&schema),
        Flavour::AnthropicStrict => conforms_anthropic_strict(&schema),
        Flavour::Gemini => conforms_gemini(&schema),
        Flavour::GeminiJson => conforms_gemini_json(&schema),
        Flavour::Anthropic => object_root(&schema).and_then(|()| no_root_union(&schema)),
        Flavour::Mcp | Flavour::OpenAi => object_root(&schema),
        Flavour::JsonSchema => match flavoured.schema.to_string() == model.json_schema() {
            true => Ok(()),
            false => Err("the schema changed".into()),
        },
        other => Err(format!("no checker for {other}")),
    }
}

/// The pointer of the first free-form map in a schema, wherever it sits: an object node
/// whose `additionalProperties` is a schema or `true`, one with `patternProperties`, or one
/// below the root that declares no property and takes any key. Strict flavours, which
/// close every object, must refuse a schema that has one.
pub fn free_form_at(schema: &Value) -> Option<String> {
    let mut found = None;
    let _ = each_node(schema, "", 1, &mut |node, path, _| {
        let Value::Object(map) = node else {
            return Ok(());
        };
        if !is_object(map) {
            return Ok(());
        }
        let declares_none = map
            .get("properties")
            .and_then(Value::as_object)
            .is_none_or(|p| p.is_empty());
        let free = match map.get("additionalProperties") {
            Some(Value::Object(_) | Value::Bool(true)) => true,
            None => !path.is_empty() && declares_none,
            _ => false,
        } || map.contains_key("patternProperties");
        if free && found.is_none() {
            found = Some(path.to_owned());
        }
        Ok(())
    });
    found
}

//! Schemas as they arrive at run time: tool definitions of OpenAI (`parameters`, also inside
//! `{"type": "function", "function": ...}`), MCP (`inputSchema`) and Anthropic
//! (`input_schema`), or a bare schema; in JSON Schema 2020-12, draft-07, or BFCL's dialect.
//! [`normalize`] rewrites the older forms into 2020-12 so that one reader reads them all.
//!
//! | written | read as |
//! | --- | --- |
//! | `"type": "dict"`, `"HashMap"`, `"Map"` | `"object"` |
//! | `"float"`, `"double"`, `"Float"`, `"Double"` | `"number"` |
//! | `"int"`, `"long"`, `"short"`, `"byte"`, `"Integer"`, `"Long"` | `"integer"` |
//! | `"tuple"`, `"list"`, `"ArrayList"`, `"List"`, `"Array"` | `"array"` |
//! | `"str"`, `"String"`, `"char"`, `"Character"` | `"string"` |
//! | `"bool"`, `"Boolean"` | `"boolean"` |
//! | `"any"`, `"Any"`, `"Object"` | no `type` (any value) |
//! | `"optional": true` (or `"True"`) on a property | the property is not required |
//! | `"optional": ["a", ...]` on an object | those properties are not required |
//! | `definitions`, `#/definitions/...` (draft-07) | `$defs`, `#/$defs/...` |
//! | `"nullable": true` (OpenAPI) | `null` added to `type` |
//! | `"exclusiveMinimum": true` with `minimum` (draft-04) | `"exclusiveMinimum": <minimum>` |
//! | a `required` name with no property | a property that takes any value |

use super::super::Json;

fn type_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "object" | "dict" | "HashMap" | "Map" => "object",
        "number" | "float" | "double" | "Float" | "Double" => "number",
        "integer" | "int" | "long" | "short" | "byte" | "Integer" | "Long" => "integer",
        "array" | "tuple" | "list" | "ArrayList" | "List" | "Array" => "array",
        "string" | "str" | "String" | "char" | "Character" => "string",
        "boolean" | "bool" | "Boolean" => "boolean",
        "null" => "null",
        _ => return None,
    })
}

fn is_any(name: &str) -> bool {
    matches!(name, "any" | "Any" | "Object")
}

fn truthy(json: &Json) -> bool {
    match json {
        Json::Bool(flag) => *flag,
        Json::String(text) => text.eq_ignore_ascii_case("true"),
        _ => false,
    }
}

fn take(members: &mut Vec<(String, Json)>, key: &str) -> Option<Json> {
    let position = members.iter().position(|(k, _)| k == key)?;
    Some(members.remove(position).1)
}

fn get_mut<'a>(members: &'a mut [(String, Json)], key: &str) -> Option<&'a mut Json> {
    members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
}

/// Rewrites a schema (and its subschemas) from the older dialects into 2020-12.
pub fn normalize(json: Json) -> Json {
    rewrite(json, true)
}

/// [`normalize`]; `declare_required` adds a property for each `required` name without one.
/// Not in an `allOf` member: there a name may be declared by another member (the merge
/// joins them, `all_of.rs`), and an added `{}` would declare it differently.
fn rewrite(json: Json, declare_required: bool) -> Json {
    let Json::Object(mut members) = json else {
        return json;
    };
    // Types.
    if let Some(kind) = take(&mut members, "type") {
        let kind = match kind {
            Json::String(name) if is_any(&name) => None,
            Json::String(name) => Some(Json::String(type_name(&name).map_or(name, str::to_owned))),
            // A list that holds `any` allows any value: no `type` at all.
            Json::Array(names) if names.iter().any(|n| n.as_str().is_some_and(is_any)) => None,
            Json::Array(names) => Some(Json::Array(
                names
                    .into_iter()
                    .map(|n| match n {
                        Json::String(name) => {
                            Json::String(type_name(&name).map_or(name, str::to_owned))
                        }
                        other => other,
                    })
                    .collect(),
            )),
            other => Some(other),
        };
        if let Some(kind) = kind {
            members.insert(0, ("type".to_owned(), kind));
        }
    }
    if take(&mut members, "nullable").as_ref().is_some_and(truthy) {
        if let Some(kind) = get_mut(&mut members, "type") {
            *kind = match std::mem::replace(kind, Json::Null) {
                Json::String(name) => {
                    Json::Array(vec![Json::String(name), Json::String("null".into())])
                }
                Json::Array(mut names) => {
                    names.push(Json::String("null".into()));
                    Json::Array(names)
                }
                other => other,
            };
        }
    }
    // draft-04 boolean exclusive bounds.
    for (flag, bound) in [
        ("exclusiveMinimum", "minimum"),
        ("exclusiveMaximum", "maximum"),
    ] {
        if let Some(Json::Bool(exclusive)) = members
            .iter()
            .find(|(k, _)| k == flag)
            .map(|(_, v)| v.clone())
        {
            take(&mut members, flag);
            if exclusive {
                if let Some(value) = take(&mut members, bound) {
                    members.push((flag.to_owned(), value));
                }
            }
        }
    }
    // draft-07 definitions.
    if let Some(definitions) = take(&mut members, "definitions") {
        members.push(("$defs".to_owned(), definitions));
    }
    if let Some(Json::String(target)) = get_mut(&mut members, "$ref") {
        if let Some(name) = target.strip_prefix("#/definitions/") {
            *target = format!("#/$defs/{name}");
        }
    }
    // BFCL's `optional`, on the object (a list of names) or kept for the property pass below.
    let optional_names: Vec<String> = match take(&mut members, "optional") {
        Some(Json::Array(names)) => names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    let mut optional = optional_names;
    if let Some(Json::Object(properties)) = get_mut(&mut members, "properties") {
        for (name, property) in properties.iter_mut() {
            if let Json::Object(inner) = property {
                if take(inner, "optional").as_ref().is_some_and(truthy) {
                    optional.push(name.clone());
                }
            }
            *property = normalize(std::mem::replace(property, Json::Null));
        }
    }
    if let Some(Json::Array(required)) = get_mut(&mut members, "required") {
        let optional: std::collections::HashSet<&str> =
            optional.iter().map(String::as_str).collect();
        required.retain(|name| !name.as_str().is_some_and(|n| optional.contains(n)));
    }
    // A required name without a property: a property that takes any value.
    let required: Vec<String> = match members.iter().find(|(k, _)| k == "required") {
        Some((_, Json::Array(names))) => names
            .iter()
            .filter_map(|n| n.as_str().map(str::to_owned))
            .collect(),
        _ => Vec::new(),
    };
    if declare_required && !required.is_empty() {
        if get_mut(&mut members, "properties").is_none() {
            members.push(("properties".to_owned(), Json::Object(Vec::new())));
        }
        if let Some(Json::Object(properties)) = get_mut(&mut members, "properties") {
            let mut declared: std::collections::HashSet<String> =
                properties.iter().map(|(k, _)| k.clone()).collect();
            for name in required {
                if declared.insert(name.clone()) {
                    properties.push((name, Json::Object(Vec::new())));
                }
            }
        }
    }
    // Subschemas: every keyword whose value is a schema, a list of schemas or a map of
    // them (issue 27 §9, R1: `allOf` members were not rewritten, so a draft-07
    // `#/definitions/...` or a BFCL `dict` inside one was refused). Values that are data
    // (`default`, `examples`, `const`, `enum`) are not schemas and stay as written.
    for (key, sub) in members.iter_mut() {
        if SCHEMA_KEYWORDS.contains(&key.as_str()) {
            *sub = match std::mem::replace(sub, Json::Null) {
                // draft-07's tuple form of `items` (and `additionalItems` never is one).
                Json::Array(schemas) if key == "items" => {
                    Json::Array(schemas.into_iter().map(normalize).collect())
                }
                schema => normalize(schema),
            };
        } else if SCHEMA_LIST_KEYWORDS.contains(&key.as_str()) {
            let declare_required = key != "allOf";
            if let Json::Array(schemas) = sub {
                for schema in schemas.iter_mut() {
                    let schema_json = std::mem::replace(schema, Json::Null);
                    *schema = rewrite(schema_json, declare_required);
                }
            }
        } else if maps_schemas(key) {
            if let Json::Object(schemas) = sub {
                for (_, schema) in schemas.iter_mut() {
                    // draft-07 `dependencies` also maps names to lists of names: no schema.
                    if matches!(schema, Json::Object(_) | Json::Bool(_)) {
                        *schema = normalize(std::mem::replace(schema, Json::Null));
                    }
                }
            }
        }
    }
    Json::Object(members)
}

// Keywords whose value is one schema (`items` also a list of them, in draft-07), and
// lists of schemas: the shared table's.
use crate::model::positions::{LISTS as SCHEMA_LIST_KEYWORDS, ONE as SCHEMA_KEYWORDS};

/// Whether a keyword's value maps names to schemas: the shared table's maps but
/// `properties` (rewritten above, with BFCL's `optional`) and `definitions` (moved to
/// `$defs` above), and draft-07's `dependencies` (whose lists of names are left alone).
fn maps_schemas(keyword: &str) -> bool {
    use crate::model::positions::{DEPENDENCIES, MAPS};
    keyword == DEPENDENCIES || (MAPS.contains(&keyword) && keyword != "properties")
}

#[cfg(test)]
mod tests;

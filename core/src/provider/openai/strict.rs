//! [`Flavour::OpenAiStrict`](crate::flavour::Flavour::OpenAiStrict)'s rewrite: the rules are in [`crate::flavour`]'s notes.

use crate::flavour::node::{rewrite_node, Close, Entered, Hook};
use crate::flavour::walk::{has_type, Walk};
use crate::flavour::{contains, get, get_mut, insert, remove, Action, FlavourError, Members};
use crate::model::{IntWidth, Json};

/// The string formats strict mode accepts.
const FORMATS: [&str; 9] = [
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

/// Keywords kept as they are (the subschemas below them are walked).
const KEPT: [&str; 20] = [
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
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// Limits of strict mode.
const MAX_PROPERTIES: usize = 5000;
const MAX_DEPTH: usize = 10;
const MAX_ENUM_VALUES: usize = 1000;
const MAX_CHARS: usize = 120_000;

/// Rewrites a tool's schema for strict mode.
pub(crate) fn rewrite(walk: &mut Walk<'_>, schema: &mut Json) -> Result<(), FlavourError> {
    let is_object = schema.get("type").and_then(Json::as_str) == Some("object");
    if !is_object || schema.get("anyOf").is_some() || schema.get("oneOf").is_some() {
        return Err(walk.cannot("", "arguments that are not one object (no root anyOf)"));
    }
    walk.no_free_form_anywhere(schema)?;
    rewrite_node::<OpenAiStrict>(walk, schema, "", 1)?;
    walk.over("properties", MAX_PROPERTIES, walk.properties)?;
    walk.over("levels of nesting", MAX_DEPTH, walk.depth)?;
    walk.over("enum values", MAX_ENUM_VALUES, walk.enum_values)?;
    walk.over(
        "characters of property names, definition names and enum and const values",
        MAX_CHARS,
        walk.chars,
    )
}

/// OpenAI's strict mode at each node of the shared rewrite.
pub(crate) struct OpenAiStrict;

impl Hook for OpenAiStrict {
    /// A width `format` (`uint8`...) seen, written as bounds once the keywords are kept.
    type Node = Option<IntWidth>;

    /// The properties are walked, then the object closed (its optional properties made
    /// nullable), then the other subschemas.
    const CLOSE: Close = Close::AfterProperties;

    fn boolean(walk: &Walk<'_>, path: &str) -> Result<(), FlavourError> {
        Err(walk.cannot(path, "a boolean schema"))
    }

    fn enter(
        walk: &mut Walk<'_>,
        map: &mut Members,
        path: &str,
        _: &mut Self::Node,
        _: &mut Vec<(String, serde_json::Value)>,
    ) -> Result<Entered, FlavourError> {
        if contains(map, "allOf") {
            return Err(walk.cannot(path, "allOf"));
        }
        if contains(map, "not") {
            return Err(walk.cannot(path, "`not` (a value no schema takes)"));
        }
        walk.needs_type(
            map,
            path,
            &["type", "enum", "const", "anyOf", "$ref"],
            "strict mode wants a type on every schema",
        )?;
        if contains(map, "$ref") {
            reference_with_description(walk, map, path);
            return Ok(Entered::Done);
        }
        Ok(Entered::Go)
    }

    fn keeps(
        walk: &mut Walk<'_>,
        path: &str,
        keyword: &str,
        value: &Json,
        width: &mut Self::Node,
    ) -> Option<bool> {
        if KEPT.contains(&keyword) {
            return Some(true);
        }
        if let ("format", Some(name)) = (keyword, value.as_str()) {
            if FORMATS.contains(&name) {
                return Some(true);
            }
            if let Some(found) = IntWidth::from_format_name(name) {
                walk.drop(path, keyword, value, Action::Rewritten);
                *width = Some(found);
                return None;
            }
            if name == "float" || name == "double" {
                walk.drop(path, keyword, value, Action::Removed);
                return None;
            }
        }
        // Annotations (`title`, `examples`, `default`, `x-...`) are removed, constraints
        // moved into the description.
        Some(false)
    }

    fn kept(map: &mut Members, width: Self::Node) {
        if let Some(width) = width {
            width_to_bounds(map, width);
        }
    }

    fn written(
        walk: &mut Walk<'_>,
        map: &mut Members,
        path: &str,
        depth: usize,
    ) -> Result<(), FlavourError> {
        walk.count_values(map);
        if let Some(Json::Object(properties)) = get(map, "properties") {
            walk.count_properties(properties, depth);
        }
        if let Some(Json::Object(definitions)) = get(map, "$defs") {
            walk.chars += definitions
                .iter()
                .map(|(name, _)| name.chars().count())
                .sum::<usize>();
        }
        if let Some(items) = get(map, "items") {
            if !matches!(items, Json::Object(_) | Json::Bool(false)) {
                return Err(walk.cannot(&format!("{path}/items"), "`items` of that form"));
            }
        }
        Ok(())
    }

    fn close(walk: &mut Walk<'_>, map: &mut Members, path: &str) -> Result<(), FlavourError> {
        close_object(walk, map, path)
    }
}

/// A `$ref` takes no sibling keywords in strict mode (OpenAI answers "`$ref` cannot have
/// keywords {'description'}"): a description beside it is kept by wrapping the reference in
/// a one-branch `anyOf`, as pydantic-ai does (reported as `$ref` rewritten); the other
/// siblings (annotations, and a `const`, which is reported as lost) are removed.
fn reference_with_description(walk: &mut Walk<'_>, map: &mut Members, path: &str) {
    let description = remove(map, "description");
    walk.reference_alone(map, path, |_| false);
    if let Some(description) = description {
        let reference = Json::Object(std::mem::take(map));
        walk.drop(path, "$ref", &reference, Action::Rewritten);
        map.push(("description".to_owned(), description));
        map.push(("anyOf".to_owned(), Json::Array(vec![reference])));
    }
}

/// `additionalProperties: false` and every property required (the optional ones nullable).
fn close_object(walk: &mut Walk<'_>, map: &mut Members, path: &str) -> Result<(), FlavourError> {
    walk.close_object(map, path)?;
    if !has_type(map, "object") {
        insert(map, "type", Json::String("object".to_owned()));
    }
    let required: Vec<String> = match get(map, "required") {
        Some(Json::Array(names)) => names
            .iter()
            .filter_map(Json::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    let mut all = Vec::new();
    if let Some(Json::Object(properties)) = get_mut(map, "properties") {
        for (name, property) in properties.iter_mut() {
            all.push(Json::String(name.clone()));
            if !required.contains(name) {
                nullable(property);
                walk.drop(
                    path,
                    "required",
                    &Json::String(name.clone()),
                    Action::Rewritten,
                );
            }
        }
    }
    insert(map, "required", Json::Array(all));
    Ok(())
}

/// Makes a property take `null` too (strict mode's way of saying optional).
fn nullable(property: &mut Json) {
    let Json::Object(map) = property else {
        return;
    };
    let null = Json::String("null".to_owned());
    match get(map, "type").cloned() {
        Some(Json::String(one)) if one != "null" => {
            insert(map, "type", Json::Array(vec![Json::String(one), null]));
        }
        Some(Json::Array(mut many)) if !many.contains(&null) => {
            many.push(null);
            insert(map, "type", Json::Array(many));
        }
        Some(_) => {}
        None if contains(map, "anyOf") => {
            if let Some(Json::Array(branches)) = get_mut(map, "anyOf") {
                let branch = Json::Object(vec![("type".to_owned(), null)]);
                if !branches.contains(&branch) {
                    branches.push(branch);
                }
            }
            return;
        }
        None => {
            // `$ref`, a bare `enum` or `const`: a union with null.
            let description = remove(map, "description");
            let inner = Json::Object(std::mem::take(map));
            let branch = Json::Object(vec![("type".to_owned(), null)]);
            if let Some(description) = description {
                map.push(("description".to_owned(), description));
            }
            map.push(("anyOf".to_owned(), Json::Array(vec![inner, branch])));
            return;
        }
    }
    if let Some(Json::Array(values)) = get_mut(map, "enum") {
        if !values.contains(&Json::Null) {
            values.push(Json::Null);
        }
    }
}

/// A width `format` (`uint8`...) written as the bounds it implies, where none is written.
fn width_to_bounds(map: &mut Members, width: IntWidth) {
    let (low, high) = width.range();
    for (keyword, bound, other) in [
        ("minimum", low, "exclusiveMinimum"),
        ("maximum", high, "exclusiveMaximum"),
    ] {
        if contains(map, keyword) || contains(map, other) {
            continue;
        }
        if let Some(number) = bound.to_json() {
            map.push((keyword.to_owned(), Json::Number(number)));
        }
    }
}

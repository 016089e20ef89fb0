//! [`Flavour::AnthropicStrict`](crate::flavour::Flavour::AnthropicStrict)'s rewrite and request limits: the rules are in [`crate::flavour`]'s notes.

use crate::flavour::node::{rewrite_node, Close, Entered, Hook};
use crate::flavour::walk::{each_schema, recursive_definition, token, Walk};
use crate::flavour::{contains, get, FlavourError, Members};
use crate::model::Json;

/// The string formats strict tool use accepts.
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

/// Keywords kept as they are (`format`, `pattern` and `minItems` are looked at first).
const KEPT: [&str; 18] = [
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
    "anyOf",
    "allOf",
    "$ref",
    "$defs",
    "format",
    "pattern",
    "minItems",
];

/// Limits over all strict tools of a request (one tool cannot pass them either).
pub(crate) const MAX_OPTIONAL: usize = 24;
pub(crate) const MAX_UNIONS: usize = 16;
pub(crate) const MAX_TOOLS: usize = 20;

/// Rewrites a tool's schema for strict tool use.
pub(crate) fn rewrite(walk: &mut Walk<'_>, schema: &mut Json) -> Result<(), FlavourError> {
    walk.no_root_union(schema)?;
    walk.object_root(schema)?;
    if let Some(name) = recursive_definition(schema) {
        return Err(walk.cannot(
            &format!("/$defs/{}", token(&name)),
            "a recursive definition (strict tool use refuses recursive schemas)",
        ));
    }
    walk.no_free_form_anywhere(schema)?;
    rewrite_node::<AnthropicStrict>(walk, schema, "", 0)?;
    let (optional, unions) = limited_counts(schema);
    walk.over(OPTIONAL, MAX_OPTIONAL, optional)?;
    walk.over(UNIONS, MAX_UNIONS, unions)
}

/// What the limits count.
pub(crate) const OPTIONAL: &str = "optional properties";
pub(crate) const UNIONS: &str = "properties with a union type (anyOf or a list of types)";

/// The optional properties and the unions (`anyOf` or a list of types) of a strict schema,
/// which Anthropic limits over all the strict tools of a request.
pub(crate) fn limited_counts(schema: &Json) -> (usize, usize) {
    let (mut optional, mut unions) = (0, 0);
    each_schema(schema, "", &mut |node, _| {
        if contains(node, "anyOf") || matches!(get(node, "type"), Some(Json::Array(_))) {
            unions += 1;
        }
        if let Some(Json::Object(properties)) = get(node, "properties") {
            let required = |name: &str| match get(node, "required") {
                Some(Json::Array(names)) => names.iter().any(|n| n.as_str() == Some(name)),
                _ => false,
            };
            optional += properties
                .iter()
                .filter(|(name, _)| !required(name))
                .count();
        }
    });
    (optional, unions)
}

/// Anthropic's strict tool use at each node of the shared rewrite.
pub(crate) struct AnthropicStrict;

impl Hook for AnthropicStrict {
    type Node = ();

    /// Strict tool use wants every object closed.
    const CLOSE: Close = Close::BeforeChildren;

    fn boolean(walk: &Walk<'_>, path: &str) -> Result<(), FlavourError> {
        Err(walk.cannot(path, "a boolean schema"))
    }

    fn enter(
        walk: &mut Walk<'_>,
        map: &mut Members,
        path: &str,
        _: &mut (),
        _: &mut Vec<(String, serde_json::Value)>,
    ) -> Result<Entered, FlavourError> {
        if let Some(Json::Array(branches)) = get(map, "allOf") {
            if branches.iter().any(|branch| branch.get("$ref").is_some()) {
                return Err(walk.cannot(path, "`allOf` with a `$ref`"));
            }
        }
        if let Some(Json::Array(values)) = get(map, "enum") {
            if values
                .iter()
                .any(|v| matches!(v, Json::Array(_) | Json::Object(_)))
            {
                return Err(walk.cannot(path, "an enum of arrays or objects"));
            }
        }
        walk.needs_type(
            map,
            path,
            &["type", "enum", "const", "anyOf", "allOf", "$ref"],
            "strict tool use wants a type, an enum or a union on every schema",
        )?;
        // As the SDK sends it: the reference alone.
        match walk.reference_alone(map, path, |_| false) {
            true => Ok(Entered::Done),
            false => Ok(Entered::Go),
        }
    }

    fn keeps(_: &mut Walk<'_>, _: &str, keyword: &str, value: &Json, _: &mut ()) -> Option<bool> {
        Some(match keyword {
            "format" => value.as_str().is_some_and(|name| FORMATS.contains(&name)),
            "pattern" => value.as_str().is_some_and(simple_pattern),
            "minItems" => value.to_value().as_u64().is_some_and(|n| n <= 1),
            // `items: false` closes a tuple whose `prefixItems` strict tool use does not
            // take (they go to the description): kept alone, it would say "an empty array".
            "items" => matches!(value, Json::Object(_)),
            other => KEPT.contains(&other),
        })
    }

    fn written(_: &mut Walk<'_>, _: &mut Members, _: &str, _: usize) -> Result<(), FlavourError> {
        Ok(())
    }

    fn close(walk: &mut Walk<'_>, map: &mut Members, path: &str) -> Result<(), FlavourError> {
        walk.close_object(map, path)
    }
}

/// The largest bound of a `{n,m}` quantifier kept in a pattern. Anthropic refuses "complex
/// `{n,m}` quantifiers with large ranges" without saying how large; 100 is this crate's
/// line, and a pattern past it goes into the description.
const MAX_QUANTIFIER: u64 = 100;

/// Whether strict tool use takes a pattern: no backreferences, lookaround, word boundaries
/// or large `{n,m}` bounds (Anthropic's "JSON Schema limitations").
fn simple_pattern(pattern: &str) -> bool {
    let large_bound = quantifier_bounds(pattern).any(|bound| bound > MAX_QUANTIFIER);
    if large_bound {
        return false;
    }
    if ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|look| pattern.contains(look))
    {
        return false;
    }
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some('1'..='9' | 'k' | 'b' | 'B') = chars.next() {
                return false;
            }
        }
    }
    true
}

/// The numbers inside `{...}` quantifiers of a pattern (escaped braces left out).
fn quantifier_bounds(pattern: &str) -> impl Iterator<Item = u64> + '_ {
    let mut bounds = Vec::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '{' => {
                let mut inside = String::new();
                while let Some(&next) = chars.peek() {
                    if next == '}' || inside.len() > 40 {
                        break;
                    }
                    inside.push(next);
                    chars.next();
                }
                let numbers = inside
                    .split(',')
                    .map(str::trim)
                    .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
                bounds.extend(numbers.map(|n| n.parse::<u64>().unwrap_or(u64::MAX)));
            }
            _ => {}
        }
    }
    bounds.into_iter()
}

//! Where a JSON Schema holds subschemas: the one table every walk of a schema's text uses
//! (the reader's dialect rewrite and reference resolution, the flavours' walk, the Gemini
//! inliner, the schema compiler's keyword stripping). For toolgate's own crates.
//!
//! A walk that reads schemas of any dialect also takes draft-07's forms: `items` as a list
//! of schemas, and [`DEPENDENCIES`]. [`CONTENT_SCHEMA`] holds a schema the model keeps as an
//! annotation: the reader resolves the references in it; the flavours, which take
//! annotations out or send them as they are, do not walk it.

/// Keywords whose value is one schema.
pub const ONE: [&str; 11] = [
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

/// Keywords whose value is a list of schemas (draft-07's `items` may be one too).
pub const LISTS: [&str; 4] = ["anyOf", "allOf", "oneOf", "prefixItems"];

/// Keywords whose value maps names to schemas (`properties`' names are property names, the
/// others' definition names or patterns: none is a keyword).
pub const MAPS: [&str; 5] = [
    "properties",
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
];

/// draft-07's `dependencies`: a map whose values are schemas or lists of property names.
pub const DEPENDENCIES: &str = "dependencies";

/// `contentSchema`: the schema of a string's decoded content, an annotation.
pub const CONTENT_SCHEMA: &str = "contentSchema";

/// What a keyword's value holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holds {
    /// One schema.
    One,
    /// A list of schemas.
    List,
    /// A map of names to schemas.
    Map,
}

/// What `keyword`'s value holds, by the table ([`ONE`], [`LISTS`], [`MAPS`]); `None` for a
/// keyword that holds no schema.
pub fn holds(keyword: &str) -> Option<Holds> {
    if ONE.contains(&keyword) {
        Some(Holds::One)
    } else if LISTS.contains(&keyword) {
        Some(Holds::List)
    } else if MAPS.contains(&keyword) {
        Some(Holds::Map)
    } else {
        None
    }
}

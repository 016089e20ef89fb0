//! Local references: every `$ref` that points inside the schema document, made a reference
//! to a named definition before the schema is read.
//!
//! The model names the types that references point to ([`Kind::Ref`] into
//! [`ToolModel::definitions`]), and the writer writes them as `#/$defs/<name>`. Real schemas
//! point elsewhere too; one pass over the document ([`resolve`]), run by the reader before
//! anything else (so the run-time road and the schema compiler both get it), turns each of
//! these into a `#/$defs/<name>` reference:
//!
//! | written | points to |
//! | --- | --- |
//! | `#/$defs/node` (`#/definitions/node`, draft-07) | the definition, by its own name |
//! | `#/properties/data/properties/children/items`, `#/$defs/a/items` | that subschema: it becomes a definition (`children_items`) and its place a reference to it |
//! | `#` | the whole schema (recursion through the root): a definition `Root` |
//! | `#/$defs/a~1b`, `#/$defs/percent%25field` | JSON pointer escapes (`~0`, `~1`) and percent-encoding, decoded |
//! | `#item` with `"$anchor": "item"` | the subschema that declares the anchor, named by it |
//! | `node.json`, `node.json#/properties/x`, `urn:…#a` | a subschema with that `$id` (resolved against the `$id`s around it), and a pointer or anchor inside it |
//! | `$defs` (and `definitions`) below the root | their entries that references reach become definitions; the rest constrain nothing and are dropped |
//!
//! A reference to anything outside the document (`http://example.com/s.json`, `other.json#/x`
//! with no subschema of that `$id`) is an error naming the `$ref`'s pointer, as is a pointer
//! to nothing, to something that is not a schema, a malformed escape (`~2`), or an unknown
//! anchor. Each target becomes one definition, read once however many references reach it;
//! errors inside a definition taken out of its place name its original pointer.
//!
//! **`$ref` beside other keywords.** In 2020-12 the siblings apply too: `{"$ref":
//! "#/$defs/list", "maxItems": 2}` is the list with at most 2 items. Annotations
//! (`description`, `default`, `examples`, `title`) and `const` stay on the use; the other constraints are
//! merged with the target as an `allOf` of both (exact merges only, see `all_of`), into
//! a definition of its own (`list_1`), made once per target and set of siblings, so a
//! recursive schema with such a reference is still read in bounded work.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::uri::resolve_uri;
use super::{percent_decode, Members, Reader, SchemaError};
use crate::model::json::Json;
use crate::model::positions;
use crate::model::write::DEFS_PREFIX;
use crate::path::escape_pointer_token;

/// Whether a keyword's value is one schema: the shared table's, and the annotation
/// `contentSchema`, whose references are resolved too.
fn one_schema(keyword: &str) -> bool {
    positions::ONE.contains(&keyword) || keyword == positions::CONTENT_SCHEMA
}

/// Whether a keyword's value is an array of schemas: the shared table's lists, and `items`
/// in its draft-07 array form.
fn schema_array(keyword: &str) -> bool {
    positions::LISTS.contains(&keyword) || keyword == "items"
}

// Keywords whose value maps names to schemas.
use positions::MAPS as SCHEMA_MAPS;

/// Most definitions made for references with sibling keywords in one schema.
const MOST_SIBLING_DEFINITIONS: usize = 1_000;

/// A schema document with every local reference pointing to a definition of its root
/// `$defs`; see the [module docs](self).
pub(super) struct Resolved {
    /// The rewritten document (`None`: the document needs no change).
    pub document: Option<Json>,
    /// For each definition made from a subschema, where that subschema was.
    pub origins: BTreeMap<String, String>,
    /// The references that cannot be resolved.
    pub errors: Vec<SchemaError>,
}

/// One `$ref` met in the document.
struct Reference {
    /// The tokens of the schema that holds it.
    at: Vec<String>,
    /// As written.
    written: String,
    /// The base URI there.
    base: String,
}

/// What one walk over the document's schemas finds.
#[derive(Default)]
struct Found {
    /// The pointer of every schema position.
    schemas: HashSet<String>,
    /// Subschemas with an `$id`: the URI (without fragment) → their tokens.
    resources: HashMap<String, Vec<String>>,
    /// `$anchor`s: (resource URI, name) → tokens.
    anchors: HashMap<(String, String), Vec<String>>,
    references: Vec<Reference>,
    /// Whether something other than `$ref`s needs rewriting (`$anchor`, nested `$defs`).
    strip: bool,
}

fn pointer_of(tokens: &[String]) -> String {
    tokens
        .iter()
        .map(|token| format!("/{}", escape_pointer_token(token)))
        .collect()
}

fn walk(json: &Json, tokens: &mut Vec<String>, base: &str, found: &mut Found) {
    found.schemas.insert(pointer_of(tokens));
    let Json::Object(members) = json else { return };
    let mut base = base.to_owned();
    if let Some(Json::String(id)) = json.get("$id") {
        base = resolve_uri(&base, id.split('#').next().unwrap_or_default());
        found
            .resources
            .entry(base.clone())
            .or_insert_with(|| tokens.clone());
    }
    if let Some(Json::String(anchor)) = json.get("$anchor") {
        found
            .anchors
            .entry((base.clone(), anchor.clone()))
            .or_insert_with(|| tokens.clone());
    }
    if let Some(Json::String(written)) = json.get("$ref") {
        found.references.push(Reference {
            at: tokens.clone(),
            written: written.clone(),
            base: base.clone(),
        });
    }
    for (key, value) in members {
        let below_root = !tokens.is_empty();
        let nested = below_root && (key == "$defs" || key == "$id");
        if key == "$anchor" || key == "definitions" || nested {
            found.strip = true;
        }
        tokens.push(key.clone());
        match value {
            _ if one_schema(key) && !matches!(value, Json::Array(_)) => {
                walk(value, tokens, &base, found)
            }
            Json::Array(items) if schema_array(key) => {
                for (index, item) in items.iter().enumerate() {
                    tokens.push(index.to_string());
                    walk(item, tokens, &base, found);
                    tokens.pop();
                }
            }
            Json::Object(entries) if SCHEMA_MAPS.contains(&key.as_str()) => {
                for (name, entry) in entries {
                    tokens.push(name.clone());
                    walk(entry, tokens, &base, found);
                    tokens.pop();
                }
            }
            _ => {}
        }
        tokens.pop();
    }
}

/// The tokens of a JSON pointer fragment (already percent-decoded), or why it is malformed.
fn pointer_tokens(fragment: &str) -> Result<Vec<String>, String> {
    fragment
        .split('/')
        .skip(1)
        .map(|token| {
            let mut decoded = String::with_capacity(token.len());
            let mut chars = token.chars();
            while let Some(c) = chars.next() {
                match (c, c == '~') {
                    (_, false) => decoded.push(c),
                    (_, true) => match chars.next() {
                        Some('0') => decoded.push('~'),
                        Some('1') => decoded.push('/'),
                        _ => {
                            return Err(format!(
                                "the pointer token {token:?} has a `~` that is not `~0` or `~1`"
                            ))
                        }
                    },
                }
            }
            Ok(decoded)
        })
        .collect()
}

fn lookup<'j>(json: &'j Json, tokens: &[String]) -> Option<&'j Json> {
    tokens.iter().try_fold(json, |json, token| match json {
        Json::Object(members) => members.iter().find(|(k, _)| k == token).map(|(_, v)| v),
        Json::Array(items) if token == "0" || !token.starts_with('0') => {
            items.get(token.parse::<usize>().ok()?)
        }
        _ => None,
    })
}

fn lookup_mut<'j>(json: &'j mut Json, tokens: &[String]) -> Option<&'j mut Json> {
    tokens.iter().try_fold(json, |json, token| match json {
        Json::Object(members) => members.iter_mut().find(|(k, _)| k == token).map(|(_, v)| v),
        Json::Array(items) => items.get_mut(token.parse::<usize>().ok()?),
        _ => None,
    })
}

/// The `$ref` text of a reference to the root definition `name`, as the writer writes it.
fn reference_to(name: &str) -> String {
    format!(
        "{DEFS_PREFIX}{}",
        escape_pointer_token(name).replace('%', "%25")
    )
}

/// A readable name for the subschema at `tokens`: the anchor's, `Root` for the root, else
/// the last name in its pointer (`children_items` for `/properties/children/items`).
fn wanted_name(tokens: &[String], anchor: Option<&str>) -> String {
    if let Some(anchor) = anchor {
        return anchor.to_owned();
    }
    let meaningful: Vec<&str> = tokens
        .iter()
        .map(String::as_str)
        .filter(|token| !SCHEMA_MAPS.contains(token))
        .collect();
    match meaningful.as_slice() {
        [] => "Root".to_owned(),
        [.., before, last]
            if one_schema(last)
                || schema_array(before)
                || last.bytes().all(|b| b.is_ascii_digit()) =>
        {
            format!("{before}_{last}")
        }
        [.., last] => (*last).to_owned(),
    }
}

/// Resolves every local reference of `document`; see the [module docs](self).
pub(super) fn resolve(document: &Json) -> Resolved {
    let mut found = Found::default();
    walk(document, &mut Vec::new(), "", &mut found);
    found.resources.entry(String::new()).or_default();
    let root_defs: Vec<String> = match document.get("$defs") {
        Some(Json::Object(members)) => members.iter().map(|(name, _)| name.clone()).collect(),
        _ => Vec::new(),
    };
    let mut taken: HashSet<String> = root_defs.iter().cloned().collect();
    let mut errors = Vec::new();
    // Each target (its pointer) and the definition name it gets, in order of first use.
    let mut names: HashMap<String, String> = HashMap::new();
    let mut targets: Vec<(Vec<String>, String)> = Vec::new();
    // Each `$ref` to change: where it is, and the definition it names (`None`: unresolvable).
    let mut rewrites: Vec<(Vec<String>, Option<String>)> = Vec::new();
    for reference in &found.references {
        let at = format!("{}/$ref", pointer_of(&reference.at));
        match target(&found, document, reference) {
            Ok((tokens, anchor)) => {
                let pointer = pointer_of(&tokens);
                let name = match tokens.as_slice() {
                    [defs, name] if defs == "$defs" => name.clone(),
                    _ => match names.get(&pointer) {
                        Some(name) => name.clone(),
                        None => {
                            let name = unique(wanted_name(&tokens, anchor.as_deref()), &taken);
                            taken.insert(name.clone());
                            names.insert(pointer, name.clone());
                            targets.push((tokens, name.clone()));
                            name
                        }
                    },
                };
                if reference_to(&name) != reference.written {
                    rewrites.push((reference.at.clone(), Some(name)));
                }
            }
            Err(message) => {
                errors.push(SchemaError {
                    pointer: at,
                    message,
                });
                rewrites.push((reference.at.clone(), None));
            }
        }
    }
    if targets.is_empty() && !found.strip && rewrites.is_empty() {
        return Resolved {
            document: None,
            origins: BTreeMap::new(),
            errors,
        };
    }
    let mut document = document.clone();
    for (at, name) in rewrites {
        if let Some(Json::Object(members)) = lookup_mut(&mut document, &at) {
            match name {
                Some(name) => {
                    for (key, value) in members.iter_mut() {
                        if key == "$ref" {
                            *value = Json::String(reference_to(&name));
                        }
                    }
                }
                None => members.retain(|(key, _)| key != "$ref"),
            }
        }
    }
    // Deepest first: taking a subschema out leaves the pointers of those above it as they were.
    targets.sort_by_key(|(tokens, _)| std::cmp::Reverse(tokens.len()));
    let mut origins = BTreeMap::new();
    let mut made: Vec<(String, Json)> = Vec::new();
    let mut root_name = None;
    for (tokens, name) in targets {
        origins.insert(name.clone(), pointer_of(&tokens));
        if tokens.is_empty() {
            root_name = Some(name);
            continue;
        }
        let Some(place) = lookup_mut(&mut document, &tokens) else {
            continue;
        };
        let mut stays = vec![("$ref".to_owned(), Json::String(reference_to(&name)))];
        if let Json::Object(members) = &*place {
            stays.extend(
                members
                    .iter()
                    .filter(|(key, _)| key == "description" || key == "default")
                    .cloned(),
            );
        }
        let body = std::mem::replace(place, Json::Object(stays));
        made.push((name, body));
    }
    strip(&mut document, true);
    for (_, body) in &mut made {
        strip(body, false);
    }
    if let (Some(name), Json::Object(members)) = (root_name, &document) {
        let body = members
            .iter()
            .filter(|(key, _)| key != "$defs" && key != "$id" && key != "$schema")
            .cloned()
            .collect();
        made.push((name, Json::Object(body)));
    }
    if !made.is_empty() {
        if let Json::Object(members) = &mut document {
            if !members.iter().any(|(key, _)| key == "$defs") {
                members.push(("$defs".to_owned(), Json::Object(Vec::new())));
            }
            if let Some((_, Json::Object(defs))) = members.iter_mut().find(|(k, _)| k == "$defs") {
                made.reverse();
                defs.extend(made);
            }
        }
    }
    Resolved {
        document: Some(document),
        origins,
        errors,
    }
}

/// `wanted`, or `wanted_2`, `wanted_3`... whichever is not taken.
fn unique(wanted: String, taken: &HashSet<String>) -> String {
    if !taken.contains(&wanted) {
        return wanted;
    }
    (2..)
        .map(|n| format!("{wanted}_{n}"))
        .find(|name| !taken.contains(name))
        .unwrap_or(wanted)
}

/// The tokens of the schema `reference` points to, and the anchor it was named by, or why
/// there is none. A missing `#/$defs/<name>` gives its tokens: the reader reports it.
fn target(
    found: &Found,
    document: &Json,
    reference: &Reference,
) -> Result<(Vec<String>, Option<String>), String> {
    let written = &reference.written;
    let (uri, fragment) = match written.split_once('#') {
        Some((uri, fragment)) => (uri, fragment),
        None => (written.as_str(), ""),
    };
    let resource_uri = resolve_uri(&reference.base, uri);
    let Some(resource) = found.resources.get(&resource_uri) else {
        let resolved = if resource_uri == uri {
            String::new()
        } else {
            format!(" ({resource_uri:?})")
        };
        return Err(format!(
            "`$ref` {written:?} points outside this schema document{resolved}: remote references are not supported, only references within the document"
        ));
    };
    let fragment = percent_decode(fragment);
    let (tokens, anchor) = if fragment.is_empty() || fragment.starts_with('/') {
        let mut tokens = resource.clone();
        tokens.extend(pointer_tokens(&fragment)?);
        (tokens, None)
    } else {
        match found.anchors.get(&(resource_uri, fragment.clone())) {
            Some(tokens) => (tokens.clone(), Some(fragment)),
            None => {
                return Err(format!(
                    "`$ref` {written:?}: no `$anchor` {fragment:?} in this schema document"
                ))
            }
        }
    };
    if found.schemas.contains(&pointer_of(&tokens)) {
        return Ok((tokens, anchor));
    }
    match (tokens.as_slice(), lookup(document, &tokens)) {
        ([defs, _], None) if defs == "$defs" => Ok((tokens, anchor)),
        (_, None) => Err(format!(
            "`$ref` {written:?} points to nothing in this schema document"
        )),
        (_, Some(_)) => Err(format!(
            "`$ref` {written:?} points to a value that is not a schema"
        )),
    }
}

/// Removes what the reader must not see once references are resolved: `$anchor`s,
/// `definitions`, and `$defs` and `$id` below the root (`root` keeps its own; an `$id` in
/// an `allOf` member would otherwise stop the merge).
fn strip(json: &mut Json, root: bool) {
    let Json::Object(members) = json else { return };
    members.retain(|(key, _)| {
        key != "$anchor" && key != "definitions" && (root || (key != "$defs" && key != "$id"))
    });
    for (key, value) in members.iter_mut() {
        match value {
            _ if one_schema(key) && !matches!(value, Json::Array(_)) => strip(value, false),
            Json::Array(items) if schema_array(key) => {
                items.iter_mut().for_each(|item| strip(item, false))
            }
            Json::Object(entries) if SCHEMA_MAPS.contains(&key.as_str()) => entries
                .iter_mut()
                .for_each(|(_, entry)| strip(entry, false)),
            _ => {}
        }
    }
}

/// Most references followed from one schema to the schema of its values; as many as
/// [`ToolModel::resolve`](crate::model::ToolModel::resolve) follows.
pub(crate) const MOST_REFERENCES_IN_A_ROW: usize = 32;

/// The definitions that are references to references… more than
/// [`MOST_REFERENCES_IN_A_ROW`] in a row (`a → b → … → z`, cycles aside: `cycles` reports
/// them), which no check could follow; each walk stops at that bound.
pub(super) fn long_reference_chains(
    definitions: &BTreeMap<String, crate::model::Schema>,
) -> Vec<String> {
    use crate::model::Kind;
    definitions
        .iter()
        .filter(|(_, schema)| {
            let mut at = *schema;
            for _ in 0..=MOST_REFERENCES_IN_A_ROW {
                match &at.kind {
                    Kind::Ref(name) => match definitions.get(name) {
                        Some(next) => at = next,
                        None => return false,
                    },
                    _ => return false,
                }
            }
            true
        })
        .map(|(name, _)| name.clone())
        .collect()
}

impl Reader {
    /// A `$ref` with constraints beside it (`{"$ref": "#/$defs/list", "maxItems": 2}`):
    /// the name of a definition that is the `allOf` of the target and those constraints
    /// (made once per target and constraints, read later from [`Reader::pending`]); the
    /// constraints are marked used. `name` itself when there are none, or when the target
    /// is not a definition (the reader reports that).
    pub(super) fn with_siblings(
        &mut self,
        m: &mut Members<'_>,
        name: String,
        pointer: &str,
    ) -> String {
        // What the model holds on a reference itself (a `const` too), as the writer writes it.
        const STAY_ON_USE: [&str; 5] = ["$ref", "description", "default", "examples", "const"];
        let siblings: Vec<(String, Json)> = m
            .members
            .iter()
            .zip(&m.used)
            .filter(|((key, _), used)| !**used && !STAY_ON_USE.contains(&key.as_str()))
            .map(|(member, _)| member.clone())
            .collect();
        if siblings.is_empty() {
            return name;
        }
        let Some(body) = self.bodies.get(&name) else {
            return name;
        };
        for key in siblings
            .iter()
            .map(|(key, _)| key.clone())
            .collect::<Vec<_>>()
        {
            m.take(&key);
        }
        let key = format!("{name}\u{0}{}", Json::Object(siblings.clone()).to_value());
        if let Some(made) = self.made.get(&key) {
            return made.clone();
        }
        if self.made.len() >= MOST_SIBLING_DEFINITIONS {
            self.error(
                &format!("{pointer}/$ref"),
                format!("more than {MOST_SIBLING_DEFINITIONS} references with sibling keywords"),
            );
            return name;
        }
        let made = (1..)
            .map(|n| format!("{name}_{n}"))
            .find(|candidate| !self.bodies.contains_key(candidate) && !self.taken(candidate))
            .unwrap_or_else(|| name.clone());
        let merged = Json::Object(vec![(
            "allOf".to_owned(),
            Json::Array(vec![Json::Object(siblings), body.clone()]),
        )]);
        self.made.insert(key, made.clone());
        self.pending
            .push((made.clone(), merged, pointer.to_owned()));
        made
    }

    fn taken(&self, name: &str) -> bool {
        self.made.values().any(|made| made == name)
    }
}

#[cfg(test)]
mod tests;

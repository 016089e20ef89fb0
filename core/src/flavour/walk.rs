//! What the rewriting flavours share: the record of what they drop, their errors, the
//! counts their limits are checked against, and the definitions a schema refers to.

use std::collections::{BTreeMap, BTreeSet};

use super::{get, Action, Dropped, Flavour, FlavourError, Members};
use crate::model::Json;

/// The state of one rewrite: the tool, the report so far, and the counts for the limits.
pub(crate) struct Walk<'a> {
    pub tool: &'a str,
    pub flavour: Flavour,
    pub dropped: &'a mut Vec<Dropped>,
    /// Whether a dropped constraint is written into its node's description.
    pub describe: bool,
    /// Properties of every object.
    pub properties: usize,
    /// The deepest object nesting seen.
    pub depth: usize,
    /// Values of every `enum`.
    pub enum_values: usize,
    /// Characters of property names, definition names and enum and const values.
    pub chars: usize,
}

impl<'a> Walk<'a> {
    pub fn new(
        tool: &'a str,
        flavour: Flavour,
        dropped: &'a mut Vec<Dropped>,
        describe: bool,
    ) -> Self {
        Walk {
            tool,
            flavour,
            dropped,
            describe,
            properties: 0,
            depth: 0,
            enum_values: 0,
            chars: 0,
        }
    }

    pub fn drop(&mut self, path: &str, keyword: &str, value: &Json, action: Action) {
        self.record(path, keyword, value.to_value(), action);
    }

    fn record(&mut self, path: &str, keyword: &str, value: serde_json::Value, action: Action) {
        self.dropped.push(Dropped {
            path: path.to_owned(),
            keyword: keyword.to_owned(),
            value,
            action,
        });
    }

    /// Takes out a keyword the flavour cannot send: a constraint goes into the node's
    /// description (collected in `moved`, written by [`describe`](super::describe)) when
    /// descriptions are written; an annotation, or any keyword when they are not, is removed.
    pub fn take_out(
        &mut self,
        path: &str,
        keyword: &str,
        value: &Json,
        moved: &mut Vec<(String, serde_json::Value)>,
    ) {
        let value = value.to_value();
        if self.describe && super::constrains(keyword, &value) {
            moved.push((keyword.to_owned(), value.clone()));
            self.record(path, keyword, value, Action::MovedToDescription);
        } else {
            self.record(path, keyword, value, Action::Removed);
        }
    }

    /// Refuses a union at the root (`anyOf`, `oneOf`, `allOf`), which Anthropic's API
    /// refuses with a 400 and Gemini's `parameters` cannot hold.
    pub fn no_root_union(&self, schema: &Json) -> Result<(), FlavourError> {
        match ["anyOf", "oneOf", "allOf"]
            .into_iter()
            .find(|keyword| schema.get(keyword).is_some())
        {
            Some(keyword) => Err(self.cannot(
                "",
                format!("a union at the root (`{keyword}`: the root must be one object)"),
            )),
            None => Ok(()),
        }
    }

    /// `type: object` at the root, which every provider wants: a union of objects is one,
    /// and says so (reported as rewritten); so is the schema `true` (any value), written as
    /// `{"type": "object"}`, which loses nothing: a provider's arguments are an object
    /// whatever the schema says. Anything else cannot be a tool's arguments.
    pub fn object_root(&mut self, schema: &mut Json) -> Result<(), FlavourError> {
        if *schema == Json::Bool(true) {
            *schema = Json::Object(Vec::new());
        }
        if let Json::Object(root) = schema {
            if get(root, "type").is_none() {
                root.insert(0, ("type".to_owned(), Json::String("object".to_owned())));
                self.drop("", "type", &Json::Null, Action::Rewritten);
            }
        }
        if schema.get("type").and_then(Json::as_str) == Some("object") {
            return Ok(());
        }
        Err(self.cannot(
            "",
            "arguments that are not an object (the root must be `type: object`)",
        ))
    }

    /// `oneOf` written as `anyOf` (the providers that read one of them read it as the other).
    pub fn one_of_to_any_of(&mut self, node: &mut Members, path: &str) {
        if let Some(one_of) = super::remove(node, "oneOf") {
            self.drop(path, "oneOf", &Json::Null, Action::Rewritten);
            super::insert(node, "anyOf", one_of);
        }
    }

    /// Refuses a node with none of `typing` (a value of any type), which strict grammars
    /// cannot say.
    pub fn needs_type(
        &self,
        node: &Members,
        path: &str,
        typing: &[&str],
        rule: &str,
    ) -> Result<(), FlavourError> {
        match typing.iter().any(|keyword| super::contains(node, keyword)) {
            true => Ok(()),
            false => Err(self.cannot(path, format!("a value of any type ({rule})"))),
        }
    }

    /// A `$ref` node keeps the keywords `stays` allows beside the reference and loses the
    /// others (removed: a reference cannot carry a description there). Whether it was one.
    pub fn reference_alone(
        &mut self,
        node: &mut Members,
        path: &str,
        stays: fn(&str) -> bool,
    ) -> bool {
        if !super::contains(node, "$ref") {
            return false;
        }
        for (sibling, value) in std::mem::take(node) {
            if sibling == "$ref" || stays(&sibling) {
                node.push((sibling, value));
            } else {
                self.drop(path, &sibling, &value, Action::Removed);
            }
        }
        true
    }

    /// Refuses a free-form map, which cannot be said where every object must be closed
    /// (OpenAI's and Anthropic's strict modes): an object node whose `additionalProperties`
    /// is a schema or `true`, one with `patternProperties`, or (below the root) an object
    /// that declares no property and takes any key (`{"type": "object"}`, which the model
    /// writes `"properties": {}`). Closing such an object would let the provider send only
    /// `{}` where the tool takes a map, so the tool is refused with the node's path instead.
    /// An object with properties and no `additionalProperties` is closed (as the providers'
    /// SDKs close it): its properties are what it is about. The root with no property is a
    /// tool without arguments, closed to `{}`. Checked on every node, whatever its position
    /// (a property, an array's items, a tuple element, a union branch, a nullable wrapper, a
    /// definition), before any keyword is taken out.
    pub fn no_free_form(&self, node: &Members, path: &str) -> Result<(), FlavourError> {
        if !is_object(node) {
            return Ok(());
        }
        let what = match get(node, "additionalProperties") {
            Some(Json::Object(_)) => "free-form keys (`additionalProperties` with a schema)",
            Some(Json::Bool(true)) => "free-form keys (`additionalProperties: true`)",
            _ if super::contains(node, "patternProperties") => {
                "free-form keys (`patternProperties`)"
            }
            None if !path.is_empty() && declares_no_property(node) => {
                "free-form keys (an object with no property, which takes any key)"
            }
            _ => return Ok(()),
        };
        Err(self.cannot(path, what))
    }

    /// [`Walk::no_free_form`] on every node of `schema`, wherever it sits (before a flavour
    /// takes out a keyword that holds one: a tuple's `prefixItems`, a `not`...).
    pub fn no_free_form_anywhere(&self, schema: &Json) -> Result<(), FlavourError> {
        let mut found = Ok(());
        each_schema(schema, "", &mut |node, path| {
            if found.is_ok() {
                found = self.no_free_form(node, path);
            }
        });
        found
    }

    /// `additionalProperties: false` on an object (written where it is absent); a free-form
    /// map is refused ([`Walk::no_free_form`]).
    pub fn close_object(&mut self, node: &mut Members, path: &str) -> Result<(), FlavourError> {
        self.no_free_form(node, path)?;
        if get(node, "additionalProperties") != Some(&Json::Bool(false)) {
            self.drop(
                path,
                "additionalProperties",
                &Json::Bool(true),
                Action::Rewritten,
            );
            super::insert(node, "additionalProperties", Json::Bool(false));
        }
        Ok(())
    }

    pub fn cannot(&self, path: &str, what: impl Into<String>) -> FlavourError {
        FlavourError::Inexpressible {
            tool: self.tool.to_owned(),
            flavour: self.flavour,
            path: path.to_owned(),
            what: what.into(),
        }
    }

    pub fn over(&self, limit: &'static str, max: usize, found: usize) -> Result<(), FlavourError> {
        if found <= max {
            return Ok(());
        }
        Err(FlavourError::OverLimit {
            tool: self.tool.to_owned(),
            flavour: self.flavour,
            limit,
            max,
            found,
        })
    }

    /// Counts an object's properties (names included) at `depth`.
    pub fn count_properties(&mut self, properties: &Members, depth: usize) {
        self.depth = self.depth.max(depth);
        self.properties += properties.len();
        self.chars += properties
            .iter()
            .map(|(name, _)| name.chars().count())
            .sum::<usize>();
    }

    /// Counts enum and const values.
    pub fn count_values(&mut self, node: &Members) {
        let chars = |value: &Json| value.as_str().map_or(0, |text| text.chars().count());
        if let Some(Json::Array(values)) = get(node, "enum") {
            self.enum_values += values.len();
            self.chars += values.iter().map(chars).sum::<usize>();
        }
        if let Some(value) = get(node, "const") {
            self.chars += chars(value);
        }
    }
}

/// Calls `visit` on every schema node of `schema` with its pointer, wherever it sits (every
/// keyword whose value is a schema, a list or a map of them: the positions [`each_child`]
/// walks), without changing it.
pub(crate) fn each_schema(schema: &Json, path: &str, visit: &mut impl FnMut(&Members, &str)) {
    let Json::Object(node) = schema else {
        return;
    };
    visit(node, path);
    for (keyword, value) in node {
        let at = format!("{path}/{}", token(keyword));
        match (keyword.as_str(), value) {
            (keyword, Json::Object(named)) if SCHEMA_MAPS.contains(&keyword) => {
                for (name, schema) in named {
                    each_schema(schema, &format!("{at}/{}", token(name)), visit);
                }
            }
            (keyword, Json::Array(branches)) if SCHEMA_LISTS.contains(&keyword) => {
                for (index, branch) in branches.iter().enumerate() {
                    each_schema(branch, &format!("{at}/{index}"), visit);
                }
            }
            (keyword, schema) if SCHEMA_ONE.contains(&keyword) => each_schema(schema, &at, visit),
            _ => {}
        }
    }
}

/// Whether a node describes objects: its `type` is or lists `object`, or it has a keyword
/// only objects have.
pub(crate) fn is_object(node: &Members) -> bool {
    has_type(node, "object")
        || OBJECT_KEYWORDS
            .iter()
            .any(|keyword| super::contains(node, keyword))
}

/// Whether a node's `type` is `name` or lists it.
pub(crate) fn has_type(node: &Members, name: &str) -> bool {
    match get(node, "type") {
        Some(Json::String(one)) => one == name,
        Some(Json::Array(names)) => names.iter().any(|one| one.as_str() == Some(name)),
        _ => false,
    }
}

/// The keywords only an object schema has.
const OBJECT_KEYWORDS: [&str; 7] = [
    "properties",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentSchemas",
];

/// Whether an object node declares no property (`properties` absent or empty).
fn declares_no_property(node: &Members) -> bool {
    match get(node, "properties") {
        Some(Json::Object(properties)) => properties.is_empty(),
        _ => true,
    }
}

// The positions of subschemas: the shared table.
use crate::model::positions::{LISTS as SCHEMA_LISTS, MAPS as SCHEMA_MAPS, ONE as SCHEMA_ONE};

/// How a flavour writes one node: the walk, the node, its pointer and its object depth.
pub(crate) type Visit = fn(&mut Walk<'_>, &mut Json, &str, usize) -> Result<(), FlavourError>;

/// Calls `visit` on every subschema of `node`, in the node's order, wherever it sits: each
/// property (one object level deeper), each definition, `items`, each `prefixItems`
/// element, each branch of `anyOf`, `allOf` and `oneOf`, `additionalProperties`, and every
/// other keyword whose value is a schema. This one walk is what every rewriting flavour
/// recurses by, so no position of a schema is left unwritten or unchecked by one of them: a
/// flavour takes out the keywords it does not send first, and what is left is walked. A
/// `false` below `items`, `additionalProperties` and the other keywords where it means
/// "nothing more" is not a node (a flavour that refuses boolean schemas sees every other
/// one).
pub(crate) fn each_child(
    walk: &mut Walk<'_>,
    node: &mut Members,
    path: &str,
    depth: usize,
    visit: Visit,
) -> Result<(), FlavourError> {
    each_child_where(walk, node, path, depth, visit, |_| true)
}

/// [`each_child`] for the keywords `which` takes only (a flavour that rewrites a node
/// between its properties and its other subschemas walks it in two parts).
pub(crate) fn each_child_where(
    walk: &mut Walk<'_>,
    node: &mut Members,
    path: &str,
    depth: usize,
    visit: Visit,
    which: fn(&str) -> bool,
) -> Result<(), FlavourError> {
    for (keyword, value) in node.iter_mut().filter(|(keyword, _)| which(keyword)) {
        let at = format!("{path}/{}", token(keyword));
        let keyword = keyword.as_str();
        if SCHEMA_MAPS.contains(&keyword) {
            let Json::Object(named) = value else {
                return Err(walk.cannot(&at, format!("`{keyword}` of that form")));
            };
            let below = if keyword == "properties" {
                depth + 1
            } else {
                depth
            };
            for (name, schema) in named.iter_mut() {
                visit(walk, schema, &format!("{at}/{}", token(name)), below)?;
            }
        } else if SCHEMA_LISTS.contains(&keyword) {
            let Json::Array(schemas) = value else {
                return Err(walk.cannot(&at, format!("`{keyword}` of that form")));
            };
            for (index, schema) in schemas.iter_mut().enumerate() {
                visit(walk, schema, &format!("{at}/{index}"), depth)?;
            }
        } else if SCHEMA_ONE.contains(&keyword) && *value != Json::Bool(false) {
            visit(walk, value, &at, depth)?;
        }
    }
    Ok(())
}

/// A JSON pointer token.
pub(crate) fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// The definition name a `$ref` the model wrote points to (`#/$defs/<token>`).
pub(crate) fn definition_name(reference: &str) -> Option<String> {
    let token = reference.strip_prefix(crate::model::DEFS_PREFIX)?;
    Some(
        token
            .replace("%25", "%")
            .replace("~1", "/")
            .replace("~0", "~"),
    )
}

/// A definition of the root's that reaches itself through `$ref`s, if there is one: found
/// by one depth-first walk over the definitions (each visited once, so the work is linear in
/// the schema, however many definitions a hostile one has).
pub(crate) fn recursive_definition(schema: &Json) -> Option<String> {
    first_cycle(schema).0
}

/// [`recursive_definition`], and how many times the walk entered a definition (each at
/// most once).
pub(crate) fn first_cycle(schema: &Json) -> (Option<String>, usize) {
    let Some(Json::Object(definitions)) = schema.get("$defs") else {
        return (None, 0);
    };
    let targets: BTreeMap<&str, BTreeSet<String>> = definitions
        .iter()
        .map(|(name, definition)| {
            let mut found = BTreeSet::new();
            references(definition, &mut found);
            (name.as_str(), found)
        })
        .collect();
    let below = |name: &str| -> Vec<&str> {
        targets
            .get(name)
            .map(|found| found.iter().map(String::as_str).collect())
            .unwrap_or_default()
    };
    // Done: walked with everything below it; open: on the current path.
    let mut done = BTreeSet::new();
    let mut entered = 0;
    for (start, _) in definitions {
        if done.contains(start.as_str()) {
            continue;
        }
        let mut open: Vec<(&str, Vec<&str>)> = vec![(start.as_str(), below(start))];
        let mut on_path = BTreeSet::from([start.as_str()]);
        entered += 1;
        while let Some((name, next)) = open.last_mut() {
            let name = *name;
            match next.pop() {
                Some(target) if on_path.contains(target) => {
                    return (Some(target.to_owned()), entered)
                }
                Some(target) if !done.contains(target) && targets.contains_key(target) => {
                    open.push((target, below(target)));
                    on_path.insert(target);
                    entered += 1;
                }
                Some(_) => {}
                None => {
                    done.insert(name);
                    on_path.remove(name);
                    open.pop();
                }
            }
        }
    }
    (None, entered)
}

/// The definitions `schema` refers to directly, at the positions of the shared table.
fn references(schema: &Json, found: &mut BTreeSet<String>) {
    each_schema(schema, "", &mut |node, _| {
        if let Some(Json::String(reference)) = get(node, "$ref") {
            found.extend(definition_name(reference));
        }
    });
}

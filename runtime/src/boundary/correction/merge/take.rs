//! Taking the named paths from a correction, field by field: the keys that name a field are
//! found by the model's one key lookup, once per object on the way.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;
use toolgate_core::model::{Kind, ObjectSchema, Schema, ToolModel};
use toolgate_core::plan::KeyMatch;
use toolgate_core::{Path, Segment};

/// Paths as a tree: a node per segment, `end` where a path ends.
#[derive(Debug, Default)]
pub(super) struct Named {
    /// A path ends here: the value here is taken whole.
    pub(super) end: bool,
    /// The segments below, in order (indices ascending).
    pub(super) children: BTreeMap<Segment, Named>,
}

impl Named {
    /// The tree of `paths`.
    pub(super) fn of<'p>(paths: impl IntoIterator<Item = &'p Path>) -> Self {
        let mut root = Named::default();
        for path in paths {
            let mut node = &mut root;
            for segment in path.segments() {
                node = node.children.entry(segment.clone()).or_default();
            }
            node.end = true;
        }
        root
    }
}

/// The keys of an object value grouped by the field of `object` they name (by name, alias or
/// folded name), in the value's order; empty without a model or an object.
type Groups = HashMap<usize, Vec<String>>;

fn groups(model: Option<&ToolModel>, object: Option<&ObjectSchema>, value: &Value) -> Groups {
    let mut groups = Groups::new();
    if let (Some(model), Some(object), Value::Object(map)) = (model, object, value) {
        for key in map.keys() {
            if let KeyMatch::Exact(at) | KeyMatch::Folded(at) = model.key_match(object, key, true) {
                groups.entry(at).or_default().push(key.clone());
            }
        }
    }
    groups
}

/// The children of `value` that `segment` names: for a key that is a field's wire name or
/// alias, every key of the value naming that field (`groups`); else the segment itself,
/// when the value has it.
fn spellings(
    model: Option<&ToolModel>,
    object: Option<&ObjectSchema>,
    groups: &Groups,
    value: &Value,
    segment: &Segment,
) -> Vec<Segment> {
    if let (Some(model), Some(object), Segment::Key(key)) = (model, object, segment) {
        if let KeyMatch::Exact(field) = model.key_match(object, key, false) {
            let keys = groups.get(&field).map(Vec::as_slice).unwrap_or_default();
            return keys.iter().cloned().map(Segment::Key).collect();
        }
    }
    match child(value, segment) {
        Some(_) => vec![segment.clone()],
        None => Vec::new(),
    }
}

/// Sets the values at the paths of `named` (below `at`, a value of `schema`) to the
/// correction's there, `from` being the correction's value at the same place; removes them
/// where the correction has none. Where a parent on the way is missing, or named by several
/// keys (a tie the gate judges again), the parent is taken from the correction whole: the
/// original held nothing there that one could tell apart, so nothing is lost. So is an
/// array whose items the issues name when the correction's has another length: its indices
/// no longer name the same items (sent `["a", 1, "b"]` with issues at `[0]` and `[2]`,
/// corrected `[1]`, is `[1]`, not `[1, 1]` by setting `[0]` and removing `[2]`).
pub(super) fn take(
    model: Option<&ToolModel>,
    schema: Option<&Schema>,
    at: &mut Value,
    from: Option<&Value>,
    named: &Named,
) {
    if let (Value::Array(here), Some(Value::Array(there))) = (&*at, from) {
        let indexed = named
            .children
            .keys()
            .any(|segment| matches!(segment, Segment::Index(_)));
        if indexed && here.len() != there.len() {
            *at = Value::Array(there.clone());
            return;
        }
    }
    let object = match (model, schema) {
        (Some(model), Some(schema)) => object_of(model, schema),
        _ => None,
    };
    let (here_groups, there_groups) = match object {
        Some(_) => (
            groups(model, object, at),
            from.map(|from| groups(model, object, from))
                .unwrap_or_default(),
        ),
        None => Default::default(),
    };
    for (segment, below) in &named.children {
        let here = spellings(model, object, &here_groups, at, segment);
        let there = match from {
            Some(from) => spellings(model, object, &there_groups, from, segment),
            None => Vec::new(),
        };
        if below.end || here.len() != 1 || there.len() > 1 {
            replace(at, &here, from, &there, segment);
            continue;
        }
        let schema = match (model, schema) {
            (Some(model), Some(schema)) => child_schema(model, schema, segment),
            _ => None,
        };
        let from = from
            .zip(there.first())
            .and_then(|(from, one)| child(from, one));
        if let Some(at) = child_mut(at, &here[0]) {
            take(model, schema, at, from, below);
        }
    }
}

/// The object schema behind `schema`, if it is one.
fn object_of<'m>(model: &'m ToolModel, schema: &'m Schema) -> Option<&'m ObjectSchema> {
    match &model.resolve(schema)?.kind {
        Kind::Object(object) => Some(object),
        _ => None,
    }
}

/// The schema of the child at `segment` of a value of `schema`: the model's one step.
fn child_schema<'m>(
    model: &'m ToolModel,
    schema: &'m Schema,
    segment: &Segment,
) -> Option<&'m Schema> {
    model.step(schema, segment, false).schema()
}

/// Replaces the children `here` of `parent` by the children `there` of `from` (the
/// correction's); with none there, the child at `segment` is removed.
fn replace(
    parent: &mut Value,
    here: &[Segment],
    from: Option<&Value>,
    there: &[Segment],
    segment: &Segment,
) {
    if let Value::Object(map) = parent {
        for name in here {
            if let Segment::Key(key) = name {
                map.remove(key);
            }
        }
    }
    if there.is_empty() {
        set_child(parent, segment, None);
    }
    for name in there {
        let new = from.and_then(|from| child(from, name));
        set_child(parent, name, new);
    }
}

fn child<'v>(value: &'v Value, segment: &Segment) -> Option<&'v Value> {
    match (segment, value) {
        (Segment::Key(key), Value::Object(map)) => map.get(key),
        (Segment::Index(index), Value::Array(items)) => items.get(*index),
        _ => None,
    }
}

fn child_mut<'v>(value: &'v mut Value, segment: &Segment) -> Option<&'v mut Value> {
    match (segment, value) {
        (Segment::Key(key), Value::Object(map)) => map.get_mut(key),
        (Segment::Index(index), Value::Array(items)) => items.get_mut(*index),
        _ => None,
    }
}

/// Sets (or removes) one child of an object or array.
fn set_child(parent: &mut Value, segment: &Segment, new: Option<&Value>) {
    match (segment, parent, new) {
        (Segment::Key(key), Value::Object(map), Some(new)) => {
            map.insert(key.clone(), new.clone());
        }
        (Segment::Key(key), Value::Object(map), None) => {
            map.remove(key);
        }
        (Segment::Index(index), Value::Array(items), Some(new)) => {
            if *index < items.len() {
                items[*index] = new.clone();
            } else if *index == items.len() {
                items.push(new.clone());
            }
        }
        (Segment::Index(index), Value::Array(items), None) if *index < items.len() => {
            items.remove(*index);
        }
        _ => {}
    }
}

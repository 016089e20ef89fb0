//! The narrow merge of a correction: only what the issues name is taken from it.
//!
//! An issue's path names fields by their wire names, while the arguments as sent (and the
//! correction) may name a field by an alias or, under `key_case`, in another case
//! (`{"Passengers": 12}` for the field `passengers`). Where the tool's model is known, the
//! keys of an object that name the field an issue's path goes through are found by the
//! model's one key lookup (`ToolModel::key_match`, folding on): taking the field from the
//! correction replaces every key of the arguments that names it by every key of the
//! correction that names it. So a correction never leaves the old value beside the new one
//! under another spelling (which the gate would refuse as a tie, or, before, keep as a stale
//! undeclared key).
//!
//! The named paths are walked as one tree, and the keys of each object on the way are
//! grouped by the field they name once: the work is linear in the keys of those objects
//! and the paths, whatever the number of paths.

mod take;

use std::collections::HashSet;

use serde_json::Value;
use toolgate_core::model::ToolModel;
use toolgate_core::{Path, Segment};

use take::{take, Named};

/// What a correction changes outside the issues' paths (fields that were valid).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WideChanges {
    /// Not applied: those fields keep the values the model first sent (the default). Each is
    /// logged in the attempt's `wide_changes`.
    #[default]
    Refuse,
    /// Applied, and logged in the attempt's `wide_changes`.
    AcceptAndLog,
}

/// The arguments after a merge, and what it took.
#[derive(Debug)]
pub(crate) struct Merged {
    /// The arguments to gate again.
    pub(crate) value: Value,
    /// The paths taken from the correction (the issues' paths and the missing fields; the
    /// root when the correction was taken whole).
    pub(crate) taken: Vec<Path>,
    /// The paths where the correction differs outside the issues.
    pub(crate) wide: Vec<Path>,
}

/// Merges `corrected` into `original`: at each path in `named`, the corrected value (or, where
/// the correction has none, no value); elsewhere the original's, unless `wide` accepts the
/// correction's. When the original is not an object, or an issue is about the whole
/// arguments (the root), the correction is taken whole. With the tool's `model`, a field on
/// a named path is found under any key that names it (see the module's documentation).
pub(crate) fn merge(
    model: Option<&ToolModel>,
    original: Option<&Value>,
    corrected: &Value,
    named: &[Path],
    wide: WideChanges,
) -> Merged {
    let whole = || Merged {
        value: corrected.clone(),
        taken: vec![Path::root()],
        wide: Vec::new(),
    };
    let Some(original) = original.filter(|value| value.is_object()) else {
        return whole();
    };
    if named.iter().any(Path::is_root) || !corrected.is_object() {
        return whole();
    }
    let mut value = original.clone();
    let mut taken: Vec<Path> = Vec::with_capacity(named.len());
    let mut seen = HashSet::with_capacity(named.len());
    for path in named {
        if seen.insert(path) {
            taken.push(path.clone());
        }
    }
    let tree = Named::of(named);
    let schema = model.map(ToolModel::input);
    take(model, schema, &mut value, Some(corrected), &tree);
    let mut changed = Vec::new();
    differences(
        &value,
        corrected,
        &mut Path::root(),
        Some(&tree),
        &mut changed,
    );
    if wide == WideChanges::AcceptAndLog {
        take(
            model,
            schema,
            &mut value,
            Some(corrected),
            &Named::of(&changed),
        );
    }
    Merged {
        value,
        taken,
        wide: changed,
    }
}

/// The paths where `corrected` differs from `merged`, outside the `named` paths: a path is
/// reported whole where the two are not both objects (or both arrays of one length).
fn differences(
    merged: &Value,
    corrected: &Value,
    at: &mut Path,
    named: Option<&Named>,
    out: &mut Vec<Path>,
) {
    if named.is_some_and(|node| node.end) {
        return;
    }
    match (merged, corrected) {
        (Value::Object(left), Value::Object(right)) => {
            let mut keys: Vec<&String> = left.keys().chain(right.keys()).collect();
            keys.sort_unstable();
            keys.dedup();
            for key in keys {
                let segment = Segment::Key(key.clone());
                let below = named.and_then(|node| node.children.get(&segment));
                at.push(segment);
                match (left.get(key), right.get(key)) {
                    (Some(left), Some(right)) => differences(left, right, at, below, out),
                    _ if below.is_some_and(|node| node.end) => {}
                    _ => out.push(at.clone()),
                }
                at.pop();
            }
        }
        (Value::Array(left), Value::Array(right)) if left.len() == right.len() => {
            for (index, (left, right)) in left.iter().zip(right).enumerate() {
                let segment = Segment::Index(index);
                let below = named.and_then(|node| node.children.get(&segment));
                at.push(segment);
                differences(left, right, at, below, out);
                at.pop();
            }
        }
        (left, right) => {
            if !toolgate_core::values::json_equal(left, right) {
                out.push(at.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests;

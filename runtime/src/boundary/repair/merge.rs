//! The narrow merge of a correction: only what the issues name is taken from it.

use serde_json::Value;
use toolgate_core::{Path, Segment};

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
/// arguments (the root), the correction is taken whole.
pub(crate) fn merge(
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
    let mut taken = Vec::new();
    for path in named {
        if taken.contains(path) {
            continue;
        }
        take(&mut value, corrected, path.segments());
        taken.push(path.clone());
    }
    let mut changed = Vec::new();
    differences(&value, corrected, &mut Path::root(), named, &mut changed);
    if wide == WideChanges::AcceptAndLog {
        for path in &changed {
            take(&mut value, corrected, path.segments());
        }
    }
    Merged {
        value,
        taken,
        wide: changed,
    }
}

/// The value at `segments`, if there is one.
fn get<'v>(value: &'v Value, segments: &[Segment]) -> Option<&'v Value> {
    segments
        .iter()
        .try_fold(value, |value, segment| match (segment, value) {
            (Segment::Key(key), Value::Object(map)) => map.get(key),
            (Segment::Index(index), Value::Array(items)) => items.get(*index),
            _ => None,
        })
}

/// Sets the value at `segments` to the correction's there (removes it where the correction
/// has none). Where a parent on the way is missing, the parent is taken from the correction
/// whole: the original held nothing there, so nothing is lost.
fn take(value: &mut Value, corrected: &Value, segments: &[Segment]) {
    let mut at = value;
    for (depth, segment) in segments.iter().enumerate() {
        let last = depth + 1 == segments.len();
        if last || child(at, segment).is_none() {
            set_child(at, segment, get(corrected, &segments[..=depth]));
            return;
        }
        at = match child_mut(at, segment) {
            Some(child) => child,
            None => return,
        };
    }
}

fn child<'v>(value: &'v Value, segment: &Segment) -> Option<&'v Value> {
    get(value, std::slice::from_ref(segment))
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

/// The paths where `corrected` differs from `merged`, outside the `named` paths: a path is
/// reported whole where the two are not both objects (or both arrays of one length).
fn differences(
    merged: &Value,
    corrected: &Value,
    at: &mut Path,
    named: &[Path],
    out: &mut Vec<Path>,
) {
    if named.iter().any(|path| starts_with(at, path)) {
        return;
    }
    match (merged, corrected) {
        (Value::Object(left), Value::Object(right)) => {
            let mut keys: Vec<&String> = left.keys().chain(right.keys()).collect();
            keys.sort_unstable();
            keys.dedup();
            for key in keys {
                at.push(Segment::Key(key.clone()));
                match (left.get(key), right.get(key)) {
                    (Some(left), Some(right)) => differences(left, right, at, named, out),
                    _ if named.iter().any(|path| starts_with(at, path)) => {}
                    _ => out.push(at.clone()),
                }
                at.pop();
            }
        }
        (Value::Array(left), Value::Array(right)) if left.len() == right.len() => {
            for (index, (left, right)) in left.iter().zip(right).enumerate() {
                at.push(Segment::Index(index));
                differences(left, right, at, named, out);
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

/// Whether `path` is `prefix` or below it.
fn starts_with(path: &Path, prefix: &Path) -> bool {
    path.segments().starts_with(prefix.segments())
}

#[cfg(test)]
mod tests;

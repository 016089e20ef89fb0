//! The plan's lookup tables: which field a key names (by wire name, alias or folded name)
//! and which value a string means (as sent, by alias or folded), in constant time instead
//! of a scan over the schema for every key or value.
//!
//! A tool's schema may come from someone else's server, and an object of 40,000 properties
//! checked key by key against every field is quadratic work per call (seconds). Every object
//! of more than [`SCANNED_FIELDS`] names (wire names and aliases together) and every enum of
//! more than [`SCANNED_VALUES`] values gets hash tables when the plan is built; smaller ones
//! are scanned (faster for the usual few, and a bounded number of comparisons per key).
//!
//! Every road that matches a key to a field goes through [`KeyTable::key_match`] (one key)
//! or [`KeyTable::key_targets`] (the keys of one object, ties decided) in
//! [`keys`](super::keys): the stream and tree walks, the value checker, the union trials,
//! [`ToolModel::schema_at`](crate::model::ToolModel::schema_at) (and so the retry hint),
//! the hint's example, and the runtime's `foreign` path alignment and repair-loop merge.
//! [`work`] counts what a lookup does, so tests bound it without a clock.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::model::{EnumSchema, ObjectSchema};
use crate::suggest::{self, FoldedNames};

/// Objects with at most this many names (wire names and aliases) are scanned rather than
/// indexed.
pub const SCANNED_FIELDS: usize = 16;

/// Enums with at most this many values are scanned rather than indexed.
pub const SCANNED_VALUES: usize = 16;

/// The work of lookups, counted per thread: each name compared or folded, each table probe,
/// each name put into a table. Tests bound the work of a call with it (a count, not a
/// clock: a loaded machine does not fail them, a scan per key does).
#[doc(hidden)]
pub mod work {
    use std::cell::Cell;

    thread_local! {
        static STEPS: Cell<u64> = const { Cell::new(0) };
    }

    /// Counts `steps` steps of lookup work.
    #[inline]
    pub(crate) fn count(steps: usize) {
        STEPS.with(|total| total.set(total.get().wrapping_add(steps as u64)));
    }

    /// What `run` returns, and the lookup steps it took on this thread.
    pub fn steps_in<T>(run: impl FnOnce() -> T) -> (T, u64) {
        let before = STEPS.with(Cell::get);
        let out = run();
        (out, STEPS.with(Cell::get).wrapping_sub(before))
    }
}

/// Whether `object` is scanned rather than indexed: at most [`SCANNED_FIELDS`] names, wire
/// names and aliases together (so a scan is a bounded number of comparisons per key).
fn is_scanned(object: &ObjectSchema) -> bool {
    object.fields.len() <= SCANNED_FIELDS
        && object
            .fields
            .iter()
            .map(|field| 1 + field.aliases.len())
            .sum::<usize>()
            <= SCANNED_FIELDS
}

/// Which field (or enum value) a folded name means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldedMatch {
    /// Exactly one (by its name or an alias).
    One(usize),
    /// Several fold to this name: a tie, which `key_case` and `enum_case` never resolve.
    Tie,
}

fn insert_folded(folded: &mut HashMap<String, FoldedMatch>, name: &str, at: usize) {
    work::count(1);
    folded
        .entry(suggest::fold(name))
        .and_modify(|found| {
            if *found != FoldedMatch::One(at) {
                *found = FoldedMatch::Tie;
            }
        })
        .or_insert(FoldedMatch::One(at));
}

/// The key table of an object built apart from the model (not in its plan): scanned, every
/// key.
pub(super) static SCANNED: KeyTable = KeyTable {
    index: None,
    first_answers: 0,
    in_plan: false,
    folded_names: OnceLock::new(),
};

/// The key table of one object: for a small object (its names are scanned), which fields
/// a key equal to their wire name names without a scan; hash tables for a wide one.
#[derive(Debug, Default)]
pub struct KeyTable {
    pub(super) index: Option<FieldIndex>,
    /// For a scanned object, bit `i`: field `i`'s wire name names field `i` (no field before
    /// it answers to that name, by its own or an alias), so a key equal to it needs no scan.
    first_answers: u32,
    /// Whether this is the table of one object of a plan (not [`SCANNED`], which every
    /// object built apart shares): only then are its folded names kept.
    in_plan: bool,
    /// The object's wire names folded for "did you mean", made at the first near-miss check.
    folded_names: OnceLock<FoldedNames>,
}

impl KeyTable {
    pub(super) fn of(object: &ObjectSchema) -> Self {
        if !is_scanned(object) {
            return KeyTable {
                index: Some(FieldIndex::of(object)),
                first_answers: 0,
                in_plan: true,
                folded_names: OnceLock::new(),
            };
        }
        let fields = &object.fields;
        let first_answers = (0..fields.len())
            .filter(|&at| {
                let name = &fields[at].name;
                fields[..at].iter().all(|earlier| {
                    &earlier.name != name && earlier.aliases.iter().all(|a| a != name)
                })
            })
            .fold(0u32, |bits, at| bits | 1 << at);
        KeyTable {
            index: None,
            first_answers,
            in_plan: true,
            folded_names: OnceLock::new(),
        }
    }

    /// What `near` makes of the wire names of `object` (the object of this table), folded
    /// for "did you mean": once per plan, or once per call for an object built apart.
    pub(crate) fn with_folded_names<T>(
        &self,
        object: &ObjectSchema,
        near: impl FnOnce(&FoldedNames) -> T,
    ) -> T {
        let fold = || FoldedNames::new(object.fields.iter().map(|field| field.name.as_str()));
        if self.in_plan {
            near(self.folded_names.get_or_init(fold))
        } else {
            near(&fold())
        }
    }

    /// Whether a key equal to field `at`'s wire name names field `at`, known without a scan
    /// (`false`: the lookup decides).
    pub(crate) fn answers_first(&self, at: usize) -> bool {
        at < 32 && self.first_answers & (1 << at) != 0
    }

    /// Whether the object's names are scanned (at most [`SCANNED_FIELDS`] of them, wire
    /// names and aliases together) rather than looked up in tables.
    pub fn is_scanned(&self) -> bool {
        self.index.is_none()
    }
}

/// The hash tables of a wide object.
#[derive(Debug, Default)]
pub(super) struct FieldIndex {
    /// Wire names and aliases → field.
    exact: HashMap<String, usize>,
    /// Folded wire names and aliases → field (or a tie).
    folded: HashMap<String, FoldedMatch>,
}

impl FieldIndex {
    fn of(object: &ObjectSchema) -> Self {
        let mut index = FieldIndex::default();
        for (at, field) in object.fields.iter().enumerate() {
            for name in std::iter::once(&field.name).chain(&field.aliases) {
                work::count(1);
                index.exact.entry(name.clone()).or_insert(at);
                insert_folded(&mut index.folded, name, at);
            }
        }
        index
    }

    /// The field whose wire name or alias is `key` (the first such field).
    pub(super) fn exact(&self, key: &str) -> Option<usize> {
        work::count(1);
        self.exact.get(key).copied()
    }

    /// The field whose folded wire name or alias equals `key` folded.
    pub(super) fn folded(&self, key: &str) -> Option<FoldedMatch> {
        work::count(1);
        self.folded.get(&suggest::fold(key)).copied()
    }
}

/// The tables of one long enum (more than [`SCANNED_VALUES`] values): its string values and
/// their aliases.
#[derive(Debug, Default)]
pub struct EnumTable {
    /// String values → value.
    strings: HashMap<String, usize>,
    /// Aliases → value.
    aliases: HashMap<String, usize>,
    /// Folded string values and aliases → value (or a tie).
    folded: HashMap<String, FoldedMatch>,
}

impl EnumTable {
    pub(super) fn of(enumeration: &EnumSchema) -> Self {
        let mut index = EnumTable::default();
        for (at, value) in enumeration.values.iter().enumerate() {
            if let Some(text) = value.value.as_str() {
                index.strings.entry(text.to_owned()).or_insert(at);
                insert_folded(&mut index.folded, text, at);
            }
            for alias in &value.aliases {
                index.aliases.entry(alias.clone()).or_insert(at);
                insert_folded(&mut index.folded, alias, at);
            }
        }
        index
    }

    /// The value that is the string `text`.
    pub fn string(&self, text: &str) -> Option<usize> {
        self.strings.get(text).copied()
    }

    /// The value that has `text` as an alias.
    pub fn alias(&self, text: &str) -> Option<usize> {
        self.aliases.get(text).copied()
    }

    /// The value whose folded string or alias equals `text` folded.
    pub fn folded(&self, text: &str) -> Option<FoldedMatch> {
        self.folded.get(&suggest::fold(text)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Field;

    use crate::model::{Kind, Schema, ToolModel};

    #[test]
    fn indexes_wide_objects_with_ties() {
        let mut fields: Vec<Field> = (0..40)
            .map(|i| Field::required(format!("f{i}"), Schema::string()))
            .collect();
        fields.push(Field::optional("user_id", Schema::string()));
        fields.push(Field::optional("UserId", Schema::string()));
        let model = ToolModel::new("t", None, Schema::object(fields), Default::default());
        let Kind::Object(object) = &model.input().kind else {
            unreachable!()
        };
        let table = model.plan().keys_of(object);
        let index = table.index.as_ref().expect("a wide object is indexed");
        assert_eq!(index.exact("f7"), Some(7));
        assert_eq!(index.exact("F7"), None);
        assert_eq!(index.folded("F7"), Some(FoldedMatch::One(7)));
        assert_eq!(index.folded("USER-ID"), Some(FoldedMatch::Tie));
    }
}

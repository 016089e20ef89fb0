//! Which field a key names: the one lookup every road uses (exact name, alias, folded name,
//! ties), and the rule deciding between several keys that name one field.
//!
//! A key names a field by its wire name or one of its aliases, as sent ([`KeyMatch::Exact`]);
//! else, where `key_case` folding is on, by the one field whose wire name or alias equals
//! it under case and separator folding ([`KeyMatch::Folded`]; a key that folds to several
//! fields names none of them, [`KeyMatch::Ambiguous`]). Wide objects are looked up in their
//! [`KeyTable`]'s hash tables (built once per model, with its plan), small ones scanned:
//! either way a bounded amount of work per key, never a fold of every declared field.
//!
//! Several keys of one object naming one field ([`KeyTable::key_targets`]):
//! - when one names it exactly and others by folding, the object decides. An object that
//!   keeps undeclared keys in its value (`additionalProperties` not `false`, on the run-time
//!   road, or a schema of them) takes the folded ones as undeclared keys: `{"query": "a",
//!   "Query": "b"}` is valid as sent, and `key_case` is a repair for keys meant for a field
//!   the call left out, never a reason to refuse a call the schema accepts. An object that
//!   denies them, or would drop them (a typed tool), refuses them as a **tie** (one issue at
//!   the field): the call fails as sent, or would lose what the model said, and which value
//!   was meant would be a guess (the exact key is not a tie-breaker: a model that sends both
//!   has said two things);
//! - when several name it by folding and none exactly, they are a tie in any object: each
//!   is meant for the field, and which was meant is a guess;
//! - when all name it exactly (its wire name and an alias), the first is taken and each
//!   later one is refused as the field given twice (as serde refuses a duplicate field).
//!
//! Without folding (strict mode, `key_case` off, and the value checker, which judges as JSON
//! Schema does: property names are case-sensitive), a key in another case is an undeclared
//! key like any other, so there is no tie to decide.

use super::{work, FoldedMatch, KeyTable};
use crate::model::{Field, ObjectSchema, ToolModel};
use crate::suggest;

/// What one key names in an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyMatch {
    /// The field (its index) whose wire name or alias is the key as sent.
    Exact(usize),
    /// The one field whose wire name or alias equals the key under case and separator
    /// folding (`key_case`).
    Folded(usize),
    /// Several fields fold to the key: it names none of them.
    Ambiguous,
    /// No field.
    Unknown,
}

/// What one key of an object names, once every key of the object is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyTarget {
    /// The field, by its wire name or an alias.
    Field(usize),
    /// The field, by `key_case`.
    ByCase(usize),
    /// A field that another key names too, one of them by folding: refused (see [`Tie`]).
    Tied,
    /// No field.
    Unknown,
}

/// Keys that name one field, at least one of them by folding: refused as one issue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tie {
    /// The field.
    pub field: usize,
    /// The keys' positions among the object's keys, in document order.
    pub positions: Vec<usize>,
}

/// What each key of an object names, and the ties among them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyTargets {
    /// One per key, in the keys' order.
    pub targets: Vec<KeyTarget>,
    /// The ties, in the order of their first key.
    pub ties: Vec<Tie>,
}

impl ToolModel {
    /// What `key` names in `object` (a part of this model): by wire name or alias, else,
    /// when `folding` (`key_case`), by folded name. Constant work for a wide object (its
    /// key table's hash tables), a scan of at most [`super::SCANNED_FIELDS`] names for a
    /// small one. A walker that holds the object's [`KeyTable`] calls
    /// [`KeyTable::key_match`] and saves finding the table.
    ///
    /// ```
    /// use toolgate_core::model::{Field, Kind, Schema, ToolModel};
    /// use toolgate_core::plan::KeyMatch;
    ///
    /// let input = Schema::object(vec![
    ///     Field::required("passengers", Schema::integer()).alias("pax"),
    ///     Field::optional("user_id", Schema::string()),
    ///     Field::optional("UserId", Schema::string()),
    /// ]);
    /// let model = ToolModel::new("t", None, input, Default::default());
    /// let Kind::Object(object) = &model.input().kind else { unreachable!() };
    /// assert_eq!(model.key_match(object, "pax", false), KeyMatch::Exact(0));
    /// assert_eq!(model.key_match(object, "Passengers", true), KeyMatch::Folded(0));
    /// assert_eq!(model.key_match(object, "Passengers", false), KeyMatch::Unknown);
    /// assert_eq!(model.key_match(object, "USER-ID", true), KeyMatch::Ambiguous);
    /// ```
    #[doc(hidden)]
    pub fn key_match(&self, object: &ObjectSchema, key: &str, folding: bool) -> KeyMatch {
        self.plan().keys_of(object).key_match(object, key, folding)
    }

    /// The field of `object` (a part of this model) whose wire name or alias is `key`, as
    /// sent: [`ToolModel::key_match`] without folding.
    #[doc(hidden)]
    pub fn field_named<'o>(&self, object: &'o ObjectSchema, key: &str) -> Option<&'o Field> {
        match self.key_match(object, key, false) {
            KeyMatch::Exact(at) => object.fields.get(at),
            _ => None,
        }
    }

    /// What each of `keys` (the keys of one object value, in document order, each once)
    /// names in `object` (a part of this model), with the ties decided; `keeps_undeclared`:
    /// the object keeps undeclared keys in its value (see the module's documentation):
    /// [`KeyTable::key_targets`] of the object's table.
    ///
    /// ```
    /// use toolgate_core::model::{Field, Kind, Schema, ToolModel};
    /// use toolgate_core::plan::{KeyTarget, Tie};
    ///
    /// let input = Schema::object(vec![Field::required("passengers", Schema::integer())]);
    /// let model = ToolModel::new("t", None, input, Default::default());
    /// let Kind::Object(object) = &model.input().kind else { unreachable!() };
    /// let keys = ["Passengers", "passengers", "x"];
    /// // Where undeclared keys are denied, the folded key ties with the exact one.
    /// let decided = model.key_targets(object, keys, true, false);
    /// assert_eq!(decided.targets, [KeyTarget::Tied, KeyTarget::Tied, KeyTarget::Unknown]);
    /// assert_eq!(decided.ties, [Tie { field: 0, positions: vec![0, 1] }]);
    /// // Where they are taken, it is one of them.
    /// let decided = model.key_targets(object, keys, true, true);
    /// assert_eq!(decided.targets, [KeyTarget::Unknown, KeyTarget::Field(0), KeyTarget::Unknown]);
    /// assert!(decided.ties.is_empty());
    /// ```
    #[doc(hidden)]
    pub fn key_targets<'k>(
        &self,
        object: &ObjectSchema,
        keys: impl IntoIterator<Item = &'k str>,
        folding: bool,
        keeps_undeclared: bool,
    ) -> KeyTargets {
        self.plan()
            .keys_of(object)
            .key_targets(object, keys, folding, keeps_undeclared)
    }
}

impl KeyTable {
    /// What `key` names in `object`, the object of this table (see
    /// [`ToolModel::key_match`]).
    pub fn key_match(&self, object: &ObjectSchema, key: &str, folding: bool) -> KeyMatch {
        let Some(index) = &self.index else {
            return scan(object, key, folding);
        };
        if let Some(at) = index.exact(key) {
            return KeyMatch::Exact(at);
        }
        if !folding {
            return KeyMatch::Unknown;
        }
        match index.folded(key) {
            Some(FoldedMatch::One(at)) => KeyMatch::Folded(at),
            Some(FoldedMatch::Tie) => KeyMatch::Ambiguous,
            None => KeyMatch::Unknown,
        }
    }

    /// What each of `keys` (the keys of one object value, in document order, each once)
    /// names in `object`, the object of this table, with the ties decided (see the module's
    /// documentation; `keeps_undeclared`: the object keeps undeclared keys): work linear in
    /// the keys, whatever the object's width.
    pub fn key_targets<'k>(
        &self,
        object: &ObjectSchema,
        keys: impl IntoIterator<Item = &'k str>,
        folding: bool,
        keeps_undeclared: bool,
    ) -> KeyTargets {
        // (field, position, by folding) of every key that names a field.
        let mut claims: Vec<(usize, usize, bool)> = Vec::new();
        let mut targets: Vec<KeyTarget> = keys
            .into_iter()
            .enumerate()
            .map(
                |(position, key)| match self.key_match(object, key, folding) {
                    KeyMatch::Exact(at) => {
                        claims.push((at, position, false));
                        KeyTarget::Field(at)
                    }
                    KeyMatch::Folded(at) => {
                        claims.push((at, position, true));
                        KeyTarget::ByCase(at)
                    }
                    KeyMatch::Ambiguous | KeyMatch::Unknown => KeyTarget::Unknown,
                },
            )
            .collect();
        // Nearly always each field is named once: no tie to look for.
        claims.sort_unstable();
        let mut ties = Vec::new();
        for group in claims.chunk_by(|a, b| a.0 == b.0) {
            if group.len() == 1 || group.iter().all(|&(_, _, folded)| !folded) {
                continue;
            }
            if keeps_undeclared && group.iter().any(|&(_, _, folded)| !folded) {
                // Named exactly: the keys in another case are undeclared keys, as sent.
                for &(_, position, folded) in group {
                    if folded {
                        targets[position] = KeyTarget::Unknown;
                    }
                }
                continue;
            }
            let positions: Vec<usize> = group.iter().map(|&(_, position, _)| position).collect();
            for &position in &positions {
                targets[position] = KeyTarget::Tied;
            }
            ties.push(Tie {
                field: group[0].0,
                positions,
            });
        }
        ties.sort_unstable_by_key(|tie| tie.positions[0]);
        KeyTargets { targets, ties }
    }
}

/// [`ToolModel::key_match`] for a small object: a scan of its names.
fn scan(object: &ObjectSchema, key: &str, folding: bool) -> KeyMatch {
    /// Whether one of `field`'s names answers to `key` by `equal`.
    #[inline]
    fn answers(field: &Field, key: &str, equal: impl Fn(&str, &str) -> bool) -> bool {
        work::count(1);
        equal(&field.name, key)
            || field.aliases.iter().any(|alias| {
                work::count(1);
                equal(alias, key)
            })
    }
    let exact = |name: &str, key: &str| name == key;
    if let Some(at) = object.fields.iter().position(|f| answers(f, key, exact)) {
        return KeyMatch::Exact(at);
    }
    if !folding {
        return KeyMatch::Unknown;
    }
    let mut found = None;
    for (at, field) in object.fields.iter().enumerate() {
        if answers(field, key, suggest::fold_eq) {
            if found.is_some() {
                return KeyMatch::Ambiguous;
            }
            found = Some(at);
        }
    }
    found.map_or(KeyMatch::Unknown, KeyMatch::Folded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Kind, Schema};
    use crate::plan::work::steps_in;

    fn model(fields: Vec<Field>) -> ToolModel {
        ToolModel::new("t", None, Schema::object(fields), Default::default())
    }

    fn object(model: &ToolModel) -> &ObjectSchema {
        match &model.input().kind {
            Kind::Object(object) => object,
            _ => unreachable!(),
        }
    }

    fn wide(count: usize) -> ToolModel {
        model(
            (0..count)
                .map(|i| Field::optional(format!("field_{i}"), Schema::string()))
                .collect(),
        )
    }

    #[test]
    fn small_and_wide_objects_answer_alike() {
        let fields = |extra: usize| {
            let mut fields = vec![
                Field::required("passengers", Schema::integer()).alias("pax"),
                Field::optional("user_id", Schema::string()),
                Field::optional("UserId", Schema::string()),
                Field::optional("b", Schema::string()).alias("passengers"),
            ];
            fields.extend((0..extra).map(|i| Field::optional(format!("z{i}"), Schema::string())));
            fields
        };
        for extra in [0, 40] {
            let model = model(fields(extra));
            let object = object(&model);
            assert_eq!(!model.plan().keys_of(object).is_scanned(), extra > 0);
            let at = |key, folding| model.key_match(object, key, folding);
            assert_eq!(at("passengers", true), KeyMatch::Exact(0));
            assert_eq!(at("pax", false), KeyMatch::Exact(0));
            assert_eq!(at("PAX", true), KeyMatch::Folded(0));
            assert_eq!(at("Passengers", true), KeyMatch::Ambiguous);
            assert_eq!(at("Pax", true), KeyMatch::Folded(0));
            assert_eq!(at("Pax", false), KeyMatch::Unknown);
            assert_eq!(at("user-id", true), KeyMatch::Ambiguous);
            assert_eq!(at("B", true), KeyMatch::Folded(3));
            assert_eq!(at("nope", true), KeyMatch::Unknown);
        }
    }

    #[test]
    fn many_aliases_make_a_small_object_indexed() {
        let field = Field::optional("f", Schema::string());
        let field = (0..40).fold(field, |field, i| field.alias(format!("a{i}")));
        let model = model(vec![field]);
        assert!(!model.plan().keys_of(object(&model)).is_scanned());
        assert_eq!(
            model.key_match(object(&model), "A39", true),
            KeyMatch::Folded(0)
        );
    }

    #[test]
    fn an_exact_and_a_folded_key_of_one_field_tie_in_any_order() {
        let model = model(vec![
            Field::required("passengers", Schema::integer()).alias("pax"),
            Field::optional("x", Schema::string()),
        ]);
        let object = object(&model);
        let decide = |keys: &[&str]| model.key_targets(object, keys.iter().copied(), true, false);
        for keys in [["Passengers", "passengers"], ["passengers", "Passengers"]] {
            let decided = decide(&keys);
            assert_eq!(decided.targets, [KeyTarget::Tied, KeyTarget::Tied]);
            assert_eq!(decided.ties.len(), 1);
        }
        let decided = decide(&["x", "PAX", "pax", "passengers"]);
        assert_eq!(
            decided.ties,
            [Tie {
                field: 0,
                positions: vec![1, 2, 3]
            }]
        );
        // All exact: not a tie (the field given twice is the walk's own issue).
        let decided = decide(&["pax", "passengers"]);
        assert_eq!(decided.targets, [KeyTarget::Field(0), KeyTarget::Field(0)]);
        assert!(decided.ties.is_empty());
        // Without folding, another case is another key.
        let decided = model.key_targets(object, ["Passengers", "passengers"], false, false);
        assert_eq!(decided.targets, [KeyTarget::Unknown, KeyTarget::Field(0)]);
        // Where undeclared keys are taken, an exact key makes the folded ones undeclared;
        // folded keys alone still tie.
        let open = |keys: &[&str]| model.key_targets(object, keys.iter().copied(), true, true);
        let decided = open(&["PAX", "passengers", "Passengers"]);
        assert_eq!(
            decided.targets,
            [KeyTarget::Unknown, KeyTarget::Field(0), KeyTarget::Unknown]
        );
        assert!(decided.ties.is_empty());
        let decided = open(&["PAX", "Passengers"]);
        assert_eq!(decided.targets, [KeyTarget::Tied, KeyTarget::Tied]);
    }

    #[test]
    fn matching_keys_is_linear_in_keys_and_fields() {
        let steps = |count: usize| {
            let model = wide(count);
            let keys: Vec<String> = (0..count).map(|i| format!("FIELD-{i}")).collect();
            let (decided, steps) = steps_in(|| {
                model.key_targets(object(&model), keys.iter().map(String::as_str), true, false)
            });
            assert!(decided.ties.is_empty());
            assert!(decided
                .targets
                .iter()
                .all(|t| matches!(t, KeyTarget::ByCase(_))));
            steps
        };
        let (small, large) = (steps(2_000), steps(20_000));
        assert!(large <= 12 * small, "{small} then {large} steps");
        assert!(large <= 6 * 20_000, "{large} steps");
    }
}

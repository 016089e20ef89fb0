//! The object rules, written once for every road: what each key sent names (a field by
//! name, alias or `key_case`; an undeclared key kept, dropped, denied or read under
//! `additionalProperties`), a field named twice or by keys that tie, `null_as_absent`, and
//! the absent fields (`required`, `default`).
//!
//! An [`ObjectRun`] is the state of one object being walked. It takes no input itself: the
//! walker that reads the members (the tree walk over [`Json`](crate::model::Json) members, or
//! the stream as serde hands it keys) asks it, key by key, what to do, and it writes the
//! rule's repairs and issues into the [`Decoder`]. A walker that has every key before the
//! first value ([`ObjectRun::look_ahead`]) gets every decision; the stream, which has only
//! the keys read so far, gets [`KeyStep::Undecided`] where the members not read yet could
//! change the answer (a field named a second time, an undeclared key repeated), and stops.

use serde_json::Value;

use super::Decoder;
use crate::check::{admits_within, JsonKind};
use crate::decode::{NearMisses, Rule, UnknownKeys};
use crate::model::{Additional, Field, ObjectSchema};
use crate::plan::{KeyMatch, KeyTable, KeyTarget, Node};
use crate::Constraint;

/// What the walker does with the value of the key it asked about. For `Field`, `Extra` and
/// `Keep` the key's path is pushed: the walker pops it after the value.
pub(crate) enum KeyStep<'m> {
    /// A declared field's value, with its schema's node.
    Field(&'m Field, Node<'m>),
    /// An undeclared key's value, under `additionalProperties`' schema.
    Extra(Node<'m>),
    /// An undeclared key's value, kept as sent (any value).
    Keep,
    /// An undeclared key dropped (`drop_unknown_key`): hand its value to
    /// [`ObjectRun::dropped`], which logs it.
    Drop,
    /// Nothing to do with the value: it is skipped (an undeclared key refused, keys that
    /// tie, a field given twice; the issue is written).
    Skip,
    /// Only the members not read yet could tell: the walker cannot go on.
    Undecided,
}

/// The state of one object being walked.
pub(crate) struct ObjectRun<'m> {
    object: &'m ObjectSchema,
    /// The object's node (its fields' nodes are its children).
    node: Node<'m>,
    /// The object's key table, found once.
    keys: &'m KeyTable,
    /// Fields given, or named by keys that tie (so not absent either).
    given: FieldSet,
    /// Fields given by `key_case` so far (the stream's: without look-ahead, a later key may
    /// name the field exactly).
    given_by_case: FieldSet,
    /// With look-ahead: the fields some key names (so the call did not leave them out).
    named: Option<FieldSet>,
    /// What each key names, decided with every key in view ([`ObjectRun::look_ahead`]),
    /// and the next key's position.
    ahead: Option<(Vec<KeyTarget>, usize)>,
    /// The undeclared keys read so far (without look-ahead: a repeat is undecided).
    unknown_seen: KeysSeen,
    /// The field after the last one read by its exact name: models send fields in the
    /// schema's order, so the next key is looked for there first.
    next_in_order: usize,
    /// The next field to go over once the members are read.
    absent_at: usize,
}

impl<'m> ObjectRun<'m> {
    /// The run of `object`, the values' schema of `node`.
    pub(crate) fn new(decoder: &Decoder<'m>, object: &'m ObjectSchema, node: Node<'m>) -> Self {
        ObjectRun {
            object,
            node,
            keys: node.keys(decoder.model),
            given: FieldSet::new(object.fields.len()),
            given_by_case: FieldSet::new(object.fields.len()),
            named: None,
            ahead: None,
            unknown_seen: KeysSeen::default(),
            next_in_order: 0,
            absent_at: 0,
        }
    }

    /// The run of an object of at most 64 fields whose fields in `given` (bits) were read by
    /// their exact names, the next key looked for first at `next_in_order`: the typed
    /// reader's, which reads such keys itself and asks the run from the first other key on.
    pub(crate) fn resume(
        decoder: &Decoder<'m>,
        object: &'m ObjectSchema,
        node: Node<'m>,
        given: u64,
        next_in_order: usize,
    ) -> Self {
        let mut run = Self::new(decoder, object, node);
        run.given.few = given;
        run.next_in_order = next_in_order;
        run
    }

    /// Every key of the object, in order, before any value (their repeats already
    /// resolved): decides which field each names by the model's one rule
    /// ([`KeyTable::key_targets`]) and refuses keys that tie — keys naming one field by
    /// folding (`Query` and `QUERY` for `query`), or where the object denies undeclared keys,
    /// the field's name and a key that folds to it: which was meant would be a guess, so it
    /// is one issue at the field. Tie issues come before the members' own.
    pub(super) fn look_ahead<'k>(
        &mut self,
        decoder: &mut Decoder<'m>,
        keys: impl ExactSizeIterator<Item = &'k str> + Clone,
    ) {
        let decided = self.keys.key_targets(
            self.object,
            keys.clone(),
            decoder.allows(Rule::KeyCase),
            self.keeps_undeclared(decoder),
        );
        let mut named = FieldSet::new(self.object.fields.len());
        for target in &decided.targets {
            if let KeyTarget::Field(at) | KeyTarget::ByCase(at) = target {
                named.set(*at);
            }
        }
        let sent: Vec<&str> = if decided.ties.is_empty() {
            Vec::new()
        } else {
            keys.collect()
        };
        for tie in &decided.ties {
            // The field was sent, under names that tie: it is not also missing.
            self.given.set(tie.field);
            let field = &self.object.fields[tie.field];
            let keys: Vec<&str> = tie.positions.iter().map(|&p| sent[p]).collect();
            decoder.checker.path_push_field(&field.name);
            let message = format!(
                "the keys {} all mean the field {:?} under case and separator folding; send it once, as {:?}",
                keys.iter().map(|k| format!("{k:?}")).collect::<Vec<_>>().join(", "),
                field.name,
                field.name
            );
            decoder.checker.issue(
                Constraint::Syntax,
                message,
                Some(Value::String(field.name.clone())),
                Some(Value::Array(keys.iter().map(|&k| Value::from(k)).collect())),
            );
            decoder.checker.path_pop();
            named.set(tie.field);
        }
        self.named = Some(named);
        self.ahead = Some((decided.targets, 0));
    }

    /// Whether the object keeps undeclared keys in its value: as sent, or under its
    /// `additionalProperties` schema. Only there is a key in another case beside the field's
    /// own name an undeclared key like any other: a typed tool would drop it, losing what
    /// the model said, so there it is a tie.
    fn keeps_undeclared(&self, decoder: &Decoder<'m>) -> bool {
        match self.object.additional {
            Additional::Deny => false,
            Additional::Schema(_) => true,
            Additional::Allow => decoder.options.unknown_keys == UnknownKeys::Keep,
        }
    }

    /// Whether the object takes undeclared keys: keeps them ([`ObjectRun::keeps_undeclared`])
    /// or drops them with a log entry (never where its schema denies them, nor where a typed
    /// tool may not drop them).
    fn takes_undeclared(&self, decoder: &Decoder<'m>) -> bool {
        self.keeps_undeclared(decoder)
            || (matches!(self.object.additional, Additional::Allow)
                && decoder.allows(Rule::DropUnknownKey))
    }

    /// What the walker does with the value of `key`, the next key sent.
    pub(crate) fn key(&mut self, decoder: &mut Decoder<'m>, key: &str) -> KeyStep<'m> {
        let (at, by_case) = match self.target(decoder, key) {
            KeyTarget::Field(at) => (at, false),
            KeyTarget::ByCase(at) => (at, true),
            KeyTarget::Tied => return KeyStep::Skip,
            KeyTarget::Unknown => return self.unknown(decoder, key),
        };
        let field = &self.object.fields[at];
        if self.given.has(at) {
            if self.ahead.is_none() {
                if by_case && !self.given_by_case.has(at) && self.keeps_undeclared(decoder) {
                    // The field came under its own name: this key is an undeclared one,
                    // whatever comes next.
                    return self.unknown(decoder, key);
                }
                // A third key could make it a tie rather than a field given twice (or, in
                // an object that takes undeclared keys, the key in another case one of them).
                return KeyStep::Undecided;
            }
            // The field came already under another of its names: which was meant would be
            // a guess (serde refuses this as a duplicate field too).
            decoder.checker.path_push_key(key);
            let message = format!(
                "the field {:?} is given twice (also as {key:?})",
                field.name
            );
            decoder
                .checker
                .issue(Constraint::Syntax, message, None, None);
            decoder.checker.path_pop();
            return KeyStep::Skip;
        }
        self.given.set(at);
        decoder.checker.path_push_field(&field.name);
        if by_case {
            if self.ahead.is_none() {
                self.given_by_case.set(at);
            }
            decoder.repair(
                Rule::KeyCase,
                Value::String(key.to_owned()),
                Value::String(field.name.clone()),
            );
        }
        KeyStep::Field(field, self.node.field(decoder.model, self.object, at))
    }

    /// What `key` names: the look-ahead's decision, else the model's one lookup, the field
    /// after the last one read tried first.
    fn target(&mut self, decoder: &Decoder<'m>, key: &str) -> KeyTarget {
        if let Some((targets, next)) = &mut self.ahead {
            let target = targets.get(*next).copied().unwrap_or(KeyTarget::Unknown);
            *next += 1;
            return target;
        }
        let found = match self.in_order(key) {
            Some(at) => KeyMatch::Exact(at),
            None => self
                .keys
                .key_match(self.object, key, decoder.allows(Rule::KeyCase)),
        };
        match found {
            KeyMatch::Exact(at) => {
                self.next_in_order = at + 1;
                KeyTarget::Field(at)
            }
            KeyMatch::Folded(at) => KeyTarget::ByCase(at),
            KeyMatch::Ambiguous | KeyMatch::Unknown => KeyTarget::Unknown,
        }
    }

    /// The field after the last one read, when `key` is its wire name and that name names
    /// it (no field before it answers to it: the first field to answer to a key is the one it
    /// names), as the object's key table knows for a scanned object.
    fn in_order(&self, key: &str) -> Option<usize> {
        let at = self.next_in_order;
        (self.keys.answers_first(at) && self.object.fields.get(at)?.name == key).then_some(at)
    }

    /// An undeclared key: under `additionalProperties`' schema, kept, dropped (logged) or
    /// refused, by the object and the options. Where the object takes it, a near miss of a
    /// field the call left out is refused with its "did you mean" first
    /// ([`NearMisses::Refuse`]).
    fn unknown(&mut self, decoder: &mut Decoder<'m>, key: &str) -> KeyStep<'m> {
        if self.ahead.is_none() && !self.unknown_seen.first_time(key) {
            return KeyStep::Undecided;
        }
        if decoder.options.near_misses == NearMisses::Refuse && self.takes_undeclared(decoder) {
            let Ok(near) = decoder.near_miss(key, self.object, self.keys) else {
                return KeyStep::Skip;
            };
            if let Some(at) = near {
                let left_out = match &self.named {
                    Some(named) => !named.has(at),
                    // The stream: a field not given so far may come later.
                    None if self.given.has(at) => false,
                    None => return KeyStep::Undecided,
                };
                if left_out {
                    let near = &self.object.fields[at].name;
                    decoder
                        .checker
                        .unknown_field_near(key, Some(near), self.object);
                    return KeyStep::Skip;
                }
            }
        }
        if let Some(extra) = self.node.extra(decoder.model, self.object) {
            decoder.checker.path_push_key(key);
            return KeyStep::Extra(extra);
        }
        let keep = decoder.options.unknown_keys == UnknownKeys::Keep;
        match &self.object.additional {
            Additional::Allow if keep => {
                decoder.checker.path_push_key(key);
                KeyStep::Keep
            }
            Additional::Allow if decoder.allows(Rule::DropUnknownKey) => KeyStep::Drop,
            // Denied, or a typed tool that may not drop it (a schema of undeclared keys
            // was taken above).
            Additional::Allow | Additional::Deny | Additional::Schema(_) => {
                decoder.checker.unknown_field(key, self.object);
                KeyStep::Skip
            }
        }
    }

    /// The value of a key [`KeyStep::Drop`] named, logged as dropped.
    pub(crate) fn dropped(&self, decoder: &mut Decoder<'m>, key: &str, sent: Value) {
        decoder.checker.path_push_key(key);
        decoder.repair(Rule::DropUnknownKey, sent, Value::Null);
        decoder.checker.path_pop();
    }

    /// Once every member was read: the next absent field that gets a value (its default),
    /// after the issues of the required ones before it. `None` when no field is left.
    pub(crate) fn next_absent(&mut self, decoder: &mut Decoder<'m>) -> Option<(&'m Field, Value)> {
        while let Some(field) = self.object.fields.get(self.absent_at) {
            let at = self.absent_at;
            self.absent_at += 1;
            if self.given.has(at) {
                continue;
            }
            if field.required {
                decoder.checker.missing_field(field);
                continue;
            }
            if field.schema.default.is_none() {
                continue;
            }
            decoder.checker.path_push_field(&field.name);
            let node = self.node.field(decoder.model, self.object, at);
            let default = decoder.default_value(field, node);
            decoder.checker.path_pop();
            if let Some(default) = default {
                return Some((field, default));
            }
        }
        None
    }
}

/// `null_as_absent`: a `null` sent for an optional field whose schema does not take `null`
/// is the field left out (logged). `Some` with the value it gets then (its default, or none);
/// `None` where the `null` is the field's value, to walk as any other: where the schema
/// takes `null` anywhere (nullable, `{}`, a union with such an alternative, an enum or a
/// `const` of `null`), the call may be valid as sent, and a valid call is never changed.
pub(crate) fn null_as_absent<'m>(
    decoder: &mut Decoder<'m>,
    field: &'m Field,
    node: Node<'m>,
) -> Option<Option<Value>> {
    let absent = !field.required
        && !node.accepts_null
        && decoder.allows(Rule::NullAsAbsent)
        && !admits_within(decoder.model, node.schema, JsonKind::Null);
    if !absent {
        return None;
    }
    decoder.repair(Rule::NullAsAbsent, Value::Null, Value::Null);
    Some(decoder.default_value(field, node))
}

/// A set of an object's fields: bits, on the stack for up to 64 fields; past that, a flag
/// per field, allocated at the first one set (an object run keeps several sets, most of
/// them empty).
struct FieldSet {
    count: usize,
    few: u64,
    many: Vec<bool>,
}

impl FieldSet {
    fn new(count: usize) -> Self {
        FieldSet {
            count,
            few: 0,
            many: Vec::new(),
        }
    }

    fn has(&self, at: usize) -> bool {
        if self.count > 64 {
            self.many.get(at).copied().unwrap_or(false)
        } else {
            at < 64 && self.few & (1 << at) != 0
        }
    }

    fn set(&mut self, at: usize) {
        if self.count > 64 {
            if self.many.is_empty() {
                self.many = vec![false; self.count];
            }
            self.many[at] = true;
        } else {
            self.few |= 1 << at;
        }
    }
}

/// The undeclared keys of an object read so far: a scan while they are few, a set past
/// that, so any number of them is read in linear time.
#[derive(Default)]
struct KeysSeen {
    few: Vec<String>,
    /// Made only past [`KeysSeen::SCANNED`] keys: an empty set still costs a random seed.
    many: Option<std::collections::HashSet<String>>,
}

impl KeysSeen {
    const SCANNED: usize = 16;

    /// Whether `key` was not seen before (it is now).
    fn first_time(&mut self, key: &str) -> bool {
        if self.few.iter().any(|seen| seen == key) {
            return false;
        }
        if self.few.len() < Self::SCANNED {
            self.few.push(key.to_owned());
            return true;
        }
        self.many.get_or_insert_default().insert(key.to_owned())
    }
}

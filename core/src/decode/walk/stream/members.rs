//! The members of an object and the elements of an array, walked as they are read.

use std::borrow::Cow;

use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;

use super::{NodeSeed, Stream};
use crate::decode::{Rule, UnknownKeys};
use crate::model::{Additional, ArraySchema, Field, Json, ObjectSchema, Schema};
use crate::plan::{KeyMatch, KeyTable};

/// Which fields of an object were given: bits, on the stack for up to 128 fields.
struct FieldSet {
    few: u128,
    many: Vec<bool>,
}

impl FieldSet {
    fn new(count: usize) -> Self {
        let many = if count > 128 {
            vec![false; count]
        } else {
            Vec::new()
        };
        FieldSet { few: 0, many }
    }

    fn has(&self, at: usize) -> bool {
        match self.many.get(at) {
            Some(&given) => given,
            None => at < 128 && self.few & (1 << at) != 0,
        }
    }

    fn set(&mut self, at: usize) {
        match self.many.get_mut(at) {
            Some(given) => *given = true,
            None => self.few |= 1 << at,
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
        if self.few.len() < Self::SCANNED {
            if self.few.iter().any(|seen| seen == key) {
                return false;
            }
            self.few.push(key.to_owned());
            return true;
        }
        if self.few.iter().any(|seen| seen == key) {
            return false;
        }
        self.many.get_or_insert_default().insert(key.to_owned())
    }
}

/// What the next value of an object is, once its key was handed on.
enum Pending<'m> {
    Nothing,
    /// A declared field's value.
    Field(&'m Field),
    /// An absent field's default.
    Default(Value),
    /// An undeclared key's value, under `additionalProperties`' schema.
    Extra(&'m Schema),
    /// An undeclared key's value, kept as sent.
    Kept,
}

enum Phase {
    /// Reading the members sent.
    Members,
    /// Going over the fields not sent, from this one.
    Absent(usize),
    Done,
}

/// The members of an object, handed on by their field names, then the defaults of absent
/// fields.
pub(super) struct Members<'s, 'm, A> {
    stream: &'s mut Stream<'m>,
    map: A,
    object: &'m ObjectSchema,
    /// The object's key table, found once.
    keys: &'m KeyTable,
    given: FieldSet,
    unknown_seen: KeysSeen,
    /// The field after the last one read: models send fields in the schema's order, so the
    /// next key is looked for there first.
    next_in_order: usize,
    pending: Pending<'m>,
    phase: Phase,
}

/// A key as read: borrowed from the text when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(KeySeed)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_owned()))
    }

    fn visit_string<E>(self, key: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key))
    }
}

/// What a key sent names, as far as the keys read so far tell.
enum KeyIs {
    Field(usize),
    Unknown,
    /// Only the members not yet read could tell (see the module's documentation).
    Undecided,
}

impl<'s, 'm, A> Members<'s, 'm, A> {
    /// The members of `object`, read from `map`.
    pub(super) fn new(stream: &'s mut Stream<'m>, map: A, object: &'m ObjectSchema) -> Self {
        let keys = stream.decoder.key_table(object);
        Members {
            stream,
            map,
            object,
            keys,
            given: FieldSet::new(object.fields.len()),
            unknown_seen: KeysSeen::default(),
            next_in_order: 0,
            pending: Pending::Nothing,
            phase: Phase::Members,
        }
    }

    /// Whether every member was read and every absent field gone over.
    pub(super) fn finished(&self) -> bool {
        matches!(self.phase, Phase::Done)
    }
}

impl<'de, 'm, A: MapAccess<'de>> Members<'_, 'm, A> {
    /// The field after the last one read, when `key` is its wire name and no field before it
    /// has `key` for an alias (the first field to answer to a key is the one it names). Only
    /// for objects scanned rather than indexed, so the look back stays short.
    fn in_order(&self, key: &str) -> Option<usize> {
        let fields = &self.object.fields;
        let at = self.next_in_order;
        let named = self.keys.is_scanned() && fields.get(at)?.name == key;
        let first = named
            && fields[..at]
                .iter()
                .all(|f| f.aliases.iter().all(|a| a != key));
        first.then_some(at)
    }

    /// What `key` names, by the model's one lookup. A field named a second time (by any of
    /// its names, exactly or by folding) is left to the tree walk, which sees every key and
    /// decides (a field given twice, or a tie: `ToolModel::key_targets`).
    fn key_is(&mut self, key: &str) -> KeyIs {
        let found = match self.in_order(key) {
            Some(at) => KeyMatch::Exact(at),
            None => self.stream.decoder.key_match(key, self.object, self.keys),
        };
        let (at, by_case) = match found {
            KeyMatch::Exact(at) => {
                self.next_in_order = at + 1;
                (at, false)
            }
            KeyMatch::Folded(at) => (at, true),
            KeyMatch::Ambiguous | KeyMatch::Unknown => return KeyIs::Unknown,
        };
        if self.given.has(at) {
            return KeyIs::Undecided;
        }
        self.given.set(at);
        if by_case {
            let decoder = &mut self.stream.decoder;
            let field = &self.object.fields[at];
            decoder.checker.path_push_field(&field.name);
            decoder.repair(
                Rule::KeyCase,
                Value::String(key.to_owned()),
                Value::String(field.name.clone()),
            );
            decoder.checker.path_pop();
        }
        KeyIs::Field(at)
    }

    /// Reads the value of a key that is not handed on into a tree.
    fn buffer_value(&mut self) -> Result<Json, A::Error> {
        let map = &mut self.map;
        self.stream.buffer(|room, notes| {
            map.next_value_seed(crate::model::ArgumentSeed {
                max_depth: room,
                notes,
            })
        })
    }

    /// An undeclared key: `Some` when it is handed on (its value to follow).
    fn unknown(&mut self, key: &str) -> Result<bool, A::Error> {
        if !self.unknown_seen.first_time(key) {
            return Err(self.stream.stop());
        }
        let options = &self.stream.decoder.options;
        let (keep, drop) = (
            options.unknown_keys == UnknownKeys::Keep,
            options.allows(Rule::DropUnknownKey),
        );
        match &self.object.additional {
            Additional::Schema(extra) => {
                self.pending = Pending::Extra(extra);
                Ok(true)
            }
            Additional::Allow if keep => {
                self.pending = Pending::Kept;
                Ok(true)
            }
            Additional::Allow if drop => {
                let member = self.buffer_value()?;
                let decoder = &mut self.stream.decoder;
                decoder.checker.path_push_key(key);
                decoder.repair(Rule::DropUnknownKey, member.into_value(), Value::Null);
                decoder.checker.path_pop();
                Ok(false)
            }
            Additional::Allow | Additional::Deny => {
                self.buffer_value()?;
                self.stream.decoder.checker.unknown_field(key, self.object);
                Ok(false)
            }
        }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Members<'_, '_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        loop {
            match self.phase {
                Phase::Members => {
                    let Some(key) = self.map.next_key_seed(KeySeed)? else {
                        self.phase = Phase::Absent(0);
                        continue;
                    };
                    let name = match self.key_is(&key) {
                        KeyIs::Field(at) => {
                            let field = &self.object.fields[at];
                            self.pending = Pending::Field(field);
                            self.stream.decoder.checker.path_push_field(&field.name);
                            field.name.as_str()
                        }
                        KeyIs::Undecided => return Err(self.stream.stop()),
                        KeyIs::Unknown => {
                            if !self.unknown(&key)? {
                                continue;
                            }
                            self.stream.decoder.checker.path_push_key(&key);
                            let handed: de::value::StrDeserializer<'_, A::Error> =
                                key.as_ref().into_deserializer();
                            return seed.deserialize(handed).map(Some);
                        }
                    };
                    let handed: de::value::StrDeserializer<'_, A::Error> = name.into_deserializer();
                    return seed.deserialize(handed).map(Some);
                }
                Phase::Absent(at) => {
                    let Some(field) = self.object.fields.get(at) else {
                        self.phase = Phase::Done;
                        return Ok(None);
                    };
                    self.phase = Phase::Absent(at + 1);
                    if self.given.has(at) {
                        continue;
                    }
                    let decoder = &mut self.stream.decoder;
                    if field.required {
                        decoder.checker.missing_field(field);
                        continue;
                    }
                    decoder.checker.path_push_field(&field.name);
                    match decoder.default_value(field) {
                        Some(default) => {
                            self.pending = Pending::Default(default);
                            let handed: de::value::StrDeserializer<'_, A::Error> =
                                field.name.as_str().into_deserializer();
                            return seed.deserialize(handed).map(Some);
                        }
                        None => decoder.checker.path_pop(),
                    }
                }
                Phase::Done => return Ok(None),
            }
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        let pending = std::mem::replace(&mut self.pending, Pending::Nothing);
        let value = match pending {
            Pending::Nothing => return Err(de::Error::custom("a value asked for without its key")),
            Pending::Field(field) => self.map.next_value_seed(NodeSeed {
                stream: &mut *self.stream,
                schema: &field.schema,
                field: Some(field),
                seed,
            }),
            Pending::Extra(schema) => self.map.next_value_seed(NodeSeed {
                stream: &mut *self.stream,
                schema,
                field: None,
                seed,
            }),
            Pending::Default(default) => seed.deserialize(default).map_err(de::Error::custom),
            Pending::Kept => {
                let member = self.buffer_value()?;
                let kept = self.stream.decoder.any_value(member).unwrap_or(Value::Null);
                seed.deserialize(kept).map_err(de::Error::custom)
            }
        };
        self.stream.decoder.checker.path_pop();
        value
    }
}

/// The elements of a plain array, each at its index.
pub(super) struct Items<'s, 'm, A> {
    stream: &'s mut Stream<'m>,
    seq: A,
    array: &'m ArraySchema,
    count: usize,
    done: bool,
}

impl<'s, 'm, A> Items<'s, 'm, A> {
    /// The elements of `array`, read from `seq`.
    pub(super) fn new(stream: &'s mut Stream<'m>, seq: A, array: &'m ArraySchema) -> Self {
        Items {
            stream,
            seq,
            array,
            count: 0,
            done: false,
        }
    }

    /// The elements read so far.
    pub(super) fn count(&self) -> usize {
        self.count
    }

    /// Whether the array's end was read.
    pub(super) fn finished(&self) -> bool {
        self.done
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Items<'_, '_, A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.stream.decoder.checker.path_push_index(self.count);
        let element = self.seq.next_element_seed(NodeSeed {
            stream: &mut *self.stream,
            schema: self.array.item_schema(self.count),
            field: None,
            seed,
        });
        self.stream.decoder.checker.path_pop();
        match element? {
            Some(value) => {
                self.count += 1;
                Ok(Some(value))
            }
            None => {
                self.done = true;
                Ok(None)
            }
        }
    }
}

//! The streaming walk: argument text read once, by serde_json's reader, with the tool model
//! driving it, straight into the value wanted (a typed tool's Rust value, or the run-time
//! road's `serde_json::Value`). No tree of the whole text is built, no `Value` detour, no
//! second parse.
//!
//! It is the same walk as the tree walk of the parent module, over a stream instead of a
//! tree, and it applies the same rules by calling the same code:
//! - objects and plain arrays are walked as they are read: keys by name, alias or
//!   `key_case` ([`Decoder::exact_field`], [`Decoder::folded_field`]), `null_as_absent`,
//!   unknown keys, absent fields (`required` issues and defaults, [`Decoder::default_value`]),
//!   each member at its path;
//! - a scalar that fits its schema as sent is checked by the checker's own checks
//!   (`check_string`, `check_number`, `check_bool`) and handed on as read;
//! - everything else — a scalar to repair or refuse, a union, a value of any type, a map, a
//!   tuple, an array with `uniqueItems`, a string holding JSON, the root's `double_encoded`
//!   — is read into a small [`Json`] tree and decoded by the tree walk's [`Decoder::decode`],
//!   whose value is then handed on.
//!
//! Where the order of what is logged or reported would depend on members not yet read, the
//! stream stops and the caller gives the whole text to the tree walk, which decides with
//! every member in view: a key sent twice (equal or not), two keys that fold to one field,
//! a field sent by `key_case` before its exact name, an array outside its size bounds (its
//! issue comes before its elements'), a float anywhere but a `number` (only its digits tell
//! `5.0` from `4.9999999999999999`), a container past the depth limit, `propertyNames` or
//! `const` on a container, and text that is not strict JSON. A typed value also stops the
//! stream when the Rust type refuses what it is given after an issue (a stand-in for a
//! refused member it cannot take, a required field left out): the report is then the tree
//! walk's. The stream never decides differently from the tree walk; when it does not stop,
//! its value, repairs and issues are the tree walk's (`tests/tests/stream_agrees.rs` replays
//! every corpus call through both).

use std::borrow::Cow;

use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize as _;
use serde_json::{Map, Number, Value};

use super::Decoder;
use crate::decode::{Decoded, Options, Refused, Rule, UnknownKeys, MAX_DEPTH};
use crate::model::ToolModel;
use crate::model::{Additional, ArraySchema, Field, Json, Kind, ObjectSchema, ReadNotes, Schema};
use crate::num::Num;

/// What the streaming walk made of a text.
pub(crate) enum Streamed<T> {
    /// Accepted: the value and its repairs.
    Accepted(Decoded<T>),
    /// Refused: every issue (the same as the tree walk's).
    Refused(Refused),
    /// The tree walk must decide (see the module's documentation).
    Stopped,
}

/// Walks strict JSON `text` against `model` into a `T`.
pub(crate) fn stream_text<T: de::DeserializeOwned>(
    model: &ToolModel,
    text: &[u8],
    options: &Options,
) -> Streamed<T> {
    let mut stream = Stream {
        decoder: Decoder::new(model, options, Vec::new()),
        stopped: false,
    };
    let mut reader = serde_json::Deserializer::from_slice(text);
    let walker = Walker {
        stream: &mut stream,
        inner: &mut reader,
        schema: model.input(),
        field: None,
        root: true,
    };
    let read = T::deserialize(walker);
    if stream.stopped {
        return Streamed::Stopped;
    }
    // serde_json's errors (not JSON, cut off, a number past `f64`) and a Rust type that
    // refuses what it was given: the tree walk reads the text again and says which.
    let (Ok(value), Ok(())) = (read, reader.end()) else {
        return Streamed::Stopped;
    };
    let (report, repairs) = stream.decoder.finish();
    if report.is_empty() {
        Streamed::Accepted(Decoded { value, repairs })
    } else {
        Streamed::Refused(Refused { report, repairs })
    }
}

/// The run-time road's value: a JSON value, or nothing where a member is absent
/// (`null_as_absent`), so it can be left out of its object.
pub(crate) struct Walked(pub(crate) Option<Value>);

/// The message of the error that stops the stream (never shown: the tree walk decides).
const STOP: &str = "the streaming walk leaves this input to the tree walk";

struct Stream<'m> {
    decoder: Decoder<'m>,
    stopped: bool,
}

impl Stream<'_> {
    fn stop<E: de::Error>(&mut self) -> E {
        self.stopped = true;
        E::custom(STOP)
    }

    /// Containers still allowed below the value being walked (itself included).
    fn room(&self) -> usize {
        self.decoder
            .options
            .max_depth
            .min(MAX_DEPTH)
            .saturating_sub(self.decoder.depth)
    }

    /// Reads the value `read` gives into a tree; floats (whose digits count) and values
    /// past the depth limit stop the stream.
    fn buffer<E: de::Error>(
        &mut self,
        read: impl FnOnce(usize, &ReadNotes) -> Result<Json, E>,
    ) -> Result<Json, E> {
        let notes = ReadNotes::default();
        let json = read(self.room(), &notes);
        if notes.floats_read.get() || notes.too_deep.get() {
            return Err(self.stop());
        }
        json
    }
}

/// What the type being built asked its deserializer for, where it matters for what it is
/// handed.
#[derive(Clone, Copy)]
enum Asked {
    Any,
    Option,
    Enum(&'static [&'static str]),
}

/// The deserializer a type reads one value from: serde_json's, with the value's schema.
struct Walker<'s, 'm, D> {
    stream: &'s mut Stream<'m>,
    inner: D,
    schema: &'m Schema,
    /// The field this value is the member of, for `null_as_absent`.
    field: Option<&'m Field>,
    root: bool,
}

impl<'s, 'm, D> Walker<'s, 'm, D> {
    fn visitor<V>(self, outer: V, asked: Asked) -> (D, NodeVisitor<'s, 'm, V>) {
        let visitor = NodeVisitor {
            stream: self.stream,
            schema: self.schema,
            field: self.field,
            root: self.root,
            outer,
            asked,
        };
        (self.inner, visitor)
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Walker<'_, '_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, visitor) = self.visitor(visitor, Asked::Any);
        inner.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, visitor) = self.visitor(visitor, Asked::Option);
        inner.deserialize_option(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (inner, visitor) = self.visitor(visitor, Asked::Enum(variants));
        inner.deserialize_any(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// Hands a member's deserializer, wrapped, to the type's own seed.
struct NodeSeed<'s, 'm, S> {
    stream: &'s mut Stream<'m>,
    schema: &'m Schema,
    field: Option<&'m Field>,
    seed: S,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for NodeSeed<'_, '_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, inner: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Walker {
            stream: self.stream,
            inner,
            schema: self.schema,
            field: self.field,
            root: false,
        })
    }
}

/// Sees what serde_json read at one value and hands the type what the rules make of it.
struct NodeVisitor<'s, 'm, V> {
    stream: &'s mut Stream<'m>,
    schema: &'m Schema,
    field: Option<&'m Field>,
    root: bool,
    outer: V,
    asked: Asked,
}

impl<'de, 'm, V: Visitor<'de>> NodeVisitor<'_, 'm, V> {
    /// The schema's kind, when it resolves.
    fn kind(&self) -> Option<&'m Kind> {
        self.stream
            .decoder
            .model
            .resolve(self.schema)
            .map(|schema| &schema.kind)
    }

    /// Hands the type a value the rules made (what `serde_json::from_value` would).
    fn emit<E: de::Error>(self, value: Value) -> Result<V::Value, E> {
        let handed = match self.asked {
            Asked::Any => value.deserialize_any(self.outer),
            Asked::Option => value.deserialize_option(self.outer),
            Asked::Enum(variants) => value.deserialize_enum("", variants, self.outer),
        };
        handed.map_err(E::custom)
    }

    /// Hands a string on as read.
    fn emit_str<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        match self.asked {
            Asked::Enum(_) => self.outer.visit_enum(text.into_deserializer()),
            _ => self.outer.visit_str(text),
        }
    }

    /// The tree walk's decision on a value read into a tree.
    fn delegate<E: de::Error>(self, json: Json) -> Result<V::Value, E> {
        let decoder = &mut self.stream.decoder;
        let decoded = if self.root {
            decoder.root(json)
        } else {
            decoder.decode(json, self.schema)
        };
        match decoded {
            Some(value) => self.emit(value),
            // Refused (with its issue): a stand-in of the type wanted keeps the walk going,
            // so every issue is found in one pass; if the type cannot take it, it stops.
            None => {
                let stand_in = self.stand_in();
                self.emit(stand_in)
            }
        }
    }

    /// A value of the kind the schema wants, for a refused member.
    fn stand_in(&self) -> Value {
        if let Asked::Enum(variants) = self.asked {
            return variants.first().map_or(Value::Null, |&v| Value::from(v));
        }
        match self.kind() {
            Some(Kind::String(_)) => Value::from(""),
            Some(Kind::Integer(_) | Kind::Number(_)) => Value::from(0),
            Some(Kind::Boolean) => Value::Bool(false),
            Some(Kind::Array(_)) => Value::Array(Vec::new()),
            Some(Kind::Object(_) | Kind::Map(_)) => Value::Object(Map::new()),
            Some(Kind::Enum(enumeration)) => enumeration
                .values
                .first()
                .map_or(Value::Null, |v| v.value.clone()),
            _ => Value::Null,
        }
    }

    fn string<E: de::Error>(self, text: Cow<'_, str>) -> Result<V::Value, E> {
        // A string at the root may be the whole arguments, `double_encoded`.
        let kind = if self.root { None } else { self.kind() };
        let sent_as_is = match kind {
            Some(Kind::String(_)) => {
                self.stream.decoder.checker.check_string(&text, self.schema);
                true
            }
            Some(Kind::Enum(enumeration)) => {
                match self.stream.decoder.model.enum_index(enumeration) {
                    Some(index) => index.string(&text).is_some(),
                    None => enumeration
                        .values
                        .iter()
                        .any(|v| v.value.as_str() == Some(&*text)),
                }
            }
            _ => false,
        };
        if sent_as_is {
            return self.emit_str(&text);
        }
        self.delegate(Json::String(text.into_owned()))
    }

    fn integer<E: de::Error>(self, number: Number) -> Result<V::Value, E> {
        if !matches!(self.kind(), Some(Kind::Integer(_) | Kind::Number(_))) {
            return self.delegate(Json::Number(number));
        }
        let decoder = &mut self.stream.decoder;
        decoder
            .checker
            .check_number(Num::from_json(&number), self.schema);
        match (number.as_u64(), number.as_i64(), self.asked) {
            (Some(n), _, Asked::Any) => self.outer.visit_u64(n),
            (None, Some(n), Asked::Any) => self.outer.visit_i64(n),
            _ => self.emit(Value::Number(number)),
        }
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for NodeVisitor<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<V::Value, E> {
        if matches!(self.kind(), Some(Kind::Boolean)) && matches!(self.asked, Asked::Any) {
            self.stream.decoder.checker.check_bool(flag, self.schema);
            return self.outer.visit_bool(flag);
        }
        self.delegate(Json::Bool(flag))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<V::Value, E> {
        self.integer(n.into())
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<V::Value, E> {
        self.integer(n.into())
    }

    fn visit_f64<E: de::Error>(self, float: f64) -> Result<V::Value, E> {
        // Only a `number` takes a float as read: elsewhere its digits decide (an integer,
        // a string of its text), and serde_json has kept only the float. `-0` is the
        // integer 0 to the tree walk.
        let plain = float.is_finite() && !(float == 0.0 && float.is_sign_negative());
        let number = Number::from_f64(float).filter(|_| plain);
        match (self.kind(), number) {
            (Some(Kind::Number(_)), Some(number)) => {
                let decoder = &mut self.stream.decoder;
                decoder
                    .checker
                    .check_number(Num::from_json(&number), self.schema);
                match self.asked {
                    Asked::Any => self.outer.visit_f64(float),
                    _ => self.emit(Value::Number(number)),
                }
            }
            _ => Err(self.stream.stop()),
        }
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<V::Value, E> {
        self.string(Cow::Borrowed(text))
    }

    fn visit_string<E: de::Error>(self, text: String) -> Result<V::Value, E> {
        self.string(Cow::Owned(text))
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        if let Some(field) = self.field {
            let decoder = &mut self.stream.decoder;
            if !field.required
                && !decoder.model.accepts_null(&field.schema)
                && decoder.allows(Rule::NullAsAbsent)
            {
                decoder.repair(Rule::NullAsAbsent, Value::Null, Value::Null);
                return match decoder.default_value(field) {
                    Some(default) => self.emit(default),
                    None => self.outer.visit_none(),
                };
            }
        }
        self.delegate(Json::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, inner: D) -> Result<V::Value, D::Error> {
        self.outer.visit_some(Walker {
            stream: self.stream,
            inner,
            schema: self.schema,
            field: self.field,
            root: self.root,
        })
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let streamed = match self.kind() {
            Some(Kind::Object(object)) if self.streams(object.property_names.is_none()) => {
                Some(object)
            }
            _ => None,
        };
        let Some(object) = streamed else {
            let json = self
                .stream
                .buffer(|room, notes| crate::model::read_map(map, room, notes))?;
            return self.delegate(json);
        };
        if self.stream.room() == 0 {
            return Err(self.stream.stop());
        }
        let NodeVisitor { stream, outer, .. } = self;
        let outer_trials = stream.decoder.enter();
        let mut access = Members {
            stream: &mut *stream,
            map,
            object,
            given: FieldSet::new(object.fields.len()),
            by_case: FieldSet::new(object.fields.len()),
            unknown_seen: KeysSeen::default(),
            pending: Pending::Nothing,
            phase: Phase::Members,
        };
        let handed = outer.visit_map(&mut access);
        let done = matches!(access.phase, Phase::Done);
        stream.decoder.leave(outer_trials);
        let value = handed?;
        if !done {
            return Err(stream.stop());
        }
        Ok(value)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let streamed = match self.kind() {
            Some(Kind::Array(array))
                if self.streams(
                    array.tuple_length().is_none()
                        && array.prefix_items.is_empty()
                        && !array.unique_items,
                ) =>
            {
                Some(array)
            }
            _ => None,
        };
        let Some(array) = streamed else {
            let json = self
                .stream
                .buffer(|room, notes| crate::model::read_seq(seq, room, notes))?;
            return self.delegate(json);
        };
        if self.stream.room() == 0 {
            return Err(self.stream.stop());
        }
        let NodeVisitor { stream, outer, .. } = self;
        let outer_trials = stream.decoder.enter();
        let mut access = Items {
            stream: &mut *stream,
            seq,
            array,
            count: 0,
            done: false,
        };
        let handed = outer.visit_seq(&mut access);
        let (count, done) = (access.count as u64, access.done);
        stream.decoder.leave(outer_trials);
        let value = handed?;
        let outside = array.min_items.is_some_and(|min| count < min)
            || array.max_items.is_some_and(|max| count > max);
        if !done || outside {
            return Err(stream.stop());
        }
        Ok(value)
    }
}

impl<V> NodeVisitor<'_, '_, V> {
    /// Whether a container is walked as it is read: its schema's other conditions hold, it
    /// has no `const`, and the type asked for it as any value (not as an enum).
    fn streams(&self, conditions: bool) -> bool {
        conditions
            && matches!(self.asked, Asked::Any)
            && self
                .stream
                .decoder
                .model
                .resolve(self.schema)
                .is_some_and(|schema| schema.constant.is_none())
    }
}

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
    many: std::collections::HashSet<String>,
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
        self.many.insert(key.to_owned())
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
struct Members<'s, 'm, A> {
    stream: &'s mut Stream<'m>,
    map: A,
    object: &'m ObjectSchema,
    given: FieldSet,
    by_case: FieldSet,
    unknown_seen: KeysSeen,
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

impl<'de, 'm, A: MapAccess<'de>> Members<'_, 'm, A> {
    fn key_is(&mut self, key: &str) -> KeyIs {
        let decoder = &mut self.stream.decoder;
        if let Some(at) = decoder.exact_field(key, self.object) {
            return if self.given.has(at) {
                KeyIs::Undecided
            } else {
                self.given.set(at);
                KeyIs::Field(at)
            };
        }
        match decoder.folded_field(key, self.object) {
            Some(at) if self.by_case.has(at) => KeyIs::Undecided,
            Some(at) if !self.given.has(at) => {
                self.given.set(at);
                self.by_case.set(at);
                let field = &self.object.fields[at];
                decoder.checker.path_push_field(&field.name);
                decoder.repair(
                    Rule::KeyCase,
                    Value::String(key.to_owned()),
                    Value::String(field.name.clone()),
                );
                decoder.checker.path_pop();
                KeyIs::Field(at)
            }
            _ => KeyIs::Unknown,
        }
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
struct Items<'s, 'm, A> {
    stream: &'s mut Stream<'m>,
    seq: A,
    array: &'m ArraySchema,
    count: usize,
    done: bool,
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

impl<'de> de::Deserialize<'de> for Walked {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(WalkedVisitor)
    }
}

struct WalkedVisitor;

impl<'de> Visitor<'de> for WalkedVisitor {
    type Value = Walked;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_none<E>(self) -> Result<Walked, E> {
        Ok(Walked(None))
    }

    fn visit_unit<E>(self) -> Result<Walked, E> {
        Ok(Walked(Some(Value::Null)))
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Walked, D::Error> {
        Walked::deserialize(deserializer)
    }

    fn visit_bool<E>(self, flag: bool) -> Result<Walked, E> {
        Ok(Walked(Some(Value::Bool(flag))))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Walked, E> {
        Ok(Walked(Some(n.into())))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Walked, E> {
        Ok(Walked(Some(n.into())))
    }

    fn visit_f64<E: de::Error>(self, float: f64) -> Result<Walked, E> {
        Number::from_f64(float)
            .map(|n| Walked(Some(Value::Number(n))))
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E>(self, text: &str) -> Result<Walked, E> {
        Ok(Walked(Some(Value::String(text.to_owned()))))
    }

    fn visit_string<E>(self, text: String) -> Result<Walked, E> {
        Ok(Walked(Some(Value::String(text))))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Walked, A::Error> {
        let mut items = Vec::new();
        while let Some(Walked(item)) = seq.next_element()? {
            items.extend(item);
        }
        Ok(Walked(Some(Value::Array(items))))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Walked, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if let Walked(Some(value)) = map.next_value()? {
                members.insert(key, value);
            }
        }
        Ok(Walked(Some(Value::Object(members))))
    }
}

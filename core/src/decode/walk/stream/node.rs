//! What the stream does at one value: a scalar that fits as sent checked and handed on, a
//! container walked as it is read, everything else decided by the tree walk.

use std::borrow::Cow;

use serde::de::{self, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::members::{Items, Members};
use super::{Asked, Stream, Walker};
use crate::decode::walk::object::null_as_absent;
use crate::model::{enum_contains_str_in, Field, Json, Kind, Schema};
use crate::num::Num;
use crate::plan::Node;

/// Sees what serde_json read at one value and hands the type what the rules make of it.
pub(super) struct NodeVisitor<'s, 'm, V> {
    stream: &'s mut Stream<'m>,
    node: Node<'m>,
    field: Option<&'m Field>,
    root: bool,
    outer: V,
    asked: Asked,
}

impl<'de, 'm, V: Visitor<'de>> NodeVisitor<'_, 'm, V> {
    /// The schema's kind, when it resolves.
    fn kind(&self) -> Option<&'m Kind> {
        self.node.resolved.map(|schema| &schema.kind)
    }

    /// The schema a scalar is checked against: the resolved one (where [`Self::kind`] said
    /// what it is, it resolved; the checks report a reference that leads nowhere).
    fn checked_schema(&self) -> &'m Schema {
        self.node.resolved.unwrap_or(self.node.schema)
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
            decoder.decode(json, self.node)
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
                let resolved = self.checked_schema();
                self.stream.decoder.checker.check_string(&text, resolved);
                true
            }
            Some(Kind::Enum(enumeration)) => {
                let table = self.node.enum_table(self.stream.decoder.model);
                enum_contains_str_in(table, enumeration, &text)
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
        let resolved = self.checked_schema();
        let decoder = &mut self.stream.decoder;
        decoder
            .checker
            .check_number(Num::from_json(&number), resolved);
        match (number.as_u64(), number.as_i64(), self.asked) {
            (Some(n), _, Asked::Any) => self.outer.visit_u64(n),
            (None, Some(n), Asked::Any) => self.outer.visit_i64(n),
            _ => self.emit(Value::Number(number)),
        }
    }
}

/// 2^63 and 2^64: a `serde_json::Value` carries integers in `-2^63..2^64`; a float at or past
/// either end may have been such an integer's digits (`-2^63 - 1` reads as `-2^63`).
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
const TWO_POW_64: f64 = 18_446_744_073_709_551_616.0;

impl<'de, V: Visitor<'de>> Visitor<'de> for NodeVisitor<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<V::Value, E> {
        if matches!(self.kind(), Some(Kind::Boolean)) && matches!(self.asked, Asked::Any) {
            let resolved = self.checked_schema();
            self.stream.decoder.checker.check_bool(flag, resolved);
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
        // A `number` takes a float as read. Elsewhere its digits decide (an integer, a string
        // of its text), and serde_json has kept only the float: an integer takes it from the
        // tree walk's rules where the text's digits are known to agree with the float
        // (`Stream::floats_are_exact`); else the tree walk reads the digits. `-0` is the
        // integer 0 to the tree walk.
        let plain = float.is_finite() && !(float == 0.0 && float.is_sign_negative());
        let number = Number::from_f64(float).filter(|_| plain);
        match (self.kind(), number) {
            (Some(Kind::Integer(_)), Some(number)) if self.stream.floats_are_exact() => {
                self.delegate(Json::Number(number))
            }
            // An integral float past what an `i64` or `u64` holds may be an integer written as
            // one, which serde_json read through a float: its digits decide (refused, never
            // rounded), so the tree walk reads them.
            (Some(Kind::Number(_)), Some(_))
                if float.fract() == 0.0 && !(float > -TWO_POW_63 && float < TWO_POW_64) =>
            {
                Err(self.stream.stop())
            }
            (Some(Kind::Number(_)), Some(number)) => {
                let resolved = self.checked_schema();
                let decoder = &mut self.stream.decoder;
                decoder
                    .checker
                    .check_number(Num::from_json(&number), resolved);
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
            if let Some(filled) = null_as_absent(&mut self.stream.decoder, field, self.node) {
                return match filled {
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
            node: self.node,
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
                .buffer(|room, notes| crate::model::json_reader(room, notes).visit_map(map))?;
            return self.delegate(json);
        };
        if self.stream.room() == 0 {
            return Err(self.stream.stop());
        }
        let NodeVisitor {
            stream,
            outer,
            root,
            node,
            ..
        } = self;
        let outer_trials = stream.decoder.enter();
        let mut access = Members::new(&mut *stream, map, object, node);
        let handed = outer.visit_map(&mut access);
        let done = access.finished();
        stream.decoder.leave(outer_trials);
        stream.root_walked |= root && done;
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
                .buffer(|room, notes| crate::model::json_reader(room, notes).visit_seq(seq))?;
            return self.delegate(json);
        };
        if self.stream.room() == 0 {
            return Err(self.stream.stop());
        }
        let NodeVisitor {
            stream,
            outer,
            node,
            ..
        } = self;
        let outer_trials = stream.decoder.enter();
        let mut access = Items::new(&mut *stream, seq, array, node);
        let handed = outer.visit_seq(&mut access);
        let (count, done) = (access.count() as u64, access.finished());
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

impl<'s, 'm, D> Walker<'s, 'm, D> {
    /// The visitor of this value.
    pub(super) fn visitor<V>(self, outer: V, asked: Asked) -> (D, NodeVisitor<'s, 'm, V>) {
        let visitor = NodeVisitor {
            stream: self.stream,
            node: self.node,
            field: self.field,
            root: self.root,
            outer,
            asked,
        };
        (self.inner, visitor)
    }
}

impl<V> NodeVisitor<'_, '_, V> {
    /// Whether a container is walked as it is read: its schema's other conditions hold, it
    /// has no `const`, and the type asked for it as any value (not as an enum).
    fn streams(&self, conditions: bool) -> bool {
        conditions
            && matches!(self.asked, Asked::Any)
            && self
                .node
                .resolved
                .is_some_and(|schema| schema.constant.is_none())
    }
}

//! [`Json`]: a JSON value that keeps the order of object keys, for reading schemas whose
//! `properties` order is the order fields are shown in. `serde_json::Value` sorts keys
//! (without serde_json's `preserve_order` feature, which toolgate does not force on its users).

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

mod schema_text;

/// A JSON value with object keys in document order (duplicates are kept, so the schema
/// reader can refuse them).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A number whose text has a fraction that its nearest `f64` lost (`4.9999999999999999`,
    /// `1e-400`): an integral `f64` read from digits that are not an integer. Where any
    /// number is wanted it is that `f64`, as every JSON reader gives it; it is never taken
    /// for an integer, a boolean or an enum value (that would round it into another value).
    /// Only argument text is read into it.
    RoundedNumber(Number),
    /// A number whose value is exact but whose text is not how JSON writers spell that value
    /// (`1e3`, `5.00`, `1E-7`, `-0`): the value, and the text as it was sent. It is that
    /// number wherever a number is wanted; the text is kept for `scalar_to_string`, which
    /// writes a number where a string is wanted as it was sent (`"1e3"`, not `"1000.0"`).
    /// Only argument text is read into it (see [`Json::from_number_text`]).
    SpelledNumber(Number, Box<str>),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, keys in document order.
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object (the first, if repeated).
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// The JSON type name of this value (`"integer"` for integral numbers).
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "boolean",
            Json::Number(n) | Json::SpelledNumber(n, _) if n.is_i64() || n.is_u64() => "integer",
            Json::Number(_) | Json::RoundedNumber(_) | Json::SpelledNumber(..) => "number",
            Json::String(_) => "string",
            Json::Array(_) => "array",
            Json::Object(_) => "object",
        }
    }

    /// This value as a `serde_json::Value`, moving its strings (key order is then
    /// serde_json's; of repeated keys the last wins).
    pub fn into_value(self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(b),
            Json::Number(n) | Json::RoundedNumber(n) | Json::SpelledNumber(n, _) => {
                Value::Number(n)
            }
            Json::String(s) => Value::String(s),
            Json::Array(items) => Value::Array(items.into_iter().map(Json::into_value).collect()),
            Json::Object(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k, v.into_value()))
                    .collect(),
            ),
        }
    }

    /// This value as a `serde_json::Value` (key order is then serde_json's).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) | Json::RoundedNumber(n) | Json::SpelledNumber(n, _) => {
                Value::Number(n.clone())
            }
            Json::String(s) => Value::String(s.clone()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_value()))
                    .collect(),
            ),
        }
    }
}

/// Written as JSON with object members in their order (repeated keys are written as they are).
impl serde::Serialize for Json {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) | Json::RoundedNumber(n) | Json::SpelledNumber(n, _) => {
                n.serialize(serializer)
            }
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

/// Compact JSON text, members in their order.
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serde_json::to_string(self).map_err(|_| fmt::Error)?)
    }
}

impl From<&Value> for Json {
    fn from(value: &Value) -> Self {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.clone()),
            Value::String(s) => Json::String(s.clone()),
            Value::Array(items) => Json::Array(items.iter().map(Json::from).collect()),
            Value::Object(members) => Json::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), Json::from(v)))
                    .collect(),
            ),
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor {
            containers_left: usize::MAX,
            notes: None,
        })
    }
}

/// The error message of a value nested deeper than a [`JsonSeed`] allows.
pub const TOO_DEEP: &str = "the value is nested deeper than the limit";

/// Reads a [`Json`] holding at most `max_depth` nested containers (arrays and objects),
/// refusing deeper ones as soon as they open, so the reader's recursion is bounded by
/// `max_depth` even when the deserializer's own limit is off.
#[derive(Clone, Copy, Debug)]
pub struct JsonSeed {
    /// How many containers may nest.
    pub max_depth: usize,
}

impl<'de> DeserializeSeed<'de> for JsonSeed {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor {
            containers_left: self.max_depth,
            notes: None,
        })
    }
}

/// What an [`ArgumentSeed`] noticed while it read, beside the value or the error.
#[derive(Default)]
pub(crate) struct ReadNotes {
    /// Some float was read: the text of floats is looked at again ([`mark_number_texts`]),
    /// since only the digits tell an integer from a rounded one (`5.0` from
    /// `4.9999999999999999`) and `1e3` from `1000.0`.
    pub(crate) floats_read: std::cell::Cell<bool>,
    /// The read stopped at a container past the depth limit: the error is that, whatever
    /// the deserializer made of it (its error type carries only a message).
    pub(crate) too_deep: std::cell::Cell<bool>,
}

/// A [`JsonSeed`] that takes [`ReadNotes`].
pub(crate) struct ArgumentSeed<'f> {
    pub(crate) max_depth: usize,
    pub(crate) notes: &'f ReadNotes,
}

impl<'de> DeserializeSeed<'de> for ArgumentSeed<'_> {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(JsonVisitor {
            containers_left: self.max_depth,
            notes: Some(self.notes),
        })
    }
}

/// Goes over the floats of `json`, read from the strict JSON `text`, with their texts, as
/// [`Json::from_number_text`] reads them (serde_json gives only the float).
pub(crate) fn mark_number_texts(json: &mut Json, text: &[u8]) {
    each_number(json, text, &mut |json, token, _| {
        if let Json::Number(number) = json {
            if number.is_f64() {
                *json = Json::from_number_text(number.clone(), token);
            }
        }
    });
}

/// A step of the way to a value: an object's key or an array's index.
pub(crate) enum Step<'j> {
    Key(&'j str),
    Index(usize),
}

/// Calls `visit` with each [`Json::Number`] of `json` (read from the strict JSON `text`),
/// its token and the way to it, in document order: the one place numbers are paired with
/// their texts. A number already paired (`RoundedNumber`, `SpelledNumber`) takes its token
/// without a call. Recursive: `json` was read within serde_json's nesting limit.
pub(crate) fn each_number<'t>(
    json: &mut Json,
    text: &'t [u8],
    visit: &mut dyn FnMut(&mut Json, &'t str, &[Step<'_>]),
) {
    fn walk<'j, 't>(
        json: &'j mut Json,
        path: &mut Vec<Step<'j>>,
        tokens: &mut impl Iterator<Item = &'t [u8]>,
        visit: &mut dyn FnMut(&mut Json, &'t str, &[Step<'_>]),
    ) {
        match json {
            Json::Number(_) => {
                let Some(token) = tokens.next() else { return };
                visit(json, std::str::from_utf8(token).unwrap_or(""), path);
            }
            Json::RoundedNumber(_) | Json::SpelledNumber(..) => {
                tokens.next();
            }
            Json::Array(items) => {
                for (index, item) in items.iter_mut().enumerate() {
                    path.push(Step::Index(index));
                    walk(item, path, tokens, visit);
                    path.pop();
                }
            }
            Json::Object(members) => {
                for (key, member) in members.iter_mut() {
                    let key: &'j String = key;
                    path.push(Step::Key(key));
                    walk(member, path, tokens, visit);
                    path.pop();
                }
            }
            Json::Null | Json::Bool(_) | Json::String(_) => {}
        }
    }
    walk(json, &mut Vec::new(), &mut number_tokens(text), visit);
}

/// The number tokens of strict JSON text, in document order.
fn number_tokens(text: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < text.len() {
            match text[at] {
                b'"' => {
                    at += 1;
                    while at < text.len() && text[at] != b'"' {
                        at += if text[at] == b'\\' { 2 } else { 1 };
                    }
                    at += 1;
                }
                b'-' | b'0'..=b'9' => {
                    let start = at;
                    while at < text.len()
                        && matches!(text[at], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                    {
                        at += 1;
                    }
                    return Some(&text[start..at]);
                }
                _ => at += 1,
            }
        }
        None
    })
}

impl Json {
    /// The number `number` that serde_json read from the argument text `token`, with what
    /// its text says that the number alone does not:
    /// - an integral float from digits that are not an integer (`4.9999999999999999`) is a
    ///   [`Json::RoundedNumber`];
    /// - `-0` (serde_json's float `-0.0`) is the integer 0, spelled `-0`;
    /// - a float whose text is not serde_json's spelling of it (`1e3`, `5.00`) is a
    ///   [`Json::SpelledNumber`] with that text;
    /// - anything else is a [`Json::Number`] (an integer has no other spelling in JSON).
    ///
    /// ```
    /// # use toolgate_core::model::Json;
    /// let read = |text: &str| Json::from_number_text(text.parse().unwrap(), text);
    /// let float = |f| serde_json::Number::from_f64(f).unwrap();
    /// assert_eq!(read("1e3"), Json::SpelledNumber(float(1000.0), "1e3".into()));
    /// assert_eq!(read("35.6"), Json::Number(float(35.6)));
    /// assert_eq!(read("7"), Json::Number(7.into()));
    /// ```
    pub fn from_number_text(number: Number, token: &str) -> Json {
        let Some(float) = number.as_f64().filter(|_| number.is_f64()) else {
            return Json::Number(number);
        };
        if float.fract() == 0.0 {
            if !crate::num::decimal_is_integral(token) {
                return Json::RoundedNumber(number);
            }
            if float == 0.0 && !token.contains(['.', 'e', 'E']) {
                return Json::SpelledNumber(0.into(), token.into());
            }
        }
        // serde_json writes a float with ryu's shortest form, as here.
        if ryu::Buffer::new().format_finite(float) == token {
            Json::Number(number)
        } else {
            Json::SpelledNumber(number, token.into())
        }
    }

    /// How many values this one holds, itself included, counted up to `most` (past it,
    /// `most` is returned), without recursion.
    pub fn size_up_to(&self, most: usize) -> usize {
        let mut count = 0;
        let mut pending = vec![self];
        while let Some(json) = pending.pop() {
            count += 1;
            if count >= most {
                return most;
            }
            match json {
                Json::Array(items) => pending.extend(items),
                Json::Object(members) => pending.extend(members.iter().map(|(_, member)| member)),
                _ => {}
            }
        }
        count
    }

    /// How deeply containers nest in this value (a scalar is 0), counted without recursion.
    pub fn depth(&self) -> usize {
        let mut deepest = 0;
        let mut pending = vec![(self, 0usize)];
        while let Some((json, depth)) = pending.pop() {
            match json {
                Json::Array(items) => pending.extend(items.iter().map(|item| (item, depth + 1))),
                Json::Object(members) => {
                    pending.extend(members.iter().map(|(_, member)| (member, depth + 1)))
                }
                _ => {}
            }
            if matches!(json, Json::Array(_) | Json::Object(_)) {
                deepest = deepest.max(depth + 1);
            }
        }
        deepest
    }
}

/// How deeply containers nest in a `serde_json::Value`, counted without recursion.
pub fn value_depth(value: &Value) -> usize {
    value_depth_past(value, usize::MAX)
}

/// Whether `value` is nested at most `most` levels (as [`value_depth`] counts them); a
/// deeper value is found at its first container past `most`, not walked whole.
pub fn depth_within(value: &Value, most: usize) -> bool {
    value_depth_past(value, most) <= most
}

/// The depth of `value`, or a depth past `most` as soon as one is found.
fn value_depth_past(value: &Value, most: usize) -> usize {
    let mut deepest = 0;
    let mut pending = vec![(value, 0usize)];
    while let Some((value, depth)) = pending.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(members) => Box::new(members.values()),
            _ => continue,
        };
        deepest = deepest.max(depth + 1);
        if deepest > most {
            return deepest;
        }
        pending.extend(children.map(|child| (child, depth + 1)));
    }
    deepest
}

pub(crate) struct JsonVisitor<'f> {
    containers_left: usize,
    notes: Option<&'f ReadNotes>,
}

impl<'f> JsonVisitor<'f> {
    fn inner(&self) -> InnerSeed<'f> {
        InnerSeed(JsonVisitor {
            containers_left: self.containers_left - 1,
            notes: self.notes,
        })
    }
}

impl JsonVisitor<'_> {
    /// The error of a container past the limit, noted where notes are taken.
    fn too_deep<E: de::Error>(&self) -> E {
        if let Some(notes) = self.notes {
            notes.too_deep.set(true);
        }
        E::custom(TOO_DEEP)
    }
}

/// The visitor that reads the rest of a map or sequence whose opening another visitor was
/// given into a [`Json`] (through `visit_map` / `visit_seq`), with `max_depth` containers
/// allowed (the container itself counts) and what it reads past noted in `notes`.
pub(crate) fn json_reader(max_depth: usize, notes: &ReadNotes) -> JsonVisitor<'_> {
    JsonVisitor {
        containers_left: max_depth,
        notes: Some(notes),
    }
}

struct InnerSeed<'f>(JsonVisitor<'f>);

impl<'de> DeserializeSeed<'de> for InnerSeed<'_> {
    type Value = Json;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(self.0)
    }
}

impl<'de> Visitor<'de> for JsonVisitor<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Json, E> {
        if let Some(notes) = self.notes {
            notes.floats_read.set(true);
        }
        Number::from_f64(v)
            .map(Json::Number)
            .ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        if self.containers_left == 0 {
            return Err(self.too_deep());
        }
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.inner())? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        if self.containers_left == 0 {
            return Err(self.too_deep());
        }
        let mut members = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self.inner())?;
            members.push((key, value));
        }
        Ok(Json::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_key_order_and_duplicates() {
        let json: Json = serde_json::from_str(r#"{"z": 1, "a": [true, null], "z": "x"}"#).unwrap();
        let Json::Object(members) = &json else {
            panic!("not an object")
        };
        let keys: Vec<_> = members.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["z", "a", "z"]);
        assert_eq!(json.get("z"), Some(&Json::Number(1.into())));
        assert_eq!(json.get("a").unwrap().type_name(), "array");
    }

    #[test]
    fn seeds_bound_the_depth() {
        let read = |text: &str, max_depth| {
            let mut deserializer = serde_json::Deserializer::from_str(text);
            JsonSeed { max_depth }
                .deserialize(&mut deserializer)
                .map_err(|e| e.to_string())
        };
        assert!(read(r#"{"x": [[1]]}"#, 3).is_ok());
        assert!(read(r#"{"x": [[1]]}"#, 2)
            .unwrap_err()
            .starts_with(TOO_DEEP));
        let deep = "[".repeat(100_000);
        assert!(read(&deep, 100).unwrap_err().starts_with(TOO_DEEP));
        assert_eq!(read(r#"{"x": [[1]]}"#, 9).unwrap().depth(), 3);
        assert_eq!(value_depth(&serde_json::json!({"a": [1, {"b": []}]})), 4);
        assert!(depth_within(&serde_json::json!({"a": [1, {"b": []}]}), 4));
        assert!(!depth_within(&serde_json::json!({"a": [1, {"b": []}]}), 3));
    }

    #[test]
    fn converts_both_ways() {
        let value = serde_json::json!({"a": [1, 2.5, "s", null, {"b": false}]});
        assert_eq!(Json::from(&value).to_value(), value);
    }
}

//! [`Json`]: a JSON value that keeps the order of object keys, for reading schemas whose
//! `properties` order is the order fields are shown in. `serde_json::Value` sorts keys
//! (without serde_json's `preserve_order` feature, which toolgate does not force on its users).

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

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
            Json::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Json::Number(_) => "number",
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
            Json::Number(n) => Value::Number(n),
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
            Json::Number(n) => Value::Number(n.clone()),
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
        })
    }
}

impl Json {
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
    let mut deepest = 0;
    let mut pending = vec![(value, 0usize)];
    while let Some((value, depth)) = pending.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match value {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(members) => Box::new(members.values()),
            _ => continue,
        };
        deepest = deepest.max(depth + 1);
        pending.extend(children.map(|child| (child, depth + 1)));
    }
    deepest
}

struct JsonVisitor {
    containers_left: usize,
}

impl JsonVisitor {
    fn inner(&self) -> JsonSeed {
        JsonSeed {
            max_depth: self.containers_left - 1,
        }
    }
}

impl<'de> Visitor<'de> for JsonVisitor {
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
            return Err(de::Error::custom(TOO_DEEP));
        }
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self.inner())? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        if self.containers_left == 0 {
            return Err(de::Error::custom(TOO_DEEP));
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
            deserializer.disable_recursion_limit();
            JsonSeed { max_depth }
                .deserialize(&mut deserializer)
                .map_err(|e| e.to_string())
        };
        assert!(read(r#"{"x": [[1]]}"#, 3).is_ok());
        assert!(read(r#"{"x": [[1]]}"#, 2)
            .unwrap_err()
            .starts_with(TOO_DEEP));
        let deep = "[".repeat(100_000);
        assert!(read(&deep, 128).unwrap_err().starts_with(TOO_DEEP));
        assert_eq!(read(r#"{"x": [[1]]}"#, 9).unwrap().depth(), 3);
        assert_eq!(value_depth(&serde_json::json!({"a": [1, {"b": []}]})), 4);
    }

    #[test]
    fn converts_both_ways() {
        let value = serde_json::json!({"a": [1, 2.5, "s", null, {"b": false}]});
        assert_eq!(Json::from(&value).to_value(), value);
    }
}

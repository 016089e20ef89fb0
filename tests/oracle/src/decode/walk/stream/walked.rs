//! The run-time road's sink: the walk's value as a `serde_json::Value`.

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize as _;
use serde_json::{Map, Number, Value};

/// The run-time road's value: a JSON value, or nothing where a member is absent
/// (`null_as_absent`), so it can be left out of its object.
pub(crate) struct Walked(pub(crate) Option<Value>);

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

//! A model's answer as text, read with each tool call's arguments kept as written: the
//! arguments are found first by a read that keeps their text, whichever provider's shape the
//! answer has and whatever else it holds around them.

use std::borrow::Cow;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

/// A model's answer read into a `Value` with each tool call's arguments as a string holding
/// the text sent ([`tool_calls_in_text`]): the arguments are found first by a read that
/// keeps their text (`RawValue`, which neither builds nor limits what it skips), then put
/// in the answer as strings before it is parsed.
pub(crate) fn read_answer(text: &str) -> Result<Value, serde_json::Error> {
    let texts = raw_arguments(text).unwrap_or_default();
    let mut texts: Vec<(usize, &RawValue)> = texts
        .into_iter()
        .map(|raw| (raw.get().as_ptr() as usize - text.as_ptr() as usize, raw))
        .collect();
    if texts.is_empty() {
        return serde_json::from_str(text);
    }
    texts.sort_by_key(|(start, _)| *start);
    let mut spliced = String::with_capacity(text.len() + 2 * texts.len());
    let mut at = 0;
    for (start, raw) in texts {
        spliced.push_str(&text[at..start]);
        let sent = match raw.get().starts_with('"') {
            true => {
                serde_json::from_str::<String>(raw.get()).unwrap_or_else(|_| raw.get().to_owned())
            }
            false => raw.get().to_owned(),
        };
        spliced.push_str(&Value::String(sent).to_string());
        at = start + raw.get().len();
    }
    spliced.push_str(&text[at..]);
    serde_json::from_str(&spliced)
}

/// The arguments of every tool call in an answer's text, as written, whichever provider's
/// shape it has (`None` when the text is not JSON: it is then read as a `Value` whole).
///
/// A call is any object with a `name` member: its `arguments` (OpenAI, MCP), `input`
/// (Anthropic) and `args` (Gemini) members are taken as written, every one of them, each
/// time it is repeated, wherever the object sits (but inside another object's argument
/// members, where no provider puts a call) and whatever else it holds. So nothing
/// around the arguments — a second holder beside the first, `function` twice, a member of
/// an unexpected type, members in any order, shapes no provider writes — changes how they
/// are read: the provider's reader then takes the member it reads (the last of repeated
/// ones, as a `Value` does) from the answer in which each of them is a string of its text.
fn raw_arguments(text: &str) -> Option<Vec<&RawValue>> {
    let mut found = Vec::new();
    let mut reader = serde_json::Deserializer::from_str(text);
    Walk { found: &mut found }.deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    Some(found)
}

/// A walk over any JSON value that collects the argument members of the calls in it.
struct Walk<'f, 'a> {
    found: &'f mut Vec<&'a RawValue>,
}

/// The members that hold a call's arguments.
const HOLDERS: [&str; 3] = ["arguments", "input", "args"];

impl<'de, 'f> DeserializeSeed<'de> for Walk<'f, 'de> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, 'f> Visitor<'de> for Walk<'f, 'de> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut held: Vec<&'de RawValue> = Vec::new();
        let mut named = false;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if HOLDERS.contains(&key.as_ref()) {
                held.push(map.next_value()?);
                continue;
            }
            named |= key == "name";
            map.next_value_seed(Walk {
                found: &mut *self.found,
            })?;
        }
        // An object without a name is no call: what its holder-named members hold is read
        // by no provider's reader, so it is skipped as read (never read twice).
        if named {
            self.found.extend(held);
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq
            .next_element_seed(Walk {
                found: &mut *self.found,
            })?
            .is_some()
        {}
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

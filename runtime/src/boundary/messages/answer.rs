//! A model's answer as text, read with each tool call's arguments kept as written: the
//! arguments are found first by a read that keeps their text, whichever provider's shape the
//! answer has.

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
fn raw_arguments(text: &str) -> Option<Vec<&RawValue>> {
    use serde::Deserialize;
    /// A tool call, a function, an output item, a content block or a Gemini part: what
    /// holds arguments (`arguments`, Anthropic's `input`, Gemini's `args`).
    #[derive(Deserialize)]
    struct Holder<'a> {
        #[serde(borrow, default, alias = "input", alias = "args")]
        arguments: Option<&'a RawValue>,
        #[serde(borrow, default)]
        function: Lenient<Box<Holder<'a>>>,
        #[serde(borrow, default, rename = "functionCall")]
        function_call: Lenient<Box<Holder<'a>>>,
    }
    /// A message, a whole answer, a choice, a Gemini candidate or its content, an MCP
    /// request.
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(borrow, default)]
        tool_calls: Lenient<Vec<Lenient<Holder<'a>>>>,
        #[serde(borrow, default)]
        output: Lenient<Vec<Lenient<Holder<'a>>>>,
        /// Anthropic's content blocks, or a Gemini candidate's content (a message).
        #[serde(borrow, default)]
        content: SeqOrMap<Vec<Lenient<Holder<'a>>>, Box<Message<'a>>>,
        #[serde(borrow, default)]
        parts: Lenient<Vec<Lenient<Holder<'a>>>>,
        #[serde(borrow, default)]
        choices: Lenient<Vec<Lenient<Message<'a>>>>,
        #[serde(borrow, default)]
        candidates: Lenient<Vec<Lenient<Message<'a>>>>,
        #[serde(borrow, default)]
        message: Lenient<Box<Message<'a>>>,
        /// An MCP `tools/call` request's params.
        #[serde(borrow, default)]
        params: Lenient<Box<Holder<'a>>>,
    }
    fn gather<'a>(message: Message<'a>, into: &mut Vec<&'a RawValue>) {
        let holders = [
            message.tool_calls,
            message.output,
            message.content.0,
            message.parts,
        ];
        for holder in holders
            .into_iter()
            .flat_map(|h| h.0)
            .flatten()
            .flat_map(|h| h.0)
        {
            into.extend(holder.arguments);
            into.extend(holder.function.0.and_then(|function| function.arguments));
            into.extend(holder.function_call.0.and_then(|call| call.arguments));
        }
        into.extend(message.params.0.and_then(|params| params.arguments));
        let choices = message.choices.0.into_iter().flatten().flat_map(|c| c.0);
        let candidates = message.candidates.0.into_iter().flatten().flat_map(|c| c.0);
        let inner = message.message.0.into_iter().chain(message.content.1);
        for inner in choices
            .chain(candidates)
            .chain(inner.map(|message| *message))
        {
            gather(inner, into);
        }
    }
    let mut found = Vec::new();
    if text.trim_start().starts_with('[') {
        // OpenAI Responses' output items alone.
        let items: Vec<Lenient<Holder<'_>>> = serde_json::from_str(text).ok()?;
        found.extend(items.into_iter().filter_map(|item| item.0?.arguments));
    } else {
        gather(serde_json::from_str(text).ok()?, &mut found);
    }
    Some(found)
}

/// A value read as `T` when it is an object or an array, and skipped otherwise (text
/// `content`, a `null`), so the shape of one member never stops the search.
struct Lenient<T>(Option<T>);

impl<T> Default for Lenient<T> {
    fn default() -> Self {
        Lenient(None)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Lenient<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
        struct Visit<T>(std::marker::PhantomData<T>);
        impl<'de, T: serde::Deserialize<'de>> serde::de::Visitor<'de> for Visit<T> {
            type Value = Lenient<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(|value| Lenient(Some(value)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<Self::Value, A::Error> {
                T::deserialize(SeqAccessDeserializer::new(seq)).map(|value| Lenient(Some(value)))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(Lenient(None))
            }
        }
        deserializer.deserialize_any(Visit(std::marker::PhantomData))
    }
}

/// A value read as `S` when it is an array and as `M` when it is an object, and skipped
/// otherwise: a member whose shape differs by provider (Anthropic's `content` is a list of
/// blocks, a Gemini candidate's a message).
struct SeqOrMap<S, M>(Lenient<S>, Option<M>);

impl<S, M> Default for SeqOrMap<S, M> {
    fn default() -> Self {
        SeqOrMap(Lenient(None), None)
    }
}

impl<'de, S: serde::Deserialize<'de>, M: serde::Deserialize<'de>> serde::Deserialize<'de>
    for SeqOrMap<S, M>
{
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
        struct Visit<S, M>(std::marker::PhantomData<(S, M)>);
        impl<'de, S: serde::Deserialize<'de>, M: serde::Deserialize<'de>> serde::de::Visitor<'de>
            for Visit<S, M>
        {
            type Value = SeqOrMap<S, M>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                let message = M::deserialize(MapAccessDeserializer::new(map))?;
                Ok(SeqOrMap(Lenient(None), Some(message)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                seq: A,
            ) -> Result<Self::Value, A::Error> {
                let items = S::deserialize(SeqAccessDeserializer::new(seq))?;
                Ok(SeqOrMap(Lenient(Some(items)), None))
            }
            fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
                Ok(SeqOrMap::default())
            }
            fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
                Ok(SeqOrMap::default())
            }
            fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
                Ok(SeqOrMap::default())
            }
            fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
                Ok(SeqOrMap::default())
            }
            fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
                Ok(SeqOrMap::default())
            }
            fn visit_unit<E>(self) -> Result<Self::Value, E> {
                Ok(SeqOrMap::default())
            }
        }
        deserializer.deserialize_any(Visit(std::marker::PhantomData))
    }
}

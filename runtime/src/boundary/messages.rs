//! The message shapes of the providers' APIs: tool calls read out of a model's answer, tool
//! results and correction turns written back, for OpenAI Chat Completions
//! (`tool_calls` / role `tool`), OpenAI Responses (`function_call` /
//! `function_call_output`) and Anthropic Messages (`tool_use` / `tool_result` with
//! `is_error`). Parallel calls are read in order and answered in order.
//!
//! Decisions written down here:
//! - A tool result's content is the call's [`Envelope`] as compact JSON, for every provider
//!   and outcome; Anthropic's `is_error` is `true` when the envelope is not `ok`.
//! - Anthropic sends `input` as a JSON object (and some OpenAI-compatible servers send
//!   `arguments` as one); [`tool_calls`] writes a parsed one back to text
//!   ([`Call::arguments`]) so that every call goes through the same gate, but a key sent
//!   twice is collapsed by then, and a number rounded: given the answer's text,
//!   [`tool_calls_in_text`] keeps each call's arguments as written (the OpenAI client reads
//!   its answers so).
//! - Reading accepts the message alone or the whole API answer around it (a chat
//!   completion's first choice, a response's `output`, an Anthropic message), and skips
//!   what is not a tool call (text, reasoning items). A tool call without a name or an id is
//!   an error that names its place, not a call made up.
//! - A correction turn is the tool results (each refused call's envelope carries its issues
//!   and hint) followed by a short user instruction; for Anthropic the instruction is a text
//!   block after the `tool_result` blocks of the same user message, as that API requires.
//!
//! ```
//! use serde_json::json;
//! use toolgate::boundary::messages::{tool_calls, tool_results, Provider};
//! use toolgate::boundary::Envelope;
//!
//! let answer = json!({"role": "assistant", "content": null, "tool_calls": [
//!     {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}
//! ]});
//! let calls = tool_calls(Provider::OpenAiChat, &answer).unwrap();
//! assert_eq!(calls[0].tool, "get_weather");
//! assert_eq!(calls[0].call_id.as_deref(), Some("call_1"));
//!
//! let envelope = Envelope::success("get_weather", json!({"celsius": 12}), Vec::new())
//!     .with_call_id(Some("call_1".into()));
//! let results = tool_results(Provider::OpenAiChat, &[envelope]);
//! assert_eq!(results[0]["role"], "tool");
//! assert_eq!(results[0]["tool_call_id"], "call_1");
//! ```

use serde_json::value::RawValue;
use serde_json::{json, Value};

use super::{Call, Envelope};

/// A provider's message format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Provider {
    /// OpenAI Chat Completions: `message.tool_calls`, answered by `role: "tool"` messages.
    OpenAiChat,
    /// OpenAI Responses: `function_call` output items, answered by `function_call_output`
    /// input items.
    OpenAiResponses,
    /// Anthropic Messages: `tool_use` content blocks, answered by `tool_result` blocks in a
    /// `user` message.
    Anthropic,
}

/// A tool call that cannot be read: where it is and what is missing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("tool call {index}: {what}")]
pub struct MessageError {
    /// The call's place among the answer's tool calls.
    pub index: usize,
    /// What is wrong with it.
    pub what: String,
}

/// The instruction a correction turn ends with.
pub const CORRECTION_INSTRUCTION: &str = "Some tool calls were refused. Each refused result holds the issues and a hint: call those tools again, correcting only the fields the hint names.";

/// The tool calls of a model's answer, in order.
pub fn tool_calls(provider: Provider, answer: &Value) -> Result<Vec<Call>, MessageError> {
    match provider {
        Provider::OpenAiChat => {
            let message = answer.pointer("/choices/0/message").unwrap_or(answer);
            let calls = message.get("tool_calls").and_then(Value::as_array);
            calls
                .into_iter()
                .flatten()
                .enumerate()
                .map(|(index, call)| {
                    let function = call.get("function").unwrap_or(&Value::Null);
                    let name = text(function, "name", index)?;
                    let id = text(call, "id", index)?;
                    let arguments = function.get("arguments").map_or(String::new(), as_text);
                    Ok(Call::new(name, arguments).with_id(id))
                })
                .collect()
        }
        Provider::OpenAiResponses => {
            let items = answer.get("output").unwrap_or(answer);
            let items = items.as_array().map(Vec::as_slice).unwrap_or_default();
            items
                .iter()
                .filter(|item| item.get("type").and_then(Value::as_str) == Some("function_call"))
                .enumerate()
                .map(|(index, item)| {
                    let name = text(item, "name", index)?;
                    let id = text(item, "call_id", index)?;
                    let arguments = item.get("arguments").map_or(String::new(), as_text);
                    Ok(Call::new(name, arguments).with_id(id))
                })
                .collect()
        }
        Provider::Anthropic => {
            let blocks = answer.get("content").and_then(Value::as_array);
            blocks
                .into_iter()
                .flatten()
                .filter(|block| block.get("type").and_then(Value::as_str) == Some("tool_use"))
                .enumerate()
                .map(|(index, block)| {
                    let name = text(block, "name", index)?;
                    let id = text(block, "id", index)?;
                    let arguments = block.get("input").map_or(String::new(), as_text);
                    Ok(Call::new(name, arguments).with_id(id))
                })
                .collect()
        }
    }
}

/// The tool calls of a model's answer given as text (the message alone or the whole API
/// answer): as [`tool_calls`], each call's arguments kept as the text the answer holds. An
/// object or array sent where the API writes a string (some OpenAI-compatible servers do;
/// Anthropic's `input` always is one) is taken as written — a key sent twice, every digit,
/// any depth — where a parse into a `Value` first would collapse, round or refuse it; a
/// string is its content, as with [`tool_calls`]. A text that is not JSON is the error of
/// call 0.
///
/// ```
/// use toolgate::boundary::messages::{tool_calls_in_text, Provider};
///
/// let answer = r#"{"tool_calls": [{"id": "c1", "function": {"name": "add", "arguments": {"a": 1, "a": 2}}}]}"#;
/// let calls = tool_calls_in_text(Provider::OpenAiChat, answer).unwrap();
/// assert_eq!(calls[0].arguments, r#"{"a": 1, "a": 2}"#);
/// ```
pub fn tool_calls_in_text(provider: Provider, text: &str) -> Result<Vec<Call>, MessageError> {
    let answer = read_answer(text).map_err(|error| MessageError {
        index: 0,
        what: format!("the answer is not JSON: {error}"),
    })?;
    tool_calls(provider, &answer)
}

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
    /// A tool call, a function, an output item or a content block: what holds arguments.
    #[derive(Deserialize)]
    struct Holder<'a> {
        #[serde(borrow, default, alias = "input")]
        arguments: Option<&'a RawValue>,
        #[serde(borrow, default)]
        function: Lenient<Box<Holder<'a>>>,
    }
    /// A message, a whole answer, or a choice.
    #[derive(Deserialize)]
    struct Message<'a> {
        #[serde(borrow, default)]
        tool_calls: Lenient<Vec<Lenient<Holder<'a>>>>,
        #[serde(borrow, default)]
        output: Lenient<Vec<Lenient<Holder<'a>>>>,
        #[serde(borrow, default)]
        content: Lenient<Vec<Lenient<Holder<'a>>>>,
        #[serde(borrow, default)]
        choices: Lenient<Vec<Lenient<Message<'a>>>>,
        #[serde(borrow, default)]
        message: Lenient<Box<Message<'a>>>,
    }
    fn gather<'a>(message: Message<'a>, into: &mut Vec<&'a RawValue>) {
        let holders = [message.tool_calls, message.output, message.content];
        for holder in holders
            .into_iter()
            .flat_map(|h| h.0)
            .flatten()
            .flat_map(|h| h.0)
        {
            into.extend(holder.arguments);
            into.extend(holder.function.0.and_then(|function| function.arguments));
        }
        let choices = message.choices.0.into_iter().flatten().flat_map(|c| c.0);
        for inner in choices.chain(message.message.0.map(|message| *message)) {
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

/// A string member of a tool call, or the error naming it.
fn text<'v>(value: &'v Value, key: &str, index: usize) -> Result<&'v str, MessageError> {
    value
        .get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| MessageError {
            index,
            what: format!("no `{key}`"),
        })
}

/// Arguments as text: a string as it is (the model's own text), anything else as JSON.
fn as_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// The messages (or input items) that carry the results of calls, in the envelopes' order.
/// Chat Completions and Responses get one message or item per result; Anthropic gets one
/// `user` message with a `tool_result` block per result.
pub fn tool_results(provider: Provider, envelopes: &[Envelope]) -> Vec<Value> {
    let id = |envelope: &Envelope| envelope.call_id.clone().unwrap_or_default();
    match provider {
        Provider::OpenAiChat => envelopes
            .iter()
            .map(|envelope| {
                json!({"role": "tool", "tool_call_id": id(envelope), "content": envelope.to_json()})
            })
            .collect(),
        Provider::OpenAiResponses => envelopes
            .iter()
            .map(|envelope| {
                json!({"type": "function_call_output", "call_id": id(envelope), "output": envelope.to_json()})
            })
            .collect(),
        Provider::Anthropic => vec![json!({"role": "user", "content": result_blocks(envelopes)})],
    }
}

fn result_blocks(envelopes: &[Envelope]) -> Vec<Value> {
    envelopes
        .iter()
        .map(|envelope| {
            json!({
                "type": "tool_result",
                "tool_use_id": envelope.call_id.clone().unwrap_or_default(),
                "content": envelope.to_json(),
                "is_error": !envelope.ok,
            })
        })
        .collect()
}

/// A correction turn: the results (refused calls carry their issues and hints), then
/// `instruction` ([`CORRECTION_INSTRUCTION`] is the usual one) as the user's words.
pub fn correction_turn(
    provider: Provider,
    envelopes: &[Envelope],
    instruction: &str,
) -> Vec<Value> {
    match provider {
        Provider::OpenAiChat => {
            let mut messages = tool_results(provider, envelopes);
            messages.push(json!({"role": "user", "content": instruction}));
            messages
        }
        Provider::OpenAiResponses => {
            let mut items = tool_results(provider, envelopes);
            items.push(json!({"role": "user", "content": instruction}));
            items
        }
        Provider::Anthropic => {
            let mut blocks = result_blocks(envelopes);
            blocks.push(json!({"type": "text", "text": instruction}));
            vec![json!({"role": "user", "content": blocks})]
        }
    }
}

/// The model's turn that made `calls`, written as the provider writes it (for a history
/// kept as calls, or for tests): an assistant message with `tool_calls`, `function_call`
/// items, or an assistant message with `tool_use` blocks (arguments that are not a JSON
/// object go as a string, as the model sent them).
pub fn calls_turn(provider: Provider, calls: &[Call]) -> Vec<Value> {
    let id = |call: &Call| call.call_id.clone().unwrap_or_default();
    match provider {
        Provider::OpenAiChat => {
            let tool_calls: Vec<Value> = calls
                .iter()
                .map(|call| {
                    json!({"id": id(call), "type": "function", "function": {"name": call.tool, "arguments": call.arguments}})
                })
                .collect();
            vec![json!({"role": "assistant", "content": null, "tool_calls": tool_calls})]
        }
        Provider::OpenAiResponses => calls
            .iter()
            .map(|call| {
                json!({"type": "function_call", "call_id": id(call), "name": call.tool, "arguments": call.arguments})
            })
            .collect(),
        Provider::Anthropic => {
            let blocks: Vec<Value> = calls
                .iter()
                .map(|call| {
                    let input = serde_json::from_str::<Value>(&call.arguments)
                        .ok()
                        .filter(Value::is_object)
                        .unwrap_or_else(|| Value::String(call.arguments.clone()));
                    json!({"type": "tool_use", "id": id(call), "name": call.tool, "input": input})
                })
                .collect();
            vec![json!({"role": "assistant", "content": blocks})]
        }
    }
}

#[cfg(test)]
#[path = "messages_tests.rs"]
mod tests;

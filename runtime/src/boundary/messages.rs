//! The message shapes of the providers' APIs: tool calls read out of a model's answer, tool
//! results and correction turns written back, for OpenAI Chat Completions
//! (`tool_calls` / role `tool`), OpenAI Responses (`function_call` /
//! `function_call_output`) and Anthropic Messages (`tool_use` / `tool_result` with
//! `is_error`). Parallel calls are read in order and answered in order.
//!
//! Decisions written down here:
//! - A tool result's content is the call's [`Envelope`] as compact JSON, for every provider
//!   and outcome; Anthropic's `is_error` is `true` when the envelope is not `ok`.
//! - Anthropic sends `input` as a JSON object; it is written back to text
//!   ([`Call::arguments`]) so that every call goes through the same gate. (Keys the model
//!   repeated are collapsed by then: the provider's own parser did it.)
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

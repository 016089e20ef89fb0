//! The message shapes of the providers' APIs: tool calls read out of a model's answer, tool
//! results and correction turns written back, for OpenAI Chat Completions
//! (`tool_calls` / role `tool`, `openai_chat.rs`), OpenAI Responses (`function_call` /
//! `function_call_output`, `openai_responses.rs`), Anthropic Messages (`tool_use` /
//! `tool_result` with `is_error`, `anthropic.rs`), Gemini (`functionCall` /
//! `functionResponse`, `gemini.rs`) and MCP (`tools/call` / `CallToolResult`, `mcp.rs`):
//! one file per provider, each with its streaming adapter (read into a [`StreamedMessage`]:
//! `streamed.rs`, over `sse.rs`); the provider's
//! definitions and schema flavours are [`Provider`]'s, in `toolgate_core::provider`.
//! Parallel calls are read in order and answered in order.
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

use serde_json::Value;

use super::{Call, Envelope};

mod answer;
mod anthropic;
mod end;
mod following;
mod gemini;
mod history;
mod mcp;
mod openai_chat;
mod openai_responses;
mod sse;
mod streamed;

pub(crate) use answer::read_answer;
pub use end::{cut, finish_reason, Cut};
pub use following::Following;
pub use history::{history_turns, refuse_cut, replayed_arguments, UNREADABLE_ARGUMENTS_KEY};
/// What the MCP server sends (`McpServer::result_of`).
#[cfg(feature = "mcp")]
pub(crate) use mcp::tool_result as mcp_tool_result;
pub use sse::{SseEvent, SseReader, MAX_EVENT_BYTES};
pub use streamed::{
    StreamUpdate, StreamedCall, StreamedMessage, Update, MAX_LOG_LINES, MAX_STREAMED_BYTES,
    MAX_STREAMED_CALLS,
};

#[doc(no_inline)]
pub use crate::flavour::Provider;

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
        Provider::OpenAiChat => openai_chat::tool_calls(answer),
        Provider::OpenAiResponses => openai_responses::tool_calls(answer),
        Provider::Anthropic => anthropic::tool_calls(answer),
        Provider::Gemini => gemini::tool_calls(answer),
        Provider::Mcp => mcp::tool_calls(answer),
        other => Err(MessageError {
            index: 0,
            what: format!("{other} has no message shapes here"),
        }),
    }
}

/// The tool calls of a whole answer, and how it ended ([`answer_calls`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerCalls {
    /// The calls, in order.
    pub calls: Vec<Call>,
    /// The finish reason as the provider wrote it ([`finish_reason`]).
    pub finish_reason: Option<String>,
    /// Whether the answer was cut ([`cut`]): then no call of it may run
    /// ([`Toolbox::call_answer`](crate::boundary::Toolbox::call_answer) refuses them all).
    pub cut: Option<Cut>,
}

/// The tool calls of a whole answer (a chat completion, a response, a message, a Gemini
/// answer) and how it ended; `max_tokens`: the output token cap the request set, for an
/// answer cut without saying so.
///
/// ```
/// use serde_json::json;
/// use toolgate::boundary::messages::{answer_calls, Provider};
///
/// let answer = json!({"stop_reason": "max_tokens", "content": [
///     {"type": "tool_use", "id": "t1", "name": "add", "input": {"a": 1}}]});
/// let read = answer_calls(Provider::Anthropic, &answer, None).unwrap();
/// assert_eq!(read.calls.len(), 1);
/// assert!(read.cut.is_some());
/// ```
pub fn answer_calls(
    provider: Provider,
    answer: &Value,
    max_tokens: Option<u64>,
) -> Result<AnswerCalls, MessageError> {
    Ok(AnswerCalls {
        calls: tool_calls(provider, answer)?,
        finish_reason: finish_reason(provider, answer).map(str::to_owned),
        cut: cut(provider, answer, max_tokens),
    })
}

/// [`answer_calls`] of an answer given as text, each call's arguments kept as written
/// ([`tool_calls_in_text`]).
pub fn answer_calls_in_text(
    provider: Provider,
    text: &str,
    max_tokens: Option<u64>,
) -> Result<AnswerCalls, MessageError> {
    let answer = read_answer(text).map_err(|error| MessageError {
        index: 0,
        what: format!("the answer is not JSON: {error}"),
    })?;
    answer_calls(provider, &answer, max_tokens)
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
/// Chat Completions and Responses get one message or item per result; Anthropic one `user`
/// message with a `tool_result` block per result; Gemini one `user` content with a
/// `functionResponse` part per result; MCP a `CallToolResult` per result.
pub fn tool_results(provider: Provider, envelopes: &[Envelope]) -> Vec<Value> {
    match provider {
        Provider::OpenAiChat => openai_chat::tool_results(envelopes),
        Provider::OpenAiResponses => openai_responses::tool_results(envelopes),
        Provider::Anthropic => anthropic::tool_results(envelopes),
        Provider::Gemini => gemini::tool_results(envelopes),
        // A provider added later writes MCP's results until it has its own shapes.
        _ => mcp::tool_results(envelopes),
    }
}

/// A correction turn: the results (refused calls carry their issues and hints), then
/// `instruction` ([`CORRECTION_INSTRUCTION`] is the usual one) as the user's words (MCP has
/// no user turn: the results alone).
pub fn correction_turn(
    provider: Provider,
    envelopes: &[Envelope],
    instruction: &str,
) -> Vec<Value> {
    match provider {
        // One message or item per result, then the user's words as a message.
        Provider::OpenAiChat | Provider::OpenAiResponses => {
            let mut turn = tool_results(provider, envelopes);
            turn.push(serde_json::json!({"role": "user", "content": instruction}));
            turn
        }
        Provider::Anthropic => anthropic::correction_turn(envelopes, instruction),
        Provider::Gemini => gemini::correction_turn(envelopes, instruction),
        _ => mcp::tool_results(envelopes),
    }
}

/// The model's turn that made `calls`, written as the provider writes it (for a history
/// kept as calls, or for tests): an assistant message with `tool_calls`, `function_call`
/// items, an assistant message with `tool_use` blocks, a model content with `functionCall`
/// parts, or `tools/call` requests. Every call is written as the provider accepts it in a
/// history: arguments that are not a JSON object go as an object that keeps their text
/// ([`replayed_arguments`]; see [`history_turns`]).
pub fn calls_turn(provider: Provider, calls: &[Call]) -> Vec<Value> {
    match provider {
        Provider::OpenAiChat => openai_chat::calls_turn(calls),
        Provider::OpenAiResponses => openai_responses::calls_turn(calls),
        Provider::Anthropic => anthropic::calls_turn(calls),
        Provider::Gemini => gemini::calls_turn(calls),
        _ => mcp::calls_turn(calls),
    }
}

/// The call's id an envelope answers (empty when the model gave none).
fn call_id(envelope: &Envelope) -> String {
    envelope.call_id.clone().unwrap_or_default()
}

#[cfg(test)]
mod tests;

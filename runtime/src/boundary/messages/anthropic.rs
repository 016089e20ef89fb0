//! Anthropic Messages: `tool_use` content blocks, answered by `tool_result` blocks (with
//! `is_error`) in one `user` message. (A streaming adapter, reading `input_json_delta`
//! events, would live here.)

use serde_json::{json, Value};

use super::end::{finish_reason, output_tokens};
use super::streamed::Events;
use super::Provider;
use super::{as_text, call_id, replayed_arguments, text, MessageError};
use crate::boundary::{Call, Envelope};

pub(super) fn tool_calls(answer: &Value) -> Result<Vec<Call>, MessageError> {
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

pub(super) fn tool_results(envelopes: &[Envelope]) -> Vec<Value> {
    vec![json!({"role": "user", "content": result_blocks(envelopes)})]
}

fn result_blocks(envelopes: &[Envelope]) -> Vec<Value> {
    envelopes
        .iter()
        .map(|envelope| {
            json!({
                "type": "tool_result",
                "tool_use_id": call_id(envelope),
                "content": envelope.to_json(),
                "is_error": !envelope.ok,
            })
        })
        .collect()
}

/// The instruction is a text block after the `tool_result` blocks of the same user message,
/// as the API requires.
pub(super) fn correction_turn(envelopes: &[Envelope], instruction: &str) -> Vec<Value> {
    let mut blocks = result_blocks(envelopes);
    blocks.push(json!({"type": "text", "text": instruction}));
    vec![json!({"role": "user", "content": blocks})]
}

pub(super) fn calls_turn(calls: &[Call]) -> Vec<Value> {
    let blocks: Vec<Value> = calls
        .iter()
        .map(|call| {
            json!({"type": "tool_use", "id": call.call_id.clone().unwrap_or_default(),
                "name": call.tool, "input": replayed_arguments(&call.arguments)})
        })
        .collect();
    vec![json!({"role": "assistant", "content": blocks})]
}

/// One event of a streamed message.
///
/// Streams, decisions written down here: a call is keyed by its content block's index. Its
/// arguments are its `input_json_delta`s; with none, a non-empty `input` of its
/// `content_block_start` (some compatible servers send the whole input there), else `{}`
/// (logged). A delta after its `content_block_stop` refuses the call as garbled. Eager
/// streams (`eager_input_streaming`) are read like any other: their text may not be JSON,
/// and the gate says where.
pub(super) fn stream_event(events: &mut Events<'_>, name: &str, data: &Value) {
    let kind = data.get("type").and_then(Value::as_str).unwrap_or(name);
    let key = data
        .get("index")
        .and_then(Value::as_u64)
        .map(|index| index.to_string());
    match kind {
        "message_start" => {
            let message = data.get("message").unwrap_or(&Value::Null);
            events.output_tokens(output_tokens(Provider::Anthropic, message));
        }
        "content_block_start" => {
            let block = data.get("content_block").unwrap_or(&Value::Null);
            if block.get("type").and_then(Value::as_str) != Some("tool_use") {
                return;
            }
            let Some(at) = key.and_then(|key| events.open(&key)) else {
                return;
            };
            let id = block.get("id").and_then(Value::as_str);
            events.name(at, id, block.get("name").and_then(Value::as_str));
            let input = block.get("input").map(as_text);
            events.start_input(at, input.filter(|input| !is_empty_object(input)));
        }
        "content_block_delta" => {
            let delta = data.get("delta").unwrap_or(&Value::Null);
            if delta.get("type").and_then(Value::as_str) != Some("input_json_delta") {
                return;
            }
            match key.and_then(|key| events.find(&key)) {
                Some(at) => {
                    let text = delta.get("partial_json").map(as_text).unwrap_or_default();
                    events.arguments(at, &text);
                }
                None => events
                    .log("an input delta of a block that is not a tool call is ignored".to_owned()),
            }
        }
        "content_block_stop" => {
            let Some(at) = key.and_then(|key| events.find(&key)) else {
                return;
            };
            if events.get(at).arguments.is_empty() && !events.get(at).ended {
                let (text, line) = match events.take_start_input(at) {
                    Some(input) => (
                        input,
                        format!("call {at}: its input came whole in its start"),
                    ),
                    None => (
                        "{}".to_owned(),
                        format!("call {at}: no input sent, read as {{}}"),
                    ),
                };
                events.log(line);
                events.replace(at, text);
            }
            events.end(at);
        }
        "message_delta" => {
            // The delta holds `stop_reason`, the event `usage`, where a whole message does.
            let delta = data.get("delta").unwrap_or(&Value::Null);
            events.finish(finish_reason(Provider::Anthropic, delta));
            events.output_tokens(output_tokens(Provider::Anthropic, data));
        }
        "message_stop" => events.message_ended(),
        "error" => events.fail(format!("the provider sent an error: {data}")),
        _ => {}
    }
}

/// Whether `text` is an empty JSON object (`{}`, with any white space).
fn is_empty_object(text: &str) -> bool {
    text.trim()
        .strip_prefix('{')
        .and_then(|rest| rest.strip_suffix('}'))
        .is_some_and(|inside| inside.trim().is_empty())
}

//! Anthropic Messages: `tool_use` content blocks, answered by `tool_result` blocks (with
//! `is_error`) in one `user` message. (A streaming adapter, reading `input_json_delta`
//! events, would live here.)

use serde_json::{json, Value};

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

//! OpenAI Chat Completions: `message.tool_calls`, answered by `role: "tool"` messages.
//! (A streaming adapter, reading `delta.tool_calls` chunks, would live here.)

use serde_json::{json, Value};

use super::{as_text, call_id, text, MessageError};
use crate::boundary::{Call, Envelope};

pub(super) fn tool_calls(answer: &Value) -> Result<Vec<Call>, MessageError> {
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

pub(super) fn tool_results(envelopes: &[Envelope]) -> Vec<Value> {
    envelopes
        .iter()
        .map(|envelope| {
            json!({"role": "tool", "tool_call_id": call_id(envelope), "content": envelope.to_json()})
        })
        .collect()
}

pub(super) fn calls_turn(calls: &[Call]) -> Vec<Value> {
    let tool_calls: Vec<Value> = calls
        .iter()
        .map(|call| {
            json!({"id": call.call_id.clone().unwrap_or_default(), "type": "function",
                "function": {"name": call.tool, "arguments": super::history::replayed_text(&call.arguments)}})
        })
        .collect();
    vec![json!({"role": "assistant", "content": null, "tool_calls": tool_calls})]
}

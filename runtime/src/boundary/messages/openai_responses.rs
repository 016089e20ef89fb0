//! OpenAI Responses: `function_call` output items, answered by `function_call_output` input
//! items. (A streaming adapter, reading `response.function_call_arguments.delta` events,
//! would live here.)

use serde_json::{json, Value};

use super::{as_text, call_id, text, MessageError};
use crate::boundary::{Call, Envelope};

pub(super) fn tool_calls(answer: &Value) -> Result<Vec<Call>, MessageError> {
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

pub(super) fn tool_results(envelopes: &[Envelope]) -> Vec<Value> {
    envelopes
        .iter()
        .map(|envelope| {
            json!({"type": "function_call_output", "call_id": call_id(envelope), "output": envelope.to_json()})
        })
        .collect()
}

pub(super) fn calls_turn(calls: &[Call]) -> Vec<Value> {
    calls
        .iter()
        .map(|call| {
            json!({"type": "function_call", "call_id": call.call_id.clone().unwrap_or_default(),
                "name": call.tool, "arguments": super::history::replayed_text(&call.arguments)})
        })
        .collect()
}

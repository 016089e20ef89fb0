//! Gemini (the Gemini API's `generateContent`, and Vertex AI's): `functionCall` parts of the
//! model's content, answered by `functionResponse` parts of a `user` content. (A streaming
//! adapter, for `streamGenerateContent`'s whole-call chunks, would live here.)
//!
//! Decisions written down here:
//! - A call's `id` is optional (the API sends one in newer versions); without it the call's
//!   `call_id` is `None`, and its response is matched by the tool's `name`, which it always
//!   carries.
//! - A `functionResponse`'s `response` is an object: the call's [`Envelope`] as JSON, as
//!   every provider's result carries it.

use serde_json::{json, Value};

use super::{as_text, replayed_arguments, text, MessageError};
use crate::boundary::{Call, Envelope};

pub(super) fn tool_calls(answer: &Value) -> Result<Vec<Call>, MessageError> {
    let content = answer.pointer("/candidates/0/content").unwrap_or(answer);
    let parts = content.get("parts").and_then(Value::as_array);
    parts
        .into_iter()
        .flatten()
        .filter_map(|part| part.get("functionCall"))
        .enumerate()
        .map(|(index, call)| {
            let name = text(call, "name", index)?;
            let arguments = call.get("args").map_or(String::new(), as_text);
            let made = Call::new(name, arguments);
            Ok(match call.get("id").and_then(Value::as_str) {
                Some(id) => made.with_id(id),
                None => made,
            })
        })
        .collect()
}

fn response_parts(envelopes: &[Envelope]) -> Vec<Value> {
    envelopes
        .iter()
        .map(|envelope| {
            let response = serde_json::to_value(envelope).unwrap_or(Value::Null);
            let mut function_response = json!({"name": &*envelope.tool, "response": response});
            if let Some(id) = &envelope.call_id {
                function_response["id"] = Value::String(id.clone());
            }
            json!({"functionResponse": function_response})
        })
        .collect()
}

pub(super) fn tool_results(envelopes: &[Envelope]) -> Vec<Value> {
    vec![json!({"role": "user", "parts": response_parts(envelopes)})]
}

/// The instruction is a text part after the `functionResponse` parts of the same content.
pub(super) fn correction_turn(envelopes: &[Envelope], instruction: &str) -> Vec<Value> {
    let mut parts = response_parts(envelopes);
    parts.push(json!({"text": instruction}));
    vec![json!({"role": "user", "parts": parts})]
}

pub(super) fn calls_turn(calls: &[Call]) -> Vec<Value> {
    let parts: Vec<Value> = calls
        .iter()
        .map(|call| {
            let mut function_call =
                json!({"name": call.tool, "args": replayed_arguments(&call.arguments)});
            if let Some(id) = &call.call_id {
                function_call["id"] = Value::String(id.clone());
            }
            json!({"functionCall": function_call})
        })
        .collect();
    vec![json!({"role": "model", "parts": parts})]
}

//! Gemini (the Gemini API's `generateContent`, and Vertex AI's): `functionCall` parts of the
//! model's content, answered by `functionResponse` parts of a `user` content; and the
//! streaming adapter, for `streamGenerateContent`'s chunks, where each `functionCall` part is
//! a whole call (decided on its `args` as sent, as the whole answer's reader takes them).
//! Vertex's streamed partial arguments (`partialArgs`) are not assembled yet: such a call
//! cuts the message, naming why, rather than being decided on part of its arguments.
//!
//! Decisions written down here:
//! - A call's `id` is optional (the API sends one in newer versions); without it the call's
//!   `call_id` is `None`, and its response is matched by the tool's `name`, which it always
//!   carries.
//! - A `functionResponse`'s `response` is an object: the call's [`Envelope`] as JSON, as
//!   every provider's result carries it.

use serde_json::{json, Value};

use super::streamed::Events;
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

/// One chunk of a streamed answer.
pub(super) fn stream_event(events: &mut Events<'_>, chunk: &Value) {
    let candidate = chunk.pointer("/candidates/0").unwrap_or(&Value::Null);
    let parts = candidate
        .pointer("/content/parts")
        .and_then(Value::as_array);
    for call in parts
        .into_iter()
        .flatten()
        .filter_map(|part| part.get("functionCall"))
    {
        if call.get("partialArgs").is_some() || call.get("willContinue").is_some() {
            events.fail("Vertex's partial arguments (partialArgs) are not read yet".to_owned());
            return;
        }
        let key = format!("part {}", events.call_count());
        let Some(at) = events.open(&key) else {
            return;
        };
        let id = call.get("id").and_then(Value::as_str);
        events.name(at, id, call.get("name").and_then(Value::as_str));
        events.replace(at, call.get("args").map_or(String::new(), as_text));
        events.end(at);
    }
    let usage = |name: &str| {
        chunk
            .pointer(&format!("/usageMetadata/{name}"))
            .and_then(Value::as_u64)
    };
    if let Some(candidates) = usage("candidatesTokenCount") {
        events.output_tokens(Some(candidates + usage("thoughtsTokenCount").unwrap_or(0)));
    }
    if let Some(reason) = candidate.get("finishReason").and_then(Value::as_str) {
        events.finish(Some(reason));
        events.message_ended();
    }
}

//! Gemini (the Gemini API's `generateContent`, and Vertex AI's): `functionCall` parts of the
//! model's content, answered by `functionResponse` parts of a `user` content; and the
//! streaming adapter, for `streamGenerateContent`'s chunks, where each `functionCall` part is
//! a whole call (decided on its `args` as sent, as the whole answer's reader takes them).
//! Vertex's streamed function call arguments (`streamFunctionCallArguments`): a call opens
//! with its `name` and `willContinue: true`, then parts of `partialArgs` each set one value
//! at a `jsonPath` (`$.a.b[0]`, `$['a b']`; a string continued at the same path is
//! appended; items in order, at most `MAX_DEPTH` steps, every piece counted against the
//! message's bytes), and ends with an empty `functionCall` or a part without `willContinue`;
//! its arguments are the object so assembled, decided at that end. A path that cannot be
//! read cuts the message, naming it, rather than guessing where the value goes. A part with
//! neither `willContinue` nor `partialArgs` is a whole call, even while one streams.
//!
//! Decisions written down here:
//! - A call's `id` is optional (the API sends one in newer versions); without it the call's
//!   `call_id` is `None`, and its response is matched by the tool's `name`, which it always
//!   carries.
//! - A `functionResponse`'s `response` is an object: the call's [`Envelope`] as JSON, as
//!   every provider's result carries it.

use serde_json::{json, Value};

use super::end::{finish_reason, output_tokens};
use super::streamed::Events;
use super::Provider;
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
        if vertex_part(events, call) {
            continue;
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
    // A chunk holds its usage and finish reason where a whole answer does.
    events.output_tokens(output_tokens(Provider::Gemini, chunk));
    if let Some(reason) = finish_reason(Provider::Gemini, chunk) {
        events.finish(Some(reason));
        events.message_ended();
    }
}

/// A part of a Vertex call streamed in pieces (`willContinue`, `partialArgs`, or the empty
/// `functionCall` that ends one): read into the open call; `false` for a whole call.
fn vertex_part(events: &mut Events<'_>, call: &Value) -> bool {
    let open = (0..events.call_count())
        .rev()
        .find(|&at| events.get(at).partial_args.is_some() && !events.get(at).ended);
    let continues = call.get("willContinue").and_then(Value::as_bool) == Some(true);
    let partial = call.get("partialArgs").and_then(Value::as_array);
    let empty = call.as_object().is_some_and(|members| members.is_empty());
    // A part with neither is a whole call, a Vertex call open or not.
    if !continues && partial.is_none() && !empty {
        return false;
    }
    if open.is_none() && empty {
        return true;
    }
    let at = match open {
        Some(at) if call.get("name").is_none() => at,
        _ => {
            let key = format!("part {}", events.call_count());
            let Some(at) = events.open(&key) else {
                return true;
            };
            let id = call.get("id").and_then(Value::as_str);
            events.name(at, id, call.get("name").and_then(Value::as_str));
            events.get(at).partial_args = Some(Value::Object(serde_json::Map::new()));
            at
        }
    };
    for piece in partial.into_iter().flatten() {
        if let Err(error) = set_partial(events, at, piece) {
            events.fail(format!("call {at}: {error}"));
            return true;
        }
    }
    let piece_continues = partial
        .and_then(|pieces| pieces.last())
        .and_then(|piece| piece.get("willContinue"))
        .and_then(Value::as_bool)
        == Some(true);
    if empty || (!continues && !piece_continues) {
        let assembled = events.get(at).partial_args.take().unwrap_or(Value::Null);
        events.replace(at, assembled.to_string());
        events.end(at);
    }
    true
}

/// One piece of `partialArgs`: its value set at its `jsonPath` in the call's object (a
/// string at a path that holds one is appended to it).
fn set_partial(events: &mut Events<'_>, at: usize, piece: &Value) -> Result<(), String> {
    let path = piece.get("jsonPath").and_then(Value::as_str).unwrap_or("");
    let steps =
        json_path(path).ok_or_else(|| format!("the jsonPath {path:.40?} cannot be read"))?;
    // Within the decoder's depth (what is assembled is written out and dropped, recursively),
    // and counted against the message's bytes: each step may make a node.
    let most = toolgate_core::decode::MAX_DEPTH;
    if steps.len() > most {
        return Err(format!("the jsonPath {path:.40?} is deeper than {most}"));
    }
    let text_bytes = piece
        .get("stringValue")
        .and_then(Value::as_str)
        .map_or(0, str::len);
    if !events.charge(path.len() + text_bytes + 8) {
        return Ok(());
    }
    let value = [
        "stringValue",
        "numberValue",
        "boolValue",
        "nullValue",
        "structValue",
        "listValue",
    ]
    .iter()
    .find_map(|key| piece.get(*key).map(|value| (*key, value)));
    let Some(mut node) = events.get(at).partial_args.as_mut() else {
        return Ok(());
    };
    for step in &steps {
        node = match step {
            PathStep::Key(key) => {
                if !node.is_object() {
                    *node = Value::Object(serde_json::Map::new());
                }
                match node {
                    Value::Object(members) => members.entry(key.clone()).or_insert(Value::Null),
                    _ => return Ok(()),
                }
            }
            PathStep::Index(index) => {
                if !node.is_array() {
                    *node = Value::Array(Vec::new());
                }
                let Value::Array(items) = node else {
                    return Ok(());
                };
                // Items come in order: the next one, or one sent already.
                if *index > items.len() {
                    return Err(format!(
                        "the index {index} of {path:.40?} skips items not sent"
                    ));
                }
                if *index == items.len() {
                    items.push(Value::Null);
                }
                &mut items[*index]
            }
        };
    }
    match value {
        Some(("stringValue", Value::String(more))) => match node {
            Value::String(text) => text.push_str(more),
            other => *other = Value::String(more.clone()),
        },
        Some(("nullValue", _)) => *node = Value::Null,
        Some((_, value)) => *node = value.clone(),
        None => {}
    }
    Ok(())
}

/// One step of a `jsonPath`.
enum PathStep {
    Key(String),
    Index(usize),
}

/// The steps of a `jsonPath` as Vertex writes them: `$`, then `.name`, `['name']` or `[n]`.
fn json_path(path: &str) -> Option<Vec<PathStep>> {
    let mut rest = path.strip_prefix('$')?;
    let mut steps = Vec::new();
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("['") {
            let end = after.find("']")?;
            steps.push(PathStep::Key(after[..end].to_owned()));
            rest = &after[end + 2..];
        } else if let Some(after) = rest.strip_prefix('[') {
            let end = after.find(']')?;
            steps.push(PathStep::Index(after[..end].parse().ok()?));
            rest = &after[end + 1..];
        } else if let Some(after) = rest.strip_prefix('.') {
            let end = after.find(['.', '[']).unwrap_or(after.len());
            if end == 0 {
                return None;
            }
            steps.push(PathStep::Key(after[..end].to_owned()));
            rest = &after[end..];
        } else {
            return None;
        }
    }
    Some(steps)
}

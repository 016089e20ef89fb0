//! OpenAI Responses: `function_call` output items, answered by `function_call_output` input
//! items. (A streaming adapter, reading `response.function_call_arguments.delta` events,
//! would live here.)

use serde_json::{json, Value};

use super::end::{finish_reason, output_tokens};
use super::streamed::Events;
use super::Provider;
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

/// One event of a streamed response (its `type`, else the SSE event's name).
///
/// Streams, decisions written down here: a call is keyed by its item's id (`item_id`), else
/// its `output_index`; a delta before its `output_item.added` waits under its key. The call
/// ends at `function_call_arguments.done` (or `output_item.done`): a `.done` text equal to
/// the deltas changes nothing; without deltas, the call is decided on it (logged); a
/// different one refuses the call as garbled (which text was meant cannot be known, and an
/// issue sent early on the deltas must stand), as does a delta after the end.
pub(super) fn stream_event(events: &mut Events<'_>, name: &str, data: &Value) {
    let kind = data.get("type").and_then(Value::as_str).unwrap_or(name);
    let output_index = data.get("output_index").and_then(Value::as_u64);
    let by_index = output_index.map(|index| format!("#{index}"));
    match kind {
        "response.output_item.added" | "response.output_item.done" => {
            let item = data.get("item").unwrap_or(&Value::Null);
            if item.get("type").and_then(Value::as_str) != Some("function_call") {
                return;
            }
            let key = item.get("id").and_then(Value::as_str).map(str::to_owned);
            let Some(at) = found(events, key.as_deref(), by_index.as_deref()) else {
                return;
            };
            let call_id = item.get("call_id").and_then(Value::as_str);
            events.name(at, call_id, item.get("name").and_then(Value::as_str));
            let arguments = item.get("arguments").map(as_text);
            if kind == "response.output_item.added" {
                if let Some(text) = arguments {
                    events.arguments(at, &text);
                }
            } else {
                done(events, at, arguments);
            }
        }
        "response.function_call_arguments.delta" => {
            let key = data.get("item_id").and_then(Value::as_str);
            if let Some(at) = found(events, key, by_index.as_deref()) {
                let delta = data.get("delta").map(as_text).unwrap_or_default();
                events.arguments(at, &delta);
            }
        }
        "response.function_call_arguments.done" => {
            let key = data.get("item_id").and_then(Value::as_str);
            if let Some(at) = found(events, key, by_index.as_deref()) {
                done(events, at, data.get("arguments").map(as_text));
            }
        }
        "response.completed" | "response.incomplete" => {
            let response = data.get("response").unwrap_or(&Value::Null);
            // The response holds its reason and usage as a whole answer does.
            events.finish(finish_reason(Provider::OpenAiResponses, response));
            events.output_tokens(output_tokens(Provider::OpenAiResponses, response));
            events.message_ended();
        }
        "response.failed" | "error" => events.fail(format!("the provider sent {kind}: {data}")),
        _ => {}
    }
}

/// The call keyed by its item id or, without one, by its output index (opened if new).
fn found(events: &mut Events<'_>, key: Option<&str>, by_index: Option<&str>) -> Option<usize> {
    match (key, by_index) {
        (Some(key), by_index) => match (events.find(key), by_index.and_then(|i| events.find(i))) {
            (Some(at), _) | (None, Some(at)) => Some(at),
            (None, None) => events.call(key),
        },
        (None, Some(by_index)) => events.call(by_index),
        (None, None) => None,
    }
}

/// A call's end, with the whole text the provider says it sent: the text it streamed, or,
/// where it streamed none, that text; any other text (at this end, or at a second one)
/// garbles the call (`Events::replace`).
fn done(events: &mut Events<'_>, at: usize, whole: Option<String>) {
    let Some(whole) = whole.filter(|whole| *whole != events.get(at).arguments) else {
        events.end(at);
        return;
    };
    if events.get(at).arguments.is_empty() && !events.get(at).ended {
        events.log(format!("call {at}: its arguments came only with its end"));
    }
    events.replace(at, whole);
    events.end(at);
}

//! OpenAI Chat Completions: `message.tool_calls`, answered by `role: "tool"` messages; and
//! the streaming adapter, reading `delta.tool_calls` chunks.
//!
//! Streams, decisions written down here (the quirks of compatible servers):
//! - A call is keyed by its choice and `index`, in a map (indexes may be sparse or start
//!   above 0; two entries of one index in a chunk are read in order, into the same call).
//!   Another index never ends a call: calls may interleave, and they end with the message.
//! - An entry without an `index` is keyed by its `id`; with neither, it continues the one call
//!   open, and with several open the message cannot be read (it is cut, naming why).
//! - A new `id` at an index in use opens a new call where the current call's arguments
//!   already close every bracket they open (servers that send every call at index 0), and
//!   otherwise continues the current call (servers that send a fresh id in every chunk); both
//!   logged.
//! - Only the first choice is read (`n` above 1 streams others): it is the answer, as the
//!   whole answer's reader takes it; another choice's finish reason does not end it.

use serde_json::{json, Value};

use super::end::output_tokens;
use super::streamed::Events;
use super::Provider;
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

/// One chunk of a streamed completion.
pub(super) fn stream_event(events: &mut Events<'_>, chunk: &Value) {
    // A chunk's `usage` and its first choice's finish reason sit where a whole answer's do.
    events.output_tokens(output_tokens(Provider::OpenAiChat, chunk));
    let choices = chunk.get("choices").and_then(Value::as_array);
    for choice in choices.into_iter().flatten() {
        let choice_index = choice.get("index").and_then(Value::as_u64).unwrap_or(0);
        // The first choice is the answer, as the whole answer's reader takes it.
        if choice_index != 0 {
            continue;
        }
        if let Some(text) = choice.pointer("/delta/content").and_then(Value::as_str) {
            events.text(text);
        }
        let entries = choice
            .pointer("/delta/tool_calls")
            .and_then(Value::as_array);
        for entry in entries.into_iter().flatten() {
            stream_entry(events, choice_index, entry);
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            events.finish(Some(reason));
            events.message_ended();
        }
    }
}

fn stream_entry(events: &mut Events<'_>, choice: u64, entry: &Value) {
    let id = entry
        .get("id")
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty());
    let function = entry.get("function").unwrap_or(&Value::Null);
    let name = function.get("name").and_then(Value::as_str);
    let at = match (entry.get("index").and_then(Value::as_u64), id) {
        (Some(index), _) => {
            let key = format!("{choice}/{index}");
            match events.find(&key) {
                Some(at) => match id {
                    Some(id)
                        if events
                            .get(at)
                            .call_id
                            .as_deref()
                            .is_some_and(|was| was != id) =>
                    {
                        if events.is_whole(at) {
                            events.log(format!("index {index}: a new id {id:?} after a whole call opens a new call"));
                            events.open(&key)
                        } else {
                            events.log(format!(
                                "index {index}: a new id {id:?} inside a call continues it"
                            ));
                            Some(at)
                        }
                    }
                    _ => Some(at),
                },
                None => events.open(&key),
            }
        }
        (None, Some(id)) => events.call(&format!("{choice}/id:{id}")),
        (None, None) => {
            match events.call_count() {
                0 => events.open(&format!("{choice}/")),
                1 => Some(0),
                _ => {
                    events.fail("a tool call delta names neither its index nor its id, with several calls open".to_owned());
                    None
                }
            }
        }
    };
    let Some(at) = at else {
        return;
    };
    events.name(at, id, name);
    match function.get("arguments") {
        None | Some(Value::Null) => {}
        Some(arguments) => events.arguments(at, &as_text(arguments)),
    }
}

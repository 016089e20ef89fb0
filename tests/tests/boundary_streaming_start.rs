//! When a toolbox's streaming turn runs its calls (`StartCalls`, issue 45): an Anthropic stream
//! of three calls, each ended by its own `content_block_stop`, then a fourth cut by
//! `max_tokens`. At the message's end (the default) the cut runs none; at each call's end the
//! three ended calls run (the cut refuses only the open one), and, read with
//! `StreamingTurn::read`, a call runs while the stream is still coming.

#[allow(unused_macros)]
mod boundary_common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::Poll;

use boundary_common::block_on;
use boundary_common::flights::{flights, REFUSED, REPAIRABLE, VALID};
use futures_util::stream::{self, StreamExt};
use serde_json::json;
use toolgate::boundary::messages::Provider;
use toolgate::boundary::{Envelope, OnEarlyIssue, StartCalls};

fn event(name: &str, data: serde_json::Value) -> String {
    format!("event: {name}\ndata: {data}\n\n")
}

/// The stream, as pieces: up to the first call's end, the rest.
fn stream() -> (String, String) {
    let mut first = event(
        "message_start",
        json!({"type": "message_start", "message": {"id": "msg_1", "usage": {"input_tokens": 10, "output_tokens": 1}}}),
    );
    let mut rest = String::new();
    for (index, text) in [VALID, REPAIRABLE, REFUSED, "{\"origin\": \"CD"]
        .iter()
        .enumerate()
    {
        let out = if index == 0 { &mut first } else { &mut rest };
        *out += &event(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block":
                {"type": "tool_use", "id": format!("toolu_{index}"), "name": "book_flight", "input": {}}}),
        );
        *out += &event(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta":
                {"type": "input_json_delta", "partial_json": text}}),
        );
        if index < 3 {
            *out += &event(
                "content_block_stop",
                json!({"type": "content_block_stop", "index": index}),
            );
        }
    }
    rest += &event(
        "message_delta",
        json!({"type": "message_delta", "delta": {"stop_reason": "max_tokens"}, "usage": {"output_tokens": 90}}),
    );
    rest += &event("message_stop", json!({"type": "message_stop"}));
    (first, rest)
}

fn oks(envelopes: &[Envelope]) -> Vec<bool> {
    envelopes.iter().map(|envelope| envelope.ok).collect()
}

#[test]
fn a_cut_message_runs_no_call_at_its_end_and_the_ended_calls_at_theirs() {
    let (first, rest) = stream();
    let text = first + &rest;
    for size in [1, 13, text.len()] {
        let (toolbox, reached) = flights();
        let mut turn = toolbox.stream_turn(Provider::Anthropic, None, OnEarlyIssue::Record);
        text.as_bytes()
            .chunks(size)
            .for_each(|piece| drop(turn.feed(piece)));
        let envelopes = block_on(turn.finish()).unwrap();
        assert_eq!(oks(&envelopes), [false; 4], "{size}");
        assert!(envelopes[0].to_json().contains("token limit"));
        assert_eq!(reached.load(Ordering::SeqCst), 0);

        let (toolbox, reached) = flights();
        let mut turn = toolbox
            .stream_turn(Provider::Anthropic, None, OnEarlyIssue::Record)
            .start_calls(StartCalls::AtCallEnd);
        text.as_bytes()
            .chunks(size)
            .for_each(|piece| drop(turn.feed(piece)));
        let envelopes = block_on(turn.finish()).unwrap();
        assert_eq!(oks(&envelopes), [true, true, false, false], "{size}");
        assert_eq!(reached.load(Ordering::SeqCst), 2);
        assert!(envelopes[2].to_json().contains("origin"));
        assert!(envelopes[3].to_json().contains("token limit"));
        let ids: Vec<_> = envelopes
            .iter()
            .map(|e| e.call_id.clone().unwrap())
            .collect();
        assert_eq!(ids, ["toolu_0", "toolu_1", "toolu_2", "toolu_3"]);
        // Each call counted once.
        assert_eq!(toolbox.usage("book_flight").calls, 2);
        assert_eq!(toolbox.usage("book_flight").invalid_arguments, 1);
    }
}

#[test]
fn read_runs_a_call_while_the_stream_is_still_coming() {
    let (first, rest) = stream();
    let (toolbox, reached) = flights();
    let mut turn = toolbox
        .stream_turn(Provider::Anthropic, None, OnEarlyIssue::Record)
        .start_calls(StartCalls::AtCallEnd);
    // The rest of the stream comes only once the first call reached its tool (or after many
    // polls, and then the test fails).
    let waited = Arc::new(AtomicUsize::new(0));
    let (gate, polls) = (Arc::clone(&reached), Arc::clone(&waited));
    let later = futures_util::future::poll_fn(move |context| {
        if gate.load(Ordering::SeqCst) > 0 || polls.fetch_add(1, Ordering::SeqCst) > 10_000 {
            return Poll::Ready(rest.clone().into_bytes());
        }
        context.waker().wake_by_ref();
        Poll::Pending
    });
    let pieces = stream::iter([first.into_bytes()]).chain(stream::once(later));
    let envelopes = block_on(async {
        let early = turn.read(pieces).await;
        assert_eq!(early.len(), 1);
        turn.finish().await
    })
    .unwrap();
    assert!(
        waited.load(Ordering::SeqCst) < 10_000,
        "the call did not run"
    );
    assert_eq!(oks(&envelopes), [true, true, false, false]);
}

/// A Responses stream whose first call ends (and runs) and whose second has no `call_id`: the
/// message cannot be read whole, yet the call that ran keeps its envelope; the other is
/// refused naming the call that cannot be read. Without calls begun, the error is the answer.
#[test]
fn a_call_that_ran_is_kept_when_the_message_cannot_be_read() {
    let event = |name: &str, data: serde_json::Value| format!("event: {name}\ndata: {data}\n\n");
    let mut text = String::new();
    for (index, call_id) in [Some("call_1"), None].into_iter().enumerate() {
        let mut item = json!({"type": "function_call", "id": format!("fc_{index}"),
            "name": "book_flight", "arguments": ""});
        if let Some(call_id) = call_id {
            item["call_id"] = call_id.into();
        }
        text += &event(
            "response.output_item.added",
            json!({"type": "response.output_item.added", "output_index": index, "item": item}),
        );
        text += &event(
            "response.function_call_arguments.done",
            json!({"type": "response.function_call_arguments.done", "item_id": format!("fc_{index}"),
                "output_index": index, "arguments": VALID}),
        );
    }
    text += &event(
        "response.completed",
        json!({"type": "response.completed", "response": {"status": "completed"}}),
    );
    let (toolbox, reached) = flights();
    let mut turn = toolbox
        .stream_turn(Provider::OpenAiResponses, None, OnEarlyIssue::Record)
        .start_calls(StartCalls::AtCallEnd);
    turn.feed(text.as_bytes());
    let envelopes = block_on(turn.finish()).unwrap();
    assert_eq!(oks(&envelopes), [true, false]);
    assert_eq!(reached.load(Ordering::SeqCst), 1);
    assert!(envelopes[1].to_json().contains("cannot be read"));

    let (toolbox, reached) = flights();
    let mut turn = toolbox.stream_turn(Provider::OpenAiResponses, None, OnEarlyIssue::Record);
    turn.feed(text.as_bytes());
    assert!(block_on(turn.finish()).is_err());
    assert_eq!(reached.load(Ordering::SeqCst), 0);
}

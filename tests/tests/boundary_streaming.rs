//! A toolbox's streaming turn (`Toolbox::stream_turn`, issue 45): a Chat Completions stream of
//! three interleaved calls (valid, repairable, refused) read in pieces of every size; the
//! refusal is heard early, at the event that completes the value it is about; every call is
//! decided at the end as the whole answer's would be; with `OnEarlyIssue::Cancel` no call
//! runs; with middleware, cancelling is off.

#[allow(unused_macros)]
mod boundary_common;

use std::sync::atomic::Ordering;

use boundary_common::block_on;
use boundary_common::flights::{flights, REFUSED, REPAIRABLE, VALID};
use serde_json::json;
use toolgate::boundary::messages::{answer_calls_in_text, Provider};
use toolgate::boundary::middleware::Middleware;
use toolgate::boundary::{Envelope, OnEarlyIssue, Reason};

/// The stream: each call opened, then its arguments in pieces of 9 bytes, the calls'
/// pieces interleaved; the finish reason; `[DONE]`.
fn stream() -> String {
    let texts = [VALID, REPAIRABLE, REFUSED];
    let chunk = |delta: serde_json::Value| {
        format!(
            "data: {}\n\n",
            json!({"choices": [{"index": 0, "delta": delta}]})
        )
    };
    let mut out = String::new();
    for (index, _) in texts.iter().enumerate() {
        out += &chunk(
            json!({"tool_calls": [{"index": index, "id": format!("call_{index}"), "type": "function",
            "function": {"name": "book_flight", "arguments": ""}}]}),
        );
    }
    let pieces: Vec<Vec<String>> = texts
        .iter()
        .map(|text| {
            text.chars()
                .collect::<Vec<_>>()
                .chunks(9)
                .map(|piece| piece.iter().collect())
                .collect()
        })
        .collect();
    for at in 0..pieces.iter().map(Vec::len).max().unwrap() {
        for (index, pieces) in pieces.iter().enumerate() {
            if let Some(piece) = pieces.get(at) {
                out += &chunk(
                    json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}),
                );
            }
        }
    }
    out += "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n";
    out
}

/// The whole answer of the same calls.
fn whole_answer() -> String {
    let calls: Vec<serde_json::Value> = [VALID, REPAIRABLE, REFUSED]
        .iter()
        .enumerate()
        .map(|(index, text)| {
            json!({"id": format!("call_{index}"), "type": "function",
            "function": {"name": "book_flight", "arguments": text}})
        })
        .collect();
    json!({"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": calls},
        "finish_reason": "tool_calls"}]})
    .to_string()
}

fn outcome(envelopes: &[Envelope]) -> Vec<(bool, Option<Reason>, String)> {
    envelopes
        .iter()
        .map(|envelope| (envelope.ok, envelope.reason(), envelope.to_json()))
        .collect()
}

#[test]
fn a_streamed_turn_hears_refusals_early_and_decides_as_the_whole_answer() {
    let stream = stream();
    let (whole_box, _) = flights();
    let read = answer_calls_in_text(Provider::OpenAiChat, &whole_answer(), None).unwrap();
    let whole = block_on(whole_box.call_answer(&read));
    for size in [1, 7, 100, stream.len()] {
        let (toolbox, reached) = flights();
        let mut turn = toolbox.stream_turn(Provider::OpenAiChat, None, OnEarlyIssue::Record);
        let mut early = Vec::new();
        for piece in stream.as_bytes().chunks(size) {
            early.extend(turn.feed(piece));
        }
        // The refused call's origin ("Paris", not a code), heard before the message ended.
        assert_eq!(early.len(), 1, "{size}: {early:?}");
        assert_eq!(
            (early[0].call, early[0].issue.path.to_string()),
            (2, "origin".to_owned())
        );
        assert!(early[0].event < turn.message().events_read() - 2);
        let envelopes = block_on(turn.finish()).unwrap();
        assert_eq!(outcome(&envelopes), outcome(&whole), "{size}");
        assert_eq!(reached.load(Ordering::SeqCst), 2);
        // The budgets count the calls as the whole answer's.
        assert_eq!(toolbox.usage("book_flight"), whole_box.usage("book_flight"));
    }
}

#[test]
fn cancelling_at_an_early_issue_runs_no_call() {
    let (toolbox, reached) = flights();
    let mut turn = toolbox.stream_turn(Provider::OpenAiChat, None, OnEarlyIssue::Cancel);
    let mut early = Vec::new();
    for piece in stream().as_bytes().chunks(5) {
        early.extend(turn.feed(piece));
    }
    assert_eq!(early.len(), 1);
    assert!(turn.is_cancelled());
    let envelopes = block_on(turn.finish()).unwrap();
    assert_eq!(reached.load(Ordering::SeqCst), 0);
    assert!(envelopes.iter().all(|envelope| !envelope.ok));
    // The cancelled call carries its own issue; the others say the answer was stopped.
    assert!(envelopes[2].to_json().contains("origin"));
    assert!(envelopes[0].to_json().contains("stopped the answer"));
}

struct Quiet;

#[toolgate::boundary::async_trait]
impl Middleware for Quiet {}

#[test]
fn with_middleware_an_early_issue_does_not_cancel() {
    let (mut toolbox, reached) = flights();
    toolbox.add_middleware(Quiet);
    let mut turn = toolbox.stream_turn(Provider::OpenAiChat, None, OnEarlyIssue::Cancel);
    for piece in stream().as_bytes().chunks(64) {
        turn.feed(piece);
    }
    assert!(!turn.is_cancelled());
    let envelopes = block_on(turn.finish()).unwrap();
    assert_eq!(reached.load(Ordering::SeqCst), 2);
    assert_eq!(envelopes.len(), 3);
}

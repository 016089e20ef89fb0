//! The cost of the tool boundary (`toolgate::boundary::Toolbox`) over the gate alone, on the
//! `book_flight` payloads V (valid), C (5 repairs) and I (4 errors).
//!
//! - `gate`: what a caller does without the boundary: `BookFlight::decode_bytes`, then the
//!   handler's future (its result is JSON already), or, on a refusal, the retry hint as JSON;
//! - `toolbox`: `Toolbox::call` on the same tool and handler: the budgets, the envelope and the
//!   telemetry (no subscriber listens, as in production without tracing);
//! - `toolbox_noop3`: the same with a chain of three middleware hooks that pass;
//! - `empty`: a tool with no arguments, gate and toolbox: the boundary's fixed cost.
//!
//! The handler's future is ready at once, so each call is polled once, with no runtime: the
//! figures are the boundary's own work. `ratios.py` prints `toolbox / gate` (issue 13's aim:
//! at most 1.05 with a no-op middleware chain).

use std::future::Future;
use std::hint::black_box;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use serde_json::{json, Value};
use toolgate::boundary::middleware::Middleware;
use toolgate::boundary::{async_trait, Budgets, Toolbox};
use toolgate::Tool;
use toolgate_bench::flight::BookFlight;
use toolgate_bench::{INVALID, REPAIRABLE, VALID};

/// Polls a future that is ready at once.
fn ready<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    match future
        .as_mut()
        .poll(&mut Context::from_waker(Waker::noop()))
    {
        Poll::Ready(output) => output,
        Poll::Pending => panic!("the call waited: nothing here waits"),
    }
}

async fn handler(flight: BookFlight) -> Result<Value, String> {
    Ok(json!({"booking": "BK-1", "passengers": flight.passengers}))
}

/// The gate alone, and what the caller does with its answer.
fn gate(text: &str) -> Result<Value, String> {
    match BookFlight::decode_bytes(text.as_bytes()) {
        // The handler gives JSON already: the caller sends it as it is.
        Ok(decoded) => ready(handler(decoded.value)),
        Err(rejected) => Err(rejected.hint_json()),
    }
}

struct Pass;

#[async_trait]
impl Middleware for Pass {}

fn toolbox(hooks: usize) -> Toolbox {
    // No stall detection: the bench sends the same refused text again and again.
    let mut toolbox = Toolbox::new().with_budgets(Budgets::new().stall_detection(false));
    toolbox.add_tool(handler).expect("one tool");
    for _ in 0..hooks {
        toolbox.add_middleware(Pass);
    }
    toolbox
}

/// A tool with no arguments: what is left of a call is the boundary's fixed cost.
#[derive(Tool, serde::Deserialize)]
struct Nothing {}

async fn nothing(_: Nothing) -> Result<Value, String> {
    Ok(Value::Null)
}

fn boundary(c: &mut Criterion) {
    let plain = toolbox(0);
    let chained = toolbox(3);
    // Checked once before timing: each road gives the same outcome.
    for (text, ok) in [(VALID, true), (REPAIRABLE, true), (INVALID, false)] {
        assert_eq!(gate(text).is_ok(), ok);
        assert_eq!(ready(plain.call("book_flight", text)).ok, ok);
        assert_eq!(ready(chained.call("book_flight", text)).ok, ok);
    }
    let mut group = c.benchmark_group("boundary");
    for (label, text) in [("V", VALID), ("C", REPAIRABLE), ("I", INVALID)] {
        group.bench_function(BenchmarkId::new("gate", label), |b| {
            b.iter(|| gate(black_box(text)))
        });
        group.bench_function(BenchmarkId::new("toolbox", label), |b| {
            b.iter(|| ready(plain.call("book_flight", black_box(text))))
        });
        group.bench_function(BenchmarkId::new("toolbox_noop3", label), |b| {
            b.iter(|| ready(chained.call("book_flight", black_box(text))))
        });
    }
    let mut empty = Toolbox::new();
    empty.add_tool(nothing).expect("one tool");
    group.bench_function(BenchmarkId::new("gate", "empty"), |b| {
        b.iter(|| {
            let decoded = Nothing::decode(black_box("{}")).map_err(|r| r.hint_json());
            decoded.map(|d| ready(nothing(d.value)))
        })
    });
    group.bench_function(BenchmarkId::new("toolbox", "empty"), |b| {
        b.iter(|| ready(empty.call("nothing", black_box("{}"))))
    });
    group.finish();
}

criterion_group!(benches, boundary);
criterion_main!(benches);

//! The run-time road on the BFCL corpus: every argument text of
//! `tests/data/bfcl/cases-expanded.jsonl` decoded by a [`toolgate::DynamicTool`] built (once,
//! outside the timing) from its tool definition in `tests/data/bfcl/cases.jsonl`.
//!
//! Throughput is in elements, so criterion reports calls per second. Ids:
//!
//! - `all`: every case (valid, repairable `L_*` and refused `R_*` classes);
//! - `expect_ok`: the cases the corpus expects accepted (valid and repairable);
//! - `expect_refused`: the cases it expects refused (the retry hint is built only when asked
//!   for, and nothing asks here: a refusal costs its issues);
//! - `expect_refused_hint`: the same, each refusal's retry hint built and rendered to JSON
//!   (what goes back to the model);
//! - `serde_json_value`: the floor, `serde_json::from_str::<Value>` on every text (it refuses
//!   the texts that are not strict JSON, and checks nothing).
//!
//! And `readers_valid`, the readers alone on the texts of class `valid` (strict JSON): `reader`,
//! the run-time road's cursor into its tree; `serde_json_tree`, serde_json's reader into the
//! same tree; `serde_json_value`, serde_json into its own `Value`.
//!
//! Run it with `cargo bench -p toolgate-bench --bench runtime_road`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::Value;
use toolgate::DynamicTool;
use toolgate_bench::bfcl_corpus;

/// One call to time: its tool and its argument text.
struct Call<'t> {
    tool: &'t DynamicTool,
    arguments: String,
    expect_ok: bool,
    class: String,
}

fn decode_all(calls: &[&Call<'_>]) -> usize {
    let mut accepted = 0;
    for call in calls {
        if call.tool.decode(black_box(&call.arguments)).is_ok() {
            accepted += 1;
        }
    }
    accepted
}

fn runtime_road(c: &mut Criterion) {
    let (definitions, cases) = bfcl_corpus();
    let tools: Vec<Option<DynamicTool>> = definitions
        .iter()
        .map(|definition| DynamicTool::from_definition(definition).ok())
        .collect();
    let unusable = tools.iter().filter(|tool| tool.is_none()).count();
    let calls: Vec<Call<'_>> = cases
        .into_iter()
        .filter_map(|case| {
            let tool = tools.get(case.corpus_line)?.as_ref()?;
            Some(Call {
                tool,
                arguments: case.arguments,
                expect_ok: case.expect_ok,
                class: case.class,
            })
        })
        .collect();
    let all: Vec<&Call<'_>> = calls.iter().collect();
    let expect_ok: Vec<&Call<'_>> = calls.iter().filter(|call| call.expect_ok).collect();
    let expect_refused: Vec<&Call<'_>> = calls.iter().filter(|call| !call.expect_ok).collect();

    let accepted = decode_all(&all);
    let agree = all
        .iter()
        .filter(|call| call.tool.decode(&call.arguments).is_ok() == call.expect_ok)
        .count();
    println!(
        "BFCL corpus: {} tool definitions ({unusable} unusable), {} calls ({} expected accepted, \
         {} expected refused); toolgate accepts {accepted}, agrees with the expectation on {agree}",
        definitions.len(),
        all.len(),
        expect_ok.len(),
        expect_refused.len(),
    );
    println!();

    let mut group = c.benchmark_group("runtime_road");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    for (id, calls) in [
        ("all", &all),
        ("expect_ok", &expect_ok),
        ("expect_refused", &expect_refused),
    ] {
        group.throughput(Throughput::Elements(calls.len() as u64));
        group.bench_function(id, |b| b.iter(|| decode_all(calls)));
    }
    group.throughput(Throughput::Elements(expect_refused.len() as u64));
    group.bench_function("expect_refused_hint", |b| {
        b.iter(|| {
            expect_refused
                .iter()
                .filter_map(|call| call.tool.decode(black_box(&call.arguments)).err())
                .map(|rejected| rejected.hint_json().len())
                .sum::<usize>()
        })
    });
    group.throughput(Throughput::Elements(all.len() as u64));
    group.bench_function("serde_json_value", |b| {
        b.iter(|| {
            all.iter()
                .filter(|call| serde_json::from_str::<Value>(black_box(&call.arguments)).is_ok())
                .count()
        })
    });
    group.finish();

    // The readers alone on the valid texts (strict JSON): the run-time road's into its tree,
    // serde_json's into the same tree and into its own `Value`.
    let valid: Vec<&str> = cases_valid(&calls);
    let mut group = c.benchmark_group("readers_valid");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(5));
    group.throughput(Throughput::Elements(valid.len() as u64));
    let readers: [(&str, Reader); 3] = [
        ("reader", toolgate_core::__bench::read_text),
        (
            "serde_json_tree",
            toolgate_core::__bench::read_text_by_serde_json,
        ),
        ("serde_json_value", |text| {
            serde_json::from_str::<Value>(text).is_ok()
        }),
    ];
    for (id, read) in readers {
        group.bench_function(id, |b| {
            b.iter(|| valid.iter().filter(|text| read(black_box(text))).count())
        });
    }
    group.finish();
}

/// A reader of a whole text: whether it read it.
type Reader = fn(&str) -> bool;

/// The texts of the calls of class `valid`.
fn cases_valid<'c>(calls: &'c [Call<'_>]) -> Vec<&'c str> {
    calls
        .iter()
        .filter(|call| call.class == "valid")
        .map(|call| call.arguments.as_str())
        .collect()
}

criterion_group!(benches, runtime_road);
criterion_main!(benches);

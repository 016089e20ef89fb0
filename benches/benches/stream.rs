//! A call's arguments streamed in pieces against the one-shot decode of the same text
//! (issue 45): `feed` for every piece, then `finish`, with the run-time road's
//! `StreamDecoder`; and the way openai-python and the Anthropic SDK follow a stream, jiter's
//! partial mode parsing the whole prefix again at each piece.
//!
//! | group | what |
//! | --- | --- |
//! | `stream_16k` | a 16 KiB argument (`toolgate_bench::streamed`, 200 small objects): one shot; pieces of 1, 16 and 64 bytes then `finish`; jiter's partial mode at each piece of 1 and 64 bytes |
//! | `stream_scale` | pieces of 1 byte then `finish`, and one shot, at 1 KiB, 16 KiB and 1 MiB: the cost per byte should stay flat |
//!
//! Run it with `cargo bench -p toolgate-bench --bench stream`; `benches/ratios.py` prints the
//! ratios.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use toolgate_bench::streamed::{argument, feed_then_finish as streamed, tool};

/// jiter's partial mode over each prefix of `text`, ending at each piece of `size` bytes.
fn jiter_prefixes(text: &[u8], size: usize) -> bool {
    let mut end = 0;
    let mut parsed = false;
    while end < text.len() {
        end = (end + size).min(text.len());
        parsed = jiter::JsonValue::parse_with_config(&text[..end], false, jiter::PartialMode::On)
            .is_ok();
    }
    parsed
}

fn stream_16k(c: &mut Criterion) {
    let tool = tool();
    let text = argument(16 * 1024);
    let bytes = text.as_bytes();
    assert!(tool.decode(&text).is_ok() && streamed(&tool, bytes, 1));
    let mut group = c.benchmark_group("stream_16k");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("one_shot", |b| {
        b.iter(|| tool.decode_bytes(black_box(bytes)).is_ok())
    });
    for size in [1, 16, 64] {
        group.bench_function(BenchmarkId::new("pieces", size), |b| {
            b.iter(|| streamed(&tool, black_box(bytes), size))
        });
    }
    group.sample_size(10);
    for size in [1, 64] {
        group.bench_function(BenchmarkId::new("jiter_prefixes", size), |b| {
            b.iter(|| jiter_prefixes(black_box(bytes), size))
        });
    }
    group.finish();
}

fn stream_scale(c: &mut Criterion) {
    let tool = tool();
    let mut group = c.benchmark_group("stream_scale");
    for size in [1024, 16 * 1024, 1024 * 1024] {
        let text = argument(size);
        let bytes = text.as_bytes();
        assert!(tool.decode(&text).is_ok() && streamed(&tool, bytes, 1));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        if size > 16 * 1024 {
            group.sample_size(10);
        }
        group.bench_function(BenchmarkId::new("one_shot", size), |b| {
            b.iter(|| tool.decode_bytes(black_box(bytes)).is_ok())
        });
        group.bench_function(BenchmarkId::new("pieces_1", size), |b| {
            b.iter(|| streamed(&tool, black_box(bytes), 1))
        });
    }
    group.finish();
}

criterion_group!(benches, stream_16k, stream_scale);
criterion_main!(benches);

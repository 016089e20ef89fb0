//! The decoders of the `decode` bench, run a given number of times, for counting the
//! instructions they take under valgrind (`benches/instructions.py`): on a shared machine
//! whose timings wander by half from run to run, an instruction count is the same in every
//! run, so a change's effect can be seen below the timing noise.
//!
//! ```sh
//! cargo build --release -p toolgate-bench --example instructions
//! python3 benches/instructions.py
//! ```
//!
//! A development aid, not a benchmark: instructions are not time (a cache miss costs
//! more than an add). criterion's `decode` bench is the measurement the README's tables use.

use std::hint::black_box;

use toolgate::{DynamicTool, Tool};
use toolgate_bench::{
    bfcl_corpus, flight, plain, INVALID, INVALID_CHECKS, INVALID_MISSING, REPAIRABLE, VALID,
};

fn main() {
    let mut arguments = std::env::args().skip(1);
    let (Some(decoder), Some(shape), Some(runs)) =
        (arguments.next(), arguments.next(), arguments.next())
    else {
        eprintln!("usage: instructions <serde_floor|toolgate|runtime_value|show> <V|C|I|IM|I3> <runs>\n       instructions <runtime|serde_json_value> BFCL <runs>\n       instructions <reader|serde_json_tree|serde_json_value> BFCL_VALID <runs>\n       instructions <one_shot|pieces_N> STREAM<bytes> <runs>");
        std::process::exit(2);
    };
    let runs: usize = runs.parse().expect("a number of runs");
    if shape == "BFCL" {
        return bfcl(&decoder, runs);
    }
    if shape == "BFCL_VALID" {
        return bfcl_valid(&decoder, runs);
    }
    if let Some(size) = shape.strip_prefix("STREAM") {
        return stream(&decoder, size.parse().expect("STREAM<bytes>"), runs);
    }
    let text = match shape.as_str() {
        "V" => VALID,
        "C" => REPAIRABLE,
        "I" => INVALID,
        "IM" => INVALID_MISSING,
        "I3" => INVALID_CHECKS,
        other => panic!("no shape {other}"),
    };
    // The model and its plan are built once, before the runs, as in the bench.
    let _ = flight::BookFlight::decode_bytes(VALID.as_bytes());
    let bytes = black_box(text.as_bytes());
    // The run-time road on a value read already (an MCP server's arguments); made only for
    // that decoder, so the other decoders' runs start from the same heap as before.
    let on_value = (decoder == "runtime_value").then(|| {
        let dynamic = DynamicTool::from_model(flight::BookFlight::model().clone());
        let value: serde_json::Value = serde_json::from_str(text).expect("the shapes are JSON");
        (dynamic, value)
    });
    for _ in 0..runs {
        match decoder.as_str() {
            "serde_floor" => {
                let _ = black_box(serde_json::from_slice::<plain::BookFlight>(bytes));
            }
            "toolgate" => {
                let outcome = match flight::BookFlight::decode_bytes(bytes) {
                    Ok(decoded) => Ok(decoded.value),
                    Err(rejected) => Err(rejected.hint_json()),
                };
                let _ = black_box(outcome);
            }
            "runtime_value" => {
                let Some((dynamic, value)) = &on_value else {
                    unreachable!("made for this decoder")
                };
                let outcome = match dynamic.decode_value(black_box(value)) {
                    Ok(decoded) => Ok(decoded.value),
                    Err(rejected) => Err(rejected.hint_json()),
                };
                let _ = black_box(outcome);
            }
            // What the toolgate decoder answers, once: the value, or the hint as JSON.
            "show" => match flight::BookFlight::decode_bytes(bytes) {
                Ok(decoded) => println!("{:?}\n{:?}", decoded.value, decoded.repairs),
                Err(rejected) => println!("{}", rejected.hint_json()),
            },
            other => panic!("no decoder {other}"),
        }
    }
}

/// The run-time road's bench (`runtime_road`'s `all`) under the counter: every call of the
/// BFCL corpus decoded by its `DynamicTool` (`runtime`), or read by
/// `serde_json::from_str::<Value>` (`serde_json_value`, the floor), `runs` times. The tools
/// are built either way, so the setup counted with 0 runs is the same for both.
fn bfcl(decoder: &str, runs: usize) {
    let (definitions, cases) = bfcl_corpus();
    let tools: Vec<Option<DynamicTool>> = definitions
        .iter()
        .map(|definition| DynamicTool::from_definition(definition).ok())
        .collect();
    let calls: Vec<(&DynamicTool, String)> = cases
        .into_iter()
        .filter_map(|case| Some((tools.get(case.corpus_line)?.as_ref()?, case.arguments)))
        .collect();
    for _ in 0..runs {
        for (tool, arguments) in &calls {
            match decoder {
                "runtime" => {
                    let _ = black_box(tool.decode(black_box(arguments)));
                }
                "serde_json_value" => {
                    let _ = black_box(serde_json::from_str::<serde_json::Value>(black_box(
                        arguments,
                    )));
                }
                other => panic!("no decoder {other}"),
            }
        }
    }
}

/// The readers alone on BFCL's valid texts (class `valid`, strict JSON), `runs` times: the
/// cursor of the run-time road into its tree (`reader`), serde_json's reader into the same
/// tree (`serde_json_tree`) and into its own `Value` (`serde_json_value`).
fn bfcl_valid(reader: &str, runs: usize) {
    let (_, cases) = bfcl_corpus();
    let texts: Vec<String> = cases
        .into_iter()
        .filter(|case| case.class == "valid")
        .map(|case| case.arguments)
        .collect();
    for _ in 0..runs {
        for text in &texts {
            let read = match reader {
                "reader" => toolgate_core::__bench::read_text(black_box(text)),
                "serde_json_tree" => {
                    toolgate_core::__bench::read_text_by_serde_json(black_box(text))
                }
                "serde_json_value" => {
                    serde_json::from_str::<serde_json::Value>(black_box(text)).is_ok()
                }
                other => panic!("no reader {other}"),
            };
            assert!(black_box(read));
        }
    }
}

/// The `stream` bench under the counter: `toolgate_bench::streamed`'s argument of `bytes`
/// bytes decoded in one shot (`one_shot`), or fed to a stream decoder in pieces of N bytes
/// then finished (`pieces_N`), `runs` times.
fn stream(decoder: &str, bytes: usize, runs: usize) {
    let tool = toolgate_bench::streamed::tool();
    let text = toolgate_bench::streamed::argument(bytes);
    let text = black_box(text.as_bytes());
    let pieces: Option<usize> = decoder
        .strip_prefix("pieces_")
        .map(|n| n.parse().expect("pieces_N"));
    for _ in 0..runs {
        let accepted = match pieces {
            None => tool.decode_bytes(text).is_ok(),
            Some(size) => toolgate_bench::streamed::feed_then_finish(&tool, text, size),
        };
        assert!(black_box(accepted));
    }
}

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

use toolgate::Tool;
use toolgate_bench::{flight, plain, INVALID, INVALID_CHECKS, INVALID_MISSING, REPAIRABLE, VALID};

fn main() {
    let mut arguments = std::env::args().skip(1);
    let (Some(decoder), Some(shape), Some(runs)) =
        (arguments.next(), arguments.next(), arguments.next())
    else {
        eprintln!("usage: instructions <serde_floor|toolgate|show> <V|C|I|IM|I3> <runs>");
        std::process::exit(2);
    };
    let text = match shape.as_str() {
        "V" => VALID,
        "C" => REPAIRABLE,
        "I" => INVALID,
        "IM" => INVALID_MISSING,
        "I3" => INVALID_CHECKS,
        other => panic!("no shape {other}"),
    };
    let runs: usize = runs.parse().expect("a number of runs");
    // The model and its plan are built once, before the runs, as in the bench.
    let _ = flight::BookFlight::decode_bytes(VALID.as_bytes());
    let bytes = black_box(text.as_bytes());
    for _ in 0..runs {
        match decoder.as_str() {
            "serde_floor" => {
                let _ = black_box(serde_json::from_slice::<plain::BookFlight>(bytes));
            }
            "toolgate" => {
                let outcome = match flight::BookFlight::decode_bytes(bytes) {
                    Ok(decoded) => Ok(decoded.value),
                    Err(rejected) => Err(rejected.hint().to_json()),
                };
                let _ = black_box(outcome);
            }
            // What the toolgate decoder answers, once: the value, or the hint as JSON.
            "show" => match flight::BookFlight::decode_bytes(bytes) {
                Ok(decoded) => println!("{:?}\n{:?}", decoded.value, decoded.repairs),
                Err(rejected) => println!("{}", rejected.hint().to_json()),
            },
            other => panic!("no decoder {other}"),
        }
    }
}

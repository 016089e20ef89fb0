//! Where the run-time road's time goes by kind of call: every case of the BFCL corpus
//! (`tests/data/bfcl/cases-expanded.jsonl`) decoded by `DynamicTool`, grouped by its class
//! (`valid`, `L_fence`, `R_type_num`, ...), with the time per call, the class's share of the
//! whole, and its ratio to `serde_json::from_str::<Value>` on the same texts.
//!
//! ```sh
//! cargo run --release -p toolgate-bench --example runtime_classes
//! ```
//!
//! A profile aid, not a benchmark: the best of 20 passes per class, timed with `Instant`
//! (criterion's `runtime_road` is the measurement the README's tables use).

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Instant;

use toolgate::DynamicTool;
use toolgate_bench::bfcl_corpus;

/// The shortest of `passes` runs of `work`, in seconds.
fn best_of(passes: usize, mut work: impl FnMut()) -> f64 {
    (0..passes)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let (definitions, cases) = bfcl_corpus();
    let tools: Vec<Option<DynamicTool>> = definitions
        .iter()
        .map(|definition| DynamicTool::from_definition(definition).ok())
        .collect();
    let mut by_class: BTreeMap<String, Vec<(&DynamicTool, String)>> = BTreeMap::new();
    for case in cases {
        if let Some(Some(tool)) = tools.get(case.corpus_line) {
            by_class
                .entry(case.class)
                .or_default()
                .push((tool, case.arguments));
        }
    }
    let mut rows: Vec<(f64, &str, usize, f64)> = by_class
        .iter()
        .map(|(class, calls)| {
            let toolgate = best_of(20, || {
                for (tool, arguments) in calls {
                    black_box(tool.decode(black_box(arguments)).is_ok());
                }
            });
            let floor = best_of(20, || {
                for (_, arguments) in calls {
                    black_box(
                        serde_json::from_str::<serde_json::Value>(black_box(arguments)).is_ok(),
                    );
                }
            });
            (toolgate, class.as_str(), calls.len(), floor)
        })
        .collect();
    let total: f64 = rows.iter().map(|row| row.0).sum();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "{:<20} {:>6} {:>10} {:>7} {:>9}",
        "class", "calls", "ns/call", "share", "x serde"
    );
    for (seconds, class, calls, floor) in rows {
        println!(
            "{class:<20} {calls:>6} {:>10.0} {:>6.1}% {:>8.1}x",
            seconds / calls as f64 * 1e9,
            seconds / total * 100.0,
            seconds / floor
        );
    }
}

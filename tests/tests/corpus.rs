//! Replays every expanded BFCL case (`tests/data/bfcl/`, Apache-2.0, see its NOTICE) through
//! `DynamicTool` and checks its expectation: accepted or refused; the value, up to numeric
//! equality and ignoring filled-in defaults; a repair logged or not; the path and
//! constraint; and the hint naming the missing field or the enum's allowed values.

use toolgate_tests::corpus::{dynamic_tools, miss, Replay, EXPANDED};

#[test]
fn every_expanded_case_meets_its_expectation() {
    let tools = dynamic_tools();
    assert_eq!(tools.len(), 1788);
    let Replay { per_class, misses } = Replay::run(EXPANDED.lines(), |case, _| {
        let tool = &tools[case["corpus_line"].as_u64().unwrap() as usize];
        miss(
            tool.decode(case["arguments"].as_str().unwrap()),
            &case["expect"],
        )
    });
    let total: usize = per_class.values().map(|(_, n)| n).sum();
    assert!(total > 24_000, "only {total} cases");
    let failed: Vec<&String> = misses.values().flatten().take(20).collect();
    assert!(
        failed.is_empty(),
        "{} cases miss their expectation, first ones:\n{failed:#?}",
        misses.values().map(Vec::len).sum::<usize>()
    );
}

//! Replays every expanded BFCL case (`tests/data/bfcl/`, Apache-2.0, see its NOTICE) through
//! `DynamicTool` and checks its expectation: accepted or refused; the value, up to numeric
//! equality and ignoring filled-in defaults; a repair logged or not; the path and
//! constraint; and the hint naming the missing field or the enum's allowed values.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;

use toolgate_tests::corpus::{dynamic_tools, miss, EXPANDED};

#[test]
fn every_expanded_case_meets_its_expectation() {
    let tools = dynamic_tools();
    assert_eq!(tools.len(), 1788);
    let mut per_class: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut misses: HashMap<String, Vec<String>> = HashMap::new();
    for line in EXPANDED.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let class = case["class"].as_str().unwrap().to_owned();
        let tool = &tools[case["corpus_line"].as_u64().unwrap() as usize];
        let why = miss(
            tool.decode(case["arguments"].as_str().unwrap()),
            &case["expect"],
        );
        let entry = per_class.entry(class.clone()).or_default();
        entry.1 += 1;
        match why {
            None => entry.0 += 1,
            Some(why) => misses
                .entry(class)
                .or_default()
                .push(format!("{}: {why}", case["id"])),
        }
    }
    let total: usize = per_class.values().map(|(_, n)| n).sum();
    assert!(total > 24_000, "only {total} cases");
    for (class, (passed, cases)) in &per_class {
        println!("{class:18} {passed:6} / {cases:6}");
    }
    let failed: Vec<&String> = misses.values().flatten().take(20).collect();
    assert!(
        failed.is_empty(),
        "{} cases miss their expectation, first ones:\n{failed:#?}",
        misses.values().map(Vec::len).sum::<usize>()
    );
}

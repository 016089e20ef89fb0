//! The streaming walk and the tree walk decide alike: every call of both corpora (BFCL's
//! 24,605 and tools-dev's, valid, repairable and wrong) goes through each, with the run-time
//! road's options and a typed tool's (unknown keys dropped), and wherever the stream decides
//! (it leaves a few inputs to the tree walk), its value, repairs, issues and hint are the tree
//! walk's. The stream must decide most calls, or the test would compare little.

use serde_json::Value;
use toolgate::model::ToolModel;
use toolgate_core::decode::{decode_text_by_stream, decode_text_by_tree, Options};
use toolgate_tests::corpus::{corpus_models, EXPANDED};

/// How many calls the stream decided, and the first disagreements.
#[derive(Default)]
struct Tally {
    calls: usize,
    decided: usize,
    disagreements: Vec<String>,
}

impl Tally {
    fn compare(&mut self, model: &ToolModel, arguments: &str, options: &Options) {
        self.calls += 1;
        let Some(streamed) = decode_text_by_stream(model, arguments.as_bytes(), options) else {
            return;
        };
        self.decided += 1;
        let tree = decode_text_by_tree(model, arguments.as_bytes(), options);
        let agree = match (&streamed, &tree) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => {
                a.report == b.report && a.repairs == b.repairs && a.hint() == b.hint()
            }
            _ => false,
        };
        if !agree && self.disagreements.len() < 10 {
            self.disagreements.push(format!(
                "{}: {arguments}\n  stream: {streamed:?}\n  tree:   {tree:?}",
                model.name()
            ));
        }
    }

    fn assert_agreed(&self, least_share: f64) {
        assert!(
            self.disagreements.is_empty(),
            "the stream and the tree disagree:\n{}",
            self.disagreements.join("\n")
        );
        let share = self.decided as f64 / self.calls as f64;
        assert!(
            share >= least_share,
            "the stream decided only {} of {} calls",
            self.decided,
            self.calls
        );
    }
}

fn arguments(case: &Value) -> &str {
    case["arguments"].as_str().unwrap()
}

#[test]
fn the_stream_decides_bfcl_calls_as_the_tree_does() {
    let models = corpus_models();
    for options in [Options::default(), Options::typed()] {
        let mut tally = Tally::default();
        for line in EXPANDED.lines() {
            let case: Value = serde_json::from_str(line).unwrap();
            let model = &models[case["corpus_line"].as_u64().unwrap() as usize];
            tally.compare(model, arguments(&case), &options);
        }
        assert_eq!(tally.calls, 24_605);
        tally.assert_agreed(0.55);
    }
}

#[test]
fn the_stream_decides_tools_dev_calls_as_the_tree_does() {
    let models = toolgate_tests::tools_dev::corpus_models();
    let lines = toolgate_tests::tools_dev::expanded_lines();
    for options in [Options::default(), Options::typed()] {
        let mut tally = Tally::default();
        for line in &lines {
            let case: Value = serde_json::from_str(line).unwrap();
            let Ok(model) = &models[case["corpus_line"].as_u64().unwrap() as usize] else {
                continue;
            };
            tally.compare(model, arguments(&case), &options);
        }
        assert!(tally.calls > 40_000, "only {} calls", tally.calls);
        tally.assert_agreed(0.6);
    }
}

//! Streamed calls (issue 45): whatever pieces a call's text arrives in, the streaming
//! decoder's end (`finish`) is the one-shot decode of the whole text — value, repairs,
//! issues and hint — the snapshots of the arguments only grow (every 40th call, after every
//! byte), and every issue it sent early is sound: the call is refused, and its report holds
//! an issue at the same path and constraint, or another in the cases the `streaming` module
//! lists (the text refused whole, keys that tie, the report's cap).
//!
//! Over every call of both corpora (BFCL's expanded cases and tools-dev's) and the goldens'
//! samples (at every split point too), each cut into
//! pieces of sizes that vary from call to call (one byte at a time for every seventh), with
//! the run-time road's options; typed tools over generated calls, every split point.

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;
use toolgate::streaming::{Partial, StreamDecoder, StreamEvent};
use toolgate::{Constraint, Decoded, DynamicTool, Issue, Rejected, Report, Tool};
use toolgate_tests::corpus::{dynamic_tools, EXPANDED};
use toolgate_tests::fixtures::flight::BookFlight;

/// The piece sizes of call `n`: one byte at a time for every seventh call, else sizes
/// cycling from 1 to 17 from a start that moves with `n`.
fn piece_sizes(n: usize, length: usize) -> Vec<usize> {
    if n.is_multiple_of(7) {
        return vec![1; length];
    }
    let mut sizes = Vec::new();
    let (mut at, mut size) = (0, n % 17);
    while at < length {
        size = size % 17 + 1;
        sizes.push(size);
        at += size;
    }
    sizes
}

/// What `decoder` made of `text` fed in pieces of `sizes`: the early issues and the end.
fn streamed<T>(
    mut decoder: StreamDecoder<'_, T>,
    text: &[u8],
    sizes: &[usize],
) -> (Vec<Issue>, Result<Decoded<T>, Rejected>) {
    let mut early = Vec::new();
    let mut at = 0;
    for &size in sizes {
        let end = (at + size).min(text.len());
        for event in decoder.feed(&text[at..end]) {
            if let StreamEvent::Issue(issue) = event {
                early.push(issue.clone());
            }
        }
        at = end;
    }
    if at < text.len() {
        decoder.feed(&text[at..]);
    }
    (early, decoder.finish())
}

/// Whether an early issue is sound against the end's answer: `Some(true)` where the report
/// has an issue at its path and constraint, `Some(false)` where only at an ancestor (or the
/// report is capped), `None` where it is not sound.
fn sound<T>(issue: &Issue, end: &Result<Decoded<T>, Rejected>) -> Option<bool> {
    let Err(rejected) = end else {
        return None;
    };
    let report: &Report = &rejected.report;
    if report
        .issues()
        .iter()
        .any(|found| found.path == issue.path && found.constraint == issue.constraint)
    {
        return Some(true);
    }
    // The cases the `streaming` module lists: the text refused whole (a root `syntax` or
    // `limit` issue), keys that tie at the field or around it, the report capped.
    let listed = report.issues().iter().any(|found| {
        // Keys that tie name the field or one around it: one `syntax` issue there.
        let tie = issue.path.segments().starts_with(found.path.segments())
            && found.constraint == Constraint::Syntax;
        let text_refused = found.path.is_root()
            && matches!(found.constraint, Constraint::Syntax | Constraint::Limit);
        tie || text_refused
    });
    (listed || report.left_out() > 0).then_some(false)
}

/// The end of a streamed call against the one shot of its text.
fn same_end<T: PartialEq + std::fmt::Debug>(
    streamed: &Result<Decoded<T>, Rejected>,
    one_shot: &Result<Decoded<T>, Rejected>,
) -> bool {
    match (streamed, one_shot) {
        (Ok(a), Ok(b)) => a == b,
        (Err(a), Err(b)) => {
            a.report == b.report && a.repairs == b.repairs && a.hint_json() == b.hint_json()
        }
        _ => false,
    }
}

/// Tallies over a corpus.
#[derive(Default, Debug)]
struct Tally {
    calls: usize,
    early: usize,
    exact: usize,
    refused_early: usize,
    snapshots: usize,
    failures: Vec<String>,
}

impl Tally {
    fn call(&mut self, tool: &DynamicTool, n: usize, text: &str) {
        self.calls += 1;
        let sizes = piece_sizes(n, text.len());
        let (early, end) = streamed(tool.stream_decoder(), text.as_bytes(), &sizes);
        let one_shot = tool.decode(text);
        if !same_end(&end, &one_shot) && self.failures.len() < 10 {
            self.failures.push(format!(
                "{}: {text}\n  streamed: {end:?}\n  one shot: {one_shot:?}",
                tool.model().name()
            ));
        }
        self.refused_early += usize::from(!early.is_empty());
        if n.is_multiple_of(40) {
            self.snapshots(tool, text);
        }
        for issue in &early {
            self.early += 1;
            match sound(issue, &end) {
                Some(exact) => self.exact += usize::from(exact),
                None if self.failures.len() < 10 => self.failures.push(format!(
                    "{}: {text}\n  early issue {issue:?}\n  end: {end:?}",
                    tool.model().name()
                )),
                None => {}
            }
        }
    }

    /// After every byte of `text`, the snapshot grows into the next one; the last, for
    /// strict JSON, is the value as sent.
    fn snapshots(&mut self, tool: &DynamicTool, text: &str) {
        let mut decoder = tool.stream_decoder();
        let mut before: Option<Partial> = None;
        for (at, byte) in text.bytes().enumerate() {
            decoder.feed(&[byte]);
            let now = decoder.snapshot();
            if let (Some(before), Some(now)) = (&before, &now) {
                if !before.grows_into(now) && self.failures.len() < 10 {
                    self.failures
                        .push(format!("{text} at {at}: {before:?} then {now:?}"));
                }
            }
            before = now.or(before);
        }
        if let (Ok(value), Some(last)) = (serde_json::from_str::<Value>(text), decoder.snapshot()) {
            if text.trim_start().starts_with('{')
                && last.to_value() != value
                && self.failures.len() < 10
            {
                self.failures
                    .push(format!("{text}: the last snapshot {last:?}"));
            }
        }
        self.snapshots += 1;
    }

    fn assert_held(&self) {
        assert!(self.failures.is_empty(), "{}", self.failures.join("\n"));
        println!(
            "{} calls, {} refused early, {} early issues ({} at the same path and constraint), {} calls snapshot after every byte",
            self.calls, self.refused_early, self.early, self.exact, self.snapshots
        );
    }
}

#[test]
fn bfcl_calls_streamed_in_any_pieces_end_as_one_shot() {
    let tools = dynamic_tools();
    let mut tally = Tally::default();
    for (n, line) in EXPANDED.lines().enumerate() {
        let case: Value = serde_json::from_str(line).unwrap();
        let tool = &tools[case["corpus_line"].as_u64().unwrap() as usize];
        tally.call(tool, n, case["arguments"].as_str().unwrap());
    }
    assert_eq!(tally.calls, 24_605);
    tally.assert_held();
    // Most refused calls are refused early: the test compares something.
    assert!(tally.refused_early > 2_000, "{tally:?}");
}

/// The goldens' samples (every fixture tool's valid and invalid values, as serde and the
/// derive write them), cut at every split point and fed a byte at a time.
#[test]
fn golden_samples_streamed_at_every_split_end_as_one_shot() {
    let mut tally = Tally::default();
    let mut texts = 0;
    for case in toolgate_tests::catalogue() {
        let tool = DynamicTool::from_model(case.model.clone());
        for sample in case.valid.iter().chain(&case.invalid) {
            for json in [&sample.serde_json, &sample.tool_json] {
                let text = json.to_string();
                texts += 1;
                for split in 0..=text.len() {
                    let sizes = [split.max(1), text.len()];
                    let (early, end) = streamed(tool.stream_decoder(), text.as_bytes(), &sizes);
                    assert!(same_end(&end, &tool.decode(&text)), "{text} at {split}");
                    assert!(early.iter().all(|issue| sound(issue, &end).is_some()));
                }
                tally.call(&tool, 0, &text);
            }
        }
    }
    assert!(texts >= 40, "{texts}");
    tally.assert_held();
}

#[test]
fn tools_dev_calls_streamed_in_any_pieces_end_as_one_shot() {
    let models = toolgate_tests::tools_dev::corpus_models();
    let tools: Vec<Option<DynamicTool>> = models
        .into_iter()
        .map(|model| model.ok().map(DynamicTool::from_model))
        .collect();
    let mut tally = Tally::default();
    for (n, line) in toolgate_tests::tools_dev::expanded_lines()
        .iter()
        .enumerate()
    {
        let case: Value = serde_json::from_str(line).unwrap();
        let Some(tool) = &tools[case["corpus_line"].as_u64().unwrap() as usize] else {
            continue;
        };
        tally.call(tool, n, case["arguments"].as_str().unwrap());
    }
    assert!(tally.calls > 40_000, "{tally:?}");
    tally.assert_held();
}

/// A typed tool's streamed call, split at `split`: the end is `T::decode_bytes` of the text.
fn typed_split<T: Tool + DeserializeOwned + PartialEq + std::fmt::Debug>(
    text: &str,
    split: usize,
) -> Result<(), TestCaseError> {
    let sizes = [split, text.len()];
    let (early, end) = streamed(T::stream_decoder(), text.as_bytes(), &sizes);
    let one_shot = T::decode(text);
    prop_assert!(
        same_end(&end, &one_shot),
        "{}: {:?} against {:?}",
        text,
        end,
        one_shot
    );
    for issue in &early {
        prop_assert!(
            sound(issue, &end).is_some(),
            "{}: {:?} then {:?}",
            text,
            issue,
            end
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A typed tool's calls — valid, repairable, refused, cut — end as one shot at every
    /// split point.
    #[test]
    fn typed_calls_split_anywhere_end_as_one_shot(
        flight in prop_oneof![
            Just(toolgate_tests::good_flight()),
            Just(toolgate_tests::bad_flight()),
        ],
        mutation in 0usize..6,
        cut in any::<prop::sample::Index>(),
    ) {
        let mut text = serde_json::to_string(&flight).unwrap();
        match mutation {
            0 => {}
            1 => text = text.replace("\"passengers\":", "\"passengers\":\"").replacen(",\"cabin", "\",\"cabin", 1),
            2 => text = text.replace("business", "Business").replace("economy", "ECONOMY"),
            3 => text = format!("```json\n{text}\n```"),
            4 => text.truncate(cut.index(text.len())),
            _ => text = text.replace(':', ": ").replace(",\"", ", \"origin2\": 1, \""),
        }
        for split in 0..=text.len() {
            typed_split::<BookFlight>(&text, split)?;
        }
    }
}

/// A tool whose calls the hostile texts below are cut from.
fn hostile_tool() -> DynamicTool {
    DynamicTool::from_definition(&serde_json::json!({
        "name": "hostile",
        "parameters": {"type": "object", "properties": {
            "n": {"type": "integer", "minimum": 0, "maximum": 9},
            "s": {"type": "string", "maxLength": 8},
            "e": {"enum": ["one", "two"]},
            "l": {"type": "array", "items": {"type": "number"}},
            "o": {"type": "object", "properties": {"b": {"type": "boolean"}}, "required": ["b"]},
            "u": {"anyOf": [{"type": "integer"}, {"type": "string"}]}
        }, "required": ["n"], "additionalProperties": false}
    }))
    .expect("a tool")
}

/// Texts of the class a stream may hand the gate: the members of a call spelled valid,
/// repairable or refused, leniently (comments, single quotes, bare keys, Python words,
/// trailing commas), with escapes and characters of several bytes, keys repeated or in
/// another case, in a fence or prose, cut short, with bytes that are not UTF-8 or more text
/// after the value (another object, a fence after an object that fails).
fn hostile_texts() -> impl Strategy<Value = Vec<u8>> {
    let member = prop_oneof![
        Just(r#""n": 3"#),
        Just(r#""n": 12"#),
        Just(r#""n": "4""#),
        Just(r#""n": 1e400"#),
        Just(r#""n": 2.0"#),
        Just("'n': 5"),
        Just("n: 6"),
        Just(r#""N": 7"#),
        Just(r#""s": "h\u00e9llo""#),
        Just(r#""s": "日本語のテキスト""#),
        Just(r#""s": "a\"b""#),
        Just(r#""s": 'x'"#),
        Just(r#""e": "One""#),
        Just(r#""e": "three""#),
        Just(r#""l": [1, 2.5, "3"]"#),
        Just(r#""l": "[1,2]""#),
        Just(r#""l": [1,]"#),
        Just(r#""o": {"b": True}"#),
        Just(r#""o": {}"#),
        Just(r#""o": null"#),
        Just(r#""u": 1"#),
        Just(r#""u": [1]"#),
        Just(r#""x": 1"#),
        Just("/* c */ \"n\": 1"),
        Just("// line\n\"s\": \"a\""),
        Just(r#""n": 1, "n": 2"#),
        Just(r#""n": x"#),
        Just("\"s\": \u{0}"),
        Just(r#""s" 1"#),
    ];
    (
        prop::collection::vec(member, 0..6),
        0usize..9,
        any::<prop::sample::Index>(),
    )
        .prop_map(|(members, frame, cut)| {
            let object = format!("{{{}}}", members.join(", "));
            let mut text = match frame {
                0 => format!("```json\n{object}\n```"),
                1 => format!("Here you go: {object} thanks"),
                2 => format!("{object} {{\"n\": 1}}"),
                7 => format!("{object} ```json\n{{\"n\": 1}}\n```"),
                3 => format!("  \n{object}\n"),
                _ => object,
            }
            .into_bytes();
            match frame {
                5 => text.truncate(cut.index(text.len() + 1)),
                6 => text.insert(cut.index(text.len() + 1), 0xff),
                _ => {}
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Any text of the class, cut anywhere into pieces of any sizes (inside a character of
    /// several bytes too), ends as its one shot, and every issue sent early is sound.
    #[test]
    fn hostile_texts_cut_anywhere_end_as_one_shot(
        text in hostile_texts(),
        sizes in prop::collection::vec(1usize..12, 1..8),
    ) {
        let tool = hostile_tool();
        let mut cuts = Vec::new();
        let mut at = 0;
        for size in sizes.iter().cycle() {
            if at >= text.len() {
                break;
            }
            cuts.push(*size);
            at += size;
        }
        let (early, end) = streamed(tool.stream_decoder(), &text, &cuts);
        let one_shot = tool.decode_bytes(&text);
        let shown = String::from_utf8_lossy(&text);
        prop_assert!(same_end(&end, &one_shot), "{}: {:?} against {:?}", shown, end, one_shot);
        for issue in &early {
            prop_assert!(sound(issue, &end).is_some(), "{}: {:?} then {:?}", shown, issue, end);
        }
    }
}

//! The repair loop's evaluation harness: a fixed set of refused calls from the BFCL corpus's
//! mutations (`tests/data/bfcl/cases-expanded.jsonl`, written by
//! `argjudge.py --emit`), fed through the loop with a scripted corrector that sees only the
//! arguments it sent and the hint, and changes only what the hint names.
//!
//! The set: the first [`PER_CLASS`] refused cases of each class (`R_*`) in the file's order.
//! It prints the share fixed in one round and in two, the bytes of feedback per attempt and
//! the share of corrections merged narrowly; and it fails on any case whose hint named the
//! fields and what they wanted but still could not be fixed in two rounds. Cases whose hint
//! was not enough (it names no field, or wants a pattern) are listed, with why.
//!
//! `cargo test -p toolgate-tests --test repair_harness -- --nocapture` prints the figures.

#[allow(unused_macros)]
mod boundary_common;

use std::collections::BTreeMap;
use std::fmt::Write;

use boundary_common::block_on;
use serde_json::{json, Value};
use toolgate::boundary::correction::{
    Correction, CorrectionLoop, CorrectionRequest, Corrector, Stop,
};
use toolgate::boundary::{async_trait, Toolbox};
use toolgate::hint::FieldHint;
use toolgate::model::Format;
use toolgate::path::Segment;
use toolgate::{Constraint, Path};
use toolgate_core::decode::read_lenient;
use toolgate_tests::corpus::{CASES, EXPANDED};

/// Refused cases taken from each class.
const PER_CLASS: usize = 25;

/// Corrects from the hint alone.
struct HintOnly;

#[async_trait]
impl Corrector for HintOnly {
    async fn correct(&self, request: CorrectionRequest<'_>) -> Correction {
        match corrected(request) {
            Ok(arguments) => Correction::Arguments(arguments.to_string()),
            Err(why) => Correction::CannotFix(why),
        }
    }
}

fn corrected(request: CorrectionRequest<'_>) -> Result<Value, String> {
    let hint = request.hint;
    let mut arguments = read_lenient(request.arguments, 64)
        .map(|json| json.into_value())
        .map_err(|_| {
            format!(
                "the arguments are not JSON and the hint says: {}",
                hint.message
            )
        })?;
    if !arguments.is_object() {
        return Err(format!("the hint names no field: {}", hint.message));
    }
    if hint.missing_fields.is_empty() && hint.fields.is_empty() {
        return Err(format!("the hint names no field: {}", hint.message));
    }
    for missing in &hint.missing_fields {
        let missing: Path = missing
            .parse()
            .map_err(|_| format!("the missing field {missing:?} is no path"))?;
        let placeholder = placeholder_at(hint.example_input.as_ref(), &missing);
        set(
            &mut arguments,
            &missing,
            value_for_placeholder(&placeholder),
        );
    }
    for field in &hint.fields {
        if field.path.is_root() {
            return Err(format!("the hint names no field: {}", hint.message));
        }
        let sent = get(&arguments, &field.path).cloned();
        let value = wanted(field, sent.as_ref())?;
        set(&mut arguments, &field.path, value);
    }
    Ok(arguments)
}

/// A value of what `field` wants, from the hint (and the value sent, where the hint says
/// how to change it).
fn wanted(field: &FieldHint, sent: Option<&Value>) -> Result<Value, String> {
    let number = |n: &toolgate_core::num::Num| n.to_json().map(Value::Number);
    let enough = |what: &str| format!("{}: the hint wants {what}", field.path);
    Ok(match field.constraint {
        Constraint::Type => {
            let wanted = match &field.expected_type {
                Some(Value::String(one)) => one.clone(),
                Some(Value::Array(many)) => many
                    .first()
                    .and_then(Value::as_str)
                    .unwrap_or("string")
                    .to_owned(),
                _ => return Err(enough("a type it does not name")),
            };
            of_type(&wanted, sent)
        }
        Constraint::Enum | Constraint::Const => match &field.did_you_mean {
            Some(nearest) => Value::String(nearest.clone()),
            _ => field
                .allowed_values
                .first()
                .cloned()
                .ok_or_else(|| enough("values it does not list"))?,
        },
        Constraint::Minimum => field
            .min
            .as_ref()
            .and_then(number)
            .ok_or_else(|| enough("a bound"))?,
        Constraint::Maximum => field
            .max
            .as_ref()
            .and_then(number)
            .ok_or_else(|| enough("a bound"))?,
        Constraint::ExclusiveMinimum => {
            json!(field.min.ok_or_else(|| enough("a bound"))?.as_f64() + 1.0)
        }
        Constraint::ExclusiveMaximum => {
            json!(field.max.ok_or_else(|| enough("a bound"))?.as_f64() - 1.0)
        }
        Constraint::Format => json!(field
            .format
            .as_deref()
            .and_then(Format::from_name)
            .map(Format::example)
            .ok_or_else(|| enough("a format it gives no example of"))?),
        Constraint::Pattern => return Err(enough("a pattern (no value is named)")),
        other => {
            return Err(enough(&format!(
                "`{}`, which this corrector does not fix",
                other.as_str()
            )))
        }
    })
}

/// A value of a JSON type, keeping what was sent where it can be kept.
fn of_type(wanted: &str, sent: Option<&Value>) -> Value {
    match (wanted, sent) {
        ("integer", Some(Value::Number(n))) => json!(n.as_f64().unwrap_or(1.0).floor() as i64),
        ("integer", _) => json!(1),
        ("number", _) => json!(1.5),
        ("boolean", _) => json!(true),
        ("string", Some(Value::String(text))) => json!(text),
        ("string", Some(other)) => json!(other.to_string()),
        ("string", None) => json!("x"),
        ("array", Some(Value::Array(items))) => json!(items),
        ("array", Some(one)) => json!([one]),
        ("array", None) => json!([]),
        ("object", _) => json!({}),
        ("null", _) => Value::Null,
        _ => json!("x"),
    }
}

/// A value for a missing field, from its placeholder (`"<integer: ...>"`, `"<one of "a",
/// "b">"`).
fn value_for_placeholder(placeholder: &str) -> Value {
    let inner = placeholder.trim_start_matches('<');
    if let Some(values) = inner.strip_prefix("one of ") {
        if let Some(first) = values.split(", ").next() {
            let first = first.trim_end_matches('>');
            return serde_json::from_str(first).unwrap_or_else(|_| json!(first));
        }
    }
    let kind: String = inner
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    of_type(&kind, None)
}

fn placeholder_at(example: Option<&toolgate::model::Json>, path: &Path) -> String {
    let example = example.map(|json| json.to_value()).unwrap_or_default();
    get(&example, path)
        .and_then(Value::as_str)
        .unwrap_or("<string>")
        .to_owned()
}

fn get<'v>(value: &'v Value, path: &Path) -> Option<&'v Value> {
    path.segments()
        .iter()
        .try_fold(value, |value, segment| match segment {
            Segment::Key(key) => value.get(key),
            Segment::Index(index) => value.get(*index),
        })
}

fn set(value: &mut Value, path: &Path, new: Value) {
    let Some((last, parents)) = path.segments().split_last() else {
        *value = new;
        return;
    };
    let mut at = value;
    for segment in parents {
        at = match segment {
            Segment::Key(key) => {
                if !at.get(key).is_some_and(Value::is_object) && at.is_object() {
                    at[key.as_str()] = json!({});
                }
                match at.get_mut(key) {
                    Some(next) => next,
                    None => return,
                }
            }
            Segment::Index(index) => match at.get_mut(*index) {
                Some(next) => next,
                None => return,
            },
        };
    }
    match (last, at) {
        (Segment::Key(key), Value::Object(map)) => {
            map.insert(key.clone(), new);
        }
        (Segment::Index(index), Value::Array(items)) if *index < items.len() => items[*index] = new,
        _ => {}
    }
}

#[derive(Default)]
struct Figures {
    cases: usize,
    one_round: usize,
    two_rounds: usize,
    attempts: usize,
    narrow: usize,
    feedback_bytes: Vec<usize>,
    not_enough: BTreeMap<String, Vec<String>>,
    unfixed: Vec<String>,
}

#[test]
fn a_corrector_that_sees_only_the_hint_fixes_what_the_hint_names() {
    let tools: Vec<Value> = CASES
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap()["tool"].clone())
        .collect();
    let mut taken: BTreeMap<String, usize> = BTreeMap::new();
    let mut figures = Figures::default();
    for line in EXPANDED.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let class = case["class"].as_str().unwrap();
        let count = taken.entry(class.to_owned()).or_default();
        if !class.starts_with("R_") || *count >= PER_CLASS {
            continue;
        }
        *count += 1;
        let tool = &tools[case["corpus_line"].as_u64().unwrap() as usize];
        let mut toolbox = Toolbox::new();
        toolbox
            .add_runtime_tool(tool, |args: Value| async move { Ok::<_, String>(args) })
            .unwrap();
        let name = toolbox.definitions()[0].name.clone();
        let repair = CorrectionLoop::new(&toolbox, HintOnly);
        let looped = block_on(repair.call(&name, case["arguments"].as_str().unwrap()));
        let id = case["id"].as_str().unwrap().to_owned();
        if looped.attempts.is_empty() {
            // The gate let it through (repaired it): nothing for the loop to do.
            continue;
        }
        figures.cases += 1;
        for attempt in &looped.attempts {
            if attempt.cannot_fix.is_some() {
                continue;
            }
            figures.attempts += 1;
            figures.feedback_bytes.push(attempt.feedback_bytes);
            if attempt.wide_changes.is_empty() && attempt.fields_changed != [""] {
                figures.narrow += 1;
            }
        }
        match (looped.stop, looped.attempts.len()) {
            (Stop::Passed, 1) => figures.one_round += 1,
            (Stop::Passed, _) => figures.two_rounds += 1,
            (Stop::CannotFix, _) => {
                let why = looped
                    .attempts
                    .last()
                    .and_then(|a| a.cannot_fix.clone())
                    .unwrap_or_default();
                figures
                    .not_enough
                    .entry(class.to_owned())
                    .or_default()
                    .push(format!("{id}: {why}"));
            }
            (stop, rounds) => figures.unfixed.push(format!(
                "{id}: {stop:?} after {rounds} rounds: {}",
                looped.envelope.to_json()
            )),
        }
    }
    let share = |n: usize| 100.0 * n as f64 / figures.cases.max(1) as f64;
    let mut bytes = figures.feedback_bytes.clone();
    bytes.sort_unstable();
    let mean = bytes.iter().sum::<usize>() as f64 / bytes.len().max(1) as f64;
    let mut summary = String::new();
    writeln!(
        summary,
        "repair harness: {} refused cases ({PER_CLASS} a class at most)",
        figures.cases
    )
    .unwrap();
    writeln!(
        summary,
        "  fixed in one round:  {} ({:.1}%)",
        figures.one_round,
        share(figures.one_round)
    )
    .unwrap();
    writeln!(
        summary,
        "  fixed in two rounds: {} ({:.1}% in all)",
        figures.two_rounds,
        share(figures.one_round + figures.two_rounds)
    )
    .unwrap();
    writeln!(
        summary,
        "  feedback per attempt: mean {mean:.0} bytes, median {}, max {}",
        bytes.get(bytes.len() / 2).unwrap_or(&0),
        bytes.last().unwrap_or(&0)
    )
    .unwrap();
    writeln!(
        summary,
        "  merged narrowly: {} of {} corrections ({:.1}%)",
        figures.narrow,
        figures.attempts,
        100.0 * figures.narrow as f64 / figures.attempts.max(1) as f64
    )
    .unwrap();
    for (class, cases) in &figures.not_enough {
        writeln!(
            summary,
            "  the hint was not enough, {class}: {} case(s), e.g. {}",
            cases.len(),
            cases[0]
        )
        .unwrap();
    }
    print!("{summary}");
    // The figures are deterministic: a change to them is reviewed as a golden.
    insta::with_settings!({snapshot_path => "../../goldens", prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_snapshot!("repair_harness__figures", summary);
    });
    assert!(figures.cases >= 50, "only {} refused cases", figures.cases);
    assert!(
        figures.unfixed.is_empty(),
        "hints that named the fields but did not lead to a fix:\n{}",
        figures.unfixed.join("\n")
    );
    // Only cut-off text (a syntax issue at the root) and patterns leave the hint short.
    for cases in figures.not_enough.values() {
        for case in cases {
            assert!(
                case.contains("the arguments are not JSON")
                    || case.contains("pattern")
                    || case.contains("names no field"),
                "{case}"
            );
        }
    }
}

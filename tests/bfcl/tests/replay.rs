//! Replays every expanded BFCL case through the type the schema compiler generated for its
//! tool: each meets its expectation (as on the run-time road, `tests/tests/corpus.rs`), and
//! the generated type and `DynamicTool` agree case by case: both accept with the same value
//! and repairs, or both refuse with the same issues.
//!
//! The corpus is compiled with `Builder::keep_undeclared_keys(true)`: its schemas allow keys
//! they do not declare, and some valid cases send them. (Without it, a generated struct drops
//! them with a `drop_unknown_key` log entry, DESIGN.md's rule for typed tools: 17 cases.)
//!
//! One difference is by design, counted and printed, never hidden: `null` for an optional
//! field of type `any`: `DynamicTool` keeps the `null`, the generated `Option<Value>` reads it
//! as absent (`None`).
//!
//! A typed result that misses its expectation only through it is counted as such; any other
//! miss or disagreement fails the test (a dropped key among them).

use std::collections::BTreeMap;

use serde_json::Value;
use toolgate::{Decoded, Rejected};
use toolgate_core::values::json_equal;
use toolgate_tests::corpus::{dynamic_tools, miss, EXPANDED};

/// What differs between the two roads' answers, if anything.
fn disagreement(
    typed: &Result<Decoded<Value>, Rejected>,
    dynamic: &Result<Decoded<Value>, Rejected>,
) -> Option<String> {
    let repairs = |d: &Decoded<Value>| -> Vec<String> {
        d.repairs
            .iter()
            .map(|r| format!("{} {}", r.path, r.rule.as_str()))
            .collect()
    };
    let issues = |r: &Rejected| -> Vec<String> {
        r.report
            .issues()
            .iter()
            .map(|i| format!("{} {}", i.path, i.constraint))
            .collect()
    };
    match (typed, dynamic) {
        (Ok(t), Ok(d)) if !json_equal(&t.value, &d.value) => {
            Some(format!("values: typed {} dynamic {}", t.value, d.value))
        }
        (Ok(t), Ok(d)) if repairs(t) != repairs(d) => Some(format!(
            "repairs: typed {:?} dynamic {:?}",
            repairs(t),
            repairs(d)
        )),
        (Ok(_), Ok(_)) => None,
        (Err(t), Err(d)) if issues(t) != issues(d) => Some(format!(
            "issues: typed {:?} dynamic {:?}",
            issues(t),
            issues(d)
        )),
        (Err(_), Err(_)) => None,
        (Ok(t), Err(d)) => Some(format!(
            "typed accepts {}, dynamic refuses: {}",
            t.value, d.report
        )),
        (Err(t), Ok(d)) => Some(format!(
            "typed refuses ({}), dynamic accepts {}",
            t.report, d.value
        )),
    }
}

/// Removes object members that are `null` where `reference` has no such member.
fn remove_extra_nulls(value: &mut Value, reference: &Value) {
    match (value, reference) {
        (Value::Object(members), Value::Object(kept)) => {
            members.retain(|key, member| !member.is_null() || kept.contains_key(key));
            for (key, member) in members.iter_mut() {
                if let Some(other) = kept.get(key) {
                    remove_extra_nulls(member, other);
                }
            }
        }
        (Value::Array(items), Value::Array(kept)) => {
            for (item, other) in items.iter_mut().zip(kept) {
                remove_extra_nulls(item, other);
            }
        }
        _ => {}
    }
}

/// Which difference by design explains a disagreement, if one does.
fn by_design(
    typed: &Result<Decoded<Value>, Rejected>,
    dynamic: &Result<Decoded<Value>, Rejected>,
) -> Option<&'static str> {
    let (Ok(typed), Ok(dynamic)) = (typed, dynamic) else {
        return None;
    };
    let mut expected = dynamic.value.clone();
    remove_extra_nulls(&mut expected, &typed.value);
    let same_repairs = typed.repairs.len() == dynamic.repairs.len()
        && typed
            .repairs
            .iter()
            .zip(&dynamic.repairs)
            .all(|(t, d)| t.rule == d.rule && t.path == d.path);
    (expected != dynamic.value && json_equal(&expected, &typed.value) && same_repairs)
        .then_some("null of an optional `any` field read as absent")
}

#[test]
fn generated_types_meet_every_expectation_and_agree_with_the_runtime_road() {
    assert_eq!(toolgate_bfcl::LINE_TYPES.len(), 1788);
    let dynamic = dynamic_tools();
    let mut per_class: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut disagreements = Vec::new();
    let mut explained: BTreeMap<&str, usize> = BTreeMap::new();
    for line in EXPANDED.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let class = case["class"].as_str().unwrap().to_owned();
        let corpus_line = case["corpus_line"].as_u64().unwrap() as usize;
        let arguments = case["arguments"].as_str().unwrap();
        let tool = toolgate_bfcl::LINE_TYPES[corpus_line];
        let typed = toolgate_bfcl::decode(tool, arguments).expect("every tool has a type");
        let runtime = dynamic[corpus_line].decode(arguments);
        let design = by_design(&typed, &runtime);
        if let Some(why) = disagreement(&typed, &runtime) {
            match design {
                Some(reason) => *explained.entry(reason).or_default() += 1,
                None => disagreements.push(format!("{}: {why}", case["id"])),
            }
        }
        let entry = per_class.entry(class).or_default();
        entry.1 += 1;
        match miss(typed, &case["expect"]) {
            None => entry.0 += 1,
            Some(_) if design.is_some() => {}
            Some(why) => misses.push(format!("{}: {why}", case["id"])),
        }
    }
    println!("{} tools compiled", toolgate_bfcl::TOOLS);
    for (class, (passed, cases)) in &per_class {
        println!("{class:18} {passed:6} / {cases:6}");
    }
    let share = |prefix: &str| {
        let (passed, total) = per_class
            .iter()
            .filter(|(class, _)| class.starts_with(prefix))
            .fold((0, 0), |(p, t), (_, (passed, cases))| {
                (p + passed, t + cases)
            });
        (100.0 * passed as f64 / total as f64, total)
    };
    let (valid, valid_cases) = share("valid");
    let (repaired, repaired_cases) = share("L_");
    let (refused, refused_cases) = share("R_");
    println!(
        "summary: valid {valid:.2}% ({valid_cases}) repaired {repaired:.2}% ({repaired_cases}) refused {refused:.2}% ({refused_cases})"
    );
    assert!(valid == 100.0, "valid {valid:.2}% < 100%");
    assert!(repaired >= 99.5, "repaired {repaired:.2}% < 99.50%");
    assert!(refused == 100.0, "refused {refused:.2}% < 100%");
    println!("{} disagreements between the roads", disagreements.len());
    for (reason, count) in &explained {
        println!("by design: {count} cases: {reason}");
    }
    assert!(
        disagreements.is_empty(),
        "{} cases where the roads disagree, first ones:\n{:#?}",
        disagreements.len(),
        &disagreements[..disagreements.len().min(20)]
    );
    assert!(
        misses.is_empty(),
        "{} cases miss their expectation, first ones:\n{:#?}",
        misses.len(),
        &misses[..misses.len().min(20)]
    );
}

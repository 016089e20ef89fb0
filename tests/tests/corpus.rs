//! Replays every expanded BFCL case (`tests/data/bfcl/`, Apache-2.0, see its NOTICE) through
//! `DynamicTool` and checks its expectation: accepted or refused; the value, up to numeric
//! equality and ignoring filled-in defaults; a repair logged or not; the issue's path and
//! constraint; and the hint naming the missing field or the enum's allowed values.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value;
use toolgate::check::json_equal;
use toolgate::decode::Rule;
use toolgate::model::{Json, ToolModel};
use toolgate::{DynamicTool, Path};

const CASES: &str = include_str!("../data/bfcl/cases.jsonl");
const EXPANDED: &str = include_str!("../data/bfcl/cases-expanded.jsonl");

fn tools() -> Vec<DynamicTool> {
    CASES
        .lines()
        .map(|line| {
            let Json::Object(members) = serde_json::from_str::<Json>(line).unwrap() else {
                panic!("a corpus line is an object")
            };
            let tool = members.into_iter().find(|(k, _)| k == "tool").unwrap().1;
            DynamicTool::from_model(
                ToolModel::from_definition_json(tool).unwrap_or_else(|e| panic!("{line}: {e}")),
            )
        })
        .collect()
}

/// Why a result misses its expectation, if it does.
fn miss(tool: &DynamicTool, arguments: &str, expect: &Value) -> Option<String> {
    let result = tool.decode(arguments);
    if expect["ok"] == true {
        let decoded = match result {
            Ok(decoded) => decoded,
            Err(rejected) => return Some(format!("refused: {}", rejected.report)),
        };
        let filled: Vec<&Path> = decoded
            .repairs
            .iter()
            .filter(|r| r.rule == Rule::Default)
            .map(|r| &r.path)
            .collect();
        let mut value = decoded.value.clone();
        // As the judge does: keys filled from defaults, and `null` for a key the expected value
        // lacks (a field of type `any` takes `null` as a value, so it is kept), are not counted.
        if let (Value::Object(members), Some(expected)) = (&mut value, expect["value"].as_object())
        {
            members.retain(|key, member| {
                let filled_in = filled
                    .iter()
                    .any(|path| **path == Path::root().key(key.clone()));
                let null_extra = member.is_null() && !expected.contains_key(key);
                !filled_in && !null_extra
            });
        }
        if !json_equal(&value, &expect["value"]) {
            return Some(format!("value {value} != {}", expect["value"]));
        }
        let logged = decoded.repairs.iter().any(|r| r.rule != Rule::Default);
        if expect["repair_logged"] == true && !logged {
            return Some("repair not logged".into());
        }
        if expect["nothing_logged"] == true && logged {
            return Some(format!("logged on a valid payload: {:?}", decoded.repairs));
        }
        return None;
    }
    let rejected = match result {
        Ok(decoded) => return Some(format!("accepted: {}", decoded.value)),
        Err(rejected) => rejected,
    };
    let constraints: Vec<&str> = expect["issue_constraint_any_of"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let path = expect["issue_path"].as_str().unwrap();
    let hit = rejected
        .report
        .issues()
        .iter()
        .any(|i| i.path.to_string() == path && constraints.contains(&i.constraint.as_str()));
    if !hit {
        return Some(format!(
            "no issue at {path:?} {constraints:?}: {}",
            rejected.report
        ));
    }
    let hint = rejected.hint();
    if hint.missing_fields.len() > 3
        || hint.fields.len() > 3
        || hint
            .clarifying_question
            .as_ref()
            .is_none_or(|q| q.is_empty() || q.chars().count() > 300)
    {
        return Some(format!(
            "hint over its caps or without a question: {}",
            hint.to_json()
        ));
    }
    if let Some(field) = expect.get("hint_missing_field").and_then(Value::as_str) {
        if !hint.missing_fields.iter().any(|m| m == field) {
            return Some(format!("hint does not name the missing field {field}"));
        }
    }
    if let Some(field) = expect
        .get("hint_allowed_values_for")
        .and_then(Value::as_str)
    {
        if !hint
            .fields
            .iter()
            .any(|f| f.path.to_string() == field && !f.allowed_values.is_empty())
        {
            return Some(format!("hint gives no allowed values for {field}"));
        }
    }
    None
}

#[test]
fn every_expanded_case_meets_its_expectation() {
    let tools = tools();
    assert_eq!(tools.len(), 1788);
    let mut per_class: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut misses: HashMap<String, Vec<String>> = HashMap::new();
    for line in EXPANDED.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let class = case["class"].as_str().unwrap().to_owned();
        let tool = &tools[case["corpus_line"].as_u64().unwrap() as usize];
        let why = miss(tool, case["arguments"].as_str().unwrap(), &case["expect"]);
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

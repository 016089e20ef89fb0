//! The tools-dev corpus (`tests/data/tools-dev/`, real tool schemas from 24 public sources,
//! each under its own licence: see its NOTICE, SOURCES.md and licenses/) and the cases
//! `deepjudge.py --strict-union` derives from it, with their expectations checked the way
//! that judge checks them, at every depth.

use std::io::Read;

use serde_json::Value;
use toolgate::model::{Json, ToolModel};
use toolgate::{Decoded, Path, Rejected};

/// The corpus, gzip: one tool definition and valid arguments a line.
const CASES_GZ: &[u8] = include_bytes!("../data/tools-dev/cases.jsonl.gz");
/// The expanded cases, gzip: arguments, class and expectation a line, pointing at a corpus
/// line.
const EXPANDED_GZ: &[u8] = include_bytes!("../data/tools-dev/cases-expanded.jsonl.gz");

/// Cut of the hint's lists: at most 5 values and then this mark.
const ELLIPSIS: &str = "…";

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("the corpus files are gzip text");
    text
}

/// The corpus lines, in order.
pub fn corpus_lines() -> Vec<String> {
    gunzip(CASES_GZ).lines().map(str::to_owned).collect()
}

/// The expanded cases, one JSON text a line.
pub fn expanded_lines() -> Vec<String> {
    gunzip(EXPANDED_GZ).lines().map(str::to_owned).collect()
}

/// The tool definition of a corpus line, with its members in the order they are written.
pub fn tool_definition(line: &str) -> Json {
    let Json::Object(members) = serde_json::from_str::<Json>(line).expect("corpus lines are JSON")
    else {
        panic!("a corpus line is an object")
    };
    members
        .into_iter()
        .find(|(key, _)| key == "tool")
        .expect("a corpus line has a tool")
        .1
}

/// The model of each corpus line, or why its schema is refused.
pub fn corpus_models() -> Vec<Result<ToolModel, String>> {
    corpus_lines()
        .iter()
        .map(|line| {
            ToolModel::from_definition_json(tool_definition(line)).map_err(|e| e.to_string())
        })
        .collect()
}

/// Removes from `value` the members the decoder filled in (a `default` repair at their
/// path) or that are `null` where `expected` has no such member, at every depth, as the
/// judge does: filling in is not a difference.
fn strip_filled(value: &mut Value, expected: &Value, filled: &[&Path], at: &Path) {
    match (value, expected) {
        (Value::Object(members), Value::Object(wanted)) => {
            members.retain(|key, member| {
                wanted.contains_key(key)
                    || !(member.is_null() || filled.contains(&&at.clone().key(key.clone())))
            });
            for (key, member) in members.iter_mut() {
                if let Some(wanted) = wanted.get(key) {
                    strip_filled(member, wanted, filled, &at.clone().key(key.clone()));
                }
            }
        }
        (Value::Array(items), Value::Array(wanted)) if items.len() == wanted.len() => {
            for (index, (item, wanted)) in items.iter_mut().zip(wanted).enumerate() {
                strip_filled(item, wanted, filled, &at.clone().index(index));
            }
        }
        _ => {}
    }
}

fn strings(list: &Value) -> Vec<&str> {
    list.as_array()
        .map(|items| items.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Why a result misses its expectation (deepjudge's, with `--strict-union`), if it does.
pub fn miss(
    result: Result<Decoded<Value>, Rejected>,
    class: &str,
    expect: &Value,
) -> Option<String> {
    if expect["ok"] == true {
        let decoded = match result {
            Ok(decoded) => decoded,
            Err(rejected) => return Some(format!("refused: {}", rejected.report)),
        };
        return crate::corpus::miss_accepted(&decoded, expect, |value, expected, filled| {
            strip_filled(value, expected, filled, &Path::root())
        });
    }
    let rejected = match result {
        Ok(decoded) => return Some(format!("accepted: {}", decoded.value)),
        Err(rejected) => rejected,
    };
    let paths = strings(&expect["issue_path_any_of"]);
    let constraints = strings(&expect["issue_constraint_any_of"]);
    let issues = rejected.report.issues();
    let exact = issues.iter().any(|issue| {
        paths.contains(&issue.path.to_string().as_str())
            && constraints.contains(&issue.constraint.as_str())
    });
    if !exact {
        let union_paths = strings(&expect["or_union_issue_at"]);
        let strict_paths = strings(&expect["strict_union_issue_at"]);
        let unions: Vec<String> = issues
            .iter()
            .filter(|issue| matches!(issue.constraint.as_str(), "anyOf" | "oneOf"))
            .map(|issue| issue.path.to_string())
            .filter(|path| union_paths.contains(&path.as_str()))
            .collect();
        if unions.is_empty() {
            return Some(format!(
                "no issue at {paths:?} {constraints:?}: {}",
                rejected.report
            ));
        }
        if !unions
            .iter()
            .any(|path| strict_paths.contains(&path.as_str()))
        {
            return Some(format!(
                "only the union named where the branch is known: {}",
                rejected.report
            ));
        }
    }
    let hint = rejected.hint();
    if hint.missing_fields.len() > 3 || hint.fields.len() > 3 {
        return Some(format!("hint over its caps: {}", hint.to_json()));
    }
    let over_cap =
        |values: &[Value]| values.len() > 6 || (values.len() == 6 && values[5] != ELLIPSIS);
    if hint
        .fields
        .iter()
        .any(|field| over_cap(&field.allowed_values))
    {
        return Some(format!("allowed_values over its cap: {}", hint.to_json()));
    }
    if hint
        .clarifying_question
        .as_ref()
        .is_none_or(|q| q.trim().is_empty() || q.chars().count() > 300)
    {
        return Some(format!("no clarifying question: {}", hint.to_json()));
    }
    if !exact {
        return None;
    }
    if let Some(field) = expect.get("hint_missing_field").and_then(Value::as_str) {
        let bare = field.rsplit('.').next().unwrap_or(field);
        if !hint.missing_fields.iter().any(|m| m == field || m == bare) {
            return Some(format!("hint does not name the missing field {field}"));
        }
    }
    if class == "R_enum" {
        if let Some(field) = expect
            .get("hint_allowed_values_for")
            .and_then(Value::as_str)
        {
            let named = hint.fields.iter().find(|f| f.path.to_string() == field);
            if named.is_none_or(|f| f.allowed_values.is_empty()) {
                return Some(format!("hint gives no allowed values for {field}"));
            }
        }
    }
    None
}

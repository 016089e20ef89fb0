//! The expectations of the expanded BFCL corpus (`tests/data/bfcl/`, Apache-2.0, see its
//! NOTICE), checked the way the judge checks them: shared by the run-time road's replay and
//! the generated types' replay.

use std::collections::BTreeMap;

use serde_json::Value;
use toolgate::decode::Rule;
use toolgate::model::{Json, ToolModel};
use toolgate::{Decoded, DynamicTool, Path, Rejected};
use toolgate_core::values::json_equal;

/// The corpus: one tool definition and valid arguments a line.
pub const CASES: &str = include_str!("../data/bfcl/cases.jsonl");
/// The expanded cases: arguments, class and expectation a line, pointing at a corpus line.
pub const EXPANDED: &str = include_str!("../data/bfcl/cases-expanded.jsonl");

/// The tool model of each corpus line, in order, read with its properties in the order
/// they are written.
pub fn corpus_models() -> Vec<ToolModel> {
    CASES
        .lines()
        .map(|line| {
            let Json::Object(members) = serde_json::from_str::<Json>(line).unwrap() else {
                panic!("a corpus line is an object")
            };
            let tool = members.into_iter().find(|(k, _)| k == "tool").unwrap().1;
            ToolModel::from_definition_json(tool).unwrap_or_else(|e| panic!("{line}: {e}"))
        })
        .collect()
}

/// A `DynamicTool` for each corpus line, in order.
pub fn dynamic_tools() -> Vec<DynamicTool> {
    corpus_models()
        .into_iter()
        .map(DynamicTool::from_model)
        .collect()
}

/// What replaying expanded cases gave, per class: (passed, cases), and the misses as
/// `<id>: <why>`.
#[derive(Debug, Default)]
pub struct Replay {
    /// (passed, cases) per class.
    pub per_class: BTreeMap<String, (usize, usize)>,
    /// The cases that missed their expectation, per class.
    pub misses: BTreeMap<String, Vec<String>>,
}

impl Replay {
    /// Replays each case (one JSON text a line, with `id` and `class`): `judge` gives, for
    /// the case and its class, why it misses its expectation, if it does. Prints the tally.
    pub fn run<'l>(
        lines: impl IntoIterator<Item = &'l str>,
        mut judge: impl FnMut(&Value, &str) -> Option<String>,
    ) -> Replay {
        let mut replay = Replay::default();
        for line in lines {
            let case: Value = serde_json::from_str(line).expect("an expanded case is JSON");
            let class = case["class"]
                .as_str()
                .expect("a case has a class")
                .to_owned();
            let why = judge(&case, &class);
            let entry = replay.per_class.entry(class.clone()).or_default();
            entry.1 += 1;
            match why {
                None => entry.0 += 1,
                Some(why) => replay
                    .misses
                    .entry(class)
                    .or_default()
                    .push(format!("{}: {why}", case["id"])),
            }
        }
        for (class, (passed, cases)) in &replay.per_class {
            println!("{class:18} {passed:6} / {cases:6}");
        }
        replay
    }

    /// (passed, cases) over the classes `wanted` takes.
    pub fn share(&self, wanted: impl Fn(&str) -> bool) -> (usize, usize) {
        self.per_class
            .iter()
            .filter(|(class, _)| wanted(class))
            .fold((0, 0), |(p, n), (_, (passed, cases))| {
                (p + passed, n + cases)
            })
    }
}

/// Removes the members of `value` that were filled in from defaults (a `default` repair at
/// `filled`) or that are `null` where the expected value has no such member, at the root
/// only: the BFCL corpus is flat. As the judge does: filling in is not a difference (a field
/// of type `any` takes `null` as a value, so it is kept).
fn strip_filled_at_root(value: &mut Value, expected: &Value, filled: &[&Path]) {
    if let (Value::Object(members), Some(expected)) = (value, expected.as_object()) {
        members.retain(|key, member| {
            let filled_in = filled
                .iter()
                .any(|path| **path == Path::root().key(key.clone()));
            let null_extra = member.is_null() && !expected.contains_key(key);
            !filled_in && !null_extra
        });
    }
}

/// Why accepted arguments miss an expectation of acceptance, if they do: the value (after
/// `strip` removed what was filled in) differs, or a repair was expected and not logged, or
/// logged on a valid payload.
pub fn miss_accepted(
    decoded: &Decoded<Value>,
    expect: &Value,
    strip: fn(&mut Value, &Value, &[&Path]),
) -> Option<String> {
    let filled: Vec<&Path> = decoded
        .repairs
        .iter()
        .filter(|r| r.rule == Rule::Default)
        .map(|r| &r.path)
        .collect();
    let mut value = decoded.value.clone();
    strip(&mut value, &expect["value"], &filled);
    if !json_equal(&value, &expect["value"]) {
        return Some(format!("value {value} != {}", expect["value"]));
    }
    let logged = decoded.repairs.iter().any(|r| r.rule.is_repair());
    if expect["repair_logged"] == true && !logged {
        return Some("repair not logged".into());
    }
    if expect["nothing_logged"] == true && logged {
        return Some(format!("logged on a valid payload: {:?}", decoded.repairs));
    }
    None
}

/// Why a result misses its expectation, if it does.
pub fn miss(result: Result<Decoded<Value>, Rejected>, expect: &Value) -> Option<String> {
    if expect["ok"] == true {
        let decoded = match result {
            Ok(decoded) => decoded,
            Err(rejected) => return Some(format!("refused: {}", rejected.report)),
        };
        return miss_accepted(&decoded, expect, strip_filled_at_root);
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

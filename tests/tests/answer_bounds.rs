//! Issue 27 §2: every answer is bounded, whatever the schema and the arguments.
//!
//! Random tools whose schemas hold huge constants, long enums of long values, long patterns,
//! descriptions, defaults, examples, property names and tool names, called with random
//! failing (and passing) arguments of many wrong items: the rendered answer — the report's
//! JSON, the hint's JSON, the repair log — stays within the documented bounds
//! (`issue::ISSUE_MAX_BYTES`, `issue::report_max_bytes`, `hint::HINT_MAX_BYTES`,
//! `issue::REPAIR_MAX_BYTES`, `decode::MAX_REPAIRS`), and no text it echoes is longer than
//! an issue's message may be.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolgate::decode::{Options, MAX_REPAIRS};
use toolgate::hint::HINT_MAX_BYTES;
use toolgate::issue::{
    report_max_bytes, GOT_MAX_CHARS, ISSUE_MAX_BYTES, MESSAGE_MAX_CHARS, REPAIR_MAX_BYTES,
};
use toolgate::{DynamicTool, Rejected};

/// A text of `count` repetitions of `unit`: long texts without generating each character.
fn repeated(unit: &str, count: usize) -> String {
    unit.repeat(count)
}

/// Units with what makes echoed text long in bytes: control characters (six bytes escaped),
/// quotes and backslashes, non-ASCII and astral characters, identifier characters.
fn unit() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a", "key_", "\u{1}", "\"", "\\", "é", "東京", "😀", "x.y", "[0]", " ", "~/",
    ])
    .prop_map(str::to_owned)
}

/// A text that is short, or long (up to 12,000 repetitions of a unit of up to six bytes:
/// far past every cap, and fast enough for a debug build; the megabyte of the finding is a
/// test of its own below).
fn text() -> impl Strategy<Value = String> {
    (
        unit(),
        prop_oneof![1usize..8, 100usize..1_000, 4_000usize..12_000],
    )
        .prop_map(|(unit, count)| repeated(&unit, count))
}

/// A text of at most a few hundred characters: the stem of many enum values.
fn stem() -> impl Strategy<Value = String> {
    (unit(), prop_oneof![1usize..8, 14usize..40]).prop_map(|(unit, count)| repeated(&unit, count))
}

/// A JSON value of the schema's (a `const`, a default, an example, an enum value): a long
/// string, a long array, a wide object, or a small scalar.
fn schema_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        text().prop_map(Value::from),
        (0usize..5_000).prop_map(|n| Value::from((0..n).collect::<Vec<_>>())),
        (stem(), 0usize..500).prop_map(|(key, n)| {
            let mut object = Map::new();
            for i in 0..n {
                object.insert(format!("{key}{i}"), Value::from(i));
            }
            Value::Object(object)
        }),
        any::<i64>().prop_map(Value::from),
        Just(Value::Null),
    ]
}

/// The schema of one property: each kind of echoed schema text.
fn property_schema() -> impl Strategy<Value = Value> {
    let enumeration = prop_oneof![
        (stem(), 1usize..400).prop_map(|(stem, n)| {
            Value::from((0..n).map(|i| format!("{stem}{i}")).collect::<Vec<_>>())
        }),
        prop::collection::vec(schema_value(), 1..4).prop_map(Value::from),
    ];
    prop_oneof![
        schema_value().prop_map(|constant| json!({"const": constant})),
        enumeration
            .clone()
            .prop_map(|values| json!({"enum": values})),
        enumeration.prop_map(|values| json!({"type": "array", "items": {"enum": values}})),
        (text(), 1usize..3).prop_map(|(description, _)| json!({
            "type": "integer", "description": description, "minimum": 0
        })),
        (1usize..3_000).prop_map(|n| json!({
            "type": "string", "pattern": format!("^{}$", "q".repeat(n)),
        })),
        (schema_value(), schema_value()).prop_map(|(default, example)| json!({
            "type": "object",
            "properties": {"inner": {"type": "string", "default": default, "examples": [example]}},
            "required": ["must"],
        })),
        prop::collection::vec(schema_value(), 1..4).prop_map(|constants| json!({
            "anyOf": constants.into_iter().map(|c| json!({"const": c})).collect::<Vec<_>>()
        })),
        Just(json!({"type": "array", "items": {"type": "integer"}})),
    ]
}

/// A tool: up to four properties with (possibly huge) names, required or not, closed or
/// open, under a (possibly huge) tool name.
fn tool_definition() -> impl Strategy<Value = Value> {
    (
        prop::collection::vec((text(), property_schema(), any::<bool>()), 1..4),
        text(),
        text(),
        any::<bool>(),
    )
        .prop_map(|(properties, name, description, closed)| {
            let mut members = Map::new();
            let mut required = Vec::new();
            for (index, (name, schema, is_required)) in properties.into_iter().enumerate() {
                let name = format!("{name}{index}");
                if is_required {
                    required.push(Value::from(name.clone()));
                }
                members.insert(name, schema);
            }
            json!({
                "name": name,
                "description": description,
                "inputSchema": {
                    "type": "object",
                    "properties": members,
                    "required": required,
                    "additionalProperties": !closed,
                }
            })
        })
}

/// Arguments for `definition`'s properties: each property sent (under its name or a name
/// cut or folded), with a wrong scalar, many wrong items, an object missing fields, or left
/// out; and unknown keys, possibly huge.
fn arguments(definition: &Value) -> impl Strategy<Value = String> {
    let names: Vec<String> = definition["inputSchema"]["properties"]
        .as_object()
        .map(|members| members.keys().cloned().collect())
        .unwrap_or_default();
    let sent = prop_oneof![
        Just(None),
        Just(Some(json!("wrong"))),
        Just(Some(json!(-1))),
        Just(Some(json!({}))),
        (1usize..200).prop_map(|n| Some(Value::from(vec!["bad"; n]))),
        (1usize..200).prop_map(|n| Some(Value::from(vec![json!({}); n]))),
        (1usize..200).prop_map(|n| Some(Value::from(vec!["7"; n]))),
    ];
    (
        prop::collection::vec(sent, names.len()),
        prop::collection::vec(text(), 0..3),
    )
        .prop_map(move |(values, unknown)| {
            let mut object = Map::new();
            for (name, value) in names.iter().zip(values) {
                if let Some(value) = value {
                    object.insert(name.clone(), value);
                }
            }
            for key in unknown {
                object.insert(key, json!("?"));
            }
            let text = Value::Object(object).to_string();
            // Within the argument limit, as a caller's would be.
            if text.len() > Options::default().max_bytes {
                "{}".to_owned()
            } else {
                text
            }
        })
}

fn definition_and_arguments() -> impl Strategy<Value = (Value, String)> {
    tool_definition().prop_flat_map(|definition| {
        let arguments = arguments(&definition);
        (Just(definition), arguments)
    })
}

/// Every string and key in `answer` is within what an issue's message may be, and every key
/// within a name's length: nothing of the schema or the arguments is echoed whole.
fn texts_are_short(answer: &Value, at: &str) -> Result<(), TestCaseError> {
    match answer {
        Value::String(text) => {
            let chars = text.chars().count();
            prop_assert!(chars <= MESSAGE_MAX_CHARS + 1, "{at}: {chars} characters");
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                texts_are_short(item, &format!("{at}[{index}]"))?;
            }
        }
        Value::Object(members) => {
            for (key, member) in members {
                let chars = key.chars().count();
                prop_assert!(
                    chars <= GOT_MAX_CHARS + 1,
                    "{at}: a key of {chars} characters"
                );
                texts_are_short(
                    member,
                    &format!("{at}.{}", key.chars().take(20).collect::<String>()),
                )?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// The refusal's answer is within the bounds.
fn refusal_within_bounds(rejected: &Rejected) -> Result<(), TestCaseError> {
    let options = Options::default();
    prop_assert!(rejected.report.len() <= options.max_issues + 1);
    for issue in rejected.report.issues() {
        let json = serde_json::to_string(issue).unwrap();
        prop_assert!(
            json.len() <= ISSUE_MAX_BYTES,
            "an issue of {} bytes",
            json.len()
        );
    }
    let report = serde_json::to_value(&rejected.report).unwrap();
    let report_bytes = report.to_string().len();
    prop_assert!(report_bytes <= report_max_bytes(options.max_issues));
    texts_are_short(&report, "issues")?;
    let hint = rejected.hint().to_json();
    prop_assert!(
        hint.len() <= HINT_MAX_BYTES,
        "a hint of {} bytes",
        hint.len()
    );
    texts_are_short(&serde_json::from_str(&hint).unwrap(), "hint")?;
    repairs_within_bounds(&rejected.repairs)
}

fn repairs_within_bounds(repairs: &[toolgate::Repair]) -> Result<(), TestCaseError> {
    prop_assert!(repairs.len() <= MAX_REPAIRS, "{} repairs", repairs.len());
    for repair in repairs {
        let json = serde_json::to_value(repair).unwrap();
        let bytes = json.to_string().len();
        prop_assert!(bytes <= REPAIR_MAX_BYTES, "a repair of {bytes} bytes");
        texts_are_short(&json, "repair")?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whatever the schema echoes and however many items are wrong, the answer is within
    /// the documented bounds; a schema the reader refuses is answered within them too.
    #[test]
    fn every_answer_is_within_the_documented_bounds(
        (definition, arguments) in definition_and_arguments()
    ) {
        let tool = match DynamicTool::from_definition(&definition) {
            Ok(tool) => tool,
            Err(errors) => {
                let report = toolgate::issue::schema_refusal(&errors);
                let json = serde_json::to_value(&report).unwrap();
                prop_assert!(json.to_string().len() <= report_max_bytes(Options::default().max_issues));
                return texts_are_short(&json, "schema refusal");
            }
        };
        match tool.decode(&arguments) {
            Ok(decoded) => repairs_within_bounds(&decoded.repairs)?,
            Err(rejected) => refusal_within_bounds(&rejected)?,
        }
        match tool.decode_value(&serde_json::from_str(&arguments).unwrap()) {
            Ok(decoded) => repairs_within_bounds(&decoded.repairs)?,
            Err(rejected) => refusal_within_bounds(&rejected)?,
        }
    }
}

/// The finding's reproduction: a `const` of 1 MB and 100 wrong items gave a 200 MB answer
/// for a 507-byte argument.
#[test]
fn a_megabyte_const_and_a_hundred_wrong_items_give_a_small_answer() {
    let constant = "c".repeat(1 << 20);
    let tool = DynamicTool::from_definition(&json!({
        "type": "object",
        "properties": {"l": {"type": "array", "items": {"const": constant}}},
    }))
    .unwrap();
    let arguments = json!({"l": vec!["x"; 100]}).to_string();
    let rejected = tool.decode(&arguments).unwrap_err();
    let report = serde_json::to_string(&rejected.report).unwrap();
    let hint = rejected.hint().to_json();
    assert_eq!(rejected.report.len(), 100);
    // About 250 bytes an issue: the constant is echoed by its first 80 characters.
    assert!(report.len() < 40_000, "{}", report.len());
    assert!(hint.len() < 2_000, "{}", hint.len());
    assert!(rejected.report.issues()[0].message.chars().count() < 200);
}

/// An accepted call whose argument needs a repair per item logs at most `MAX_REPAIRS`
/// repairs and counts the rest.
#[test]
fn the_repair_log_of_an_accepted_call_is_capped_and_counts_the_rest() {
    let tool = DynamicTool::from_definition(&json!({
        "type": "object",
        "properties": {"n": {"type": "array", "items": {"type": "integer"}}},
    }))
    .unwrap();
    let count = MAX_REPAIRS + 500;
    let arguments = json!({"n": vec!["7"; count]}).to_string();
    let decoded = tool.decode(&arguments).unwrap();
    assert_eq!(decoded.value["n"].as_array().unwrap().len(), count);
    assert_eq!(decoded.repairs.len(), MAX_REPAIRS);
    assert_eq!(decoded.repairs_left_out, 500);
}

/// README's "Limits and guarantees" states these numbers.
#[test]
fn the_bounds_are_the_numbers_the_readme_states() {
    assert_eq!(ISSUE_MAX_BYTES, 26_065);
    assert_eq!(REPAIR_MAX_BYTES, 10_274);
    assert_eq!(HINT_MAX_BYTES, 160_525);
    assert_eq!(report_max_bytes(100), 2_632_668);
    assert_eq!(MAX_REPAIRS, 100);
}

//! Issue 27 §2 on the batch: an answer line stays within [`ANSWER_MAX_BYTES`] (besides its
//! `id` and `value`), whatever the tool's schema echoes and however many items are wrong.

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use super::*;

/// A long text of a unit that is long in JSON (escaped, non-ASCII) or plain.
fn text() -> impl Strategy<Value = String> {
    let unit = prop::sample::select(vec!["a", "\u{1}", "\"", "東", "😀", "x y"]);
    (unit, prop_oneof![1usize..4, 100usize..3_000]).prop_map(|(unit, count)| unit.repeat(count))
}

/// A tool with a (possibly huge) name, property name, description, constant, enum values,
/// pattern and default.
fn tool() -> impl Strategy<Value = Value> {
    (text(), text(), text(), text(), 1usize..300, 1usize..2_000).prop_map(
        |(name, property, description, value, values, pattern)| {
            let enumeration: Vec<String> = (0..values).map(|i| format!("{value}{i}")).collect();
            let mut properties = Map::new();
            properties.insert(
                format!("{property}c"),
                json!({"type": "array", "items": {"const": value}, "description": description}),
            );
            properties.insert(
                format!("{property}e"),
                json!({"type": "array", "items": {"enum": enumeration}}),
            );
            properties.insert(
                format!("{property}p"),
                json!({"type": "array", "items": {"type": "string", "pattern": "q".repeat(pattern)}}),
            );
            properties.insert(
                format!("{property}d"),
                json!({"type": "array", "items": {"type": "object", "properties": {
                    "x": {"type": "string", "default": value}}}}),
            );
            json!({
                "name": name,
                "description": description,
                "inputSchema": {
                    "type": "object",
                    "properties": properties,
                    "required": [format!("{property}r")],
                    "additionalProperties": false,
                }
            })
        },
    )
}

/// Arguments with many wrong (or repaired) items in each property, and an unknown key.
fn arguments(tool: &Value, items: usize, unknown: &str) -> String {
    let mut object = Map::new();
    if let Some(properties) = tool["inputSchema"]["properties"].as_object() {
        for name in properties.keys() {
            let item = if name.ends_with('d') {
                json!({})
            } else {
                json!("wrong")
            };
            object.insert(name.clone(), Value::from(vec![item; items]));
        }
    }
    object.insert(unknown.to_owned(), json!(1));
    Value::Object(object).to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn an_answer_line_is_within_its_bound_whatever_the_schema(
        tool in tool(),
        items in 1usize..300,
        unknown in text(),
    ) {
        let line = json!({
            "id": "call",
            "tool": tool,
            "arguments": arguments(&tool, items, &unknown),
        })
        .to_string();
        let answer = Batch::new(DEFAULT_MAX_LINE_BYTES).answer_line(line.as_bytes());
        let parsed: Value = serde_json::from_str(&answer).unwrap();
        let value = parsed["value"].to_string().len();
        prop_assert!(
            answer.len() <= ANSWER_MAX_BYTES + value,
            "an answer of {} bytes", answer.len()
        );
        // Well within the bound in fact: the schema's texts are echoed by their first 80
        // characters, 300 wrong items by 100 issues (each of 20 enum values of 80 escaped
        // characters at worst: about 10 KB an issue).
        prop_assert!(answer.len() - value < 1_500_000, "an answer of {} bytes", answer.len());
        prop_assert_eq!(&parsed["id"], "call");
    }
}

/// "Limits and guarantees" (`runtime/docs/limits.md`) states this number: 3.6 MiB.
#[test]
fn the_answer_bound_is_the_number_the_readme_states() {
    assert_eq!(ANSWER_MAX_BYTES, 3_820_823);
}

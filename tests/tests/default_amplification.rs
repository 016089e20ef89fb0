//! Issue 27 §2, the defaults: what a call decodes to is bounded by its text, whatever the
//! schema's defaults.
//!
//! The class: a schema whose optional fields carry defaults (long strings, long arrays, wide
//! objects, or small values under long names), in any position an absent field can be filled
//! (a top-level field, the fields of array items, of map values, of nested objects), called
//! with a short text that leaves the field out many times (`[{}, {}, ...]`). Each fill copies
//! the default, so without a bound 8 KB of text becomes hundreds of megabytes. The bound: the
//! members the defaults fill add at most `Options::max_bytes` bytes of JSON per call; past it
//! the call is refused with one `limit` issue.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolgate::decode::Options;
use toolgate::{Constraint, DynamicTool};

/// A default: a long string, a long array, a wide object, or a small scalar.
fn default_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        (1usize..200_000).prop_map(|n| Value::from("é".repeat(n / 2))),
        (0usize..20_000).prop_map(|n| Value::from((0..n).collect::<Vec<_>>())),
        (0usize..2_000).prop_map(|n| {
            let mut object = Map::new();
            for i in 0..n {
                object.insert(format!("k{i}"), Value::from(i));
            }
            Value::Object(object)
        }),
        Just(Value::from(0)),
        Just(Value::Null),
    ]
}

/// A field name: short, or long (a small default under a long name adds its name each time).
fn field_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("d".to_owned()),
        (1usize..50_000).prop_map(|n| "n".repeat(n))
    ]
}

/// Where the field with the default sits, and the argument text that leaves it out `count`
/// times there.
#[derive(Clone, Debug)]
enum Position {
    /// `{"items": [{}, ...]}`: a field of each array item.
    Items,
    /// `{"map": {"a0": {}, ...}}`: a field of each map value.
    MapValues,
    /// `{"items": [{"inner": {}}, ...]}`: a field of an object nested in each item.
    Nested,
    /// `{}`: the top-level field, once.
    Top,
}

fn schema_and_text(
    position: &Position,
    name: &str,
    default: &Value,
    count: usize,
) -> (Value, String) {
    let holder = json!({
        "type": "object",
        "properties": {name: {"default": default}},
    });
    let items = |text: &str| vec![text; count].join(",");
    match position {
        Position::Items => (
            json!({"type": "object", "properties": {"items": {"type": "array", "items": holder}}}),
            format!("{{\"items\": [{}]}}", items("{}")),
        ),
        Position::MapValues => {
            let members: Vec<String> = (0..count).map(|i| format!("\"a{i}\": {{}}")).collect();
            (
                json!({"type": "object", "properties": {"map": {"type": "object", "additionalProperties": holder}}}),
                format!("{{\"map\": {{{}}}}}", members.join(",")),
            )
        }
        Position::Nested => (
            json!({"type": "object", "properties": {"items": {"type": "array", "items": {
                "type": "object", "properties": {"inner": holder}}}}}),
            format!("{{\"items\": [{}]}}", items("{\"inner\": {}}")),
        ),
        Position::Top => (holder, "{}".to_owned()),
    }
}

fn position() -> impl Strategy<Value = Position> {
    prop_oneof![
        Just(Position::Items),
        Just(Position::MapValues),
        Just(Position::Nested),
        Just(Position::Top),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Accepted: the value is at most three times its text (a repair such as
    /// `scalar_to_string` may add quotes) plus what the defaults may add; refused: one
    /// `limit` issue for the defaults. Both roads (the text and `decode_value`).
    #[test]
    fn defaults_add_at_most_max_bytes_to_a_call(
        position in position(),
        name in field_name(),
        default in default_value(),
        count in prop_oneof![1usize..10, 500usize..3_000],
        max_bytes in prop_oneof![Just(Options::default().max_bytes), 1_000usize..100_000],
    ) {
        let (schema, text) = schema_and_text(&position, &name, &default, count);
        let mut options = Options::default();
        options.max_bytes = max_bytes.max(text.len());
        let tool = DynamicTool::from_definition(&schema)
            .expect("the schema reads")
            .with_options(options.clone());
        let argument = serde_json::from_str::<Value>(&text).unwrap();
        for outcome in [tool.decode(&text), tool.decode_value(&argument)] {
            match outcome {
                Ok(decoded) => {
                    let size = serde_json::to_string(&decoded.value).unwrap().len();
                    prop_assert!(size <= 3 * text.len() + options.max_bytes,
                        "{size} bytes from {} bytes of text", text.len());
                }
                Err(rejected) => {
                    let issues = rejected.report.issues();
                    prop_assert_eq!(issues.len(), 1, "{:?}", issues);
                    prop_assert_eq!(issues[0].constraint, Constraint::Limit);
                }
            }
        }
    }
}

/// The finding: 2,000 `{}` items whose item schema gives a 100 KB default were 200 MB.
#[test]
fn two_thousand_items_with_a_large_default_are_refused_with_one_limit() {
    let (schema, text) = schema_and_text(
        &Position::Items,
        "d",
        &Value::from("x".repeat(100_000)),
        2_000,
    );
    let tool = DynamicTool::from_definition(&schema).unwrap();
    let rejected = tool.decode(&text).unwrap_err();
    let issues = rejected.report.issues();
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(issues[0].constraint, Constraint::Limit);
    assert!(
        issues[0].message.contains("defaults"),
        "{}",
        issues[0].message
    );
    // Ten items fit: 1 MB of defaults.
    let (_, few) = schema_and_text(&Position::Items, "d", &Value::from("x".repeat(100_000)), 10);
    assert!(tool.decode(&few).is_ok());
}

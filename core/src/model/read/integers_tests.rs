//! Issue 43 §4, property: a schema's own integers are held as written or refused at their
//! pointer, never read through a float. Integers across and beyond every width, at every
//! place a schema holds a number (`const`, `enum`, `default`, the bounds, `multipleOf`,
//! `examples`, an extension keyword, nested in `items` and `$defs`), read from schema text
//! and from a tool definition's text.

use proptest::prelude::*;
use serde_json::Value;

use crate::model::ToolModel;
use crate::num::CARRIED_INTEGERS;
use crate::DynamicTool;

/// Integers at the edges of every width, beyond `i128`, and anywhere.
fn integers() -> impl Strategy<Value = String> {
    let edges = prop_oneof![
        Just(0i128),
        Just(1 << 53),
        Just(1 << 63),
        Just(1 << 64),
        Just(i128::MAX - 3),
        Just(i128::from(u32::MAX)),
    ];
    prop_oneof![
        (edges, -3i128..=3, any::<bool>()).prop_map(|(edge, k, negative)| {
            let near = edge + k;
            if negative { -near } else { near }.to_string()
        }),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i128>().prop_map(|n| n.to_string()),
        "-?[1-9][0-9]{39,45}",
    ]
}

/// Where in a schema the number goes: the schema text with `N` for it, and the pointer of
/// the number.
fn places() -> impl Strategy<Value = (&'static str, &'static str)> {
    prop::sample::select(vec![
        (r#"{"type": "integer", "const": N}"#, "/properties/x/const"),
        (
            r#"{"type": "integer", "enum": [1, N]}"#,
            "/properties/x/enum/1",
        ),
        (
            r#"{"type": "integer", "default": N}"#,
            "/properties/x/default",
        ),
        (
            r#"{"type": "integer", "minimum": N}"#,
            "/properties/x/minimum",
        ),
        (
            r#"{"type": "number", "maximum": N}"#,
            "/properties/x/maximum",
        ),
        (
            r#"{"type": "integer", "exclusiveMinimum": N}"#,
            "/properties/x/exclusiveMinimum",
        ),
        (
            r#"{"type": "integer", "exclusiveMaximum": N}"#,
            "/properties/x/exclusiveMaximum",
        ),
        (
            r#"{"type": "number", "examples": [N]}"#,
            "/properties/x/examples/0",
        ),
        (
            r#"{"type": "integer", "x-largest": N}"#,
            "/properties/x/x-largest",
        ),
        (
            r#"{"type": "array", "items": {"const": N}}"#,
            "/properties/x/items/const",
        ),
        (
            r##"{"$ref": "#/$defs/n"}, "unused": {"type": "string"}}, "$defs": {"n": {"type": "integer", "maximum": N}"##,
            "/$defs/n/maximum",
        ),
    ])
}

fn schema_text(place: &str, number: &str) -> String {
    format!(
        r#"{{"type": "object", "properties": {{"x": {}}}}}"#,
        place.replace('N', number)
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_schema_integer_is_held_as_written_or_refused_at_its_pointer(
        number in integers(),
        (place, pointer) in places(),
    ) {
        let text = schema_text(place, &number);
        let definition = format!(r#"{{"name": "t", "parameters": {text}}}"#);
        let carried = number.parse::<i128>().is_ok_and(|n| CARRIED_INTEGERS.contains(&n));
        for (read, pointer) in [
            (ToolModel::from_json_schema(&text), pointer.to_owned()),
            (ToolModel::from_definition_text(&definition), format!("/parameters{pointer}")),
        ] {
            match read {
                Ok(model) => {
                    prop_assert!(carried, "{number} beyond the carried integers was read: {text}");
                    // Written back with its digits, wherever the model writes it.
                    let written = model.json_schema();
                    if !place.contains("x-largest") && !place.contains("\"integer\", \"default\"") {
                        prop_assert!(written.contains(&number), "{number} not in {written}");
                    }
                    // A `const` holds exactly this integer: it and only it passes.
                    if place.contains("\"integer\", \"const\"") {
                        let tool = DynamicTool::from_model(model.clone());
                        let decoded = tool.decode(&format!(r#"{{"x": {number}}}"#));
                        let decoded = decoded.map(|d| d.value["x"].to_string());
                        prop_assert_eq!(decoded.ok(), Some(number.clone()));
                        let next = number.parse::<i128>().unwrap() + 1;
                        if CARRIED_INTEGERS.contains(&next) {
                            let other = format!(r#"{{"x": {next}}}"#);
                            prop_assert!(tool.decode(&other).is_err());
                        }
                    }
                }
                Err(errors) => {
                    // A carried integer may still make an unusable schema (bounds that
                    // leave nothing): then the error is not about the number's size.
                    let beyond: Vec<_> = errors
                        .0
                        .iter()
                        .filter(|e| e.message.contains("beyond the integers toolgate carries"))
                        .collect();
                    if carried {
                        prop_assert!(beyond.is_empty(), "{errors}");
                    } else {
                        prop_assert_eq!(beyond.len(), 1, "{}", errors);
                        prop_assert_eq!(&beyond[0].pointer, &pointer);
                        prop_assert_eq!(errors.0.len(), 1);
                    }
                }
            }
        }
    }
}

#[test]
fn a_float_spelled_number_beyond_stays_a_float() {
    // A fraction or an exponent says float: read as every JSON reader reads it.
    let model = ToolModel::from_json_schema(
        r#"{"type": "object", "properties": {"x": {"type": "number", "maximum": 1e30}}}"#,
    )
    .unwrap();
    let written: Value = serde_json::from_str(model.json_schema()).unwrap();
    assert_eq!(
        written["properties"]["x"]["maximum"],
        serde_json::json!(1e30)
    );
}

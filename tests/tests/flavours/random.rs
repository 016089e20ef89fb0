//! Issue 27 §7, by property: random nested schemas with free-form maps and other
//! constructs a strict provider refuses (a value of any type, `not`, big bounds...) placed
//! at random positions — properties, array items, tuple elements, union branches,
//! nullable wrappers, definitions, map values: every flavour either refuses the tool with a
//! reason or writes a schema that passes its conformance checker on every node, and the
//! strict flavours never close a free-form map.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolgate::flavour::{Flavour, FlavourError};
use toolgate::model::ToolModel;

use super::conformance::{conforms, free_form_at};

/// A leaf schema: plain types, constraints some flavours move, and the constructs strict
/// providers refuse.
fn leaf() -> impl Strategy<Value = Value> {
    let usual = prop_oneof![
        Just(json!({"type": "string"})),
        Just(json!({"type": "string", "maxLength": 5, "format": "email"})),
        Just(json!({"type": "string", "pattern": "^a{1,500}$"})),
        Just(json!({"type": "integer", "minimum": 0, "maximum": 9})),
        Just(json!({"type": "number", "multipleOf": 0.5})),
        Just(json!({"type": "boolean"})),
        Just(json!({"enum": ["a", "b", 1]})),
        Just(json!({"const": "x"})),
        Just(json!({"type": ["string", "null"]})),
        Just(json!({"$ref": "#/$defs/d"})),
    ];
    // Refused by the strict flavours: a value of any type, free-form maps.
    let refused = prop_oneof![
        Just(json!({})),
        Just(json!({"type": "object"})),
        Just(json!({"type": "object", "additionalProperties": true})),
        Just(json!({"type": "object", "additionalProperties": {"type": "string"}})),
        Just(json!({"type": ["object", "null"], "additionalProperties": {"type": "integer"}})),
    ];
    prop_oneof![12 => usual, 1 => refused]
}

/// A schema nesting leaves in every position a schema can hold one.
fn schema() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            3 => (
                prop::collection::vec(inner.clone(), 1..4),
                any::<u8>(),
                any::<bool>()
            )
                .prop_map(|(fields, required, closed)| {
                    let mut object = object(fields, required);
                    if closed {
                        object["additionalProperties"] = json!(false);
                    }
                    object
                }),
            3 => inner
                .clone()
                .prop_map(|items| json!({"type": "array", "items": items})),
            2 => (inner.clone(), inner.clone()).prop_map(
                |(a, b)| json!({"type": "array", "prefixItems": [a, b], "items": false})
            ),
            3 => (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"anyOf": [a, b]})),
            2 => (inner.clone(), inner.clone()).prop_map(|(a, b)| json!({"oneOf": [a, b]})),
            3 => inner
                .clone()
                .prop_map(|a| json!({"anyOf": [a, {"type": "null"}]})),
            // A map of them (refused by the strict flavours, whatever the values).
            1 => inner.prop_map(|values| json!({"type": "object", "additionalProperties": values})),
        ]
    })
}

/// An object of the given fields (`f0`, `f1`...), those whose bit is set in `required`
/// required.
fn object(fields: Vec<Value>, required: u8) -> Value {
    let names: Vec<String> = (0..fields.len()).map(|i| format!("f{i}")).collect();
    let wanted: Vec<&String> = names
        .iter()
        .enumerate()
        .filter(|(i, _)| required & (1 << i) != 0)
        .map(|(_, name)| name)
        .collect();
    let properties: serde_json::Map<String, Value> = names.iter().cloned().zip(fields).collect();
    json!({"type": "object", "properties": properties, "required": wanted})
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn every_flavour_refuses_with_a_reason_or_conforms_on_every_node(
        fields in prop::collection::vec(schema(), 1..4),
        required in any::<u8>(),
        definition in schema(),
    ) {
        let mut root = object(fields, required);
        root["title"] = json!("t");
        // The definition may use itself: a recursive schema, which some flavours refuse.
        root["$defs"] = json!({"d": definition});
        let Ok(model) = ToolModel::from_json_schema(&root.to_string()) else {
            return Ok(());
        };
        let source: Value = serde_json::from_str(model.json_schema()).unwrap();
        let free_form = free_form_at(&source);
        for flavour in Flavour::ALL {
            match model.schema_for(flavour) {
                Ok(flavoured) => {
                    if let Err(why) = conforms(flavour, &model, &flavoured) {
                        return Err(TestCaseError::fail(format!(
                            "{flavour} does not conform: {why}\n{}\nfrom {}",
                            flavoured.schema,
                            model.json_schema()
                        )));
                    }
                    if matches!(flavour, Flavour::OpenAiStrict | Flavour::AnthropicStrict) {
                        prop_assert!(
                            free_form.is_none(),
                            "{} closed the free-form map at {:?}: {}",
                            flavour,
                            free_form,
                            model.json_schema()
                        );
                    }
                }
                Err(FlavourError::Inexpressible { what, .. }) => prop_assert!(!what.is_empty()),
                Err(FlavourError::OverLimit { limit, max, found, .. }) => {
                    prop_assert!(found > max, "{}", limit)
                }
                Err(other) => prop_assert!(false, "{flavour}: {other}"),
            }
        }
    }
}

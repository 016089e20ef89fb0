//! Issue 29, class "a schema built apart from the model": `ToolModel::check_against` takes
//! any schema, and the schema compiler hands it clones (an object's `const` is checked
//! against a clone of that object's schema). The plan holds nodes only for the model's own
//! schemas, so every lookup it answers (an object's key table, a default's verdict, a step
//! along a path) must answer a schema it has no node for exactly as it answers the model's
//! own: never a panic, never another verdict.
//!
//! Generated: random tool schemas (nested objects, arrays of objects, `$ref`s, aliases,
//! narrow objects that are scanned and wide ones that are indexed, required fields,
//! defaults that fit and defaults that do not, each `additionalProperties` kind, enums,
//! bounds) and random values whose keys are drawn from the fields' names, their aliases and
//! spellings in another case. The same value is checked against a clone of the model's
//! input (apart: the plan has no node for it) and against the input itself; the reports
//! must be equal, issue for issue.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolgate::model::{Kind, ToolModel};

/// The names fields are drawn from, and the keys values are drawn from (those names, the
/// aliases, other spellings, strangers).
const NAMES: [&str; 6] = ["a", "b", "ab_c", "count", "n", "item_list"];
const KEYS: [&str; 14] = [
    "a",
    "A",
    "b",
    "ab_c",
    "AbC",
    "ab-c",
    "count",
    "Count",
    "n",
    "num",
    "item_list",
    "items",
    "f3",
    "other",
];

/// A JSON Schema for one value: an object, an array of objects, or a scalar.
fn schema(depth: u32) -> BoxedStrategy<Value> {
    let scalar = prop_oneof![
        (any::<bool>(), -3i64..3, 0i64..5).prop_map(|(bounded, lo, span)| if bounded {
            json!({"type": "integer", "minimum": lo, "maximum": lo + span})
        } else {
            json!({"type": "integer"})
        }),
        Just(json!({"type": "string", "enum": ["x", "y", "z"]})),
        Just(json!({"type": "string", "maxLength": 3})),
        Just(json!({"type": ["integer", "null"]})),
        Just(json!({"$ref": "#/$defs/shared"})),
    ];
    if depth == 0 {
        return scalar.boxed();
    }
    prop_oneof![
        3 => scalar,
        2 => object(depth - 1),
        1 => object(depth - 1).prop_map(|items| json!({"type": "array", "items": items, "maxItems": 3})),
    ]
    .boxed()
}

/// An object schema: some of [`NAMES`] as fields (aliases, required, defaults), padded wide
/// or not, and one `additionalProperties` kind.
fn object(depth: u32) -> BoxedStrategy<Value> {
    let field = (
        schema(depth),
        any::<bool>(),
        prop::option::of(prop_oneof![
            Just(json!(1)),
            Just(json!("q")),
            Just(json!(null))
        ]),
        prop::option::of(prop_oneof![Just("num"), Just("items"), Just("A")]),
    );
    (
        prop::collection::vec(field, NAMES.len()),
        prop::collection::vec(any::<bool>(), NAMES.len()),
        any::<bool>(),
        0u8..3,
    )
        .prop_map(|(fields, present, wide, extra)| {
            let mut properties = Map::new();
            let mut required = Vec::new();
            let mut aliases_taken: Vec<&str> = Vec::new();
            for ((name, (mut schema, is_required, default, alias)), keep) in
                NAMES.iter().zip(fields).zip(present)
            {
                if !keep {
                    continue;
                }
                if let Some(default) = default {
                    schema["default"] = default;
                }
                if let Some(alias) = alias {
                    if !aliases_taken.contains(&alias) && !NAMES.contains(&alias) {
                        aliases_taken.push(alias);
                        schema["x-aliases"] = json!([alias]);
                    }
                }
                if is_required {
                    required.push(json!(name));
                }
                properties.insert(name.to_string(), schema);
            }
            if wide {
                // Past 16 names an object's keys are indexed, not scanned.
                for i in 0..20 {
                    properties.insert(format!("f{i}"), json!({"type": "integer"}));
                }
            }
            let mut object = json!({"type": "object", "properties": properties});
            if !required.is_empty() {
                object["required"] = Value::Array(required);
            }
            object["additionalProperties"] = match extra {
                0 => json!(false),
                1 => json!(true),
                _ => json!({"type": "integer"}),
            };
            object
        })
        .boxed()
}

/// A tool: a root object and the shared definition its `$ref`s name.
fn tool() -> impl Strategy<Value = String> {
    (object(2), schema(1)).prop_map(|(mut root, mut shared)| {
        if shared.get("$ref").is_some() {
            // A definition that is only a reference to itself reads no value.
            shared = json!({"type": "integer", "default": 0});
        }
        root["title"] = json!("t");
        root["$defs"] = json!({ "shared": shared });
        root.to_string()
    })
}

/// A value whose keys come from [`KEYS`].
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-4i64..8).prop_map(|n| json!(n)),
        Just(json!(2.5)),
        prop_oneof![Just("x"), Just("q"), Just("long text"), Just("3")].prop_map(|s| json!(s)),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((prop::sample::select(&KEYS[..]), inner), 0..7).prop_map(
                |members| Value::Object(
                    members
                        .into_iter()
                        .map(|(key, value)| (key.to_string(), value))
                        .collect()
                )
            ),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_schema_apart_is_judged_like_the_models_own(
        text in tool(),
        values in prop::collection::vec(value(), 1..6),
    ) {
        let model = match ToolModel::from_json_schema(&text) {
            Ok(model) => model,
            // A generated default may not fit a `$ref`'s shape; the reader may refuse it.
            Err(e) => panic!("{e}"),
        };
        let apart = model.input().clone();
        prop_assert!(model.plan().node_of(&apart).is_none());
        for value in values {
            let inside = model.check_against(model.input(), &value);
            let outside = model.check_against(&apart, &value);
            prop_assert_eq!(format!("{outside:?}"), format!("{inside:?}"), "value {}", value);
            // Each member of the root object, apart too.
            if let (Value::Object(members), Kind::Object(root)) = (&value, &model.input().kind) {
                for field in &root.fields {
                    let Some(member) = members.get(&field.name) else { continue };
                    let part = field.schema.clone();
                    prop_assert_eq!(
                        format!("{:?}", model.check_against(&part, member)),
                        format!("{:?}", model.check_against(&field.schema, member))
                    );
                }
            }
        }
    }
}

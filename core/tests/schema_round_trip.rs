//! Property: any tool model, written as JSON Schema and read back, is the same model; and
//! paths read back from their display form.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde_json::{json, Value};
use toolgate_core::model::*;
use toolgate_core::{Path, Segment};

fn num() -> impl Strategy<Value = Num> {
    prop_oneof![
        (-1_000_000i64..1_000_000).prop_map(Num::from),
        (-1e6f64..1e6).prop_map(Num::from),
        Just(Num::from(u64::MAX)),
    ]
}

fn text() -> impl Strategy<Value = String> {
    "[a-zA-Z_ ./-]{0,12}"
}

fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-1000i64..1000).prop_map(Value::from),
        text().prop_map(Value::from),
        Just(json!({"k": [1, "two", null]})),
    ]
}

fn bounds() -> impl Strategy<Value = Bounds> {
    (
        proptest::option::of(num()),
        proptest::option::of(num()),
        proptest::option::of(num()),
        proptest::option::of(num()),
    )
        .prop_map(
            |(minimum, maximum, exclusive_minimum, exclusive_maximum)| Bounds {
                minimum,
                maximum,
                exclusive_minimum,
                exclusive_maximum,
            },
        )
}

fn leaf_kind() -> impl Strategy<Value = Kind> {
    let widths = prop_oneof![Just(8u8), Just(16), Just(32), Just(64), Just(128)];
    prop_oneof![
        Just(Kind::Any),
        Just(Kind::Boolean),
        (
            proptest::option::of((widths, any::<bool>())),
            bounds(),
            proptest::option::of((1i64..100).prop_map(Num::from))
        )
            .prop_map(|(width, mut bounds, multiple_of)| {
                // A width's range is a bound too, as the derive and the reader both have it.
                let width = width.map(|(bits, signed)| IntWidth { bits, signed });
                bounds.fill_range(width.map(IntWidth::range));
                // A width the schema names is read back; one it does not name is not.
                Kind::Integer(IntegerSchema {
                    width,
                    width_format: width.is_some(),
                    bounds,
                    multiple_of,
                })
            }),
        (
            proptest::option::of(prop_oneof![Just(FloatWidth::F32), Just(FloatWidth::F64)]),
            bounds()
        )
            .prop_map(|(width, mut bounds)| {
                bounds.fill_range(width.and_then(FloatWidth::range));
                Kind::Number(NumberSchema {
                    width,
                    width_format: width.is_some(),
                    bounds,
                    multiple_of: Some(Num::from(0.5)),
                })
            }),
        (
            proptest::option::of(0u64..10),
            proptest::option::of(0u64..100),
            proptest::option::of(prop_oneof![Just("^[A-Z]{3}$"), Just("a|b"), Just(r"^\d+$")]),
            proptest::option::of(proptest::sample::select(Format::ALL.to_vec())),
        )
            .prop_map(|(min_length, max_length, pattern, format)| Kind::String(
                StringSchema {
                    min_length,
                    max_length,
                    pattern: pattern.map(Pattern::new),
                    format
                }
            )),
        proptest::collection::btree_set("[a-z]{1,6}", 1..5).prop_map(|values| Kind::Enum(
            EnumSchema {
                values: values
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| if i == 0 {
                        EnumValue::new(v.clone()).alias(v.to_uppercase() + "!")
                    } else {
                        EnumValue::new(v)
                    })
                    .collect()
            }
        )),
        Just(Kind::Ref("Shared".into())),
    ]
}

fn annotate(kind: Kind) -> impl Strategy<Value = Schema> {
    (
        any::<bool>(),
        proptest::option::of(text()),
        proptest::option::of(json_value()),
        proptest::collection::vec(json_value(), 0..2),
        proptest::option::of(json_value()),
    )
        .prop_map(
            move |(nullable, description, default, examples, constant)| {
                let mut schema = Schema::new(kind.clone());
                if nullable {
                    schema = schema.nullable();
                }
                schema.description = description.filter(|d| !d.is_empty());
                schema.default = default;
                schema.examples = examples;
                schema.constant = constant;
                schema
            },
        )
}

fn schema() -> impl Strategy<Value = Schema> {
    let leaf = leaf_kind().prop_flat_map(annotate);
    leaf.prop_recursive(3, 24, 4, |inner| {
        let kind = prop_oneof![
            (
                proptest::collection::vec(inner.clone(), 0..3),
                inner.clone(),
                proptest::option::of(0u64..3),
                proptest::option::of(3u64..9),
                any::<bool>()
            )
                .prop_map(
                    |(prefix_items, items, min_items, max_items, unique_items)| Kind::Array(
                        ArraySchema {
                            prefix_items,
                            items: Box::new(items),
                            min_items,
                            max_items,
                            unique_items
                        }
                    )
                ),
            inner.clone().prop_map(|values| Kind::Map(MapSchema {
                values: Box::new(values),
                property_names: None,
            })),
            (
                proptest::collection::btree_map(
                    "[a-z][a-zA-Z0-9 -]{0,8}",
                    (inner.clone(), any::<bool>(), any::<bool>()),
                    0..4
                ),
                0..3usize,
                inner.clone()
            )
                .prop_map(|(fields, additional, extra)| Kind::Object(ObjectSchema {
                    fields: fields
                        .into_iter()
                        .map(|(name, (schema, required, aliased))| {
                            let field = if required {
                                Field::required(name.clone(), schema)
                            } else {
                                Field::optional(name.clone(), schema)
                            };
                            if aliased {
                                field
                                    .alias(format!("{name}_alias"))
                                    .rust_name(format!("r_{}", name.replace([' ', '-'], "_")))
                            } else {
                                field
                            }
                        })
                        .collect(),
                    additional: match additional {
                        0 => Additional::Allow,
                        1 => Additional::Deny,
                        _ => Additional::Schema(Box::new(extra)),
                    },
                    property_names: None,
                })),
            (
                proptest::collection::vec(inner.clone(), 2..4),
                any::<bool>()
            )
                .prop_map(|(variants, one_of)| Kind::Union(UnionSchema {
                    mode: if one_of {
                        UnionMode::OneOf
                    } else {
                        UnionMode::AnyOf
                    },
                    variants: variants
                        .into_iter()
                        .filter(|v| v.kind != Kind::Null)
                        .collect(),
                })),
        ];
        kind.prop_flat_map(annotate)
    })
}

fn model() -> impl Strategy<Value = ToolModel> {
    (
        "[a-z_.]{1,20}",
        proptest::option::of(text()),
        proptest::collection::btree_map("[a-z]{1,6}", (schema(), any::<bool>()), 0..5),
        schema(),
    )
        .prop_map(|(name, description, fields, shared)| {
            let fields = fields
                .into_iter()
                .map(|(name, (schema, required))| {
                    if required {
                        Field::required(name, schema)
                    } else {
                        Field::optional(name, schema)
                    }
                })
                .collect();
            let mut definitions = BTreeMap::new();
            definitions.insert("Shared".to_owned(), shared);
            ToolModel::new(
                name,
                description.filter(|d| !d.is_empty()),
                Schema::object(fields),
                definitions,
            )
        })
}

/// A union that lost variants to the `Null` filter above may have fewer than two left; such
/// a model is not what the generator means to test.
fn unions_are_real(schema: &Schema) -> bool {
    match &schema.kind {
        Kind::Union(union) => {
            union.variants.len() >= 2 && union.variants.iter().all(unions_are_real)
        }
        Kind::Array(array) => unions_are_real(&array.items),
        Kind::Map(map) => unions_are_real(&map.values),
        Kind::Object(object) => {
            object.fields.iter().all(|f| unions_are_real(&f.schema))
                && match &object.additional {
                    Additional::Schema(extra) => unions_are_real(extra),
                    _ => true,
                }
        }
        _ => true,
    }
}

/// Whether the schema reaches a reference without an object, array or map on the way: the
/// reader refuses a definition that refers back to itself that way (no value can be read).
fn refers_at_once(schema: &Schema) -> bool {
    match &schema.kind {
        Kind::Ref(_) => true,
        Kind::Union(union) => union.variants.iter().any(refers_at_once),
        _ => false,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn models_survive_json_schema(model in model()) {
        prop_assume!(unions_are_real(model.input()) && model.definitions().values().all(unions_are_real));
        prop_assume!(!model.definitions().values().any(refers_at_once));
        let text = model.json_schema();
        let read = ToolModel::from_json_schema(text);
        prop_assert!(read.is_ok(), "{text}\n{:?}", read.err());
        let read = read.unwrap();
        prop_assert_eq!(&read, &model, "{}", text);
        prop_assert_eq!(read.json_schema(), text);
    }

    #[test]
    fn paths_survive_their_display_form(segments in proptest::collection::vec(
        prop_oneof![any::<String>().prop_map(Segment::Key), (0usize..1000).prop_map(Segment::Index)], 0..6)
    ) {
        let path = Path::from(segments);
        let text = path.to_string();
        prop_assert_eq!(text.parse::<Path>().unwrap(), path.clone(), "{}", text);
        prop_assert_eq!(serde_json::from_value::<Path>(serde_json::to_value(&path).unwrap()).unwrap(), path);
    }
}

//! Strategies shared by the crate's property tests.

use proptest::prelude::*;
use serde_json::Value;

/// Any JSON value: strings with quotes, backslashes, control and wide characters; integers
/// and floats of any size; nested arrays and objects.
pub(crate) fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        "[a-z\"\\\\\u{0}-\u{1f}é東]{0,40}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 30, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(("[a-z\"\u{1}]{0,6}", inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

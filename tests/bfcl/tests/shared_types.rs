//! Hostile input F3 on the schema compiler's road: `tests/schemas/shared_fan_out.json`
//! (7 KB: `D_k = {l: D_k-1, r: D_k-1}` for k = 1..39, the tool holding two `D39`s) compiled
//! by `build.rs`. The generated types box their shared fields (else `FanOut` would be 2⁴⁰
//! times the size of `D0`), and the model of the generated type names each shared type once
//! (else it would be 2⁴⁰ schemas).

use serde_json::{json, Value};
use toolgate::decode::Rule;
use toolgate::model::ToolModel;
use toolgate::{Constraint, Tool, ToolArg};
use toolgate_bfcl::goldens::{FanOut, D0, D39};

/// The arguments `{"l": {"r": ... {<bottom>} ...}}`, 40 levels deep.
fn deep_value(bottom: Value) -> Value {
    (0..40).rev().fold(bottom, |value, level| {
        let key = if level % 2 == 0 { "l" } else { "r" };
        json!({ key: value })
    })
}

#[test]
fn the_generated_types_stay_small() {
    // Two boxes each: the size of a level does not grow with the levels below it.
    assert_eq!(std::mem::size_of::<FanOut>(), std::mem::size_of::<D39>());
    assert!(std::mem::size_of::<FanOut>() <= 2 * std::mem::size_of::<usize>());
    assert!(std::mem::size_of::<D0>() <= 2 * std::mem::size_of::<i64>());
}

#[test]
fn the_generated_model_defines_each_shared_type_once() {
    let model = FanOut::model();
    assert_eq!(model.definitions().len(), 40);
    let schema = FanOut::json_schema();
    assert!(schema.len() < 41 * 300, "{} bytes", schema.len());
    let written: Value = serde_json::from_str(schema).unwrap();
    assert_eq!(
        written["properties"]["r"],
        json!({"$ref": "#/$defs/D39", "description": "The right half"})
    );
    // The source schema, read on the run-time road, has the same shape.
    let source = include_str!("../../schemas/shared_fan_out.json");
    let read = ToolModel::from_json_schema(source).unwrap();
    assert_eq!(read.definitions().len(), 40);
    assert_eq!(
        read.definitions().keys().collect::<Vec<_>>(),
        model.definitions().keys().collect::<Vec<_>>()
    );
}

#[test]
fn a_deep_value_decodes_and_a_deep_issue_is_hinted() {
    let decoded = FanOut::decode(&deep_value(json!({"count": "7"})).to_string()).unwrap();
    assert_eq!(decoded.repairs.len(), 1);
    assert_eq!(decoded.repairs[0].rule, Rule::StringToNumber);
    assert_eq!(
        decoded.value.to_json_value(),
        deep_value(json!({"count": 7}))
    );
    let rejected = FanOut::decode(&deep_value(json!({"count": 12})).to_string()).unwrap_err();
    let issue = &rejected.report.issues()[0];
    assert_eq!(issue.constraint, Constraint::Maximum);
    assert_eq!(issue.path.segments().len(), 41);
    assert_eq!(
        rejected.hint().fields[0].description.as_deref(),
        Some("How many")
    );
}

//! Hostile tool schemas on the run-time road: each case of the hostile-input review that a
//! schema from someone else's server can cause, refused when read (with its pointer) or
//! answered within bounded work.

use serde_json::json;
use toolgate::model::ToolModel;
use toolgate::DynamicTool;

fn refused(schema: &str) -> String {
    ToolModel::from_definition_text(schema)
        .expect_err("the schema must be refused")
        .to_string()
}

#[test]
fn definitions_that_refer_back_to_themselves_without_a_value_are_refused() {
    // F2: a union whose alternative is itself; mutual unions; F22: a bare reference to itself.
    let cases = [
        (
            r##"{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"integer"}]}}}"##,
            "A → A",
        ),
        (
            r##"{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"$defs":{"A":{"oneOf":[{"$ref":"#/$defs/B"},{"type":"string"}]},"B":{"oneOf":[{"$ref":"#/$defs/A"},{"type":"integer"}]}}}"##,
            "A → B → A",
        ),
        (
            r##"{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/A"}}}"##,
            "A → A",
        ),
    ];
    for (schema, cycle) in cases {
        let message = refused(schema);
        assert!(message.starts_with("/$defs/A: "), "{message}");
        assert!(message.contains(cycle), "{message}");
    }
    // Recursion through an object or an array reads a smaller value each time: fine.
    let tree = r##"{"type":"object","properties":{"x":{"$ref":"#/$defs/T"}},"$defs":{"T":{"anyOf":[{"type":"integer"},{"type":"array","items":{"$ref":"#/$defs/T"}}]}}}"##;
    let tool = DynamicTool::from_model(ToolModel::from_definition_text(tree).unwrap());
    assert_eq!(
        tool.decode(r#"{"x": [1, [2, [3]]]}"#).unwrap().value,
        json!({"x": [1, [2, [3]]]})
    );
}

#[test]
fn shared_definitions_fanning_out_forty_levels_are_read_once() {
    // F3 on the run-time road: D_k = {l: D_k-1, r: D_k-1}; a value 40 levels deep.
    let mut defs = serde_json::Map::new();
    defs.insert("D0".into(), json!({"type": "integer"}));
    for k in 1..=40 {
        let below = format!("#/$defs/D{}", k - 1);
        defs.insert(
            format!("D{k}"),
            json!({"type": "object", "properties": {"l": {"$ref": below}, "r": {"$ref": below}}}),
        );
    }
    let schema =
        json!({"type": "object", "properties": {"x": {"$ref": "#/$defs/D40"}}, "$defs": defs});
    let model = ToolModel::from_definition(&schema).unwrap();
    assert!(model.json_schema().len() < 10_000);
    let tool = DynamicTool::from_model(model);
    // 2^40 leaves could not be sent; one branch walks the 40 levels.
    let mut one_branch = json!(1);
    for _ in 0..40 {
        one_branch = json!({"l": one_branch});
    }
    let decoded = tool.decode_value(&json!({ "x": one_branch })).unwrap();
    assert!(decoded.value["x"]["l"]["l"]["l"].is_object());
}

#[test]
fn multiple_of_must_be_greater_than_zero() {
    // F21.
    for divisor in ["0", "-1"] {
        let schema = format!(
            r#"{{"type":"object","properties":{{"n":{{"type":"integer","multipleOf":{divisor}}}}}}}"#
        );
        let message = refused(&schema);
        assert!(message.contains("/properties/n/multipleOf"), "{message}");
        assert!(message.contains("greater than 0"), "{message}");
    }
}

#[test]
fn a_schema_nested_too_deeply_says_so() {
    // F23: not "not JSON".
    let deep = format!(
        r#"{{"type":"object","properties":{{"x":{}{{}}{}}}}}"#,
        r#"{"type":"array","items":"#.repeat(200),
        "}".repeat(200)
    );
    let message = refused(&deep);
    assert!(message.contains("nests more than"), "{message}");
}

use super::*;

fn errors(text: &str) -> Vec<String> {
    ToolModel::from_json_schema(text)
        .unwrap_err()
        .0
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn every_unusable_keyword_is_named_with_its_pointer() {
    let found = errors(
        r##"{"type": "object", "properties": {
            "a": {"type": "string", "minProperties": 1},
            "b": {"type": "integer", "format": "int7"},
            "c": {"type": "string", "pattern": "(x"},
            "d": {"$ref": "#/$defs/Missing"},
            "e": {"not": {}}
        }, "required": ["zz"]}"##,
    );
    assert_eq!(
        found,
        [
            "/properties/a/minProperties: keyword `minProperties` is not supported here",
            "/properties/b/format: unknown integer format \"int7\"",
            "/properties/c/pattern: the pattern does not compile: regex parse error:\n    (x\n    ^\nerror: unclosed group",
            "/properties/e/not: keyword `not` is not supported here",
            "/required/0: `required` names a property that `properties` does not declare",
            "/properties/d/$ref: `$ref` to \"Missing\", which `$defs` does not hold",
        ]
    );
}

#[test]
fn reads_nullable_forms() {
    let model = ToolModel::from_json_schema(
        r#"{"type": "object", "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "c": {"enum": ["x", null]}
        }}"#,
    )
    .unwrap();
    let Kind::Object(object) = &model.input().kind else {
        panic!()
    };
    assert!(object.fields.iter().all(|f| f.schema.nullable));
    assert_eq!(object.fields[1].schema.kind.type_name(), Some("integer"));
}

#[test]
fn refuses_non_objects_and_bad_text() {
    assert_eq!(
        errors(r#"{"type": "string"}"#),
        ["(root): the arguments of a tool must be an object (`\"type\": \"object\"`)"]
    );
    assert!(errors("{")
        .iter()
        .all(|e| e.starts_with("(root): not JSON")));
    assert_eq!(
        errors(r#"{"type": "object", "type": "object"}"#),
        ["/type: `type` appears twice"]
    );
    assert_eq!(
        errors(r#"{"type": "object", "x-custom": 1}"#),
        ["/x-custom: keyword `x-custom` is not supported here"]
    );
}

#[test]
fn keeps_the_const_of_a_folded_alternative() {
    let text = r#"{"type": "object", "properties": {"a": {"anyOf": [{"const": 1}], "const": 2}}}"#;
    assert_eq!(
        errors(text),
        ["/properties/a/const: `const` contradicts the `const` of the one alternative"]
    );
    let same = r#"{"type": "object", "properties": {"a": {"anyOf": [{"const": 1}], "const": 1}}}"#;
    assert!(ToolModel::from_json_schema(same).is_ok());
}

#[test]
fn integer_and_float_widths_bound_values() {
    let model = ToolModel::from_json_schema(r#"{"type": "object", "properties": {"a": {"type": "integer", "format": "int32"}, "b": {"type": "number", "format": "float"}}}"#).unwrap();
    let tool = crate::DynamicTool::from_model(model);
    let rejected = tool
        .decode(r#"{"a": 1099511627776, "b": 1e39}"#)
        .unwrap_err();
    let found: Vec<String> = rejected
        .report
        .iter()
        .map(|i| format!("{} {}", i.path, i.constraint))
        .collect();
    assert_eq!(found, ["a maximum", "b maximum"]);
}

#[test]
fn a_type_list_holding_any_allows_any_value() {
    let model = ToolModel::from_definition_text(
        r#"{"type": "dict", "properties": {"a": {"type": ["string", "any"]}}}"#,
    )
    .unwrap();
    let tool = crate::DynamicTool::from_model(model);
    assert!(tool.decode(r#"{"a": 5}"#).is_ok());
}

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

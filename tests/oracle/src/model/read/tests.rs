use super::*;

/// The errors of a schema the reader refuses, as written.
pub(super) fn errors(text: &str) -> Vec<String> {
    ToolModel::from_json_schema(text)
        .unwrap_err()
        .0
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Whether `value` fits the model's arguments.
pub(super) fn accepts(model: &ToolModel, value: serde_json::Value) -> bool {
    model.check_against(model.input(), &value).is_ok()
}

#[test]
fn every_unusable_keyword_is_named_with_its_pointer() {
    let found = errors(
        r##"{"type": "object", "properties": {
            "a": {"type": "object", "minProperties": 1},
            "b": {"type": "integer", "format": "int7"},
            "c": {"type": "string", "pattern": "(x"},
            "d": {"$ref": "#/$defs/Missing"},
            "e": {"not": {"type": "string"}}
        }}"##,
    );
    assert_eq!(
        found,
        [
            "/properties/a/minProperties: keyword `minProperties` is not supported here",
            "/properties/b/format: unknown integer format \"int7\"",
            "/properties/c/pattern: the pattern \"(x\" cannot be used: unclosed group `(` (at character 1)",
            "/properties/e/not: `not` is supported only as `{}` (no value allowed)",
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
        ["(root): the arguments of a tool must be an object (`\"type\": \"object\"`), or a union of objects"]
    );
    assert!(errors("{")
        .iter()
        .all(|e| e.starts_with("(root): not JSON")));
    assert_eq!(
        errors(r#"{"type": "object", "type": "object"}"#),
        ["/type: `type` appears twice"]
    );
    assert_eq!(
        errors(r#"{"type": "object", "if": {"required": ["a"]}}"#),
        ["/if: keyword `if` is not supported here"]
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

/// Reads `schema` (any value's), checks `value` against it: `true` when valid.
fn valid(schema: &str, value: serde_json::Value) -> bool {
    let json: Json = serde_json::from_str(schema).unwrap();
    let model = read_value_schema(&json).unwrap();
    // What the reader built writes back to a schema that reads to the same model.
    let again = read_value_schema(&serde_json::from_str(model.json_schema()).unwrap()).unwrap();
    assert_eq!(again, model, "{}", model.json_schema());
    model.check_against(model.input(), &value).is_ok()
}

#[test]
fn a_type_list_is_a_union_with_each_types_keywords() {
    let schema = r#"{"type": ["string", "integer", "null"], "minLength": 2, "minimum": 10}"#;
    assert!(valid(schema, serde_json::json!("ab")));
    assert!(valid(schema, serde_json::json!(10)));
    assert!(valid(schema, serde_json::json!(null)));
    assert!(!valid(schema, serde_json::json!("a")));
    assert!(!valid(schema, serde_json::json!(9)));
    assert!(!valid(schema, serde_json::json!(true)));
}

#[test]
fn keywords_without_a_type_constrain_only_their_type() {
    let schema = r#"{"minimum": 1, "required": ["a"]}"#;
    assert!(valid(schema, serde_json::json!("x")));
    assert!(valid(schema, serde_json::json!(null)));
    assert!(valid(schema, serde_json::json!({"a": [1]})));
    assert!(!valid(schema, serde_json::json!(0)));
    assert!(!valid(schema, serde_json::json!({"b": 1})));
    let json: Json = serde_json::from_str(r#"{"format": "email"}"#).unwrap();
    assert_eq!(
        read_value_schema(&json).unwrap_err().to_string(),
        "/format: `format` without a `type` is not supported"
    );
}

#[test]
fn the_false_schema_and_not_anything_allow_nothing() {
    for schema in ["false", r#"{"not": {}}"#, r#"{"not": true}"#] {
        assert!(!valid(schema, serde_json::json!(null)), "{schema}");
        assert!(!valid(schema, serde_json::json!(1)), "{schema}");
    }
}

#[test]
fn all_of_is_merged_where_exact_and_refused_elsewhere() {
    let schema = r#"{"type": "object", "description": "outer",
        "allOf": [{"properties": {"a": {"type": "integer"}}, "required": ["a"]},
                  {"properties": {"b": {"type": "string"}}, "required": ["b"], "description": "inner"}]}"#;
    assert!(valid(schema, serde_json::json!({"a": 1, "b": "x"})));
    assert!(!valid(schema, serde_json::json!({"a": 1})));
    let json: Json = serde_json::from_str(schema).unwrap();
    assert_eq!(
        read_value_schema(&json).unwrap().description(),
        Some("outer")
    );
    assert!(!valid(r#"{"allOf": [true, false]}"#, serde_json::json!(1)));
    for (refused, reason) in [
        (
            r#"{"allOf": [{"minimum": 1}, {"minimum": 2}]}"#,
            "different values",
        ),
        (
            r#"{"allOf": [{"properties": {"a": {}}, "additionalProperties": false}, {"properties": {"b": {}}}]}"#,
            "additionalProperties",
        ),
        (
            r#"{"allOf": [{"properties": {"a": {"type": "string"}}}, {"properties": {"a": {"minLength": 1}}}]}"#,
            "differently",
        ),
    ] {
        let json: Json = serde_json::from_str(refused).unwrap();
        let error = read_value_schema(&json).unwrap_err().to_string();
        assert!(
            error.starts_with("/allOf: ") && error.contains(reason),
            "{error}"
        );
    }
}

#[test]
fn constraints_beside_a_union_hold_in_every_alternative() {
    let schema = r#"{"type": "string", "description": "d",
        "oneOf": [{"maxLength": 2}, {"minLength": 4}]}"#;
    assert!(valid(schema, serde_json::json!("ab")));
    assert!(valid(schema, serde_json::json!("abcd")));
    assert!(!valid(schema, serde_json::json!("abc")));
    assert!(!valid(schema, serde_json::json!(1)));
}

#[test]
fn references_are_percent_decoded_and_written_escaped() {
    let schema = r##"{"$defs": {"a%b/c": {"type": "integer"}}, "$ref": "#/$defs/a%25b~1c"}"##;
    assert!(valid(schema, serde_json::json!(1)));
    assert!(!valid(schema, serde_json::json!("1")));
    assert_eq!(percent_decode("x%2"), "x%2");
    assert_eq!(percent_decode("%e2%82%ac"), "€");
}

#[test]
fn a_required_name_without_a_property_must_be_present() {
    assert!(valid(
        r#"{"type": "object", "required": ["a"]}"#,
        serde_json::json!({"a": null})
    ));
    assert!(!valid(
        r#"{"type": "object", "required": ["a"]}"#,
        serde_json::json!({})
    ));
}

#[test]
fn enum_values_count_only_where_type_allows_them() {
    assert!(!valid(
        r#"{"type": "string", "enum": ["a", null]}"#,
        serde_json::json!(null)
    ));
    assert!(!valid(
        r#"{"type": ["string", "null"], "enum": ["a"]}"#,
        serde_json::json!(null)
    ));
    assert!(valid(
        r#"{"type": ["string", "null"], "enum": ["a", null]}"#,
        serde_json::json!(null)
    ));
    // Only the values `type` allows count (the others are reported: see `keywords_tests`).
    assert!(valid(
        r#"{"type": "string", "enum": ["a", 1]}"#,
        serde_json::json!("a")
    ));
    assert!(!valid(
        r#"{"type": "string", "enum": ["a", 1]}"#,
        serde_json::json!(1)
    ));
}

#[test]
fn a_nullable_false_schema_is_null_and_writes_back_so() {
    // Found by the read_schema_references fuzz target (R3): the null was lost on writing.
    let schema = r#"{"type":"object","properties":{"x":{"anyOf":[false,{"type":"null"}]}},"required":["x"]}"#;
    let model = ToolModel::from_definition_text(schema).unwrap();
    let back = ToolModel::from_json_schema(model.json_schema()).unwrap();
    assert_eq!(back, model);
    assert!(
        model.json_schema().contains(r#""x":{"type":"null"}"#),
        "{}",
        model.json_schema()
    );
}

/// Cloudflare's generated MCP tools (`purge_cache`: one shape per way to purge) take one of
/// several object shapes: `{"type": "object", "anyOf": [{...}, {...}], "properties": ...}`.
#[test]
fn a_root_union_of_objects_is_a_tool() {
    let model = ToolModel::from_json_schema(
        r#"{"type": "object", "anyOf": [
            {"type": "object", "properties": {"zone_id": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["zone_id"]},
            {"type": "object", "properties": {"zone_id": {"type": "string"}, "purge_everything": {"type": "boolean"}}, "required": ["zone_id"]}],
          "properties": {"jq_filter": {"type": "string"}}}"#,
    )
    .unwrap();
    let Kind::Union(union) = &model.input().kind else {
        panic!("{:?}", model.input().kind)
    };
    assert_eq!(union.variants.len(), 2);
    let check = |value| model.check_against(model.input(), &value).is_ok();
    assert!(check(serde_json::json!({"zone_id": "z", "jq_filter": "."})));
    assert!(!check(serde_json::json!({"jq_filter": "."})));
    assert!(!check(serde_json::json!({"zone_id": "z", "jq_filter": 1})));
    // A shape that is not an object is still refused.
    assert!(
        ToolModel::from_json_schema(r#"{"anyOf": [{"type": "object"}, {"type": "string"}]}"#)
            .is_err()
    );
}

#[path = "keywords_tests.rs"]
mod keywords_tests;

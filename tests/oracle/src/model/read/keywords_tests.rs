//! Issue 11 §0: one odd keyword must not take down a tool. Each test names the real-world
//! shape it comes from (tools-dev: public MCP servers and API SDKs).

use super::*;
use serde_json::json;

fn read(text: &str) -> ToolModel {
    ToolModel::from_definition_text(text).unwrap()
}

fn warnings(model: &ToolModel) -> Vec<(String, WarningKind)> {
    model
        .schema_warnings()
        .iter()
        .map(|w| (w.pointer.clone(), w.kind))
        .collect()
}

#[test]
fn openapi_discriminator_is_ignored_and_reported() {
    // pydantic / OpenAPI write `discriminator` beside a `oneOf` of tagged objects.
    let model = read(
        r#"{"type": "object", "properties": {"shape": {
            "oneOf": [
                {"type": "object", "properties": {"kind": {"const": "circle"}, "r": {"type": "number"}}, "required": ["kind"]},
                {"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind"]}
            ],
            "discriminator": {"propertyName": "kind"}
        }}}"#,
    );
    assert_eq!(
        warnings(&model),
        [(
            "/properties/shape/discriminator".to_owned(),
            WarningKind::UnknownKeyword
        )]
    );
    assert_eq!(
        model.schema_warnings()[0].to_string(),
        "/properties/shape/discriminator: keyword `discriminator` is not JSON Schema: ignored"
    );
    assert!(accepts(
        &model,
        json!({"shape": {"kind": "circle", "r": 1}})
    ));
    assert!(!accepts(
        &model,
        json!({"shape": {"kind": "circle", "r": "x"}})
    ));
    // Dropped from the model: not written back.
    assert!(!model.json_schema().contains("discriminator"));
}

#[test]
fn a_typo_and_vendor_keywords_are_ignored_and_reported() {
    // A tools-dev schema writes `"types": "string"` for `type`; vendors write `x-order`.
    let model = read(
        r#"{"type": "object", "x-order": ["a"], "properties": {
            "a": {"type": "string", "types": "string", "maxLength": 3}
        }}"#,
    );
    assert_eq!(
        warnings(&model),
        [
            (
                "/properties/a/types".to_owned(),
                WarningKind::UnknownKeyword
            ),
            ("/x-order".to_owned(), WarningKind::UnknownKeyword),
        ]
    );
    // The keywords beside it still hold.
    assert!(!accepts(&model, json!({"a": "long"})));
    assert!(model.clone().deny_warnings().is_err());
}

#[test]
fn annotations_are_kept_and_written_back_without_warnings() {
    // MCP servers (zod-to-json-schema, pydantic) write titles on every property, `examples`,
    // `deprecated`, `readOnly`, `$comment`, and `contentMediaType` on encoded text.
    let text = r#"{"type": "object", "properties": {
        "query": {"type": "string", "title": "Query", "examples": ["cats"], "$comment": "free text",
                  "deprecated": true, "readOnly": false, "writeOnly": true},
        "image": {"type": "string", "contentMediaType": "image/png", "contentEncoding": "base64"}
    }}"#;
    let model = read(text);
    assert!(model.schema_warnings().is_empty());
    let Kind::Object(object) = &model.input().kind else {
        panic!("an object")
    };
    let keys: Vec<&str> = object.fields[0]
        .schema
        .annotations
        .iter()
        .map(|(key, _)| key.as_str())
        .collect();
    assert_eq!(
        keys,
        ["title", "$comment", "deprecated", "readOnly", "writeOnly"]
    );
    let written = model.json_schema();
    assert!(written.contains(r#""title":"Query","$comment":"free text","deprecated":true"#));
    assert!(written.contains(r#""contentMediaType":"image/png","contentEncoding":"base64""#));
    assert_eq!(ToolModel::from_json_schema(written).unwrap(), model);
}

#[test]
fn an_unknown_string_format_is_an_annotation() {
    // `"format": "json"` (a tools-dev tool: a string holding JSON text), `"textarea"` (UI hint).
    let model = read(
        r#"{"type": "object", "properties": {"body": {"type": "string", "format": "json"},
            "note": {"type": ["string", "null"], "format": "textarea"}}}"#,
    );
    assert_eq!(
        warnings(&model),
        [
            (
                "/properties/body/format".to_owned(),
                WarningKind::UnknownFormat
            ),
            (
                "/properties/note/format".to_owned(),
                WarningKind::UnknownFormat
            ),
        ]
    );
    assert!(accepts(
        &model,
        json!({"body": "not json at all", "note": null})
    ));
    let written = model.json_schema();
    assert!(
        written.contains(r#""body":{"type":"string","format":"json"}"#),
        "{written}"
    );
    assert_eq!(ToolModel::from_json_schema(written).unwrap(), model);
}

#[test]
fn unknown_number_formats_are_annotations_but_unknown_widths_are_errors() {
    // OpenAPI SDKs write `"format": "currency"` or `"decimal"` on numbers.
    let model = read(
        r#"{"type": "object", "properties": {"price": {"type": "number", "format": "decimal"},
            "at": {"type": "integer", "format": "unix-time", "minimum": 0}}}"#,
    );
    assert_eq!(model.schema_warnings().len(), 2);
    assert!(!accepts(&model, json!({"at": -1})));
    assert_eq!(
        ToolModel::from_json_schema(model.json_schema()).unwrap(),
        model
    );
    let errors = ToolModel::from_json_schema(
        r#"{"type": "object", "properties": {"n": {"type": "integer", "format": "uint12"}}}"#,
    )
    .unwrap_err();
    assert_eq!(errors.0[0].pointer, "/properties/n/format");
}

#[test]
fn cloudflare_type_string_enum_of_bools_refuses_only_that_field() {
    // Cloudflare's generated schemas: `{"type": "string", "enum": [true, false]}` (13 tools).
    let model = read(
        r#"{"type": "object", "properties": {
            "zone": {"type": "string"},
            "proxied": {"type": "string", "enum": [true, false], "description": "Proxy it"}
        }, "required": ["zone"]}"#,
    );
    assert_eq!(
        warnings(&model),
        [(
            "/properties/proxied/enum".to_owned(),
            WarningKind::Contradiction
        )]
    );
    assert!(model.schema_warnings()[0]
        .message
        .contains("`type` string contradicts the `enum` values true, false"));
    assert!(accepts(&model, json!({"zone": "a.com"})));
    for sent in [json!(true), json!("true"), json!(1)] {
        let report = model
            .check_against(model.input(), &json!({"zone": "a.com", "proxied": sent}))
            .unwrap_err();
        let issue = &report.issues()[0];
        assert_eq!(issue.path.to_string(), "proxied");
        assert_eq!(issue.constraint, crate::Constraint::Enum);
        assert!(
            issue.message.contains("allows no value here"),
            "{}",
            issue.message
        );
    }
    // Written back as the empty `enum`, which reads to the same model.
    assert!(model.json_schema().contains(r#""proxied":{"enum":[]"#));
    assert_eq!(
        ToolModel::from_json_schema(model.json_schema()).unwrap(),
        model
    );
}

#[test]
fn a_partly_contradicting_enum_keeps_the_values_that_fit() {
    let model =
        read(r#"{"type": "object", "properties": {"mode": {"type": "string", "enum": ["a", 1]}}}"#);
    assert!(model.schema_warnings()[0]
        .message
        .contains("only the other values are accepted"));
    assert!(accepts(&model, json!({"mode": "a"})));
    assert!(!accepts(&model, json!({"mode": 1})));
}

#[test]
fn keywords_of_other_types_constrain_nothing() {
    // `{"type": "integer", "maxLength": 10}`: generated from a form where every field has a
    // length; JSON Schema applies `maxLength` to strings only.
    let model =
        read(r#"{"type": "object", "properties": {"n": {"type": "integer", "maxLength": 10}}}"#);
    assert_eq!(
        warnings(&model),
        [(
            "/properties/n/maxLength".to_owned(),
            WarningKind::Inapplicable
        )]
    );
    assert!(accepts(&model, json!({"n": 12345678901_i64})));
    // A known constraint that applies and that the model does not hold stays an error.
    assert!(ToolModel::from_json_schema(
        r#"{"type": "object", "properties": {"o": {"type": "object", "maxProperties": 1}}}"#
    )
    .is_err());
    assert!(ToolModel::from_json_schema(
        r#"{"type": "object", "properties": {"o": {"enum": ["ab", 5], "minimum": 6}}}"#
    )
    .is_err());
}

#[test]
fn allof_members_may_disagree_on_annotations_and_unknown_keywords() {
    // pydantic writes `title` on both the reference target and its use.
    let model = read(
        r#"{"type": "object", "properties": {"a": {"allOf": [
            {"type": "string", "title": "A", "x-origin": 1},
            {"maxLength": 2, "title": "Other", "x-origin": 2}
        ]}}}"#,
    );
    assert!(!accepts(&model, json!({"a": "abc"})));
    assert_eq!(model.schema_warnings().len(), 1);
}

#[test]
fn an_unknown_keyword_beside_a_union_is_reported_once() {
    let model = read(
        r#"{"type": "object", "properties": {"a": {"type": "string", "x-ui": "select",
            "anyOf": [{"maxLength": 1}, {"minLength": 3}]}}}"#,
    );
    assert_eq!(
        warnings(&model),
        [("/properties/a/x-ui".to_owned(), WarningKind::UnknownKeyword)]
    );
}

#[test]
fn a_schema_of_many_unknown_keywords_is_read_with_a_capped_report() {
    // Hostile: 50,000 unknown keywords. The report keeps 100, then one counting the rest.
    let members: Vec<String> = (0..50_000).map(|n| format!("\"k{n}\": {n}")).collect();
    let text = format!(r#"{{"type": "object", {}}}"#, members.join(", "));
    let started = std::time::Instant::now();
    let model = read(&text);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let warnings = model.schema_warnings();
    assert_eq!(warnings.len(), keywords::MAX_WARNINGS + 1);
    assert_eq!(warnings[keywords::MAX_WARNINGS].kind, WarningKind::Limit);
    assert!(warnings[keywords::MAX_WARNINGS]
        .message
        .starts_with("49900 more warnings"));
}

#[test]
fn posthog_property_names_enum_limits_the_keys_of_a_map() {
    // PostHog's survey tools: `responseValues` keys limited to a response scale.
    let model = read(
        r#"{"type": "object", "properties": {"responseValues": {"type": "object",
            "additionalProperties": {"type": "number"},
            "propertyNames": {"enum": ["negative", "neutral", "positive"]}}}}"#,
    );
    assert!(model.schema_warnings().is_empty());
    assert!(accepts(
        &model,
        json!({"responseValues": {"negative": 1, "positive": 2}})
    ));
    let report = model
        .check_against(
            model.input(),
            &json!({"responseValues": {"bad": 1, "neutral": "x"}}),
        )
        .unwrap_err();
    let found: Vec<(String, &str)> = report
        .issues()
        .iter()
        .map(|i| (i.path.to_string(), i.constraint.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("responseValues.bad".to_owned(), "propertyNames"),
            ("responseValues.neutral".to_owned(), "type"),
        ]
    );
    let issue = &report.issues()[0];
    assert!(
        issue
            .message
            .starts_with(r#"the key "bad" is not allowed: "bad" is not one of"#),
        "{}",
        issue.message
    );
    assert_eq!(issue.got, Some(json!("bad")));
    assert_eq!(
        issue.expected,
        Some(json!(["negative", "neutral", "positive"]))
    );
    // Written back with a `type` (keys are strings), read back to the same model.
    let written = model.json_schema();
    assert!(written
        .contains(r#""propertyNames":{"type":"string","enum":["negative","neutral","positive"]}"#));
    assert_eq!(ToolModel::from_json_schema(written).unwrap(), model);
}

#[test]
fn mongodb_property_names_of_type_string_constrain_nothing() {
    // MongoDB's MCP `find`: `sort` is `{"type": "object", "propertyNames": {"type": "string"}}`.
    let model = read(
        r#"{"type": "object", "properties": {"sort": {"type": "object",
            "propertyNames": {"type": "string", "description": "The field name"},
            "additionalProperties": {"enum": [1, -1]}}}}"#,
    );
    assert!(model.schema_warnings().is_empty());
    let Kind::Object(object) = &model.input().kind else {
        panic!("an object")
    };
    let Kind::Map(map) = &object.fields[0].schema.kind else {
        panic!("a map")
    };
    assert_eq!(map.property_names, None);
    assert!(accepts(&model, json!({"sort": {"name": 1}})));
}

#[test]
fn property_names_hold_for_declared_and_other_keys_of_an_object() {
    // As the JSON-Schema-Test-Suite's `propertyNames` file has it: no `type` on the key
    // schema, `false` for no key at all, and every key of the object checked.
    let model = read(
        r#"{"type": "object", "properties": {"banana": {"type": "string"}},
            "propertyNames": {"pattern": "^[a-b]", "maxLength": 6}}"#,
    );
    assert!(accepts(&model, json!({"banana": "x", "apple": 4})));
    assert!(!accepts(&model, json!({"banana": "x", "avocado": 1})));
    assert!(!accepts(&model, json!({"cherry": 1})));
    let none = read(r#"{"type": "object", "propertyNames": false}"#);
    assert!(accepts(&none, json!({})));
    assert!(!accepts(&none, json!({"a": 1})));
    let untyped =
        read_value_schema(&serde_json::from_str(r#"{"propertyNames": {"maxLength": 3}}"#).unwrap())
            .unwrap();
    assert!(untyped
        .check_against(untyped.input(), &json!({"foo": 1}))
        .is_ok());
    assert!(untyped
        .check_against(untyped.input(), &json!({"food": 1}))
        .is_err());
    assert!(untyped
        .check_against(untyped.input(), &json!("food"))
        .is_ok());
}

//! Issue 11 §0 on the schema compiler's road: `tests/schemas/real_keywords.json` (shapes of
//! Cloudflare's, PostHog's and MongoDB's MCP schemas, and odd keywords of real schemas)
//! compiled by `build.rs`. The generated types and `DynamicTool` on the same schema agree:
//! the same values accepted, the same issues for the rest.

use serde_json::Value;
use toolgate::model::Json;
use toolgate::{DynamicTool, Tool};
use toolgate_bfcl::goldens::{DnsRecordCreate, RenderPayload, SurveyBranching};
use toolgate_core::model::read::{read_parts, unwrap_definition};

/// The tool of that name in the golden file, on the run-time road.
fn dynamic(name: &str) -> DynamicTool {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/real_keywords.json");
    let text = std::fs::read_to_string(path).unwrap();
    let Json::Array(definitions) = serde_json::from_str::<Json>(&text).unwrap() else {
        panic!("an array of tools")
    };
    for definition in definitions {
        let parts = unwrap_definition(definition);
        if parts.name.as_deref() == Some(name) {
            let model = read_parts(parts.name, parts.description, parts.schema).unwrap();
            return DynamicTool::from_model(model);
        }
    }
    panic!("no tool {name}")
}

/// `(path, constraint)` of each issue, or `ok` with the value.
fn outcome<T: Tool + serde::de::DeserializeOwned>(
    arguments: &str,
) -> Result<Value, Vec<(String, String)>> {
    match T::decode(arguments) {
        Ok(decoded) => Ok(numbers_as_floats(decoded.value.to_json_value())),
        Err(rejected) => Err(pairs(rejected.report.issues())),
    }
}

fn dynamic_outcome(tool: &DynamicTool, arguments: &str) -> Result<Value, Vec<(String, String)>> {
    match tool.decode(arguments) {
        Ok(decoded) => Ok(numbers_as_floats(decoded.value)),
        Err(rejected) => Err(pairs(rejected.report.issues())),
    }
}

/// Every number as a float: a generated `f64` field writes `1.0` where the run-time road
/// keeps the `1` that was sent.
fn numbers_as_floats(value: Value) -> Value {
    match value {
        Value::Number(n) => n
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Number(n), Value::Number),
        Value::Array(items) => Value::Array(items.into_iter().map(numbers_as_floats).collect()),
        Value::Object(members) => Value::Object(
            members
                .into_iter()
                .map(|(k, v)| (k, numbers_as_floats(v)))
                .collect(),
        ),
        other => other,
    }
}

fn pairs(issues: &[toolgate::Issue]) -> Vec<(String, String)> {
    issues
        .iter()
        .map(|i| (i.path.to_string(), i.constraint.as_str().to_owned()))
        .collect()
}

#[test]
fn cloudflare_contradiction_refuses_the_field_on_both_roads() {
    let tool = dynamic("dns_record_create");
    assert_eq!(tool.model().schema_warnings().len(), 1);
    for arguments in [
        r#"{"zone_id": "z1", "name": "www.example.com", "proxied": true}"#,
        r#"{"zone_id": "z1", "name": "www.example.com", "proxied": "true"}"#,
        r#"{"zone_id": "z1", "name": "www.example.com", "proxied": false, "ttl": 0}"#,
    ] {
        let typed = outcome::<DnsRecordCreate>(arguments);
        assert_eq!(typed, dynamic_outcome(&tool, arguments), "{arguments}");
        assert!(typed
            .unwrap_err()
            .contains(&("proxied".to_owned(), "enum".to_owned())));
    }
    let arguments = r#"{"zone_id": "z1", "name": "www.example.com", "ttl": 300}"#;
    assert!(outcome::<DnsRecordCreate>(arguments).is_ok());
    assert_eq!(
        outcome::<DnsRecordCreate>(arguments),
        dynamic_outcome(&tool, arguments)
    );
    let rejected =
        DnsRecordCreate::decode(r#"{"zone_id": "z", "name": "n", "proxied": true}"#).unwrap_err();
    assert!(rejected.report.issues()[0]
        .message
        .contains("the tool's schema allows no value here"));
}

#[test]
fn posthog_property_names_are_enforced_on_both_roads() {
    let tool = dynamic("survey_branching");
    for arguments in [
        r#"{"responseValues": {"negative": 1, "positive": "end"}}"#,
        r#"{"responseValues": {"great": 1}}"#,
        r#"{"responseValues": {}, "labels": {"Bad-Key": "x", "ok_key": "y"}}"#,
        r#"{"responseValues": {"neutral": 2}, "sort": {"name": 1, "age": -1}}"#,
        r#"{"responseValues": {"neutral": 2}, "labels": {"a_very_long_label_name_here": "x"}}"#,
    ] {
        assert_eq!(
            outcome::<SurveyBranching>(arguments),
            dynamic_outcome(&tool, arguments),
            "{arguments}"
        );
    }
    assert_eq!(
        outcome::<SurveyBranching>(r#"{"responseValues": {"great": 1}}"#),
        Err(vec![(
            "responseValues.great".to_owned(),
            "propertyNames".to_owned()
        )])
    );
    // `validate()` of a value built in Rust checks the keys too.
    let mut value = SurveyBranching::decode(r#"{"responseValues": {}}"#)
        .unwrap()
        .value;
    value.labels = Some([("Nope".to_owned(), "x".to_owned())].into());
    let report = value.validate().unwrap_err();
    assert_eq!(report.issues()[0].path.to_string(), "labels.Nope");
}

#[test]
fn odd_keywords_do_not_take_down_the_tool() {
    let tool = dynamic("render_payload");
    assert_eq!(tool.model().schema_warnings().len(), 4);
    for arguments in [
        r#"{"payload": "{\"a\": 1}", "note": "n", "shape": {"kind": "circle", "radius": 2}}"#,
        r#"{"payload": "not json", "shape": {"kind": "square", "side": "x"}}"#,
    ] {
        assert_eq!(
            outcome::<RenderPayload>(arguments),
            dynamic_outcome(&tool, arguments),
            "{arguments}"
        );
    }
}

use serde_json::json;

use super::*;

fn model(schema: Value) -> ToolModel {
    ToolModel::from_json_schema(&schema.to_string()).expect("a usable schema")
}

#[test]
fn the_flavours_that_take_every_keyword_keep_the_schema_and_drop_nothing() {
    let tool = model(
        json!({"title": "t", "type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}}),
    );
    for flavour in [
        Flavour::JsonSchema,
        Flavour::Mcp,
        Flavour::OpenAi,
        Flavour::Anthropic,
    ] {
        let flavoured = tool.schema_for(flavour).unwrap();
        assert_eq!(flavoured.schema.to_string(), tool.json_schema());
        assert_eq!(
            serde_json::to_string(&flavoured.schema).unwrap(),
            tool.json_schema()
        );
        assert!(flavoured.dropped.is_empty());
        assert_eq!(flavoured.size.bytes, tool.json_schema().len());
        assert_eq!(flavoured.size.tokens, tool.json_schema().len().div_ceil(4));
    }
}

#[test]
fn a_root_union_of_objects_is_an_mcp_input_schema_but_not_a_strict_one() {
    let tool = model(json!({"title": "t", "type": "object", "anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}
    ]}));
    for flavour in [Flavour::Mcp, Flavour::OpenAi] {
        let flavoured = tool.schema_for(flavour).unwrap();
        let schema = flavoured.schema.to_value();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["anyOf"].as_array().unwrap().len(), 2);
        assert_eq!(flavoured.dropped.len(), 1);
        assert_eq!(flavoured.dropped[0].to_string(), "/ type rewritten");
    }
    let error = tool.schema_for(Flavour::Anthropic).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("anthropic cannot express a union at the root"),
        "{error}"
    );
    let error = tool.schema_for(Flavour::OpenAiStrict).unwrap_err();
    assert_eq!(
        error.to_string(),
        "t: openai-strict cannot express arguments that are not one object (no root anyOf) (at )"
    );
}

#[test]
fn strict_mode_closes_objects_requires_every_property_and_reports_each_change() {
    let tool = model(json!({
        "title": "t", "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "examples": ["Ada"]},
            "count": {"type": "integer", "format": "uint8"},
            "kind": {"enum": ["a", "b"]},
            "shape": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "when": {"type": "string", "format": "uri"}
        },
        "required": ["name"]
    }));
    let strict = tool.schema_for(Flavour::OpenAiStrict).unwrap();
    let schema = &strict.schema.to_value();
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(
        schema["required"],
        json!(["count", "kind", "name", "shape", "when"])
    );
    assert_eq!(
        schema["properties"]["count"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(schema["properties"]["count"]["minimum"], 0);
    assert_eq!(schema["properties"]["count"]["maximum"], 255);
    assert_eq!(
        schema["properties"]["kind"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        schema["properties"]["kind"]["enum"],
        json!(["a", "b", null])
    );
    assert!(schema["properties"]["shape"].get("oneOf").is_none());
    assert_eq!(
        schema["properties"]["shape"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        schema["properties"]["when"]["description"],
        "(format: \"uri\")"
    );
    let report: Vec<String> = strict.dropped.iter().map(ToString::to_string).collect();
    for line in [
        "/properties/name minLength moved_to_description",
        "/properties/name examples removed",
        "/properties/count format rewritten",
        "/properties/shape oneOf rewritten",
        "/properties/when format moved_to_description",
        "/ additionalProperties rewritten",
        "/ required rewritten",
        "/ title removed",
    ] {
        assert!(
            report.iter().any(|l| l == line),
            "{line} not in {report:#?}"
        );
    }
    let without = tool.schema_for_with(Flavour::OpenAiStrict, false).unwrap();
    assert!(without.schema.to_value()["properties"]["when"]
        .get("description")
        .is_none());
    assert!(without
        .dropped
        .iter()
        .all(|d| d.action != Action::MovedToDescription));
}

#[test]
fn what_strict_mode_cannot_say_is_refused_with_its_path() {
    for (schema, what) in [
        (
            json!({"title": "t", "type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}),
            "/properties/m",
        ),
        (
            json!({"title": "t", "type": "object", "properties": {"any": {}}}),
            "/properties/any",
        ),
    ] {
        let error = model(schema).schema_for(Flavour::OpenAiStrict).unwrap_err();
        assert!(error.to_string().contains(what), "{error}");
    }
}

#[test]
fn strict_mode_limits_are_errors_naming_the_limit() {
    let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
    let tool =
        model(json!({"title": "t", "type": "object", "properties": {"e": {"enum": values}}}));
    let error = tool.schema_for(Flavour::OpenAiStrict).unwrap_err();
    assert_eq!(
        error.to_string(),
        "t: openai-strict allows at most 1000 enum values; the schema has 1001"
    );
    let mut deep = json!({"type": "string"});
    for _ in 0..11 {
        deep = json!({"type": "object", "properties": {"n": deep}});
    }
    deep["title"] = json!("t");
    let error = model(deep).schema_for(Flavour::OpenAiStrict).unwrap_err();
    assert!(error.to_string().contains("levels of nesting"), "{error}");
}

#[test]
fn flavour_names_read_back() {
    for flavour in Flavour::ALL {
        assert_eq!(flavour.name().parse::<Flavour>(), Ok(flavour));
    }
    assert!("gemini-3"
        .parse::<Flavour>()
        .unwrap_err()
        .contains("openai-strict, openai, anthropic, mcp, json-schema"));
}

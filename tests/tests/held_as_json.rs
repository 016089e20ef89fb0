//! Values held as JSON (`#[tool(schema = "...")]`, what the schema compiler writes where serde
//! cannot read a shape as a Rust type): typed decoding and `validate()` enforce every
//! constraint of the schema text, and give what `DynamicTool` gives on the same schema.

use serde_json::{json, Value};
use toolgate::model::ToolModel;
use toolgate::{DynamicTool, Tool};

/// Move a page (Notion's `API-move-page`: two parent shapes told apart by their keys only).
#[derive(Tool, Debug, serde::Serialize, serde::Deserialize)]
#[tool(name = "move_page")]
#[serde(deny_unknown_fields)]
struct MovePage {
    page_id: String,
    /// Held as JSON: two object shapes without a tag.
    #[tool(
        schema = r#"{"description":"The new parent.","anyOf":[{"type":"object","properties":{"page_id":{"type":"string","maxLength":36}},"required":["page_id"],"additionalProperties":false},{"type":"object","properties":{"database_id":{"type":"string","maxLength":36},"limit":{"type":"integer","maximum":9}},"required":["database_id"],"additionalProperties":false}]}"#
    )]
    parent: Value,
    /// Held as JSON: alternatives of one JSON type (a recursive definition included).
    #[serde(default)]
    #[tool(
        schema = r##"{"type":"array","maxItems":3,"items":{"$ref":"#/$defs/label"},"$defs":{"label":{"oneOf":[{"type":"string","minLength":2,"maxLength":8},{"type":"string","pattern":"^#[0-9]+$"}]}}}"##
    )]
    labels: Option<Value>,
}

/// Purge cached content (Cloudflare's `purge_cache`: a root union of object shapes).
#[derive(Tool, Debug, serde::Serialize, serde::Deserialize)]
#[tool(
    name = "purge_cache",
    schema = r#"{"anyOf":[{"type":"object","properties":{"zone_id":{"type":"string"},"tags":{"type":"array","items":{"type":"string"},"minItems":1}},"required":["zone_id","tags"]},{"type":"object","properties":{"zone_id":{"type":"string"},"files":{"type":"array","items":{"type":"string"},"maxItems":2},"purge_everything":{"type":"boolean","default":false}},"required":["zone_id","files"]}]}"#
)]
struct PurgeCache(Value);

fn dynamic<T: Tool>() -> DynamicTool {
    DynamicTool::from_model(ToolModel::from_json_schema(T::json_schema()).unwrap())
}

/// The typed and the dynamic road on `arguments`: the value (or the issues) and the repair
/// rules, which must agree.
fn both<T: Tool + serde::de::DeserializeOwned>(
    arguments: &str,
) -> Result<(Value, Vec<String>), String> {
    let typed = T::decode(arguments).map(|d| {
        let rules = d.repairs.iter().map(|r| r.rule.to_string()).collect();
        (toolgate::ToolArg::to_json_value(&d.value), rules)
    });
    let dynamic = dynamic::<T>().decode(arguments).map(|d| {
        let rules = d.repairs.iter().map(|r| r.rule.to_string()).collect();
        (d.value, rules)
    });
    match (typed, dynamic) {
        (Ok(typed), Ok(dynamic)) => {
            assert_eq!(typed, dynamic, "{arguments}");
            Ok(typed)
        }
        (Err(typed), Err(dynamic)) => {
            assert_eq!(
                typed.report.to_string(),
                dynamic.report.to_string(),
                "{arguments}"
            );
            Err(typed.report.to_string())
        }
        (typed, dynamic) => panic!("{arguments}: typed {typed:?}, dynamic {dynamic:?}"),
    }
}

#[test]
fn notion_parent_shapes_are_checked_inside_the_json_value() {
    let (value, rules) =
        both::<MovePage>(r#"{"page_id": "p", "parent": {"database_id": "d", "limit": "4"}}"#)
            .unwrap();
    assert_eq!(
        value,
        json!({"page_id": "p", "parent": {"database_id": "d", "limit": 4}})
    );
    assert_eq!(rules, ["string_to_number"]);
    let refused =
        both::<MovePage>(r#"{"page_id": "p", "parent": {"database_id": "d", "limit": 12}}"#)
            .unwrap_err();
    assert!(refused.contains("parent"), "{refused}");
    let refused = both::<MovePage>(
        r#"{"page_id": "p", "parent": {"page_id": "0123456789012345678901234567890123456789"}}"#,
    )
    .unwrap_err();
    assert!(refused.contains("parent"), "{refused}");
    let refused = both::<MovePage>(r#"{"page_id": "p", "parent": {"block_id": "b"}}"#).unwrap_err();
    assert!(refused.contains("parent"), "{refused}");
}

#[test]
fn a_union_of_strings_is_checked_inside_the_json_array() {
    let (value, _) = both::<MovePage>(
        r##"{"page_id": "p", "parent": {"page_id": "q"}, "labels": ["ab", "#123456789"]}"##,
    )
    .unwrap();
    assert_eq!(value["labels"], json!(["ab", "#123456789"]));
    // `"x"` is too short and does not match the pattern; four labels are too many.
    let refused =
        both::<MovePage>(r#"{"page_id": "p", "parent": {"page_id": "q"}, "labels": ["x"]}"#)
            .unwrap_err();
    assert!(refused.starts_with("labels[0]"), "{refused}");
    let refused = both::<MovePage>(
        r#"{"page_id": "p", "parent": {"page_id": "q"}, "labels": ["ab", "cd", "ef", "gh"]}"#,
    )
    .unwrap_err();
    assert!(
        refused.contains("maximum 3") || refused.contains("at most 3"),
        "{refused}"
    );
}

#[test]
fn validate_checks_a_json_value_the_code_built() {
    let fine = MovePage {
        page_id: "p".into(),
        parent: json!({"page_id": "q"}),
        labels: None,
    };
    assert!(fine.validate().is_ok());
    let wrong = MovePage {
        page_id: "p".into(),
        parent: json!({"database_id": "d", "limit": 10}),
        labels: Some(json!(["x", "#123456789"])),
    };
    let report = wrong.validate().unwrap_err();
    assert_eq!(report.len(), 2, "{report}");
    assert_eq!(
        report
            .to_string()
            .lines()
            .next()
            .map(|l| l.starts_with("parent")),
        Some(true),
        "{report}"
    );
}

#[test]
fn the_field_schema_is_the_text() {
    let schema: Value = serde_json::from_str(MovePage::json_schema()).unwrap();
    assert_eq!(
        schema["properties"]["parent"]["description"],
        "The new parent."
    );
    assert_eq!(
        schema["properties"]["parent"]["anyOf"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    assert_eq!(schema["properties"]["labels"]["maxItems"], 3);
    assert_eq!(schema["required"], json!(["page_id", "parent"]));
}

#[test]
fn cloudflare_purge_cache_is_a_tool_around_a_json_value() {
    assert_eq!(PurgeCache::name(), "purge_cache");
    let (value, rules) = both::<PurgeCache>(r#"{"zone_id": "z", "files": "[\"a\"]"}"#).unwrap();
    assert_eq!(
        value,
        json!({"zone_id": "z", "files": ["a"], "purge_everything": false})
    );
    assert!(rules.contains(&"json_string".to_owned()), "{rules:?}");
    let (value, _) = both::<PurgeCache>(r#"{"zone_id": "z", "tags": ["t"]}"#).unwrap();
    assert_eq!(value, json!({"zone_id": "z", "tags": ["t"]}));
    both::<PurgeCache>(r#"{"zone_id": "z", "files": ["a", "b", "c"]}"#).unwrap_err();
    both::<PurgeCache>(r#"{"tags": ["t"]}"#).unwrap_err();
    assert!(PurgeCache(json!({"zone_id": "z", "tags": []}))
        .validate()
        .is_err());
    assert!(PurgeCache(json!({"zone_id": "z", "tags": ["t"]}))
        .validate()
        .is_ok());
}

#[test]
fn repeated_keys_inside_a_json_value_are_refused_as_by_the_decoder() {
    // serde alone would keep the last `page_id`; the typed road reads a value held as JSON
    // through the decoder's rules.
    let refused =
        MovePage::decode(r#"{"page_id": "p", "parent": {"page_id": "a", "page_id": "b"}}"#);
    assert!(refused.is_err());
}

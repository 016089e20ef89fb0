//! `Nullable<T>` fields (issue 11 §4): an optional field that takes `null` keeps absent apart
//! from `null` on the typed road, reads and writes each as `DynamicTool` does, and is
//! checked like the `T` it holds. The shape is Playwright's `browser_emulate_media`, whose
//! members are all optional and nullable (`null` resets a setting, absent leaves it).

use serde_json::{json, Value};
use toolgate::model::ToolModel;
use toolgate::{DynamicTool, Nullable, Tool, ToolArg};

/// Emulate media features.
#[derive(Tool, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[tool(name = "browser_emulate_media")]
struct EmulateMedia {
    /// The media type.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    media: Nullable<Media>,
    /// The color scheme.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[tool(length(max = 5))]
    color_scheme: Nullable<String>,
    /// Anything, `null` included.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    extra: Nullable<Value>,
    /// Held as JSON with a schema that takes `null`.
    #[serde(default, skip_serializing_if = "Nullable::is_absent")]
    #[tool(schema = r#"{"type": ["integer", "null"], "maximum": 3}"#)]
    level: Nullable<Value>,
}

#[derive(Tool, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum Media {
    Screen,
    Print,
}

fn dynamic() -> DynamicTool {
    DynamicTool::from_model(ToolModel::from_json_schema(EmulateMedia::json_schema()).unwrap())
}

/// Decodes on both roads, which must agree; the typed value and its JSON form.
fn decode(arguments: &str) -> Result<(EmulateMedia, Value), String> {
    let typed = EmulateMedia::decode(arguments);
    let dynamic = dynamic().decode(arguments);
    match (typed, dynamic) {
        (Ok(typed), Ok(dynamic)) => {
            let json = typed.value.to_json_value();
            assert_eq!(json, dynamic.value, "{arguments}");
            assert_eq!(serde_json::to_value(&typed.value).unwrap(), json);
            Ok((typed.value, json))
        }
        (Err(typed), Err(dynamic)) => {
            assert_eq!(typed.report.to_string(), dynamic.report.to_string());
            Err(typed.report.to_string())
        }
        (typed, dynamic) => panic!("{arguments}: typed {typed:?}, dynamic {dynamic:?}"),
    }
}

#[test]
fn absent_and_null_are_read_apart_and_written_back_as_they_came() {
    let (value, json) = decode("{}").unwrap();
    assert_eq!(value.media, Nullable::Absent);
    assert_eq!(value.extra, Nullable::Absent);
    assert_eq!(json, json!({}));

    let all_null = r#"{"media": null, "color_scheme": null, "extra": null, "level": null}"#;
    let (value, json) = decode(all_null).unwrap();
    assert_eq!(value.media, Nullable::Null);
    assert_eq!(value.color_scheme, Nullable::Null);
    assert_eq!(value.extra, Nullable::Null);
    assert_eq!(value.level, Nullable::Null);
    assert_eq!(json, serde_json::from_str::<Value>(all_null).unwrap());

    let (value, json) =
        decode(r#"{"media": "Print", "color_scheme": "dark", "extra": [null], "level": "2"}"#)
            .unwrap();
    assert_eq!(value.media, Nullable::Value(Media::Print));
    assert_eq!(value.color_scheme, Nullable::Value("dark".to_owned()));
    assert_eq!(value.level, Nullable::Value(json!(2)));
    assert_eq!(
        json,
        json!({"media": "print", "color_scheme": "dark", "extra": [null], "level": 2})
    );
}

#[test]
fn a_value_is_checked_like_the_type_it_holds() {
    let refused = decode(r#"{"color_scheme": "no-preference", "level": 4}"#).unwrap_err();
    assert!(refused.contains("color_scheme"), "{refused}");
    assert!(refused.contains("level"), "{refused}");
    let built = EmulateMedia {
        media: Nullable::Null,
        color_scheme: Nullable::Value("no-preference".to_owned()),
        extra: Nullable::Absent,
        level: Nullable::Value(json!(4)),
    };
    let issues = built.validate().unwrap_err();
    let paths: Vec<String> = issues.issues().iter().map(|i| i.path.to_string()).collect();
    assert_eq!(paths, ["color_scheme", "level"]);
}

#[test]
fn the_schema_makes_the_field_optional_and_nullable() {
    let schema: Value = serde_json::from_str(EmulateMedia::json_schema()).unwrap();
    assert_eq!(schema.get("required"), None, "{schema}");
    assert_eq!(
        schema["properties"]["color_scheme"]["type"],
        json!(["string", "null"])
    );
}

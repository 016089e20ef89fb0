//! Value constraints beyond bounds and lengths, through `#[derive(Tool)]`: `constant`,
//! `enum_values`, `values(...)` and `keys(...)` on maps, `description` inside `items(...)`, `()` for a
//! `null`-only field, and a `#[serde(flatten)]` map that keeps undeclared keys.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use serde_json::json;
use toolgate::{Constraint, Tool, ToolArg};

/// Every issue's message, one per line.
fn messages(report: &toolgate::Report) -> String {
    let lines: Vec<String> = report.issues().iter().map(ToString::to_string).collect();
    lines.join("\n")
}

/// Roll dice.
#[derive(Tool, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Roll {
    /// Faces of each die.
    #[tool(enum_values = [4, 6, 8, 12, 20])]
    sides: u8,
    /// Format version.
    #[tool(constant = "v2")]
    version: String,
    /// Bonus by player.
    #[tool(values(range(min = -5, max = 5), description = "A bonus"))]
    bonus: BTreeMap<String, i32>,
    #[tool(items(length(min = 1), description = "A player name"))]
    players: Vec<String>,
    /// Any of a few markers.
    #[tool(enum_values = [1, "one", true])]
    marker: serde_json::Value,
    /// Reserved: always null.
    reserved: (),
}

#[test]
fn the_schema_says_every_constraint() {
    let schema: serde_json::Value = serde_json::from_str(Roll::json_schema()).unwrap();
    let properties = &schema["properties"];
    assert_eq!(
        properties["sides"],
        json!({"type": "integer", "enum": [4, 6, 8, 12, 20], "description": "Faces of each die."})
    );
    assert_eq!(
        properties["version"],
        json!({"type": "string", "const": "v2", "description": "Format version."})
    );
    assert_eq!(
        properties["bonus"]["additionalProperties"],
        json!({"type": "integer", "minimum": -5, "maximum": 5, "description": "A bonus"})
    );
    assert_eq!(
        properties["players"]["items"],
        json!({"type": "string", "minLength": 1, "description": "A player name"})
    );
    assert_eq!(
        properties["marker"],
        json!({"enum": [1, "one", true], "description": "Any of a few markers."})
    );
    assert_eq!(
        properties["reserved"],
        json!({"type": "null", "description": "Reserved: always null."})
    );
}

fn roll() -> serde_json::Value {
    json!({"sides": 6, "version": "v2", "bonus": {"ann": 2}, "players": ["ann"], "marker": "one", "reserved": null})
}

#[test]
fn fitting_arguments_decode_and_validate() {
    let decoded = Roll::decode(&roll().to_string()).unwrap();
    assert!(decoded.repairs.is_empty(), "{:?}", decoded.repairs);
    assert_eq!(decoded.value.sides, 6);
    assert!(decoded.value.validate().is_ok());
    assert_eq!(decoded.value.to_json_value(), roll());
}

#[test]
fn each_constraint_refuses_what_breaks_it() {
    let cases = [
        ("sides", json!(7), Constraint::Enum),
        ("version", json!("v1"), Constraint::Const),
        ("bonus", json!({"ann": 9}), Constraint::Maximum),
        ("players", json!([""]), Constraint::MinLength),
        ("marker", json!(2), Constraint::Enum),
        ("reserved", json!(1), Constraint::Type),
    ];
    for (field, value, constraint) in cases {
        let mut arguments = roll();
        arguments[field] = value.clone();
        let rejected = Roll::decode(&arguments.to_string()).unwrap_err();
        let issues = messages(&rejected.report);
        assert_eq!(
            rejected.report.issues()[0].constraint,
            constraint,
            "{field} = {value}: {issues}"
        );
    }
}

#[test]
fn validate_checks_values_built_in_rust() {
    let mut value: Roll = serde_json::from_value(roll()).unwrap();
    value.sides = 5;
    value.version = "v3".to_owned();
    value.bonus.insert("bob".to_owned(), -6);
    value.marker = json!(false);
    let report = value.validate().unwrap_err();
    assert_eq!(
        messages(&report),
        "sides: 5 is not one of 4, 6, 8, 12, 20\n\
         version: expected \"v2\", got \"v3\"\n\
         bonus.bob: -6 is less than the minimum -5\n\
         marker: false is not one of 1, \"one\", true"
    );
}

/// Open an issue; labels go beside the declared keys.
#[derive(Tool, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct OpenIssue {
    title: String,
    /// Labels, by any other key.
    #[serde(flatten)]
    #[tool(values(length(max = 8)))]
    labels: HashMap<String, String>,
}

#[test]
fn a_flattened_map_is_additional_properties() {
    let schema: serde_json::Value = serde_json::from_str(OpenIssue::json_schema()).unwrap();
    assert_eq!(
        schema,
        json!({"type": "object", "title": "open_issue", "description": "Open an issue; labels go beside the declared keys.",
               "properties": {"title": {"type": "string"}}, "required": ["title"],
               "additionalProperties": {"type": "string", "maxLength": 8}})
    );
}

#[test]
fn a_flattened_map_keeps_undeclared_keys_and_checks_them() {
    // `Title` folds to `title`, which is present too: the call is valid as sent, `Title` a
    // label like any other undeclared key (issue 43 §1; `key_case` is for keys meant for a
    // field the call left out).
    let decoded = OpenIssue::decode(r#"{"title": "crash", "Title": "x"}"#).unwrap();
    assert!(decoded.repairs.is_empty());
    assert_eq!(decoded.value.title, "crash");
    assert_eq!(
        decoded.value.labels.get("Title").map(String::as_str),
        Some("x")
    );
    // Without `title`, `Title` is meant for it.
    let decoded = OpenIssue::decode(r#"{"Title": "crash"}"#).unwrap();
    assert_eq!(decoded.value.title, "crash");
    assert!(decoded.value.labels.is_empty());
    let decoded = OpenIssue::decode(r#"{"title": "crash", "area": "ui", "prio": 1}"#).unwrap();
    assert_eq!(
        decoded.value.labels.get("area").map(String::as_str),
        Some("ui")
    );
    // `1` is repaired to `"1"` like any value.
    assert_eq!(
        decoded.value.labels.get("prio").map(String::as_str),
        Some("1")
    );
    assert_eq!(
        decoded.value.to_json_value(),
        json!({"title": "crash", "area": "ui", "prio": "1"})
    );
    let rejected =
        OpenIssue::decode(r#"{"title": "crash", "area": "user interface"}"#).unwrap_err();
    assert_eq!(
        messages(&rejected.report),
        "area: \"user interface\" has 14 characters, more than the maximum 8"
    );
    let mut value = decoded.value;
    value
        .labels
        .insert("zone".to_owned(), "far too long".to_owned());
    assert_eq!(
        messages(&value.validate().unwrap_err()),
        "zone: \"far too long\" has 12 characters, more than the maximum 8"
    );
}

/// Rename a file; `path` is gone.
#[derive(Tool, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Rename {
    to: String,
    /// Replaced by `to`: must be absent.
    path: Option<toolgate::model::Never>,
    #[serde(default)]
    none: Vec<toolgate::model::Never>,
}

#[test]
fn never_is_a_value_no_schema_allows() {
    let schema: serde_json::Value = serde_json::from_str(Rename::json_schema()).unwrap();
    assert_eq!(
        schema["properties"]["path"],
        json!({"not": {}, "description": "Replaced by `to`: must be absent."})
    );
    assert_eq!(
        schema["properties"]["none"],
        json!({"type": "array", "items": false, "default": []})
    );
    let decoded = Rename::decode(r#"{"to": "b", "none": []}"#).unwrap();
    assert_eq!(decoded.value.path, None);
    let rejected = Rename::decode(r#"{"to": "b", "path": "a", "none": [1]}"#).unwrap_err();
    let constraints: Vec<Constraint> = rejected
        .report
        .issues()
        .iter()
        .map(|i| i.constraint)
        .collect();
    // An array whose `items` allows nothing holds no element: one sent is too many.
    assert_eq!(
        constraints,
        [Constraint::Type, Constraint::MaxItems],
        "{}",
        messages(&rejected.report)
    );
}

/// Scores by player name (JSON Schema's `propertyNames`, as PostHog's survey tools limit
/// response keys).
#[derive(Tool, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Scores {
    #[tool(keys(pattern = "^[a-z]+$", length(max = 8)))]
    by_player: BTreeMap<String, u32>,
    #[tool(keys(enum_values = ["negative", "neutral", "positive"]))]
    by_response: Option<HashMap<String, u32>>,
}

#[test]
fn keys_of_a_map_are_property_names() {
    let schema: serde_json::Value = serde_json::from_str(Scores::json_schema()).unwrap();
    assert_eq!(
        schema["properties"]["by_player"]["propertyNames"],
        json!({"type": "string", "maxLength": 8, "pattern": "^[a-z]+$"})
    );
    assert_eq!(
        schema["properties"]["by_response"]["propertyNames"],
        json!({"type": "string", "enum": ["negative", "neutral", "positive"]})
    );
    let decoded = Scores::decode(r#"{"by_player": {"ada": 3}, "by_response": {"neutral": 1}}"#);
    assert!(decoded.is_ok(), "{decoded:?}");
    let rejected = Scores::decode(
        r#"{"by_player": {"Ada": 3, "bartholomew": 1}, "by_response": {"great": 1}}"#,
    )
    .unwrap_err();
    let found: Vec<(String, Constraint)> = rejected
        .report
        .issues()
        .iter()
        .map(|i| (i.path.to_string(), i.constraint))
        .collect();
    assert_eq!(
        found,
        [
            ("by_player.Ada".to_owned(), Constraint::PropertyNames),
            (
                "by_player.bartholomew".to_owned(),
                Constraint::PropertyNames
            ),
            ("by_response.great".to_owned(), Constraint::PropertyNames),
        ],
        "{}",
        messages(&rejected.report)
    );
    // The hint lists the keys allowed (not the values' schema, which the path leads to).
    let hint: serde_json::Value = serde_json::from_str(&rejected.hint().to_json()).unwrap();
    assert_eq!(hint["fields"][2]["constraint"], "propertyNames");
    assert_eq!(
        hint["fields"][2]["allowed_values"],
        json!(["negative", "neutral", "positive"])
    );
    // A key is never renamed to fit (no repair for keys but `key_case`, towards fields).
    assert!(Scores::decode(r#"{"by_player": {}, "by_response": {"Neutral": 1}}"#).is_err());
    let built = Scores {
        by_player: [("UPPER".to_owned(), 1)].into(),
        by_response: None,
    };
    assert_eq!(
        built.validate().unwrap_err().issues()[0].constraint,
        Constraint::PropertyNames
    );
}

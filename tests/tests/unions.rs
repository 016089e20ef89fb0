//! Enums as unions through `#[derive(Tool)]`: `#[serde(tag = "...")]` and
//! `#[serde(untagged)]` give `oneOf`/`anyOf` models that serde and the checker agree on;
//! `#[tool(nullable)]` makes `null` a value of a required field.

use serde::{Deserialize, Serialize};
use serde_json::json;
use toolgate::{Constraint, Tool, ToolArg};
use toolgate_tests::issue_list;

/// A shape to draw.
#[derive(Tool, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum Shape {
    /// A circle around the origin.
    Circle {
        #[tool(range(min = 0.0))]
        radius: f64,
    },
    Rectangle {
        width: u32,
        #[serde(rename = "h")]
        height: u32,
    },
    Dot,
}

/// A document id: a number or a slug.
#[derive(Tool, Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
enum DocId {
    Number(#[allow(dead_code)] u64),
    Slug(#[tool(length(min = 1))] String),
}

/// Draw shapes.
#[derive(Tool, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Draw {
    shapes: Vec<Shape>,
    target: DocId,
    #[serde(default)]
    backup: Option<DocId>,
}

#[test]
fn the_schema_is_one_of_tagged_objects_and_any_of_types() {
    let schema: serde_json::Value = serde_json::from_str(Draw::json_schema()).unwrap();
    assert_eq!(
        schema["properties"]["shapes"]["items"],
        json!({"oneOf": [
            {"type": "object", "description": "A circle around the origin.",
             "properties": {"kind": {"type": "string", "const": "circle"}, "radius": {"type": "number", "minimum": 0.0}},
             "required": ["kind", "radius"], "additionalProperties": false},
            {"type": "object",
             "properties": {"kind": {"type": "string", "const": "rectangle"},
                            "width": {"type": "integer", "minimum": 0, "maximum": 4294967295u32},
                            "h": {"type": "integer", "minimum": 0, "maximum": 4294967295u32, "x-rust-name": "height"}},
             "required": ["kind", "width", "h"], "additionalProperties": false},
            {"type": "object", "properties": {"kind": {"type": "string", "const": "dot"}},
             "required": ["kind"], "additionalProperties": false}
        ], "description": "A shape to draw."})
    );
    // `DocId` is used twice (`target`, `backup`): written once under `$defs`, referenced.
    assert_eq!(
        schema["properties"]["target"],
        json!({"$ref": "#/$defs/DocId", "description": "A document id: a number or a slug."})
    );
    assert_eq!(
        schema["$defs"]["DocId"],
        // (`u64`'s maximum is the carried integers' edge: no bound of its own, not written.)
        json!({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string", "minLength": 1}],
               "description": "A document id: a number or a slug."})
    );
    // The model reads back from its own schema.
    let again = toolgate::model::ToolModel::from_json_schema(Draw::json_schema()).unwrap();
    assert_eq!(&again, Draw::model());
}

#[test]
fn tagged_and_untagged_values_decode_with_repairs() {
    let text = r#"{"shapes": [{"kind": "circle", "radius": "2.5"}, {"kind": "rectangle", "width": 3, "h": 4}, {"kind": "dot"}],
        "target": "guide-7", "backup": 12}"#;
    let decoded = Draw::decode(text).unwrap();
    assert_eq!(
        decoded.value,
        Draw {
            shapes: vec![
                Shape::Circle { radius: 2.5 },
                Shape::Rectangle {
                    width: 3,
                    height: 4
                },
                Shape::Dot
            ],
            target: DocId::Slug("guide-7".into()),
            backup: Some(DocId::Number(12)),
        }
    );
    let repaired: Vec<String> = decoded.repairs.iter().map(|r| r.path.to_string()).collect();
    assert_eq!(repaired, ["shapes[0].radius"]);
    assert_eq!(
        serde_json::to_value(&decoded.value).unwrap(),
        decoded.value.to_json_value()
    );
    assert!(decoded.value.validate().is_ok());
}

#[test]
fn a_value_no_alternative_accepts_is_refused_inside_the_alternative_meant() {
    // Only the slug takes a string: its own `minLength`, not the union.
    let empty = Draw::decode(r#"{"shapes": [], "target": ""}"#).unwrap_err();
    assert_eq!(
        issue_list(&empty.report),
        [("target".to_owned(), Constraint::MinLength)]
    );
    let rejected = Draw::decode(
        r#"{"shapes": [{"kind": "circle", "radius": -1}, {"kind": "hexagon"}], "target": {"id": 1}}"#,
    )
    .unwrap_err();
    assert_eq!(
        issue_list(&rejected.report),
        [
            // The tag names the circle: its bound, at its path.
            ("shapes[0].radius".to_owned(), Constraint::Minimum),
            // A tag that names no variant: the union, with the tags it wants.
            ("shapes[1]".to_owned(), Constraint::OneOf),
            // No alternative takes an object: the type, with the types wanted.
            ("target".to_owned(), Constraint::Type),
        ]
    );
    let issues = rejected.report.issues();
    assert_eq!(
        issues[1].expected,
        Some(json!(["circle", "rectangle", "dot"]))
    );
    assert_eq!(issues[2].expected, Some(json!(["integer", "string"])));
    // The value checker, which `validate()` and examples use, agrees on JSON values.
    let checked = Draw::model()
        .check_against(
            Draw::model().input(),
            &json!({"shapes": [{"kind": "circle", "radius": -1}, {"kind": "hexagon"}], "target": {"id": 1}}),
        )
        .unwrap_err();
    assert_eq!(checked.issues(), issues);
}

#[test]
fn validate_checks_the_variant_a_value_holds() {
    let draw = Draw {
        shapes: vec![Shape::Circle { radius: -2.0 }],
        target: DocId::Number(1),
        backup: None,
    };
    let report = draw.validate().unwrap_err();
    let paths: Vec<String> = report.issues().iter().map(|i| i.path.to_string()).collect();
    assert_eq!(paths, ["shapes[0].radius"]);
}

/// Leave a note.
#[derive(Tool, Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Note {
    /// The text, or null to clear it.
    #[tool(nullable, length(min = 1))]
    text: Option<String>,
    #[tool(nullable)]
    #[serde(default)]
    tag: Option<DocId>,
}

#[test]
fn a_nullable_field_is_required_and_takes_null() {
    let schema: serde_json::Value = serde_json::from_str(Note::json_schema()).unwrap();
    assert_eq!(
        schema["properties"]["text"],
        json!({"type": ["string", "null"], "minLength": 1, "description": "The text, or null to clear it."})
    );
    assert_eq!(schema["required"], json!(["text"]));
    let decoded = Note::decode(r#"{"text": null, "tag": null}"#).unwrap();
    assert_eq!(
        decoded.value,
        Note {
            text: None,
            tag: None
        }
    );
    assert_eq!(
        decoded.value.to_json_value(),
        json!({"text": null, "tag": null})
    );
    let decoded = Note::decode(r#"{"text": "hi", "tag": 3}"#).unwrap();
    assert_eq!(decoded.value.tag, Some(DocId::Number(3)));
    let rejected = Note::decode(r#"{"tag": "x"}"#).unwrap_err();
    assert_eq!(rejected.report.issues()[0].constraint, Constraint::Required);
    let rejected = Note::decode(r#"{"text": ""}"#).unwrap_err();
    assert_eq!(
        rejected.report.issues()[0].constraint,
        Constraint::MinLength
    );
}

/// The typed road (`Draw::decode`) and the run-time road (a `DynamicTool` of `Draw`'s
/// schema) choose the same alternative and name the same issues and hints.
#[test]
fn both_roads_choose_the_same_alternative() {
    let dynamic = toolgate::DynamicTool::from_model(
        toolgate::model::ToolModel::from_json_schema(Draw::json_schema()).unwrap(),
    )
    .with_options(toolgate::decode::Options::typed());
    for text in [
        r#"{"shapes": [{"kind": "circle", "radius": -1}], "target": 3}"#,
        r#"{"shapes": [{"kind": "hexagon"}, {"kind": "rectangle", "width": 2}], "target": [1]}"#,
        r#"{"shapes": [], "target": "", "backup": true}"#,
        r#"{"shapes": [{"kind": "dot"}, {"kind": "circle", "radius": "2"}], "target": "7", "backup": "12"}"#,
    ] {
        match (Draw::decode(text), dynamic.decode(text)) {
            (Err(typed), Err(run_time)) => {
                assert_eq!(typed.report, run_time.report, "{text}");
                assert_eq!(typed.hint(), run_time.hint(), "{text}");
            }
            (Ok(typed), Ok(run_time)) => {
                // Equal as JSON (a typed `f64` writes `2.0` for the `2` read).
                let typed_value = typed.value.to_json_value();
                assert!(
                    toolgate_core::values::json_equal(&typed_value, &run_time.value),
                    "{text}: {typed_value} / {}",
                    run_time.value
                );
                assert_eq!(typed.repairs, run_time.repairs, "{text}");
            }
            (typed, run_time) => panic!(
                "the roads disagree on {text}: {:?} / {:?}",
                typed.map(|d| d.repairs),
                run_time.map(|d| d.repairs)
            ),
        }
    }
}

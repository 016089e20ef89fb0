//! Tuples (`prefixItems`, issue 11 §4): read, checked and repaired per element on the
//! run-time road, derived from Rust tuples and tuple structs, and written by the schema
//! compiler as tuple structs. The shape is a coordinate pair (`[longitude, latitude]`), as
//! map tools send it.

use serde_json::{json, Value};
use toolgate::model::ToolModel;
use toolgate::{Constraint, DynamicTool, Tool, ToolArg};

/// A point as `[longitude, latitude]`.
#[derive(Tool, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct LonLat(
    #[tool(range(min = -180, max = 180))] f64,
    #[tool(range(min = -90, max = 90))] f64,
);

/// Pan the map.
#[derive(Tool, Debug, serde::Serialize, serde::Deserialize)]
#[tool(name = "pan_map")]
struct PanMap {
    center: LonLat,
    /// A label and a zoom level.
    #[serde(default)]
    tag: Option<(String, u8)>,
}

fn dynamic(schema: Value) -> DynamicTool {
    DynamicTool::from_model(ToolModel::from_json_schema(&schema.to_string()).unwrap())
}

fn constraints(report: &toolgate::Report) -> Vec<(String, Constraint)> {
    report
        .issues()
        .iter()
        .map(|i| (i.path.to_string(), i.constraint))
        .collect()
}

#[test]
fn each_element_is_checked_and_repaired_against_its_own_schema() {
    let tool = dynamic(json!({"type": "object", "properties": {"at": {
        "type": "array",
        "prefixItems": [{"type": "string"}, {"type": "integer", "maximum": 9}],
        "items": false,
        "minItems": 2
    }}}));
    let decoded = tool.decode(r#"{"at": ["a", "7"]}"#).unwrap();
    assert_eq!(decoded.value, json!({"at": ["a", 7]}));
    assert_eq!(decoded.repairs[0].rule.as_str(), "string_to_number");
    let refused = tool.decode(r#"{"at": [[1], 12]}"#).unwrap_err();
    assert_eq!(
        constraints(&refused.report),
        [
            ("at[0]".to_owned(), Constraint::Type),
            ("at[1]".to_owned(), Constraint::Maximum)
        ]
    );
    // Elements past the tuple's are one `maxItems` issue, not one issue each.
    let refused = tool.decode(r#"{"at": ["a", 1, 2, 3]}"#).unwrap_err();
    assert_eq!(
        constraints(&refused.report),
        [("at".to_owned(), Constraint::MaxItems)]
    );
    let refused = tool.decode(r#"{"at": ["a"]}"#).unwrap_err();
    assert_eq!(
        constraints(&refused.report),
        [("at".to_owned(), Constraint::MinItems)]
    );
}

#[test]
fn draft_07_array_items_and_additional_items_are_a_tuple_too() {
    let tool = dynamic(json!({"type": "object", "properties": {"at": {
        "type": "array",
        "items": [{"type": "string"}],
        "additionalItems": {"type": "integer"}
    }}}));
    assert!(tool.decode(r#"{"at": ["a", 1, 2]}"#).is_ok());
    let refused = tool.decode(r#"{"at": ["a", "b"]}"#).unwrap_err();
    assert_eq!(
        constraints(&refused.report),
        [("at[1]".to_owned(), Constraint::Type)]
    );
}

#[test]
fn tuple_structs_and_tuples_derive_a_tuple_schema_and_agree_with_the_dynamic_road() {
    let schema: Value = serde_json::from_str(PanMap::json_schema()).unwrap();
    let center = &schema["properties"]["center"];
    assert_eq!(center["prefixItems"][1]["maximum"], json!(90), "{schema}");
    assert_eq!(center["items"], json!(false));
    assert_eq!(center["minItems"], json!(2));
    let tool = dynamic(schema);
    for arguments in [
        r#"{"center": [2.35, 48.85], "tag": ["Paris", 12]}"#,
        r#"{"center": ["2.35", 48.85]}"#,
    ] {
        let typed = PanMap::decode(arguments).unwrap();
        let dynamic = tool.decode(arguments).unwrap();
        assert_eq!(typed.value.to_json_value(), dynamic.value, "{arguments}");
    }
    let typed = PanMap::decode(r#"{"center": [200, 0]}"#).unwrap_err();
    let dynamic = tool.decode(r#"{"center": [200, 0]}"#).unwrap_err();
    assert_eq!(typed.report.to_string(), dynamic.report.to_string());
    assert_eq!(
        constraints(&typed.report),
        [("center[0]".to_owned(), Constraint::Maximum)]
    );
    let built = PanMap {
        center: LonLat(0.0, 95.0),
        tag: None,
    };
    assert_eq!(
        constraints(&built.validate().unwrap_err()),
        [("center[1]".to_owned(), Constraint::Maximum)]
    );
}

#[test]
fn the_compiler_writes_an_exact_tuple_as_a_tuple_struct_and_holds_others_as_json() {
    let definition = |extra: &str| {
        format!(
            r#"{{"name": "pan", "parameters": {{"type": "object", "properties": {{"center": {{"type": "array", "prefixItems": [{{"type": "number", "maximum": 180}}, {{"type": "number"}}]{extra}}}}}, "required": ["center"]}}}}"#
        )
    };
    let code = toolgate_codegen::Builder::new()
        .generate_text("t.json", &definition(r#", "items": false, "minItems": 2"#))
        .unwrap();
    assert!(
        code.contains("pub struct PanCenter(#[tool(range(max = 180))] pub f64, pub f64);"),
        "{code}"
    );
    let open = toolgate_codegen::Builder::new()
        .generate_text("t.json", &definition(""))
        .unwrap();
    assert!(
        open.contains("pub center: ::toolgate::serde_json::Value"),
        "{open}"
    );
    assert!(open.contains("prefixItems"), "{open}");
}

/// The compiler checks a constant against a clone of its schema with the constant taken
/// out: a schema built apart from the model, which has no place in the model's plan (an
/// object's key table is then a scan; it once was a lookup that panicked).
#[test]
fn the_compiler_checks_an_object_constant_against_its_other_constraints() {
    let definition = |constant: &str| {
        format!(
            r#"{{"name": "fixed", "parameters": {{"type": "object", "properties": {{"point": {{"type": "object", "properties": {{"x": {{"type": "integer", "maximum": 9}}}}, "required": ["x"], "const": {constant}}}}}, "required": ["point"]}}}}"#
        )
    };
    assert!(toolgate_codegen::Builder::new()
        .generate_text("t.json", &definition(r#"{"x": 1}"#))
        .is_ok());
    // A constant its other constraints refuse: the field is held as JSON, and says why.
    let misfit = toolgate_codegen::Builder::new()
        .generate_text("t.json", &definition(r#"{"x": 12}"#))
        .unwrap();
    assert!(
        misfit.contains("x: 12 is greater than the maximum 9"),
        "{misfit}"
    );
}

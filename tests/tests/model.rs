//! The tool model of every fixture: JSON Schema round trip, agreement with serde, and
//! `validate` on the fixture samples.

use toolgate::model::ToolModel;
use toolgate::Tool;
use toolgate_tests::catalogue;
use toolgate_tests::fixtures::flight::BookFlight;

#[test]
fn json_schema_reads_back_into_the_same_model() {
    for case in catalogue() {
        let compact = ToolModel::from_json_schema(case.model.json_schema())
            .unwrap_or_else(|errors| panic!("{}: {errors}", case.type_name));
        assert_eq!(&compact, case.model, "{}", case.type_name);
        let pretty = ToolModel::from_json_schema(&case.model.json_schema_pretty()).unwrap();
        assert_eq!(&pretty, case.model, "{}", case.type_name);
        // Writing what was read gives the same bytes.
        assert_eq!(
            compact.json_schema(),
            case.model.json_schema(),
            "{}",
            case.type_name
        );
    }
}

#[test]
fn wire_form_agrees_with_serde() {
    for case in catalogue() {
        for sample in case.valid.iter().chain(&case.invalid) {
            assert_eq!(
                sample.tool_json, sample.serde_json,
                "{} / {}",
                case.type_name, sample.label
            );
        }
    }
}

#[test]
fn valid_samples_pass_and_invalid_ones_fail() {
    for case in catalogue() {
        for sample in &case.valid {
            if let Err(report) = &sample.validation {
                panic!("{} / {} refused:\n{report}", case.type_name, sample.label);
            }
        }
        for sample in &case.invalid {
            assert!(
                sample.validation.is_err(),
                "{} / {} accepted",
                case.type_name,
                sample.label
            );
        }
    }
}

#[test]
fn every_issue_of_the_bad_flight_is_reported_in_field_order() {
    let report = toolgate_tests::bad_flight().validate().unwrap_err();
    let found: Vec<(String, &str)> = report
        .issues()
        .iter()
        .map(|i| (i.path.to_string(), i.constraint.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("origin".to_owned(), "pattern"),
            ("date".to_owned(), "format"),
            ("passengers".to_owned(), "maximum"),
            ("max_price".to_owned(), "exclusiveMinimum"),
            ("contact.email".to_owned(), "format"),
        ]
    );
    let passengers = &report.issues()[2];
    assert_eq!(passengers.expected, Some(serde_json::json!(9)));
    assert_eq!(passengers.got, Some(serde_json::json!(12)));
    assert_eq!(report.to_string().lines().count(), 5);
}

#[test]
fn names_and_descriptions_come_from_attributes_and_docs() {
    use toolgate_tests::fixtures::search::SearchDocs;
    use toolgate_tests::fixtures::weather::GetWeather;
    assert_eq!(BookFlight::name(), "book_flight");
    assert_eq!(
        BookFlight::description(),
        Some("Book a flight for one or more passengers.")
    );
    assert_eq!(SearchDocs::name(), "docs.search");
    assert_eq!(
        SearchDocs::description(),
        Some("Search the documentation by keywords")
    );
    assert_eq!(
        GetWeather::description(),
        Some("Current weather at a place.")
    );
    assert!(BookFlight::json_schema().starts_with(r#"{"title":"book_flight","#));
}

#[test]
fn serde_defaults_become_schema_defaults() {
    use toolgate_tests::fixtures::event::CreateEvent;
    use toolgate_tests::fixtures::search::SearchDocs;
    let schema: serde_json::Value = serde_json::from_str(SearchDocs::json_schema()).unwrap();
    assert_eq!(schema["properties"]["maxResults"]["default"], 10);
    assert_eq!(
        schema["properties"]["tags"]["default"],
        serde_json::json!([])
    );
    assert_eq!(schema["required"], serde_json::json!(["queryText"]));
    assert_eq!(
        schema["properties"]["queryText"]["x-aliases"],
        serde_json::json!(["q"])
    );
    assert_eq!(
        schema["properties"]["min_score"]["x-rust-name"],
        "threshold"
    );
    // A container `#[serde(default)]` takes each field's default from `Default::default()`.
    let event: serde_json::Value = serde_json::from_str(CreateEvent::json_schema()).unwrap();
    assert_eq!(event["properties"]["title"]["default"], "Untitled");
    assert_eq!(event["properties"]["type"]["default"], "normal");
    assert!(event.get("required").is_none());
    assert!(
        event["properties"].get("revision").is_none(),
        "skipped fields are not on the wire"
    );
    // And serde agrees the fields are optional.
    let decoded: CreateEvent = serde_json::from_str("{}").unwrap();
    assert_eq!(decoded, CreateEvent::default());
}

#[test]
fn recursive_types_use_defs() {
    use toolgate_tests::fixtures::tree::{MakeTree, TreeNode};
    let model = MakeTree::model();
    assert_eq!(model.definitions().keys().collect::<Vec<_>>(), ["TreeNode"]);
    let schema: serde_json::Value = serde_json::from_str(MakeTree::json_schema()).unwrap();
    assert_eq!(schema["properties"]["root"]["$ref"], "#/$defs/TreeNode");
    assert_eq!(
        schema["$defs"]["TreeNode"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/TreeNode"
    );
    // As a tool of its own, the recursive type's input is its body.
    assert!(matches!(
        TreeNode::model().input().kind,
        toolgate::model::Kind::Object(_)
    ));
}

/// Issue 27 §5: `multiple_of` on an integer field may be a number that is not whole, as
/// JSON Schema's `multipleOf` may (`0.5`: every integer passes; `1.5`: the multiples of 3),
/// and the model keeps it as written.
#[test]
fn an_integer_multiple_of_need_not_be_whole() {
    #[derive(Tool, serde::Deserialize, Debug)]
    struct Steps {
        #[tool(multiple_of = 0.5)]
        half: u32,
        #[tool(multiple_of = 1.5)]
        three: i64,
        #[tool(multiple_of = 2.0)]
        even: i16,
    }
    let schema = Steps::json_schema();
    for written in [
        r#""half":{"type":"integer","minimum":0,"maximum":4294967295,"multipleOf":0.5}"#,
        r#""multipleOf":1.5}"#,
        r#""multipleOf":2.0}"#,
    ] {
        assert!(schema.contains(written), "{schema}");
    }
    assert!(Steps::decode(r#"{"half": 7, "three": -6, "even": 4}"#).is_ok());
    let refused = Steps::decode(r#"{"half": 7, "three": 4, "even": 3}"#).unwrap_err();
    assert_eq!(refused.report.len(), 2, "{}", refused.report);
}

/// Issue 30 §7: a derived schema says a Rust width's range by its bounds alone; the width's
/// `format` is written where a field asks for it (`format = "int32"`), or for every number
/// of a tool that says `#[tool(width_formats)]` (schemars' convention). Read back, the
/// schema gives the same model either way.
#[test]
fn width_formats_are_written_only_when_asked_for() {
    #[derive(Tool, serde::Deserialize, Debug)]
    struct Plain {
        count: u8,
        ratio: f32,
        scores: Vec<f64>,
    }
    #[derive(Tool, serde::Deserialize, Debug)]
    struct OneField {
        #[tool(format = "uint8")]
        count: u8,
        #[tool(items(format = "double"))]
        scores: Vec<f64>,
        ratio: f32,
    }
    #[derive(Tool, serde::Deserialize, Debug)]
    #[tool(width_formats)]
    struct Everything {
        count: u8,
        ratio: f32,
        nested: Plain,
    }
    let plain = Plain::json_schema();
    assert!(!plain.contains("format"), "{plain}");
    assert!(plain.contains(r#""count":{"type":"integer","minimum":0,"maximum":255}"#));
    let one = OneField::json_schema();
    assert!(
        one.contains(r#""count":{"type":"integer","format":"uint8","minimum":0"#),
        "{one}"
    );
    assert!(
        one.contains(r#""items":{"type":"number","format":"double"}"#),
        "{one}"
    );
    assert!(
        one.contains(r#""ratio":{"type":"number","minimum""#),
        "{one}"
    );
    let every = Everything::json_schema();
    for written in [
        r#""format":"uint8""#,
        r#""format":"float""#,
        r#""format":"double""#,
    ] {
        assert!(every.contains(written), "{written} in {every}");
    }
    // The nested type's numbers too.
    assert_eq!(every.matches(r#""format":"uint8""#).count(), 2, "{every}");
    for model in [Plain::model(), OneField::model(), Everything::model()] {
        let read_back = toolgate::model::ToolModel::from_json_schema(model.json_schema()).unwrap();
        assert!(read_back == *model, "{}", model.json_schema());
        assert_eq!(read_back.json_schema(), model.json_schema());
    }
}

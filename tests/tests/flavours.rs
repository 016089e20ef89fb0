//! Provider schema flavours: a conformance checker per flavour, run over the fixture tools,
//! the BFCL corpus and the tools-dev corpus (every tool conforms, or is refused with the
//! limit or the construct named); the dropped constraints still enforced by the gate; and
//! goldens of each fixture tool in OpenAI's strict mode with its report; random nested
//! schemas (`flavours/random.rs`) through every flavour and its checker.

#[path = "flavours/conformance.rs"]
mod conformance;
#[path = "flavours/random.rs"]
mod random;

use conformance::conforms;
use serde_json::{json, Value};
use toolgate::flavour::{Flavour, FlavourError};
use toolgate::model::ToolModel;
use toolgate::{Constraint, Tool};
use toolgate_tests::fixtures::flight::BookFlight;

/// Per flavour: (conform, refused, keywords dropped or rewritten, constraints lost) over
/// `models`.
fn tally(models: &[ToolModel]) -> Vec<(Flavour, usize, usize, usize, usize)> {
    Flavour::ALL
        .into_iter()
        .map(|flavour| {
            let (mut conform, mut refused, mut dropped, mut lost) = (0, 0, 0, 0);
            let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
            for model in models {
                match model.schema_for(flavour) {
                    Ok(flavoured) => {
                        if let Err(why) = conforms(flavour, model, &flavoured) {
                            panic!(
                                "{} in {flavour} does not conform: {why}\n{}",
                                model.name(),
                                flavoured.schema
                            );
                        }
                        conform += 1;
                        dropped += flavoured.dropped.len();
                        lost += flavoured
                            .dropped
                            .iter()
                            .filter(|d| d.loses_constraint())
                            .count();
                    }
                    Err(
                        FlavourError::OverLimit { limit, .. }
                        | FlavourError::OverRequestLimit { limit, .. },
                    ) => {
                        refused += 1;
                        *reasons.entry(format!("over its {limit}")).or_insert(0) += 1;
                    }
                    Err(FlavourError::Inexpressible { what, .. }) => {
                        refused += 1;
                        *reasons.entry(what).or_insert(0) += 1;
                    }
                }
            }
            for (reason, count) in reasons {
                println!("  {flavour} refused {count} tool(s): {reason}");
            }
            (flavour, conform, refused, dropped, lost)
        })
        .collect()
}

/// Each tool once (a corpus has a line per case, and a tool has several cases).
fn distinct(models: Vec<ToolModel>) -> Vec<ToolModel> {
    let mut seen = std::collections::BTreeSet::new();
    models
        .into_iter()
        .filter(|model| seen.insert((model.name().to_owned(), model.json_schema().to_owned())))
        .collect()
}

fn print(corpus: &str, tally: &[(Flavour, usize, usize, usize, usize)]) {
    println!("{corpus}: flavour | tools conform | tools refused | keywords dropped or rewritten a conforming tool | constraints lost a conforming tool");
    for (flavour, conform, refused, dropped, lost) in tally {
        let per_tool = |count: usize| count as f64 / (*conform).max(1) as f64;
        println!(
            "  {flavour} | {conform} | {refused} | {:.2} | {:.2} ({lost} in all)",
            per_tool(*dropped),
            per_tool(*lost)
        );
    }
}

#[test]
fn every_tool_of_the_corpora_conforms_or_is_refused_with_the_reason() {
    let fixtures: Vec<ToolModel> = toolgate_tests::catalogue()
        .iter()
        .map(|case| case.model.clone())
        .collect();
    let fixture_tally = tally(&fixtures);
    print("fixture tools", &fixture_tally);
    // The one fixture strict mode cannot say is the one with free-form keys (a map).
    for model in &fixtures {
        if let Err(error) = model.schema_for(Flavour::OpenAiStrict) {
            assert_eq!(
                error.to_string(),
                "docs.search: openai-strict cannot express free-form keys (`additionalProperties` with a schema) (at /properties/filters)"
            );
        }
    }

    let bfcl = distinct(toolgate_tests::corpus::corpus_models());
    let bfcl_tally = tally(&bfcl);
    print("BFCL", &bfcl_tally);
    let tools_dev = distinct(
        toolgate_tests::tools_dev::corpus_models()
            .into_iter()
            .filter_map(Result::ok)
            .collect(),
    );
    let dev_tally = tally(&tools_dev);
    print("tools-dev", &dev_tally);
    for (flavour, conform, refused, _, _) in bfcl_tally.iter().chain(&dev_tally) {
        assert!(conform + refused > 0, "{flavour}");
    }
}

#[test]
fn a_constraint_strict_mode_drops_is_still_enforced_and_its_null_means_absent() {
    let strict = BookFlight::model()
        .schema_for(Flavour::OpenAiStrict)
        .unwrap();
    // `notes` lost its maxLength (moved to the description) and became required-nullable.
    let moved: Vec<String> = strict.dropped.iter().map(ToString::to_string).collect();
    assert!(
        moved.contains(&"/properties/notes maxLength moved_to_description".to_owned()),
        "{moved:#?}"
    );
    assert_eq!(
        strict.schema.to_value()["properties"]["notes"]["type"],
        json!(["string", "null"])
    );

    let mut arguments = serde_json::to_value(toolgate_tests::good_flight()).unwrap();
    // Obeys the flavoured schema: a string, no length limit left in it...
    arguments["notes"] = json!("x".repeat(600));
    let refused = BookFlight::decode(&arguments.to_string()).unwrap_err();
    let issue = &refused.report.issues()[0];
    assert_eq!(issue.path.to_string(), "notes");
    assert_eq!(issue.constraint, Constraint::MaxLength);
    // ...and the hint states the constraint the flavour dropped.
    let hint = refused.hint();
    assert_eq!(hint.fields[0].constraint, Constraint::MaxLength);
    assert!(hint.message.contains("500"), "{}", hint.message);

    // Strict mode's way of leaving `notes` out.
    arguments["notes"] = Value::Null;
    let decoded = BookFlight::decode(&arguments.to_string()).unwrap();
    assert_eq!(decoded.value.notes, None);
    assert_eq!(decoded.repairs[0].rule.as_str(), "null_as_absent");
}

/// The arguments that break a constraint of BookFlight's (at its pointer in the flavoured
/// schema, with its keyword), what the gate says, and the text the hint must hold.
fn breaking(path: &str, keyword: &str) -> Option<(Value, Constraint, &'static str)> {
    let mut arguments = serde_json::to_value(toolgate_tests::good_flight()).unwrap();
    let (constraint, said) = match (path, keyword) {
        ("/properties/notes", "maxLength") => {
            arguments["notes"] = json!("x".repeat(600));
            (Constraint::MaxLength, "500")
        }
        ("/properties/passengers", "maximum") => {
            arguments["passengers"] = json!(12);
            (Constraint::Maximum, "9")
        }
        ("/properties/max_price", "exclusiveMinimum") => {
            arguments["max_price"] = json!(0);
            (Constraint::ExclusiveMinimum, "0")
        }
        ("/properties/loyalty_ids", "uniqueItems") => {
            arguments["loyalty_ids"] = json!(["AF123456", "AF123456"]);
            (Constraint::UniqueItems, "")
        }
        ("/properties/loyalty_ids", "maxItems") => {
            arguments["loyalty_ids"] =
                json!(["AF1234", "AF1235", "AF1236", "AF1237", "AF1238", "AF1239"]);
            (Constraint::MaxItems, "5")
        }
        ("/properties/origin" | "/properties/destination", "pattern") => {
            arguments[path.trim_start_matches("/properties/")] = json!("Paris");
            (Constraint::Pattern, "^[A-Z]{3}$")
        }
        ("/properties/passengers", "minimum") => {
            arguments["passengers"] = json!(0);
            (Constraint::Minimum, "1")
        }
        ("/properties/loyalty_ids/items", "minLength") => {
            arguments["loyalty_ids"] = json!(["AF1"]);
            (Constraint::MinLength, "4")
        }
        ("/properties/loyalty_ids/items", "maxLength") => {
            arguments["loyalty_ids"] = json!(["AF12345678901"]);
            (Constraint::MaxLength, "12")
        }
        ("/properties/date", "format") => {
            arguments["date"] = json!("next Tuesday");
            (Constraint::Format, "date")
        }
        ("/properties/contact/properties/email", "format") => {
            arguments["contact"]["email"] = json!("ada at example");
            (Constraint::Format, "email")
        }
        ("/properties/contact/properties/phone", "pattern") => {
            arguments["contact"]["phone"] = json!("0612345678");
            (Constraint::Pattern, "^\\+[1-9][0-9]{6,14}$")
        }
        ("", "additionalProperties") => {
            arguments["seat"] = json!("12A");
            (Constraint::AdditionalProperties, "seat")
        }
        _ => return None,
    };
    Some((arguments, constraint, said))
}

#[test]
fn every_flavour_s_dropped_constraints_stay_enforced_by_the_gate() {
    let mut tested = Vec::new();
    for flavour in Flavour::ALL {
        let flavoured = BookFlight::model().schema_for(flavour).unwrap();
        let lost: Vec<_> = flavoured
            .dropped
            .iter()
            .filter(|d| d.loses_constraint())
            .collect();
        // Arguments are checked against the flavoured schema as the provider reads it.
        let as_sent = toolgate::DynamicTool::from_definition(&flavoured.schema.to_value()).unwrap();
        let mut broken = 0;
        for dropped in &lost {
            let Some((mut arguments, constraint, said)) = breaking(&dropped.path, &dropped.keyword)
            else {
                continue;
            };
            // Strict mode's way of leaving a property out: null, which the gate reads as absent.
            let schema = flavoured.schema.to_value();
            for name in schema["required"].as_array().into_iter().flatten() {
                let name = name.as_str().unwrap();
                if arguments.get(name).is_none() {
                    arguments[name] = Value::Null;
                }
            }
            let text = arguments.to_string();
            // Obeys the flavoured schema, unrepaired...
            let decoded = as_sent.decode(&text).unwrap_or_else(|refused| {
                panic!(
                    "{flavour}: {dropped} arguments break the flavoured schema: {}",
                    refused.report
                )
            });
            assert!(
                decoded.repairs.is_empty(),
                "{flavour}: {:?}",
                decoded.repairs
            );
            // ...and the gate refuses them, with a hint that states the constraint.
            let refused = BookFlight::decode(&text).unwrap_err();
            let issue = &refused.report.issues()[0];
            assert_eq!(issue.constraint, constraint, "{flavour}: {dropped}");
            let hint = refused.hint();
            assert_eq!(
                hint.fields[0].constraint, constraint,
                "{flavour}: {dropped}"
            );
            assert!(
                hint.message.contains(said),
                "{flavour}: {dropped}: {}",
                hint.message
            );
            broken += 1;
            tested.push(format!(
                "{flavour}: {dropped}: refused ({})",
                constraint.as_str()
            ));
        }
        assert_eq!(lost.is_empty(), broken == 0, "{flavour}: {lost:#?}");
        for dropped in lost
            .iter()
            .filter(|d| breaking(&d.path, &d.keyword).is_none())
        {
            tested.push(format!("{flavour}: {dropped}: not tried here"));
        }
        tested.push(format!(
            "{flavour}: {broken} of {} lost constraint(s) broken",
            lost.len()
        ));
    }
    insta::with_settings!({snapshot_path => "../../goldens", prepend_module_to_snapshot => false, omit_expression => true}, {
        insta::assert_snapshot!("flavour__enforced", tested.join("\n"));
    });
}

#[test]
fn a_gemini_enum_sent_as_text_reads_back_as_its_number() {
    let tool = ToolModel::from_json_schema(
        r#"{"title": "t", "type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2, 3]}, "ratio": {"enum": [0.5, 1.5]}}, "required": ["level"]}"#,
    )
    .unwrap();
    let gemini = tool.schema_for(Flavour::Gemini).unwrap().schema.to_value();
    assert_eq!(
        gemini["properties"]["level"],
        json!({"type": "string", "enum": ["1", "2", "3"]})
    );
    let decoded = toolgate::DynamicTool::from_model(tool)
        .decode(r#"{"level": "2", "ratio": "1.5"}"#)
        .unwrap();
    assert_eq!(decoded.value, json!({"level": 2, "ratio": 1.5}));
    let rules: Vec<&str> = decoded.repairs.iter().map(|r| r.rule.as_str()).collect();
    assert_eq!(rules, ["string_to_number", "string_to_number"]);
}

#[test]
fn each_fixture_tool_in_each_flavour_with_its_report() {
    for case in toolgate_tests::catalogue() {
        for flavour in Flavour::ALL {
            if flavour == Flavour::JsonSchema {
                // The schema goldens (`schema__*`) are this flavour.
                continue;
            }
            let content = match case.model.schema_for(flavour) {
                Ok(flavoured) => {
                    let report: Vec<String> =
                        flavoured.dropped.iter().map(ToString::to_string).collect();
                    format!(
                        "size: {} bytes, ~{} tokens\n\ndropped:\n{}\n\nschema:\n{}\n",
                        flavoured.size.bytes,
                        flavoured.size.tokens,
                        report.join("\n"),
                        serde_json::to_string_pretty(&flavoured.schema).unwrap()
                    )
                }
                Err(error) => format!("refused: {error}\n"),
            };
            let name = format!(
                "flavour__{}__{}",
                case.type_name,
                flavour.name().replace('-', "_")
            );
            insta::with_settings!({snapshot_path => "../../goldens", prepend_module_to_snapshot => false, omit_expression => true}, {
                insta::assert_snapshot!(name, content);
            });
        }
    }
}

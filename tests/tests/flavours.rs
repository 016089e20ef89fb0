//! Provider schema flavours: a conformance checker per flavour, run over the fixture tools,
//! the BFCL corpus and the tools-dev corpus (every tool conforms, or is refused with the
//! limit or the construct named); the dropped constraints still enforced by the gate; and
//! goldens of each fixture tool in OpenAI's strict mode with its report.

use serde_json::{json, Value};
use toolgate::flavour::{Flavour, FlavourError, FlavouredSchema};
use toolgate::model::ToolModel;
use toolgate::{Constraint, Tool};
use toolgate_tests::fixtures::flight::BookFlight;

/// The keywords OpenAI's strict mode accepts.
const STRICT_KEYWORDS: [&str; 20] = [
    "type",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "minItems",
    "maxItems",
    "enum",
    "const",
    "anyOf",
    "$ref",
    "$defs",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
];
const STRICT_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Whether a schema obeys OpenAI's documented strict-mode rules: the object root without
/// `anyOf`; every object closed and every property required; supported keywords and
/// formats only; `$ref` alone; at most 10 levels and 5,000 properties.
fn conforms_openai_strict(schema: &Value) -> Result<(), String> {
    if schema["type"] != "object" || schema.get("anyOf").is_some() {
        return Err("the root is not one object".into());
    }
    let mut properties = 0;
    strict_node(schema, "", 1, &mut properties)?;
    if properties > 5000 {
        return Err(format!("{properties} properties"));
    }
    Ok(())
}

fn strict_node(
    node: &Value,
    path: &str,
    depth: usize,
    properties: &mut usize,
) -> Result<(), String> {
    let Value::Object(map) = node else {
        return Err(format!("{path}: not an object schema"));
    };
    if depth > 10 {
        return Err(format!("{path}: deeper than 10 levels"));
    }
    for keyword in map.keys() {
        if !STRICT_KEYWORDS.contains(&keyword.as_str()) && keyword != "multipleOf" {
            return Err(format!("{path}: keyword {keyword}"));
        }
    }
    if map.contains_key("$ref") && map.len() > 1 {
        return Err(format!("{path}: $ref with siblings"));
    }
    if let Some(format) = map.get("format") {
        if !STRICT_FORMATS.contains(&format.as_str().unwrap_or_default()) {
            return Err(format!("{path}: format {format}"));
        }
    }
    let is_object = map.get("type") == Some(&json!("object")) || map.contains_key("properties");
    if is_object {
        if map.get("additionalProperties") != Some(&json!(false)) {
            return Err(format!("{path}: not closed"));
        }
        let names: Vec<&String> = map
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        *properties += names.len();
        let required: Vec<&str> = map["required"]
            .as_array()
            .ok_or(format!("{path}: no required"))?
            .iter()
            .filter_map(Value::as_str)
            .collect();
        if names.iter().any(|name| !required.contains(&name.as_str()))
            || names.len() != required.len()
        {
            return Err(format!(
                "{path}: required {required:?} is not every property {names:?}"
            ));
        }
        for name in names {
            strict_node(
                &map["properties"][name],
                &format!("{path}/properties/{name}"),
                depth + 1,
                properties,
            )?;
        }
    }
    for keyword in ["items", "prefixItems", "anyOf", "$defs"] {
        match map.get(keyword) {
            Some(Value::Array(items)) => {
                for (index, item) in items.iter().enumerate() {
                    strict_node(
                        item,
                        &format!("{path}/{keyword}/{index}"),
                        depth,
                        properties,
                    )?;
                }
            }
            Some(Value::Object(defs)) if keyword == "$defs" => {
                for (name, def) in defs {
                    strict_node(def, &format!("{path}/$defs/{name}"), depth, properties)?;
                }
            }
            Some(item @ Value::Object(_)) => {
                strict_node(item, &format!("{path}/{keyword}"), depth, properties)?
            }
            _ => {}
        }
    }
    Ok(())
}

/// Whether a schema obeys a flavour's rules.
fn conforms(
    flavour: Flavour,
    model: &ToolModel,
    flavoured: &FlavouredSchema,
) -> Result<(), String> {
    match flavour {
        Flavour::OpenAiStrict => conforms_openai_strict(&flavoured.schema.to_value()),
        Flavour::Anthropic if flavoured.schema.to_value().get("anyOf").is_some() => {
            Err("a union at the root".into())
        }
        Flavour::Mcp | Flavour::OpenAi | Flavour::Anthropic => {
            match flavoured.schema.to_value()["type"] == "object" {
                true => Ok(()),
                false => Err("the root is not an object".into()),
            }
        }
        Flavour::JsonSchema => match flavoured.schema.to_string() == model.json_schema() {
            true => Ok(()),
            false => Err("the schema changed".into()),
        },
        other => Err(format!("no checker for {other}")),
    }
}

/// Per flavour: (conform, refused, dropped keywords in all) over `models`.
fn tally(models: &[ToolModel]) -> Vec<(Flavour, usize, usize, usize)> {
    Flavour::ALL
        .into_iter()
        .map(|flavour| {
            let (mut conform, mut refused, mut dropped) = (0, 0, 0);
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
                    }
                    Err(FlavourError::OverLimit { limit, .. }) => {
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
            (flavour, conform, refused, dropped)
        })
        .collect()
}

fn print(corpus: &str, tally: &[(Flavour, usize, usize, usize)]) {
    println!("{corpus}: flavour, tools conform, tools refused, dropped keywords a conforming tool");
    for (flavour, conform, refused, dropped) in tally {
        println!(
            "  {flavour}: {conform}, {refused}, {:.2}",
            *dropped as f64 / (*conform).max(1) as f64
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

    let bfcl = toolgate_tests::corpus::corpus_models();
    let bfcl_tally = tally(&bfcl);
    print("BFCL", &bfcl_tally);
    let tools_dev: Vec<ToolModel> = toolgate_tests::tools_dev::corpus_models()
        .into_iter()
        .filter_map(Result::ok)
        .collect();
    let dev_tally = tally(&tools_dev);
    print("tools-dev", &dev_tally);
    for (flavour, conform, refused, _) in bfcl_tally.iter().chain(&dev_tally) {
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

#[test]
fn each_fixture_tool_in_strict_mode_with_its_report() {
    for case in toolgate_tests::catalogue() {
        let content = match case.model.schema_for(Flavour::OpenAiStrict) {
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
        insta::with_settings!({snapshot_path => "../../goldens", prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!(format!("flavour__{}__openai_strict", case.type_name), content);
        });
    }
}

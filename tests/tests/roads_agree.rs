//! Property: every road gives the same answer, on random values and on random mutations of
//! them (lossless mistakes and real errors):
//! - a generated type's decoding (`Tool::decode`) and a `DynamicTool` built from the type's
//!   JSON Schema text: the same value, repairs, issues and hint;
//! - the text and the `serde_json::Value` of the same JSON (`DynamicTool::decode_value`):
//!   the same value, repairs and issues;
//! - the value checker (`ToolModel::check_against`, which examples and defaults take) and the
//!   text road with every repair off: the same issues;
//! - the generated checks over Rust values (`Tool::validate`) and the decoder over the
//!   value's JSON: the same issues; and every value the decoder gives passes them.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolgate::decode::{Decoded, Options, Rejected, Repair, Rule};
use toolgate::model::ToolModel;
use toolgate::{DynamicTool, Report, Tool, ToolArg};
use toolgate_tests::fixtures::flight::{BookFlight, Cabin, Contact};
use toolgate_tests::fixtures::search::SearchDocs;

/// One way a model gets the arguments wrong.
#[derive(Clone, Debug)]
enum Mutation {
    NumberAsString(&'static str),
    BoolAsString(&'static str),
    ArrayAsJsonString(&'static str),
    EnumInUpperCase(&'static str),
    KeyInCamelCase(&'static str),
    Remove(&'static str),
    Unknown,
    WrongType(&'static str),
    Fenced,
    DoubleEncoded,
    Truncated,
}

fn apply(mutation: &Mutation, value: &Value) -> String {
    let mut object = value.as_object().cloned().unwrap_or_default();
    match mutation {
        Mutation::NumberAsString(key) | Mutation::BoolAsString(key) => {
            if let Some(member) = object.get_mut(*key) {
                *member = Value::String(member.to_string());
            }
        }
        Mutation::ArrayAsJsonString(key) => {
            if let Some(member) = object.get_mut(*key) {
                *member = Value::String(member.to_string());
            }
        }
        Mutation::EnumInUpperCase(key) => {
            if let Some(Value::String(text)) = object.get_mut(*key) {
                *text = text.to_uppercase();
            }
        }
        Mutation::KeyInCamelCase(key) => {
            if let Some(member) = object.remove(*key) {
                let camel: String = key
                    .split('_')
                    .enumerate()
                    .map(|(i, p)| {
                        if i == 0 {
                            p.to_owned()
                        } else {
                            p[..1].to_uppercase() + &p[1..]
                        }
                    })
                    .collect();
                object.insert(camel, member);
            }
        }
        Mutation::Remove(key) => {
            object.remove(*key);
        }
        Mutation::Unknown => {
            object.insert("surprise".into(), json!(1));
        }
        Mutation::WrongType(key) => {
            object.insert((*key).into(), json!({"value": [1, 2]}));
        }
        Mutation::Fenced => return format!("```json\n{}\n```", Value::Object(object)),
        Mutation::DoubleEncoded => {
            return Value::String(Value::Object(object).to_string()).to_string()
        }
        Mutation::Truncated => {
            let text = Value::Object(object).to_string();
            return text[..text.len() * 2 / 3].to_owned();
        }
    }
    Value::Object(object).to_string()
}

fn mutation(
    numbers: &'static [&'static str],
    bools: &'static [&'static str],
    arrays: &'static [&'static str],
    enums: &'static [&'static str],
    keys: &'static [&'static str],
) -> impl Strategy<Value = Option<Mutation>> {
    let pick = |names: &'static [&'static str]| proptest::sample::select(names.to_vec());
    proptest::option::weighted(
        0.8,
        prop_oneof![
            pick(numbers).prop_map(Mutation::NumberAsString),
            pick(bools).prop_map(Mutation::BoolAsString),
            pick(arrays).prop_map(Mutation::ArrayAsJsonString),
            pick(enums).prop_map(Mutation::EnumInUpperCase),
            pick(keys).prop_map(Mutation::KeyInCamelCase),
            pick(keys).prop_map(Mutation::Remove),
            Just(Mutation::Unknown),
            pick(keys).prop_map(Mutation::WrongType),
            Just(Mutation::Fenced),
            Just(Mutation::DoubleEncoded),
            Just(Mutation::Truncated),
        ],
    )
}

/// Issues as comparable lines, sorted: a `serde_json::Value` keeps its keys sorted where the
/// text keeps them as sent, so the same issues may come in another order.
fn issue_lines(report: &Report) -> Vec<String> {
    let mut lines: Vec<String> = report
        .issues()
        .iter()
        .map(|i| format!("{} {} {}", i.path, i.constraint, i.message))
        .collect();
    lines.sort();
    lines
}

/// Repairs as comparable lines, sorted (see [`issue_lines`]).
fn repair_lines(repairs: &[Repair]) -> Vec<String> {
    let mut lines: Vec<String> = repairs
        .iter()
        .map(|r| format!("{} {} {} {}", r.path, r.rule.as_str(), r.from, r.to))
        .collect();
    lines.sort();
    lines
}

/// The outcome as comparable lines: the value, or the issues; and the repairs.
fn outcome(
    decoded: &Result<Decoded<Value>, Rejected>,
) -> (Result<Value, Vec<String>>, Vec<String>) {
    match decoded {
        Ok(decoded) => (Ok(decoded.value.clone()), repair_lines(&decoded.repairs)),
        Err(rejected) => (
            Err(issue_lines(&rejected.report)),
            repair_lines(&rejected.repairs),
        ),
    }
}

/// The text road and the value road of the same JSON, and the value checker against the
/// text road with repairs off.
fn value_roads_agree(dynamic: &DynamicTool, text: &str) -> Result<(), TestCaseError> {
    let Ok(parsed) = serde_json::from_str::<Value>(text) else {
        return Ok(()); // Not strict JSON: only the text road reads it.
    };
    let by_text = outcome(&dynamic.decode(text));
    let by_value = outcome(&dynamic.decode_value(&parsed));
    prop_assert_eq!(by_text, by_value, "text and value roads on {}", text);

    let model = dynamic.model();
    let checked = model.check_against(model.input(), &parsed);
    let unrepaired = DynamicTool::from_model(model.clone())
        .with_options(Options::strict().with(Rule::FloatToInteger))
        .decode(text);
    match (&checked, &unrepaired) {
        (Ok(()), Ok(decoded)) => prop_assert!(decoded.repairs.is_empty(), "{}", text),
        (Err(report), Err(rejected)) => prop_assert_eq!(
            issue_lines(report),
            issue_lines(&rejected.report),
            "checker and strict text road on {}",
            text
        ),
        _ => prop_assert!(
            false,
            "the checker says {:?}, the strict text road {:?}, on {}",
            checked.as_ref().err().map(issue_lines),
            unrepaired.as_ref().err().map(|r| issue_lines(&r.report)),
            text
        ),
    }
    Ok(())
}

/// A Rust value's generated checks and the decoder over its JSON: the same issues.
fn checks_agree<T: Tool>(value: &T) -> Result<(), TestCaseError> {
    let json = value.to_json_value();
    let decoded = toolgate_core::decode::decode_value(T::model(), &json, &Options::typed());
    match (value.validate(), decoded) {
        (Ok(()), Ok(_)) => {}
        (Err(report), Err(rejected)) => prop_assert_eq!(
            issue_lines(&report),
            issue_lines(&rejected.report),
            "validate() and the decoder on {}",
            json
        ),
        (validated, decoded) => prop_assert!(
            false,
            "validate() says {:?}, the decoder {:?}, on {}",
            validated.err().map(|r| issue_lines(&r)),
            decoded.err().map(|r| issue_lines(&r.report)),
            json
        ),
    }
    Ok(())
}

/// Every road on the same text: the same outcome, value, repairs and issues.
fn agree<T: Tool + serde::de::DeserializeOwned>(text: &str) -> Result<(), TestCaseError> {
    let dynamic = DynamicTool::from_model(ToolModel::from_json_schema(T::json_schema()).unwrap())
        .with_options(Options::typed());
    value_roads_agree(&dynamic, text)?;
    let generated = T::decode(text);
    let run_time = dynamic.decode(text);
    match (generated, run_time) {
        (Ok(generated), Ok(run_time)) => {
            // What the decoder gives passes the generated checks.
            prop_assert!(generated.value.validate().is_ok(), "{}", text);
            prop_assert_eq!(generated.value.to_json_value(), run_time.value, "{}", text);
            prop_assert_eq!(generated.repairs, run_time.repairs, "{}", text);
        }
        (Err(generated), Err(run_time)) => {
            prop_assert_eq!(&generated.report, &run_time.report, "{}", text);
            prop_assert_eq!(&generated.repairs, &run_time.repairs, "{}", text);
            prop_assert_eq!(generated.hint(), run_time.hint(), "{}", text);
        }
        (generated, run_time) => prop_assert!(
            false,
            "the roads disagree on {}: {:?} vs {:?}",
            text,
            generated.map(|d| d.repairs),
            run_time.map(|d| d.repairs)
        ),
    }
    Ok(())
}

fn cabin() -> impl Strategy<Value = Cabin> {
    proptest::sample::select(toolgate_tests::CABINS.to_vec())
}

prop_compose! {
    fn flight()(
        origin in "[A-Z]{3}", destination in "[A-Z]{2,3}", passengers in 0u8..12, cabin in cabin(),
        max_price in 0.0f64..5000.0, refundable in any::<bool>(),
        loyalty_ids in proptest::collection::vec("[A-Z0-9]{3,12}", 0..6),
        email in "[a-z]{1,6}@[a-z]{1,6}\\.com", phone in proptest::option::of("\\+[1-9][0-9]{6,12}"),
        notes in proptest::option::of("[a-z ]{0,12}"),
    ) -> BookFlight {
        BookFlight { origin, destination, date: "2026-12-24".into(), passengers, cabin, max_price, refundable, loyalty_ids, contact: Contact { email, phone }, notes }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn flights_decode_the_same_on_both_roads(
        value in flight(),
        mutation in mutation(&["passengers", "max_price"], &["refundable"], &["loyalty_ids"], &["cabin"], &["max_price", "loyalty_ids", "origin"]),
    ) {
        checks_agree(&value)?;
        let json = value.to_json_value();
        let text = match &mutation { Some(m) => apply(m, &json), None => json.to_string() };
        agree::<BookFlight>(&text)?;
    }

    #[test]
    fn searches_decode_the_same_on_both_roads(
        query in "[a-z ]{0,8}", max_results in 0u32..60, tags in proptest::collection::vec("[a-z][a-z0-9-]{0,4}", 0..4),
        mutation in mutation(&["maxResults", "min_score"], &["maxResults"], &["tags"], &["queryText"], &["queryText", "maxResults"]),
    ) {
        checks_agree(&SearchDocs {
            query_text: query.clone(),
            max_results,
            tags: tags.clone(),
            filters: Default::default(),
            section_weights: Default::default(),
            backend_options: json!({"depth": [max_results, query.clone()]}),
            threshold: f64::from(max_results % 3) * 0.4,
        })?;
        let json = json!({"queryText": query, "maxResults": max_results, "tags": tags, "min_score": 0.5});
        let text = match &mutation { Some(m) => apply(m, &json), None => json.to_string() };
        agree::<SearchDocs>(&text)?;
    }
}

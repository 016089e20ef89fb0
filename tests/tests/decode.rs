//! Typed decoding (`Tool::decode`) and the serde adapter `Lenient<T>` on the fixture types.

use serde_json::json;
use toolgate::decode::Rule;
use toolgate::{Constraint, Lenient, Tool};
use toolgate_tests::fixtures::event::{CreateEvent, Priority};
use toolgate_tests::fixtures::flight::{BookFlight, Cabin};
use toolgate_tests::fixtures::search::SearchDocs;
use toolgate_tests::{good_flight, issue_list};

fn rules(repairs: &[toolgate::Repair]) -> Vec<(String, &'static str)> {
    repairs
        .iter()
        .map(|r| (r.path.to_string(), r.rule.as_str()))
        .collect()
}

#[test]
fn a_valid_payload_decodes_untouched() {
    let text = serde_json::to_string(&good_flight()).unwrap();
    let decoded = BookFlight::decode(&text).unwrap();
    assert_eq!(decoded.value, good_flight());
    assert!(decoded.repairs.is_empty());
}

#[test]
fn five_lossless_mistakes_are_repaired_and_logged() {
    let text = r#"{"origin": "CDG", "destination": "JFK", "date": "2026-12-24", "passengers": "2",
        "cabin": "Premium Economy", "max_price": "950.5", "refundable": "yes",
        "loyalty_ids": "[\"AF123456\"]", "contact": {"email": "ada@example.com", "phone": "+33612345678"}}"#;
    let decoded = BookFlight::decode(text).unwrap();
    assert_eq!(decoded.value, good_flight());
    assert_eq!(
        rules(&decoded.repairs),
        [
            ("passengers".to_owned(), "string_to_number"),
            ("cabin".to_owned(), "enum_case"),
            ("max_price".to_owned(), "string_to_number"),
            ("refundable".to_owned(), "string_to_bool"),
            ("loyalty_ids".to_owned(), "json_string"),
        ]
    );
}

#[test]
fn real_errors_are_all_reported_with_a_hint() {
    let text = r#"{"origin": "Paris", "destination": "JFK", "date": "2026-12-24", "passengers": 12,
        "cabin": "luxury", "max_price": 5.5, "refundable": "maybe", "loyalty_ids": [],
        "contact": {"email": "ada.example.com"}, "seat": "12A"}"#;
    let rejected = BookFlight::decode(text).unwrap_err();
    assert_eq!(
        issue_list(&rejected.report),
        [
            ("origin".to_owned(), Constraint::Pattern),
            ("passengers".to_owned(), Constraint::Maximum),
            ("cabin".to_owned(), Constraint::Enum),
            ("refundable".to_owned(), Constraint::Type),
            ("contact.email".to_owned(), Constraint::Format),
            ("seat".to_owned(), Constraint::AdditionalProperties),
        ]
    );
    let hint = rejected.hint();
    assert_eq!(hint.fields.len(), 3);
    assert_eq!(hint.omitted, 3);
    assert!(hint.to_json().len() < 1200, "{}", hint.to_json());
}

#[test]
fn defaults_unknown_keys_and_nulls_follow_serde() {
    let decoded =
        SearchDocs::decode(r#"{"q": "hints", "extra": true, "min_score": null}"#).unwrap();
    assert_eq!(decoded.value.query_text, "hints");
    assert_eq!(decoded.value.max_results, 10);
    assert_eq!(decoded.value.threshold, 0.0);
    let logged = rules(&decoded.repairs);
    assert!(
        logged.contains(&("extra".to_owned(), "drop_unknown_key")),
        "{logged:?}"
    );
    assert!(
        logged.contains(&("min_score".to_owned(), "null_as_absent")),
        "{logged:?}"
    );
    assert!(
        logged.contains(&("maxResults".to_owned(), "default")),
        "{logged:?}"
    );
}

#[test]
fn enum_aliases_and_renames_decode() {
    let decoded = CreateEvent::decode(r#"{"type": "default", "reminders": [5, null]}"#).unwrap();
    assert_eq!(decoded.value.r#type, Priority::Normal);
    assert_eq!(decoded.value.reminders, [Some(5), None]);
    // A variant serde skips on input is refused, as serde refuses it.
    let rejected = CreateEvent::decode(r#"{"type": "Internal"}"#).unwrap_err();
    assert_eq!(rejected.report.issues()[0].constraint, Constraint::Enum);
}

#[test]
fn lenient_gives_serde_the_repairs_and_the_full_report() {
    let lenient: Lenient<BookFlight> = serde_json::from_value(json!({
        "origin": "CDG", "destination": "JFK", "date": "2026-12-24", "passengers": 2.0,
        "cabin": "PREMIUM_ECONOMY", "max_price": 950.5, "refundable": true, "loyalty_ids": "AF123456",
        "contact": {"email": "ada@example.com", "phone": "+33612345678"}
    }))
    .unwrap();
    assert_eq!(lenient.cabin, Cabin::PremiumEconomy);
    assert_eq!(lenient.value, good_flight());
    let logged: Vec<Rule> = lenient.repairs.iter().map(|r| r.rule).collect();
    // A `serde_json::Value` keeps its members in key order, so the repairs come in that order.
    assert_eq!(
        logged,
        [Rule::EnumCase, Rule::WrapInArray, Rule::FloatToInteger]
    );

    let error =
        serde_json::from_str::<Lenient<BookFlight>>(r#"{"origin": "cdg", "passengers": 0}"#)
            .unwrap_err();
    let message = error.to_string();
    // Issues of the values sent come in document order; missing fields have no place in the
    // document and follow, in field order.
    assert!(message.starts_with("origin: \"cdg\" does not match the pattern ^[A-Z]{3}$\npassengers: 0 is less than the minimum 1\ndestination: is required\ndate: is required"), "{message}");
}

#[test]
fn a_default_that_breaks_its_own_constraints_is_refused_not_used() {
    #[derive(Tool, serde::Deserialize, Debug)]
    struct Paged {
        /// Page size
        #[serde(default)]
        #[tool(range(min = 1, max = 50))]
        size: u8,
    }
    // The decoder leaves the field absent (its default 0 is below 1); serde would fill in 0.
    let rejected = Paged::decode("{}").unwrap_err();
    assert_eq!(rejected.report.issues()[0].path.to_string(), "size");
    assert_eq!(rejected.report.issues()[0].constraint, Constraint::Minimum);
    assert_eq!(Paged::decode(r#"{"size": 5}"#).unwrap().value.size, 5);
}

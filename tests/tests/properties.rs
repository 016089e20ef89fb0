//! Properties: on random values of fixture types, `validate` and the `jsonschema` crate
//! (given the emitted schema) find the same issues, and serde and toolgate write the same JSON.

mod common;

use common::{jsonschema_issues, our_issues};
use proptest::prelude::*;
use serde_json::Value;
use toolgate::{Tool, ToolArg};
use toolgate_tests::fixtures::flight::{BookFlight, Cabin, Contact};
use toolgate_tests::fixtures::search::SearchDocs;

fn code() -> impl Strategy<Value = String> {
    prop_oneof!["[A-Z]{3}", "[A-Za-z]{2,4}", "[A-Z0-9 ]{0,5}"]
}

fn date() -> impl Strategy<Value = String> {
    prop_oneof![
        "20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])",
        "20[0-9]{2}-[0-1][0-9]-[0-3][0-9]",
        "[0-9/ -]{0,12}"
    ]
}

fn email() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z]{1,8}@[a-z]{1,8}\\.(com|org|fr)", "[a-z.@]{0,12}"]
}

fn cabin() -> impl Strategy<Value = Cabin> {
    proptest::sample::select(toolgate_tests::CABINS.to_vec())
}

prop_compose! {
    fn flight()(
        origin in code(), destination in code(), date in date(), passengers in any::<u8>(),
        cabin in cabin(), max_price in prop_oneof![-10.0f64..10_000.0, Just(0.0)], refundable in any::<bool>(),
        loyalty_ids in proptest::collection::vec("[A-Z0-9]{1,14}", 0..7),
        email in email(), phone in proptest::option::of("\\+?[0-9]{4,16}"),
        notes in proptest::option::of(".{0,3}"),
    ) -> BookFlight {
        BookFlight { origin, destination, date, passengers, cabin, max_price, refundable, loyalty_ids, contact: Contact { email, phone }, notes }
    }
}

prop_compose! {
    fn search()(
        query_text in ".{0,3}", max_results in 0u32..60, tags in proptest::collection::vec("[a-zA-Z0-9-]{0,4}", 0..4),
        threshold in prop_oneof![(0u32..25).prop_map(|n| f64::from(n) * 0.05), -1.0f64..2.0],
    ) -> SearchDocs {
        SearchDocs { query_text, max_results, tags, filters: Default::default(), section_weights: Default::default(), backend_options: Value::Null, threshold }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn flights_agree_with_jsonschema(value in flight()) {
        let json = value.to_json_value();
        prop_assert_eq!(&json, &serde_json::to_value(&value).unwrap());
        prop_assert_eq!(our_issues(&value.validate()), jsonschema_issues(BookFlight::model(), &json), "{}", json);
    }

    #[test]
    fn searches_agree_with_jsonschema(value in search()) {
        let json = value.to_json_value();
        prop_assert_eq!(our_issues(&value.validate()), jsonschema_issues(SearchDocs::model(), &json), "{}", json);
    }
}

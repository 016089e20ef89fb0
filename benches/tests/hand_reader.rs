//! The typed reader's fast path (issue 44, stage 2) never decides a call otherwise than the
//! full roads: where it reads a value, `Tool::decode` accepts the text as sent (no repair)
//! with the same value; everything else it leaves to them. Calls are generated from
//! `book_flight`'s fields, each value picked from valid, repairable and refused spellings,
//! keys reordered, renamed, left out or added, white space anywhere.

use proptest::prelude::*;
use toolgate::Tool;
use toolgate_bench::{flight, hand};

/// Spellings of each field's value: valid as sent, repairable, refused.
const VALUES: [(&str, &[&str]); 10] = [
    (
        "origin",
        &[
            r#""CDG""#,
            r#""Paris""#,
            r#""cdg""#,
            "null",
            "1",
            r#""C\u0044G""#,
        ],
    ),
    ("destination", &[r#""JFK""#, r#""JF""#, r#"["JFK"]"#]),
    ("date", &[r#""2026-11-22""#, r#""2026-13-40""#, r#""""#]),
    (
        "passengers",
        &[
            "2", "9", "12", "0", r#""2""#, "2.0", "-1", "1e0", "300", "-0",
        ],
    ),
    (
        "cabin",
        &[
            r#""business""#,
            r#""Business""#,
            r#""premium_economy""#,
            r#""luxury""#,
            "3",
        ],
    ),
    (
        "max_price",
        &[
            "450.5",
            "0",
            "-1",
            "1e400",
            r#""450.5""#,
            "7",
            "4.9999999999999999",
            "1e-400",
        ],
    ),
    ("refundable", &["true", "false", r#""true""#, "1", "True"]),
    (
        "loyalty_ids",
        &[
            r#"["AF1234"]"#,
            "[]",
            r#""[\"AF1\"]""#,
            r#"["a","b","c","d","e","f"]"#,
            "[1]",
            "[ ]",
        ],
    ),
    (
        "contact",
        &[
            r#"{"email":"ada@example.com"}"#,
            r#"{"email":"ada.example.com"}"#,
            "{}",
            r#"{"Email":"a@b.co"}"#,
            r#"{"email":"a@b.co","x":1}"#,
        ],
    ),
    ("notes", &[r#""window seat""#, "null", r#""""#, "5"]),
];

fn calls() -> impl Strategy<Value = String> {
    (
        prop::collection::vec((any::<prop::sample::Index>(), 0u8..8, 0u8..6), VALUES.len()),
        any::<prop::sample::Index>(),
        0u8..4,
    )
        .prop_map(|(choices, shift, extra)| {
            let mut members: Vec<String> = Vec::new();
            for ((name, spellings), (value, key, space)) in VALUES.iter().zip(&choices) {
                let value = value.get(spellings);
                let key = match key {
                    0 => continue,
                    1 => name.to_uppercase(),
                    _ => (*name).to_owned(),
                };
                let space = [" ", "", "\n", "", "", ""][usize::from(*space)];
                members.push(format!("{space}\"{key}\"{space}:{space}{value}{space}"));
            }
            if !members.is_empty() && extra == 0 {
                let at = shift.index(members.len());
                members.rotate_left(at);
            }
            if extra == 1 {
                members.push(r#""seat":"12A""#.to_owned());
            }
            if extra == 2 && !members.is_empty() {
                members.push(members[0].clone());
            }
            format!("{{{}}}", members.join(","))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn what_the_reader_reads_every_road_accepts_as_sent(text in calls()) {
        let model = flight::BookFlight::model();
        let read = toolgate_core::__typed::read_typed::<hand::BookFlight>(model, &text);
        let decoded = flight::BookFlight::decode(&text);
        if let Some(read) = read {
            let decoded = decoded.unwrap_or_else(|rejected| panic!("{text}: {}", rejected.hint_json()));
            prop_assert!(decoded.repairs.is_empty(), "{}: {:?}", text, decoded.repairs);
            prop_assert_eq!(format!("{read:?}"), format!("{:?}", decoded.value), "{}", text);
        }
    }
}

#[test]
fn the_valid_call_is_read() {
    let model = flight::BookFlight::model();
    let read = toolgate_core::__typed::read_typed::<hand::BookFlight>(model, toolgate_bench::VALID);
    assert!(read.is_some());
    for text in [
        toolgate_bench::REPAIRABLE,
        toolgate_bench::INVALID,
        toolgate_bench::INVALID_MISSING,
    ] {
        assert!(toolgate_core::__typed::read_typed::<hand::BookFlight>(model, text).is_none());
    }
}

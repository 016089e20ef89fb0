//! The typed reader (issue 44) never decides a call otherwise than the full roads: where it
//! reads a value as sent (`__typed::read_valid`), the run-time road accepts the text as sent,
//! with no repair, and the same value, and serde's own reader (`serde_json::from_str`) reads
//! the same value; where it decides a call (`__typed::read_decided`),
//! repaired or refused, the run-time road with a typed tool's options decides it the same.
//! Calls are generated from `reserve_room`'s
//! fields, each value picked from valid, repairable and refused spellings, keys reordered,
//! renamed, left out, repeated or added, white space around every token; and the class of
//! texts that are not strict JSON around the same members.

use proptest::prelude::*;
use serde::Deserialize;
use toolgate::{Decoded, Rejected};
use toolgate::{Tool, ToolArg};
use toolgate_core::__typed::{read_decided, read_valid};
use toolgate_core::decode;

/// Reserve a room.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct ReserveRoom {
    #[tool(pattern = "^[A-Z]{3}$")]
    hotel: String,
    #[serde(alias = "town")]
    city: String,
    #[tool(format = "date")]
    arrival: String,
    #[tool(range(min = 1, max = 9))]
    nights: u16,
    room: Room,
    #[tool(exclusive_range(min = 0))]
    budget: f64,
    breakfast: bool,
    #[tool(length(max = 5), items(length(min = 4, max = 12)))]
    guests: Vec<String>,
    desk: Desk,
    #[tool(length(max = 500))]
    remark: Option<String>,
    meta: Option<serde_json::Value>,
}

/// Room kind.
#[derive(Tool, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Room {
    Single,
    TwinBeds,
    Suite,
}

/// Where to reach the guest.
#[derive(Tool, Deserialize, Debug, PartialEq)]
struct Desk {
    #[tool(format = "email")]
    mail: String,
}

/// Spellings of each field's value: valid as sent, repairable, refused.
const VALUES: [(&str, &[&str]); 11] = [
    (
        "hotel",
        &[
            r#""CDG""#,
            r#""Paris""#,
            r#""cdg""#,
            "null",
            "1",
            r#""C\u0044G""#,
        ],
    ),
    ("city", &[r#""Lyon""#, r#""""#, r#"["Lyon"]"#, r#""L\"n""#]),
    ("arrival", &[r#""2026-11-22""#, r#""2026-13-40""#, r#""""#]),
    (
        "nights",
        &[
            "2", "9", "12", "0", r#""2""#, "2.0", "-1", "1e0", "300", "-0", "02",
        ],
    ),
    (
        "room",
        &[
            r#""suite""#,
            r#""Suite""#,
            r#""twin_beds""#,
            r#""palace""#,
            "3",
        ],
    ),
    (
        "budget",
        &[
            "450.5",
            "0",
            "-1",
            "1e400",
            r#""450.5""#,
            "7",
            "4.9999999999999999",
            "1e-400",
            "18446744073709551616",
        ],
    ),
    (
        "breakfast",
        &["true", "false", r#""true""#, "1", "True", "nul"],
    ),
    (
        "guests",
        &[
            r#"["Ada L"]"#,
            "[]",
            r#""[\"Ada L\"]""#,
            r#"["Ada L","Ada L"]"#,
            r#"["a1234","b1234","c1234","d1234","e1234","f1234"]"#,
            "[1]",
            "[ ]",
            r#"["Ada L",]"#,
        ],
    ),
    (
        "desk",
        &[
            r#"{"mail":"ada@example.com"}"#,
            r#"{"mail":"ada.example.com"}"#,
            "{}",
            r#"{"Mail":"a@b.co"}"#,
            r#"{"mail":"a@b.co","x":1}"#,
            r#"{"mail":"a@b.co" , }"#,
        ],
    ),
    (
        "remark",
        &[r#""late arrival""#, "null", r#""""#, "5", "// note\n\"a\""],
    ),
    (
        "meta",
        &[
            r#"{"a":[1,"x",null]}"#,
            "2.50",
            "null",
            r#""s""#,
            "18446744073709551616",
            "1e400",
            r#"{"a":1,"a":2}"#,
            "[1,]",
        ],
    ),
];

/// The run-time road on `text`, with a typed tool's options (an undeclared key dropped and
/// logged, where `DynamicTool` keeps it).
fn run_time_road(text: &str) -> Result<Decoded<serde_json::Value>, Rejected> {
    decode::decode_text(
        ReserveRoom::model(),
        text.as_bytes(),
        &decode::Options::typed(),
    )
}

/// The same value, numbers compared by value (the `f64` field's 7 is 7.0 in the Rust value's
/// JSON form), a member that is `null` the same as one left out: an `Option<Value>` reads
/// `null` as `None` (as serde does), where the run-time road keeps the `null`.
fn same_value(read: &serde_json::Value, decoded: &serde_json::Value) -> bool {
    fn without_nulls(value: &serde_json::Value) -> serde_json::Value {
        match value {
            serde_json::Value::Object(members) => members
                .iter()
                .filter(|(_, member)| !member.is_null())
                .map(|(key, member)| (key.clone(), without_nulls(member)))
                .collect(),
            other => other.clone(),
        }
    }
    toolgate_core::values::json_equal(&without_nulls(read), &without_nulls(decoded))
}

/// A choice that is mostly the first (the valid spelling, the exact key), so most calls
/// carry one or two mistakes and many none.
fn mostly_first(most: u8) -> impl Strategy<Value = u8> {
    prop_oneof![12 => Just(0u8), 1 => 0..most]
}

fn calls() -> impl Strategy<Value = String> {
    (
        prop::collection::vec((mostly_first(16), mostly_first(8), 0u8..6), VALUES.len()),
        any::<prop::sample::Index>(),
        0u8..8,
    )
        .prop_map(|(choices, shift, extra)| {
            let mut members: Vec<String> = Vec::new();
            for ((name, spellings), (value, key, space)) in VALUES.iter().zip(&choices) {
                let value = spellings[usize::from(*value) % spellings.len()];
                let key = match key {
                    1 => continue,
                    2 => name.to_uppercase(),
                    3 if *name == "city" => "town".to_owned(),
                    _ => (*name).to_owned(),
                };
                let space = [" ", "", "\n", "", "\t", ""][usize::from(*space)];
                members.push(format!("{space}\"{key}\"{space}:{space}{value}{space}"));
            }
            match extra {
                0 if !members.is_empty() => {
                    let at = shift.index(members.len());
                    members.rotate_left(at);
                }
                1 => members.push(r#""seat":"12A""#.to_owned()),
                2 if !members.is_empty() => members.push(members[0].clone()),
                _ => {}
            }
            let text = format!("{{{}}}", members.join(","));
            match extra {
                3 => format!("```json\n{text}\n```"),
                4 => format!("{text} trailing"),
                _ => text,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn what_the_reader_reads_the_run_time_road_accepts_as_sent(text in calls()) {
        let Some(read) = read_valid::<ReserveRoom>(&text) else {
            return Ok(());
        };
        let decoded = run_time_road(&text)
            .unwrap_or_else(|rejected| panic!("{text}: {}", rejected.hint_json()));
        prop_assert!(decoded.repairs.is_empty(), "{}: {:?}", text, decoded.repairs);
        // Numbers compare by value: the `f64` field's 7 is 7.0 in the Rust value's JSON form.
        let same = same_value(&read.to_json_value(), &decoded.value);
        prop_assert!(same, "{}: {:?} against {:?}", text, read, decoded.value);
        // serde's own reader takes the same text to the same value (issue 44 §5: serde and
        // the reader agree on every canonical text the reader accepts).
        let by_serde = serde_json::from_str::<ReserveRoom>(&text);
        prop_assert!(by_serde.as_ref().is_ok_and(|value| *value == read), "{}: {:?}", text, by_serde);
        // The typed road answers the same.
        let typed = ReserveRoom::decode(&text).expect("accepted");
        prop_assert_eq!(typed.value, read);
    }

    /// Where the reader decides a call, repaired or refused, the run-time road decides it the
    /// same: the same value and repairs, or the same issues and repairs.
    #[test]
    fn what_the_reader_decides_the_run_time_road_decides(text in calls()) {
        let Some(decided) = read_decided::<ReserveRoom>(&text) else {
            return Ok(());
        };
        match (decided, run_time_road(&text)) {
            (Ok(read), Ok(decoded)) => {
                let same = same_value(&read.value.to_json_value(), &decoded.value);
                prop_assert!(same, "{}: {:?} against {:?}", text, read.value, decoded.value);
                prop_assert_eq!(&read.repairs, &decoded.repairs, "{}", text);
                prop_assert_eq!(read.repairs_left_out, decoded.repairs_left_out);
            }
            (Err((report, repairs)), Err(rejected)) => {
                prop_assert_eq!(&report, &rejected.report, "{}", text);
                prop_assert_eq!(&repairs, &rejected.repairs, "{}", text);
            }
            (read, dynamic) => prop_assert!(
                false,
                "{}: the reader {:?}, the run-time road {:?}",
                text,
                read.map(|read| read.repairs).map_err(|(report, _)| report),
                dynamic.map(|decoded| decoded.value).map_err(|rejected| rejected.report),
            ),
        }
    }
}

#[test]
fn the_valid_call_is_read_and_the_others_are_left_to_the_full_roads() {
    let valid = r#"{"hotel":"CDG","city":"Lyon","arrival":"2026-11-22","nights":2,"room":"suite","budget":450.5,"breakfast":true,"guests":["Ada L"],"desk":{"mail":"ada@example.com"}}"#;
    assert!(read_valid::<ReserveRoom>(valid).is_some());
    for text in [
        valid.replace("\"nights\":2", "\"nights\":\"2\""),
        valid.replace("suite", "Suite"),
        valid.replace("CDG", "Paris"),
        valid.replace("\"arrival\":\"2026-11-22\",", ""),
        format!("```json\n{valid}\n```"),
    ] {
        assert!(read_valid::<ReserveRoom>(&text).is_none(), "{text}");
    }
}

#[test]
fn keys_the_object_rules_decide_are_read_too() {
    let valid = r#"{"hotel":"CDG","city":"Lyon","arrival":"2026-11-22","nights":2,"room":"suite","budget":450.5,"breakfast":true,"guests":["Ada L"],"desk":{"mail":"ada@example.com"}}"#;
    for (text, rule) in [
        (
            valid.replace("\"nights\"", "\"NIGHTS\""),
            toolgate::Rule::KeyCase,
        ),
        (
            valid.replace("\"desk\"", "\"seat\":\"12A\",\"desk\""),
            toolgate::Rule::DropUnknownKey,
        ),
    ] {
        let decided = read_decided::<ReserveRoom>(&text)
            .expect("decided")
            .expect("accepted");
        assert_eq!(decided.repairs.len(), 1, "{text}");
        assert_eq!(decided.repairs[0].rule, rule, "{text}");
    }
    // `null` for an optional field: decided by the reader as the run-time road decides it.
    let text = valid.replace("}}", "},\"remark\":null}");
    let decided = read_decided::<ReserveRoom>(&text)
        .expect("decided")
        .expect("accepted");
    assert_eq!(decided.value.remark, None);
    assert_eq!(decided.repairs, run_time_road(&text).unwrap().repairs);
    // A required field left out after a key the rules decide: refused by the reader.
    let text = valid
        .replace("\"nights\"", "\"NIGHTS\"")
        .replace("\"arrival\":\"2026-11-22\",", "");
    let (report, repairs) = read_decided::<ReserveRoom>(&text)
        .expect("decided")
        .expect_err("refused");
    assert_eq!(report.len(), 1);
    assert_eq!(repairs[0].rule, toolgate::Rule::KeyCase);
}

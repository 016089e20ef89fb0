use serde_json::json;

use super::shorten::cut;
use super::*;

#[test]
fn push_json_writes_what_display_writes() {
    let values = [
        json!("business"),
        json!(""),
        json!("say \"hi\""),
        json!("back\\slash"),
        json!("tab\there"),
        json!("\u{1}"),
        json!("\u{7f} and é and 東京"),
        json!(12),
        json!(-0.5),
        json!(null),
        json!([1, "a"]),
        json!({"k": "v"}),
    ];
    for value in values {
        let mut out = String::from("> ");
        push_json(&mut out, &value);
        assert_eq!(out, format!("> {value}"), "{value:?}");
    }
}

#[test]
fn constraint_names_round_trip() {
    for constraint in Constraint::ALL {
        assert_eq!(constraint.as_str().parse::<Constraint>(), Ok(constraint));
        let json = serde_json::to_value(constraint).unwrap();
        assert_eq!(json, json!(constraint.as_str()));
    }
    assert!("Required".parse::<Constraint>().is_err());
}

#[test]
fn issue_serialises_without_absent_parts() {
    let issue = Issue::new(
        Path::root().key("origin"),
        Constraint::Required,
        "is required",
    );
    assert_eq!(
        serde_json::to_value(&issue).unwrap(),
        json!({"path": "origin", "constraint": "required", "message": "is required"})
    );
    let issue = Issue::new(
        Path::root().key("n"),
        Constraint::Maximum,
        "12 is above the maximum 9",
    )
    .with_expected(json!(9))
    .with_got(json!(12));
    let text = serde_json::to_string(&issue).unwrap();
    assert_eq!(
        text,
        r#"{"path":"n","constraint":"maximum","expected":9,"got":12,"message":"12 is above the maximum 9"}"#
    );
    assert_eq!(serde_json::from_str::<Issue>(&text).unwrap(), issue);
    assert_eq!(issue.to_string(), "n: 12 is above the maximum 9");
}

/// What `shorten` wrote before it stopped writing at the cap: the whole text, then cut.
fn shorten_by_whole_text(value: Value) -> Value {
    match &value {
        Value::Array(_) | Value::Object(_) => {
            cut(&value.to_string()).map(Value::String).unwrap_or(value)
        }
        _ => shorten(value),
    }
}

#[test]
fn shortening_writes_no_more_than_it_keeps_and_keeps_the_same() {
    let values = [
        json!((0..100_000).collect::<Vec<_>>()),
        json!(["é".repeat(40), "ü".repeat(40), {"k": "字".repeat(300)}]),
        json!({"a": "x".repeat(75)}),
        json!({"a": "x".repeat(76)}),
        json!(["😀".repeat(79)]),
        json!([[[["deep"]]], {"z": 1, "a": [true, null, 1.5]}]),
        json!([]),
    ];
    for value in values {
        assert_eq!(
            shorten(value.clone()),
            shorten_by_whole_text(value.clone()),
            "{value}"
        );
    }
    // The tree form agrees with the value form (key order kept: these keys are sorted).
    let json = crate::model::Json::from(&json!({"a": "é".repeat(100), "b": [1, 2]}));
    assert_eq!(shorten_json(&json), shorten(json.to_value()));
    assert_eq!(
        shorten_json(&crate::model::Json::from(&json!([1, 2]))),
        json!([1, 2])
    );
    assert_eq!(
        shorten_str(&"y".repeat(500)),
        shorten(json!("y".repeat(500)))
    );
}

#[test]
fn shortens_long_values() {
    let array = json!((0..100).collect::<Vec<_>>());
    let short = shorten(array);
    assert!(short.as_str().unwrap().ends_with('…'));
    assert_eq!(shorten(json!([1, 2])), json!([1, 2]));
    let text: String = "é".repeat(81);
    assert_eq!(shorten(json!(text)).as_str().unwrap().chars().count(), 81);
}

#[test]
fn report_caps_and_counts() {
    let mut report = Report::new();
    for index in 0..130 {
        report.push(Issue::new(
            Path::root().index(index),
            Constraint::Type,
            "wrong type",
        ));
    }
    assert_eq!(report.len(), 101);
    assert_eq!(report.left_out(), 30);
    let last = report.issues().last().unwrap();
    assert_eq!(last.constraint, Constraint::Limit);
    assert_eq!(last.message, "30 more issues not shown");
    assert_eq!(last.got, Some(json!(130)));
    assert_eq!(report.issues()[99].path, Path::root().index(99));
}

#[test]
fn one_left_out_is_singular() {
    let mut report = Report::with_cap(1);
    report.push(Issue::new(Path::root(), Constraint::Type, "a"));
    report.push(Issue::new(Path::root(), Constraint::Type, "b"));
    assert_eq!(report.issues()[1].message, "1 more issue not shown");
    assert!(report.into_result().is_err());
    assert!(Report::new().into_result().is_ok());
}

mod json_length {
    use proptest::prelude::*;

    use super::super::shorten::JsonLength;
    use crate::model::Json;

    use crate::test_support::json_value as value;

    proptest! {
        /// The bound is never short of the text, on values and on the reader's trees, and
        /// an echoed value is cut exactly where writing it whole would cut it.
        #[test]
        fn the_bound_is_never_short_of_the_text(value in value(), room in 0usize..200) {
            let text = serde_json::to_string(&value).unwrap();
            let mut left = room;
            if value.fits_in(&mut left) {
                prop_assert!(text.len() <= room, "{text} in {room}");
            }
            let json = Json::from(&value);
            let mut left = room;
            if json.fits_in(&mut left) {
                prop_assert!(serde_json::to_string(&json).unwrap().len() <= room);
            }
            let cut_whole = super::super::shorten::cut(&text);
            prop_assert_eq!(super::super::shorten::capped_json_text(&value), cut_whole.clone());
            prop_assert_eq!(super::super::shorten::capped_json_text(&json), cut_whole);
        }
    }
}

proptest::proptest! {
    /// The eight-bytes-at-a-time scan answers as a byte-by-byte one, wherever in the text
    /// (and in its last bytes past a whole word) an escaped byte falls.
    #[test]
    fn needs_escape_answers_as_a_byte_scan(text in "[a-z \"\\\\\u{0}-\u{1f}\u{7f}é東\u{80}-\u{ff}]{0,40}") {
        let bytewise = text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
        proptest::prop_assert_eq!(super::needs_escape(&text), bytewise);
    }
}

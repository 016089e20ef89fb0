//! Issue 27 §1: an integer made of a number written with a fraction or an exponent (or a
//! string holding one) is the integer its digits say, or it is refused; never a float in
//! between.

use super::*;
use crate::model::{Schema, UnionMode};

fn u64_schema() -> Schema {
    Schema::integer_of(IntWidth {
        bits: 64,
        signed: false,
    })
}

fn u128_schema() -> Schema {
    Schema::integer_of(IntWidth {
        bits: 128,
        signed: false,
    })
}

fn integer_enum(values: &[u64]) -> Schema {
    let values = values.iter().map(|&v| EnumValue {
        value: json!(v),
        aliases: Vec::new(),
    });
    Schema::enumeration(values.collect())
}

#[test]
fn the_reproduction_keeps_its_digits() {
    let model = tool_x(Schema::integer());
    let decoded = accept_text(&model, r#"{"x": 9007199254740993.0}"#);
    assert_eq!(decoded.value, json!({"x": 9_007_199_254_740_993u64}));
    assert_eq!(rules(&decoded.repairs), [Rule::FloatToInteger]);
    assert_eq!(decoded.repairs[0].to, json!(9_007_199_254_740_993u64));
    let model = tool_x(Schema::array(Schema::integer()));
    let decoded = accept_text(&model, r#"{"x": [9007199254740993.0, 7]}"#);
    assert_eq!(decoded.value, json!({"x": [9_007_199_254_740_993u64, 7]}));
}

#[test]
fn every_integral_spelling_gives_the_digits() {
    let model = tool_x(Schema::integer());
    for text in [
        "9007199254740993.0",
        "9007199254740993.000",
        "9007199254740993e0",
        "90071992547409930e-1",
        "9.007199254740993e15",
        "0.9007199254740993E+16",
    ] {
        let decoded = accept_text(&model, &format!(r#"{{"x": {text}}}"#));
        assert_eq!(
            decoded.value["x"],
            json!(9_007_199_254_740_993u64),
            "{text}"
        );
        let decoded = accept_text(&model, &format!(r#"{{"x": "{text}"}}"#));
        assert_eq!(
            decoded.value["x"],
            json!(9_007_199_254_740_993u64),
            "{text:?}"
        );
        assert_eq!(rules(&decoded.repairs), [Rule::StringToNumber]);
    }
    let decoded = accept_text(&model, r#"{"x": 18446744073709551615.0}"#);
    assert_eq!(decoded.value["x"], json!(u64::MAX));
    let decoded = accept_text(&model, r#"{"x": -9223372036854775808e0}"#);
    assert_eq!(decoded.value["x"], json!(i64::MIN));
}

#[test]
fn outside_the_width_is_its_bound_beyond_a_value_is_a_limit() {
    // `u64`'s maximum and a 128-bit width's range are the carried integers' edges (issue 43
    // §4, §8): past them, a `limit` issue.
    let rejected = refuse_text(&tool_x(u64_schema()), r#"{"x": 18446744073709551616.0}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Limit)]));
    assert!(
        rejected.report.issues()[0]
            .message
            .contains("18446744073709551616"),
        "{}",
        rejected.report
    );
    for text in [
        r#"{"x": 18446744073709551616.0}"#,
        r#"{"x": 18446744073709551616}"#,
        r#"{"x": "1e30"}"#,
    ] {
        let rejected = refuse_text(&tool_x(u128_schema()), text);
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Limit)]),
            "{text}"
        );
        let rejected = refuse_text(&tool_x(Schema::integer()), text);
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Limit)]),
            "{text}"
        );
        assert_eq!(rejected.repairs, vec![]);
    }
    // Beyond 128 bits: past what any value carries.
    let rejected = refuse_text(&tool_x(u128_schema()), r#"{"x": 1e40}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Limit)]));
    let rejected = refuse_text(&tool_x(u8_schema()), r#"{"x": "-1e999999"}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Minimum)]));
}

#[test]
fn fractions_stay_refused() {
    let model = tool_x(Schema::integer());
    for text in [
        r#"{"x": 9007199254740993.5}"#,
        r#"{"x": "9007199254740992.5"}"#,
        r#"{"x": 1.0000000000000001}"#,
        r#"{"x": "1e-400"}"#,
    ] {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Type)]),
            "{text}"
        );
    }
}

#[test]
fn integer_enums_and_consts_compare_the_digits() {
    let model = tool_x(integer_enum(&[9_007_199_254_740_992, 7]));
    let rejected = refuse_text(&model, r#"{"x": 9007199254740993.0}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Enum)]));
    assert_eq!(
        rejected.report.issues()[0].got,
        Some(json!(9_007_199_254_740_993u64))
    );
    let rejected = refuse_text(&model, r#"{"x": "9007199254740993.0"}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Enum)]));
    let model = tool_x(integer_enum(&[9_007_199_254_740_993]));
    let decoded = accept_text(&model, r#"{"x": 9.007199254740993e15}"#);
    assert_eq!(decoded.value["x"], json!(9_007_199_254_740_993u64));
    assert_eq!(rules(&decoded.repairs), [Rule::FloatToInteger]);
    let decoded = accept_text(&model, r#"{"x": "9007199254740993.0"}"#);
    assert_eq!(decoded.value["x"], json!(9_007_199_254_740_993u64));

    let mut constant = Schema::any();
    constant.constant = Some(json!(9_007_199_254_740_992u64));
    let model = tool_x(constant);
    let rejected = refuse_text(&model, r#"{"x": 9007199254740993.0}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Const)]));
    let mut constant = Schema::integer();
    constant.constant = Some(json!(9_007_199_254_740_992u64));
    let rejected = refuse_text(&tool_x(constant), r#"{"x": 9007199254740993.0}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Const)]));
}

#[test]
fn a_value_without_text_is_taken_as_serde_json_writes_it() {
    // The float 2^63 is written `9.223372036854776e18`: those are its digits, on the value
    // road as on the text road of the same JSON.
    let model = tool_x(Schema::integer());
    let float = json!({"x": 9_223_372_036_854_775_808.0f64});
    let text = serde_json::to_string(&float).unwrap();
    let by_value = accept(&model, float);
    let by_text = accept_text(&model, &text);
    assert_eq!(by_value.value, by_text.value);
    assert_eq!(by_value.value["x"], json!(9_223_372_036_854_776_000u64));
}

#[test]
fn schema_text_keeps_the_digits_of_its_integers() {
    let model = ToolModel::from_json_schema(
        r#"{"title": "t", "type": "object", "properties": {
            "fixed": {"type": "integer", "const": 9007199254740993.0},
            "picked": {"type": "integer", "enum": [9.007199254740993e15, 2]},
            "capped": {"type": "integer", "maximum": 9007199254740993.0},
            "given": {"type": "integer", "default": 90071992547409930e-1},
            "plain": {"type": "integer", "default": 5.0}
        }}"#,
    )
    .unwrap();
    let decoded = accept_text(
        &model,
        r#"{"fixed": 9007199254740993, "picked": 9007199254740993, "capped": 9007199254740993}"#,
    );
    assert_eq!(decoded.value["given"], json!(9_007_199_254_740_993u64));
    // An integer field's default written as a float is handed on as the integer.
    assert_eq!(decoded.value["plain"], json!(5));
    assert!(decoded.value["plain"].is_u64());
    let rejected = refuse_text(
        &model,
        r#"{"fixed": 9007199254740992, "picked": 9007199254740992, "capped": 9007199254740994}"#,
    );
    assert_eq!(
        issues(&rejected),
        expect(&[
            ("fixed", Constraint::Const),
            ("picked", Constraint::Enum),
            ("capped", Constraint::Maximum),
        ])
    );
    // A float that keeps its digits stays a float in the schema written back.
    assert!(
        model.json_schema().contains(r#""default":5.0"#),
        "{}",
        model.json_schema()
    );
}

#[test]
fn check_value_judges_the_integer_of_the_digits() {
    let issues_of = |schema: Schema, value: Value| {
        let model = tool_x(schema);
        let mut checker = crate::Checker::new(&model);
        checker.check_value(&json!({ "x": value }), model.input());
        match checker.finish() {
            Ok(()) => Vec::new(),
            Err(report) => report
                .issues()
                .iter()
                .map(|issue| issue.constraint)
                .collect(),
        }
    };
    // A float is the integer its shortest text says.
    assert_eq!(issues_of(u64_schema(), json!(9_007_199_254_740_994.0)), []);
    // `u64`'s maximum is the carried integers' edge, not a bound of its own: `limit`.
    assert_eq!(issues_of(u64_schema(), json!(1e20)), [Constraint::Limit]);
    assert_eq!(
        issues_of(Schema::integer(), json!(1e20)),
        [Constraint::Limit]
    );
    assert_eq!(issues_of(u128_schema(), json!(-1.0)), [Constraint::Minimum]);
    let mut constant = Schema::integer();
    constant.constant = Some(json!(9_007_199_254_740_994u64));
    assert_eq!(
        issues_of(constant.clone(), json!(9_007_199_254_740_994.0)),
        []
    );
    assert_eq!(
        issues_of(constant, json!(9_007_199_254_740_996.0)),
        [Constraint::Const]
    );
}

/// Where an integer may sit in a call: a `{}` field, a free object's member, an undeclared
/// key kept, an undeclared key under a schema of `{}`, an untyped array item, a union with
/// `{}`, a `number` field, a string of digits for a `number`, and an integer field.
/// A call with an integer's text written at one place.
type Place = fn(&str) -> String;

fn positions() -> Vec<(ToolModel, Place)> {
    let tool = |fields| ToolModel::new("t", None, Schema::object(fields), Default::default());
    let open_any = ToolModel::new(
        "t",
        None,
        Schema::object(vec![]).additional(Schema::any()),
        Default::default(),
    );
    vec![
        (tool(vec![Field::required("x", Schema::any())]), |n| {
            format!(r#"{{"x": {n}}}"#)
        }),
        (tool(vec![Field::required("x", Schema::any())]), |n| {
            format!(r#"{{"x": {{"deep": [{{"k": {n}}}]}}}}"#)
        }),
        (tool(vec![]), |n| format!(r#"{{"extra": {n}}}"#)),
        (open_any, |n| format!(r#"{{"extra": {n}}}"#)),
        (
            tool(vec![Field::required("x", Schema::array(Schema::any()))]),
            |n| format!(r#"{{"x": [1, {n}]}}"#),
        ),
        (
            tool(vec![Field::required(
                "x",
                Schema::union(UnionMode::AnyOf, vec![Schema::boolean(), Schema::any()]),
            )]),
            |n| format!(r#"{{"x": {n}}}"#),
        ),
        (tool(vec![Field::required("x", Schema::number())]), |n| {
            format!(r#"{{"x": {n}}}"#)
        }),
        (tool(vec![Field::required("x", Schema::number())]), |n| {
            format!(r#"{{"x": "{n}"}}"#)
        }),
        (tool(vec![Field::required("x", Schema::integer())]), |n| {
            format!(r#"{{"x": {n}}}"#)
        }),
    ]
}

proptest::proptest! {
    /// Issue 43 §4: an integer written as one is never rounded, wherever it sits and on
    /// every road: within `i64::MIN..=u64::MAX` it is that integer; beyond, it is refused
    /// (`limit`, or the integer field's bound), never handed on as the float nearest to it.
    /// Generated across and beyond every width: near each end of `i64` and `u64`, and far.
    #[test]
    fn an_integer_is_kept_or_refused_never_rounded(
        edge in proptest::sample::select(vec![
            0i128, i64::MIN as i128, i64::MAX as i128, u64::MAX as i128, 1 << 64, 1 << 70,
            i128::MIN / 2, i128::MAX,
        ]),
        offset in -3i128..=3,
        far in proptest::option::of("[1-9][0-9]{39,60}"),
    ) {
        let digits = match &far {
            Some(far) => far.clone(),
            None => edge.saturating_add(offset).to_string(),
        };
        let carried = digits
            .parse::<i128>()
            .is_ok_and(|n| (i64::MIN as i128..=u64::MAX as i128).contains(&n));
        for (model, call) in positions() {
            let text = call(&digits);
            let options = Options::default();
            let mut answers = vec![
                decode_text(&model, text.as_bytes(), &options),
                decode_text_by_tree(&model, text.as_bytes(), &options),
                // Lenient text: the tree walk over the lenient reader's tree.
                decode_text(&model, format!("```json\n{text}\n```").as_bytes(), &options),
            ];
            answers.extend(decode_text_by_stream(&model, text.as_bytes(), &options));
            for answer in answers {
                match answer {
                    Ok(decoded) => {
                        proptest::prop_assert!(carried, "{} accepted as {}", text, decoded.value);
                        let written = decoded.value.to_string();
                        proptest::prop_assert!(written.contains(&digits), "{} became {}", text, written);
                    }
                    Err(rejected) => {
                        proptest::prop_assert!(!carried, "{}: {}", text, rejected.report);
                        let limit_or_bound = rejected.report.issues().iter().all(|issue| {
                            matches!(issue.constraint, Constraint::Limit | Constraint::Maximum | Constraint::Minimum)
                        });
                        proptest::prop_assert!(limit_or_bound, "{}: {}", text, rejected.report);
                    }
                }
            }
        }
    }
}

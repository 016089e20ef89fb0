//! Numbers, booleans and strings: string_to_number, float_to_integer, string_to_bool, number_to_bool, scalar_to_string.

use super::*;

// ---------------------------------------------------------------------------------------
// string_to_number
// ---------------------------------------------------------------------------------------

#[test]
fn string_to_number_repairs_numbers() {
    let model = tool_x(Schema::number());
    for (sent, number) in [
        ("35.6", json!(35.6)),
        (" 42 ", json!(42)),
        ("1e3", json!(1000.0)),
        ("-0.5", json!(-0.5)),
    ] {
        let decoded = accept(&model, json!({ "x": sent }));
        assert_eq!(decoded.value, json!({ "x": number }), "{sent:?}");
        assert_eq!(
            decoded.repairs,
            vec![repair("x", Rule::StringToNumber, json!(sent), number)],
            "{sent:?}"
        );
    }
}

#[test]
fn string_to_number_repairs_integral_values_for_integers() {
    let model = tool_x(Schema::integer());
    for (sent, number) in [
        ("5", 5),
        ("5.0", 5),
        ("1e3", 1000),
        (" 42 ", 42),
        ("-7", -7),
    ] {
        let decoded = accept(&model, json!({ "x": sent }));
        assert_eq!(decoded.value, json!({ "x": number }), "{sent:?}");
        assert!(decoded.value["x"].is_i64(), "{sent:?} not an integer");
        assert_eq!(
            decoded.repairs,
            vec![repair(
                "x",
                Rule::StringToNumber,
                json!(sent),
                json!(number)
            )],
            "{sent:?}"
        );
    }
}

#[test]
fn string_to_number_repairs_in_range_values_for_a_width() {
    let model = tool_x(u8_schema());
    let decoded = accept(&model, json!({"x": "255"}));
    assert_eq!(decoded.value, json!({"x": 255}));
    assert_eq!(
        decoded.repairs,
        vec![repair("x", Rule::StringToNumber, json!("255"), json!(255))]
    );
}

#[test]
fn string_to_number_refuses_a_fraction_for_an_integer() {
    let rejected = refuse(&tool_x(Schema::integer()), json!({"x": "5.5"}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Type)]));
    assert_eq!(rejected.report.issues()[0].got, Some(json!("5.5")));
    assert_eq!(rejected.repairs, vec![]);
}

#[test]
fn string_to_number_refuses_text_that_is_not_one_number() {
    for schema in [Schema::number(), Schema::integer()] {
        let model = tool_x(schema);
        for sent in [
            "1,234", "$5", "12 km", "NaN", "", "inf", "0x10", "5 5", "++5",
        ] {
            let rejected = refuse(&model, json!({ "x": sent }));
            assert_eq!(
                issues(&rejected),
                expect(&[("x", Constraint::Type)]),
                "{sent:?}"
            );
            assert_eq!(
                rejected.report.issues()[0].got,
                Some(json!(sent)),
                "{sent:?}"
            );
            assert_eq!(rejected.repairs, vec![], "{sent:?}");
        }
    }
}

#[test]
fn string_to_number_refuses_integral_strings_out_of_a_width_with_its_bound() {
    let model = tool_x(u8_schema());
    let rejected = refuse(&model, json!({"x": "300"}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Maximum)]));
    assert_eq!(rejected.report.issues()[0].expected, Some(json!(255)));
    let rejected = refuse(&model, json!({"x": "-1"}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Minimum)]));
    assert_eq!(rejected.report.issues()[0].expected, Some(json!(0)));
}

#[test]
fn string_to_number_logs_no_repair_for_integral_strings_out_of_range() {
    let model = tool_x(u8_schema());
    for sent in ["300", "-1", "1e3"] {
        let rejected = refuse(&model, json!({ "x": sent }));
        assert_eq!(rejected.repairs, vec![], "{sent:?}");
    }
}

// ---------------------------------------------------------------------------------------
// float_to_integer
// ---------------------------------------------------------------------------------------

#[test]
fn float_to_integer_repairs_an_integral_float() {
    let model = tool_x(Schema::integer());
    let decoded = accept_text(&model, r#"{"x": 5.0}"#);
    assert_eq!(decoded.value, json!({"x": 5}));
    assert!(decoded.value["x"].is_i64());
    assert_eq!(
        decoded.repairs,
        vec![repair("x", Rule::FloatToInteger, json!(5.0), json!(5))]
    );
    // An integer sent as an integer needs no repair.
    let decoded = accept_text(&model, r#"{"x": 5}"#);
    assert_eq!(decoded.repairs, vec![]);
}

/// Issue 11 §4: `{"type": "integer", "enum": [1, 2, 3]}` (a level or a page size in real
/// tool schemas) took `1.0` unchanged and unlogged, while a plain integer normalised it.
#[test]
fn float_to_integer_repairs_an_integral_float_for_an_integer_enum() {
    let value = |value: Value| EnumValue {
        value,
        aliases: Vec::new(),
    };
    let levels = Schema::enumeration([1, 2, 3].map(|n| value(json!(n))).to_vec());
    let model = tool_x(levels.clone());
    let decoded = accept_text(&model, r#"{"x": 1.0}"#);
    assert!(decoded.value["x"].is_i64(), "{}", decoded.value);
    assert_eq!(
        decoded.repairs,
        vec![repair("x", Rule::FloatToInteger, json!(1.0), json!(1))]
    );
    assert_eq!(accept_text(&model, r#"{"x": 2}"#).repairs, vec![]);
    // With the rule off it is refused, as the plain integer is.
    let options = Options::default().without(Rule::FloatToInteger);
    let rejected = refuse_text_with(&model, br#"{"x": 1.0}"#, &options);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Enum)]));
    // An enum of floats takes its floats as they are.
    let ratios = Schema::enumeration([0.5, 1.0].map(|n| value(json!(n))).to_vec());
    assert_eq!(
        accept_text(&tool_x(ratios), r#"{"x": 1.0}"#).repairs,
        vec![]
    );
}

#[test]
fn float_to_integer_repairs_an_integral_float_in_a_width() {
    let decoded = accept_text(&tool_x(u8_schema()), r#"{"x": 255.0}"#);
    assert_eq!(decoded.value, json!({"x": 255}));
    assert_eq!(
        decoded.repairs,
        vec![repair("x", Rule::FloatToInteger, json!(255.0), json!(255))]
    );
}

#[test]
fn float_to_integer_refuses_a_fraction() {
    let rejected = refuse_text(&tool_x(Schema::integer()), r#"{"x": 5.5}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Type)]));
    assert_eq!(rejected.report.issues()[0].got, Some(json!(5.5)));
    assert_eq!(rejected.report.issues()[0].expected, Some(json!("integer")));
    assert_eq!(rejected.repairs, vec![]);
}

/// The streaming walk takes a float at an integer where the digits of every number of the
/// text agree with their floats (at most 15 digits, no exponent), and leaves the rest to the
/// tree walk, which reads the digits: either way the answer is the tree walk's.
#[test]
fn floats_at_an_integer_are_decided_by_their_digits_on_both_roads() {
    let model = tool(vec![
        Field::required("x", Schema::integer()),
        Field::optional("note", Schema::string()),
    ]);
    let options = Options::default();
    let streamed = |text: &str| decode_text_by_stream(&model, text.as_bytes(), &options);
    let by_tree = |text: &str| decode_text_by_tree(&model, text.as_bytes(), &options);
    let same =
        |a: &Result<Decoded<Value>, Rejected>, b: &Result<Decoded<Value>, Rejected>| match (a, b) {
            (Ok(a), Ok(b)) => a == b,
            (Err(a), Err(b)) => a.report == b.report && a.repairs == b.repairs,
            _ => false,
        };
    // Decided by the stream.
    for text in [
        r#"{"x": 5.0}"#,
        r#"{"x": 5.5}"#,
        r#"{"x": 5.000}"#,
        r#"{"x": 12345678901234.5}"#,
        r#"{"x": 99999999999999.0}"#,
        r#"{"x": 5.0, "note": "see page 4"}"#,
    ] {
        let streamed = streamed(text).unwrap_or_else(|| panic!("{text} was left to the tree"));
        assert!(same(&streamed, &by_tree(text)), "{text}: {streamed:?}");
    }
    // Left to the tree walk: a long run of digits or an exponent anywhere in the text.
    for text in [
        r#"{"x": 4.9999999999999999}"#,
        r#"{"x": 1e-400}"#,
        r#"{"x": 5E0}"#,
        r#"{"x": 5.0, "note": "1234567890123456"}"#,
        r#"{"x": 5.0, "note": "ref 1e5"}"#,
        r#"{"x": -0.0}"#,
    ] {
        assert!(streamed(text).is_none(), "{text} was decided by the stream");
    }
    // What the tree walk makes of them: the digits decide.
    let rounded = refuse_text(&model, r#"{"x": 4.9999999999999999}"#);
    assert_eq!(issues(&rounded), expect(&[("x", Constraint::Type)]));
    assert_eq!(accept_text(&model, r#"{"x": 5E0}"#).value, json!({"x": 5}));
}

#[test]
fn float_to_integer_refuses_values_out_of_the_width_with_its_bounds() {
    let cases = [
        (
            u8_schema(),
            r#"{"x": 256.0}"#,
            Constraint::Maximum,
            json!(255),
        ),
        (u8_schema(), r#"{"x": -1.0}"#, Constraint::Minimum, json!(0)),
        (
            i8_schema(),
            r#"{"x": 128.0}"#,
            Constraint::Maximum,
            json!(127),
        ),
        (
            i8_schema(),
            r#"{"x": -129.0}"#,
            Constraint::Minimum,
            json!(-128),
        ),
    ];
    for (schema, text, constraint, bound) in cases {
        let rejected = refuse_text(&tool_x(schema), text);
        assert_eq!(issues(&rejected), expect(&[("x", constraint)]), "{text}");
        assert_eq!(rejected.report.issues()[0].expected, Some(bound), "{text}");
    }
}

#[test]
fn integers_out_of_the_width_are_refused_with_its_bounds() {
    let rejected = refuse_text(&tool_x(u8_schema()), r#"{"x": 256}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Maximum)]));
    assert_eq!(rejected.repairs, vec![]);
    let rejected = refuse_text(&tool_x(i8_schema()), r#"{"x": -129}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Minimum)]));
    assert_eq!(rejected.repairs, vec![]);
}

#[test]
fn float_to_integer_logs_no_repair_for_values_out_of_range() {
    for (schema, text) in [
        (u8_schema(), r#"{"x": 256.0}"#),
        (u8_schema(), r#"{"x": -1.0}"#),
        (i8_schema(), r#"{"x": -129.0}"#),
    ] {
        let rejected = refuse_text(&tool_x(schema), text);
        assert_eq!(rejected.repairs, vec![], "{text}");
    }
}

#[test]
fn float_to_integer_refuses_huge_integral_floats_with_the_bound() {
    let rejected = refuse_text(&tool_x(u8_schema()), r#"{"x": 1e20}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Maximum)]));
    let rejected = refuse(&tool_x(u8_schema()), json!({"x": "1e20"}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Maximum)]));
}

// ---------------------------------------------------------------------------------------
// string_to_bool
// ---------------------------------------------------------------------------------------

#[test]
fn string_to_bool_repairs_the_listed_words_in_any_case_trimmed() {
    let model = tool_x(Schema::boolean());
    let words = [
        ("true", true),
        ("false", false),
        ("yes", true),
        ("no", false),
        ("on", true),
        ("off", false),
        ("1", true),
        ("0", false),
        ("t", true),
        ("f", false),
        ("y", true),
        ("n", false),
    ];
    for (word, flag) in words {
        let variants = [
            word.to_owned(),
            word.to_uppercase(),
            capitalise(word),
            format!("  {word}\t"),
            format!(" {} ", word.to_uppercase()),
        ];
        for sent in variants {
            let decoded = accept(&model, json!({ "x": sent }));
            assert_eq!(decoded.value, json!({ "x": flag }), "{sent:?}");
            assert_eq!(
                decoded.repairs,
                vec![repair("x", Rule::StringToBool, json!(sent), json!(flag))],
                "{sent:?}"
            );
        }
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[test]
fn string_to_bool_refuses_other_words() {
    let model = tool_x(Schema::boolean());
    for sent in ["maybe", "", "2", "truee", "yes please", "enabled"] {
        let rejected = refuse(&model, json!({ "x": sent }));
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Type)]),
            "{sent:?}"
        );
        assert_eq!(rejected.report.issues()[0].got, Some(json!(sent)));
        assert_eq!(rejected.repairs, vec![], "{sent:?}");
    }
}

// ---------------------------------------------------------------------------------------
// number_to_bool
// ---------------------------------------------------------------------------------------

#[test]
fn number_to_bool_repairs_zero_and_one() {
    let model = tool_x(Schema::boolean());
    for (sent, flag) in [(json!(0), false), (json!(1), true)] {
        let decoded = accept(&model, json!({ "x": sent }));
        assert_eq!(decoded.value, json!({ "x": flag }));
        assert_eq!(
            decoded.repairs,
            vec![repair("x", Rule::NumberToBool, sent, json!(flag))]
        );
    }
}

#[test]
fn number_to_bool_refuses_other_numbers() {
    let model = tool_x(Schema::boolean());
    for sent in [json!(2), json!(-1), json!(0.5)] {
        let rejected = refuse(&model, json!({ "x": sent }));
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Type)]),
            "{sent}"
        );
        assert_eq!(rejected.report.issues()[0].got, Some(sent.clone()));
        assert_eq!(rejected.repairs, vec![], "{sent}");
    }
}

// ---------------------------------------------------------------------------------------
// scalar_to_string
// ---------------------------------------------------------------------------------------

#[test]
fn scalar_to_string_repairs_numbers_and_booleans_as_their_json_text() {
    let model = tool_x(Schema::string());
    for (sent, text) in [
        (json!(5), "5"),
        (json!(-12), "-12"),
        (json!(35.6), "35.6"),
        (json!(true), "true"),
        (json!(false), "false"),
    ] {
        let decoded = accept(&model, json!({ "x": sent }));
        assert_eq!(decoded.value, json!({ "x": text }), "{sent}");
        assert_eq!(
            decoded.repairs,
            vec![repair("x", Rule::ScalarToString, sent.clone(), json!(text))],
            "{sent}"
        );
    }
}

/// Issue 11 §4: a number goes into a string as it was sent, not as serde_json writes its
/// value (`1e3` is `"1e3"`, not `"1000.0"`), from strict JSON and from the lenient reader
/// (single quotes) alike; the log's `from` is the number read.
#[test]
fn scalar_to_string_writes_the_number_as_it_was_sent() {
    let model = tool_x(Schema::string());
    for sent in [
        "1e3", "5.0", "5.00", "1.50", "1E-7", "-0", "-0.0", "35.6", "0.1", "2e-5",
    ] {
        for text in [format!(r#"{{"x": {sent}}}"#), format!("{{'x': {sent}}}")] {
            let decoded = accept_text(&model, &text);
            assert_eq!(decoded.value, json!({ "x": sent }), "{text}");
            let read: serde_json::Number = sent.parse().unwrap();
            let read = if sent == "-0" { 0.into() } else { read };
            // The lenient reader also logs its own repair of the text.
            let field_repairs: Vec<_> = decoded
                .repairs
                .into_iter()
                .filter(|r| r.rule != Rule::JsonText)
                .collect();
            assert_eq!(
                field_repairs,
                vec![repair("x", Rule::ScalarToString, json!(read), json!(sent))],
                "{text}"
            );
        }
    }
}

/// The text kept for `scalar_to_string` changes nothing where a number is wanted.
#[test]
fn a_number_spelled_otherwise_is_still_that_number() {
    let number = tool_x(Schema::number());
    let decoded = accept_text(&number, r#"{"x": 1e3}"#);
    assert_eq!(decoded.value, json!({"x": 1000.0}));
    assert_eq!(decoded.repairs, vec![]);
    let integer = tool_x(Schema::integer());
    let decoded = accept_text(&integer, r#"{"x": 1e3}"#);
    assert_eq!(decoded.value, json!({"x": 1000}));
    assert_eq!(decoded.repairs[0].rule, Rule::FloatToInteger);
    let decoded = accept_text(&integer, r#"{"x": -0}"#);
    assert_eq!(decoded.value, json!({"x": 0}));
    assert_eq!(decoded.repairs, vec![]);
    let any = tool_x(Schema::any());
    assert_eq!(accept_text(&any, r#"{"x": 1.50}"#).value, json!({"x": 1.5}));
}

#[test]
fn scalar_to_string_refuses_objects_and_arrays() {
    let model = tool_x(Schema::string());
    for sent in [json!({"a": 1}), json!([1, 2]), json!([]), json!({})] {
        let rejected = refuse(&model, json!({ "x": sent }));
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Type)]),
            "{sent}"
        );
        assert_eq!(rejected.report.issues()[0].expected, Some(json!("string")));
        assert_eq!(rejected.repairs, vec![], "{sent}");
    }
}

#[test]
fn scalar_to_string_refuses_numbers_whose_digits_were_rounded() {
    let model = tool_x(Schema::string());
    let rejected = refuse_text(&model, r#"{"x": 12345678901234567890123}"#);
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Type)]));
    assert_eq!(rejected.repairs, vec![]);
    // Integers serde reads exactly are fine.
    let decoded = accept_text(&model, r#"{"x": 18446744073709551615}"#);
    assert_eq!(decoded.value, json!({"x": "18446744073709551615"}));
}

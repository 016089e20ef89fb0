//! Unit tests of the coercing decoder, rule by rule, against the table in DESIGN.md
//! ('Repairs: lossless or refuse'): every listed repair (the value and its log entry) and
//! every listed refusal (an issue at the right path with the right constraint, and no repair
//! logged for it); then unknown keys, switching rules off, limits and one-pass reporting.

use serde_json::{json, Value};

use super::*;
use crate::model::{EnumValue, Field, IntWidth, Schema, ToolModel};
use crate::{Constraint, Path};

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// A tool whose arguments are an object with these fields (other keys allowed).
fn tool(fields: Vec<Field>) -> ToolModel {
    ToolModel::new("t", None, Schema::object(fields), Default::default())
}

/// A tool whose arguments are an object with these fields and no other keys.
fn strict_tool(fields: Vec<Field>) -> ToolModel {
    ToolModel::new(
        "t",
        None,
        Schema::object(fields).deny_unknown_fields(),
        Default::default(),
    )
}

/// A tool with one required field `x` of this schema.
fn tool_x(schema: Schema) -> ToolModel {
    tool(vec![Field::required("x", schema)])
}

fn u8_schema() -> Schema {
    Schema::integer_of(IntWidth {
        bits: 8,
        signed: false,
    })
}

fn i8_schema() -> Schema {
    Schema::integer_of(IntWidth {
        bits: 8,
        signed: true,
    })
}

fn cabins() -> Schema {
    Schema::enumeration(vec![
        EnumValue::new("economy"),
        EnumValue::new("premium_economy"),
        EnumValue::new("business").alias("biz"),
        EnumValue::new("first"),
    ])
}

fn path(text: &str) -> Path {
    text.parse()
        .unwrap_or_else(|error| panic!("bad path {text:?}: {error}"))
}

fn repair(at: &str, rule: Rule, from: Value, to: Value) -> Repair {
    Repair {
        path: path(at),
        rule,
        from,
        to,
    }
}

/// Decodes a value that must be accepted.
fn accept_with(model: &ToolModel, input: Value, options: &Options) -> Decoded<Value> {
    decode_value(model, &input, options)
        .unwrap_or_else(|rejected| panic!("{input} was refused:\n{}", rejected.report))
}

fn accept(model: &ToolModel, input: Value) -> Decoded<Value> {
    accept_with(model, input, &Options::default())
}

/// Decodes a value that must be refused.
fn refuse_with(model: &ToolModel, input: Value, options: &Options) -> Rejected {
    match decode_value(model, &input, options) {
        Ok(decoded) => panic!(
            "{input} was accepted as {} with repairs {:?}",
            decoded.value, decoded.repairs
        ),
        Err(rejected) => rejected,
    }
}

fn refuse(model: &ToolModel, input: Value) -> Rejected {
    refuse_with(model, input, &Options::default())
}

/// Decodes text that must be accepted.
fn accept_text_with(model: &ToolModel, text: &str, options: &Options) -> Decoded<Value> {
    decode_text(model, text.as_bytes(), options)
        .unwrap_or_else(|rejected| panic!("{text:?} was refused:\n{}", rejected.report))
}

fn accept_text(model: &ToolModel, text: &str) -> Decoded<Value> {
    accept_text_with(model, text, &Options::default())
}

/// Decodes text that must be refused.
fn refuse_text_with(model: &ToolModel, text: &[u8], options: &Options) -> Rejected {
    match decode_text(model, text, options) {
        Ok(decoded) => panic!(
            "{:?} was accepted as {} with repairs {:?}",
            String::from_utf8_lossy(text),
            decoded.value,
            decoded.repairs
        ),
        Err(rejected) => rejected,
    }
}

fn refuse_text(model: &ToolModel, text: &str) -> Rejected {
    refuse_text_with(model, text.as_bytes(), &Options::default())
}

/// The issues as (path, constraint), in report order.
fn issues(rejected: &Rejected) -> Vec<(String, Constraint)> {
    rejected
        .report
        .issues()
        .iter()
        .map(|issue| (issue.path.to_string(), issue.constraint))
        .collect()
}

/// The issues as (path, constraint) pairs for the expected list.
fn expect(list: &[(&str, Constraint)]) -> Vec<(String, Constraint)> {
    list.iter()
        .map(|(at, constraint)| (at.to_string(), *constraint))
        .collect()
}

/// The rules of the repairs logged.
fn rules(repairs: &[Repair]) -> Vec<Rule> {
    repairs.iter().map(|repair| repair.rule).collect()
}

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

// ---------------------------------------------------------------------------------------
// json_string
// ---------------------------------------------------------------------------------------

#[test]
fn json_string_repairs_an_array_and_repairs_its_content() {
    let model = tool_x(Schema::array(Schema::integer()));
    let decoded = accept(&model, json!({"x": "[\"1\", 2]"}));
    assert_eq!(decoded.value, json!({"x": [1, 2]}));
    assert_eq!(
        decoded.repairs,
        vec![
            repair("x", Rule::JsonString, json!("[\"1\", 2]"), json!(["1", 2])),
            repair("x[0]", Rule::StringToNumber, json!("1"), json!(1)),
        ]
    );
}

#[test]
fn json_string_repairs_an_object_and_repairs_its_content() {
    let inner = Schema::object(vec![
        Field::required("n", Schema::integer()),
        Field::optional("on", Schema::boolean()),
    ]);
    let model = tool_x(inner);
    let sent = r#"{"n": "5", "on": "yes"}"#;
    let decoded = accept(&model, json!({ "x": sent }));
    assert_eq!(decoded.value, json!({"x": {"n": 5, "on": true}}));
    assert_eq!(
        decoded.repairs,
        vec![
            repair(
                "x",
                Rule::JsonString,
                json!(sent),
                json!({"n": "5", "on": "yes"})
            ),
            repair("x.n", Rule::StringToNumber, json!("5"), json!(5)),
            repair("x.on", Rule::StringToBool, json!("yes"), json!(true)),
        ]
    );
}

#[test]
fn json_string_repairs_a_map() {
    let model = tool_x(Schema::map(Schema::number()));
    let decoded = accept(&model, json!({"x": "{\"a\": 1.5}"}));
    assert_eq!(decoded.value, json!({"x": {"a": 1.5}}));
    assert_eq!(
        decoded.repairs,
        vec![repair(
            "x",
            Rule::JsonString,
            json!("{\"a\": 1.5}"),
            json!({"a": 1.5})
        )]
    );
}

#[test]
fn json_string_reads_lenient_json_only_while_json_text_is_on() {
    let model = tool_x(Schema::array(Schema::integer()));
    let decoded = accept(&model, json!({"x": "['1', 2,]"}));
    assert_eq!(decoded.value, json!({"x": [1, 2]}));
    assert_eq!(
        decoded.repairs[0],
        repair("x", Rule::JsonString, json!("['1', 2,]"), json!(["1", 2]))
    );
    assert_eq!(
        decoded.repairs.last(),
        Some(&repair("x[0]", Rule::StringToNumber, json!("1"), json!(1)))
    );
    let rejected = refuse_with(
        &model,
        json!({"x": "['1', 2,]"}),
        &Options::default().without(Rule::JsonText),
    );
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Type)]));
    assert_eq!(rejected.repairs, vec![]);
}

#[test]
fn json_string_refuses_strings_that_are_not_such_json() {
    let object = Schema::object(vec![Field::optional("a", Schema::integer())]);
    let cases = [
        (object.clone(), "not json"),
        (object.clone(), "{\"a\": 1"),
        (object.clone(), "{a b c}"),
        (object.clone(), "[1, 2]"),
        (Schema::map(Schema::integer()), "[1, 2]"),
        (Schema::array(Schema::integer()), "[1, 2"),
        (Schema::array(Schema::integer()), "{\"a\": 1}"),
        (Schema::array(Schema::integer()), "[1, oops]"),
    ];
    for (schema, sent) in cases {
        let rejected = refuse(&tool_x(schema), json!({ "x": sent }));
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
// wrap_in_array
// ---------------------------------------------------------------------------------------

#[test]
fn wrap_in_array_repairs_one_item() {
    let model = tool_x(Schema::array(Schema::integer()));
    let decoded = accept(&model, json!({"x": 5}));
    assert_eq!(decoded.value, json!({"x": [5]}));
    assert_eq!(
        decoded.repairs,
        vec![repair("x", Rule::WrapInArray, json!(5), json!([5]))]
    );

    let model = tool_x(Schema::array(Schema::string()));
    let decoded = accept(&model, json!({"x": "paris"}));
    assert_eq!(decoded.value, json!({"x": ["paris"]}));
    assert_eq!(
        decoded.repairs,
        vec![repair(
            "x",
            Rule::WrapInArray,
            json!("paris"),
            json!(["paris"])
        )]
    );

    let item = Schema::object(vec![Field::required("a", Schema::integer())]);
    let model = tool_x(Schema::array(item));
    let decoded = accept(&model, json!({"x": {"a": 1}}));
    assert_eq!(decoded.value, json!({"x": [{"a": 1}]}));
    assert_eq!(
        decoded.repairs,
        vec![repair(
            "x",
            Rule::WrapInArray,
            json!({"a": 1}),
            json!([{"a": 1}])
        )]
    );
}

#[test]
fn wrap_in_array_repairs_the_item_too() {
    let model = tool_x(Schema::array(Schema::integer()));
    let decoded = accept(&model, json!({"x": "5"}));
    assert_eq!(decoded.value, json!({"x": [5]}));
    assert_eq!(
        decoded.repairs,
        vec![
            repair("x", Rule::WrapInArray, json!("5"), json!([5])),
            repair("x[0]", Rule::StringToNumber, json!("5"), json!(5)),
        ]
    );
}

#[test]
fn wrap_in_array_does_not_wrap_an_item_of_another_kind() {
    let model = tool_x(Schema::array(Schema::integer()));
    for sent in [json!("five"), json!({"a": 1}), json!(5.5)] {
        let rejected = refuse(&model, json!({ "x": sent }));
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Type)]),
            "{sent}"
        );
        assert_eq!(rejected.report.issues()[0].expected, Some(json!("array")));
        assert_eq!(rejected.repairs, vec![], "{sent}");
    }
}

// ---------------------------------------------------------------------------------------
// enum_case
// ---------------------------------------------------------------------------------------

#[test]
fn enum_case_repairs_case_and_separators() {
    let model = tool_x(cabins());
    for (sent, value) in [
        ("Business", "business"),
        ("BUSINESS", "business"),
        (" business ", "business"),
        ("Premium Economy", "premium_economy"),
        ("premium-economy", "premium_economy"),
        ("PREMIUM_ECONOMY", "premium_economy"),
        ("First", "first"),
    ] {
        let decoded = accept(&model, json!({ "x": sent }));
        assert_eq!(decoded.value, json!({ "x": value }), "{sent:?}");
        assert_eq!(
            decoded.repairs,
            vec![repair("x", Rule::EnumCase, json!(sent), json!(value))],
            "{sent:?}"
        );
    }
    // An allowed value as sent needs no repair.
    assert_eq!(accept(&model, json!({"x": "first"})).repairs, vec![]);
}

#[test]
fn enum_case_repairs_a_declared_alias_in_any_case() {
    let model = tool_x(cabins());
    // The alias as declared is part of the schema, as serde takes it: nothing to log.
    let decoded = accept(&model, json!({"x": "biz"}));
    assert_eq!(decoded.value, json!({"x": "business"}));
    assert_eq!(decoded.repairs, vec![]);
    for sent in ["BIZ", "Biz"] {
        let decoded = accept(&model, json!({ "x": sent }));
        assert_eq!(decoded.value, json!({"x": "business"}), "{sent:?}");
        assert_eq!(
            decoded.repairs,
            vec![repair("x", Rule::EnumCase, json!(sent), json!("business"))],
            "{sent:?}"
        );
    }
}

#[test]
fn enum_case_refuses_ties() {
    let model = tool_x(Schema::enumeration(vec![
        EnumValue::new("AA"),
        EnumValue::new("aa"),
    ]));
    let rejected = refuse(&model, json!({"x": "Aa"}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Enum)]));
    assert_eq!(
        rejected.report.issues()[0].expected,
        Some(json!(["AA", "aa"]))
    );
    assert_eq!(rejected.report.issues()[0].got, Some(json!("Aa")));
    assert_eq!(rejected.repairs, vec![]);
    // Each value as sent is still accepted, without a repair.
    assert_eq!(accept(&model, json!({"x": "aa"})).repairs, vec![]);
    assert_eq!(accept(&model, json!({"x": "AA"})).repairs, vec![]);
}

#[test]
fn enum_case_refuses_a_tie_between_a_value_and_an_alias() {
    let model = tool_x(Schema::enumeration(vec![
        EnumValue::new("fast"),
        EnumValue::new("quick_mode").alias("FAST"),
    ]));
    // "Fast" folds to both "fast" (a value) and "FAST" (an alias of another value).
    let rejected = refuse(&model, json!({"x": "Fast"}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Enum)]));
    assert_eq!(rejected.repairs, vec![]);
}

#[test]
fn enum_case_refuses_near_misses_with_did_you_mean() {
    let model = tool_x(cabins());
    for (sent, near) in [
        ("buisness", "business"),
        ("premiumeconomy", "premium_economy"),
        ("econmy", "economy"),
    ] {
        let rejected = refuse(&model, json!({ "x": sent }));
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Enum)]),
            "{sent:?}"
        );
        let issue = &rejected.report.issues()[0];
        assert_eq!(issue.got, Some(json!(sent)));
        assert_eq!(
            issue.expected,
            Some(json!(["economy", "premium_economy", "business", "first"]))
        );
        assert!(
            issue.message.contains(&format!("did you mean {near:?}")),
            "{sent:?}: {}",
            issue.message
        );
        assert_eq!(rejected.repairs, vec![], "{sent:?}");
    }
    // Far off: refused, and nothing to suggest.
    let rejected = refuse(&model, json!({"x": "luxury"}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Enum)]));
    assert!(!rejected.report.issues()[0].message.contains("did you mean"));
}

// ---------------------------------------------------------------------------------------
// null_as_absent
// ---------------------------------------------------------------------------------------

#[test]
fn null_as_absent_repairs_null_for_an_optional_field() {
    let model = tool(vec![Field::optional("x", Schema::integer())]);
    let decoded = accept(&model, json!({"x": null}));
    assert_eq!(decoded.value, json!({}));
    assert_eq!(
        decoded.repairs,
        vec![repair("x", Rule::NullAsAbsent, json!(null), json!(null))]
    );
}

#[test]
fn null_as_absent_then_fills_the_default() {
    let model = tool(vec![Field::optional(
        "x",
        Schema::integer().with_default(json!(3)),
    )]);
    let decoded = accept(&model, json!({"x": null}));
    assert_eq!(decoded.value, json!({"x": 3}));
    assert_eq!(
        decoded.repairs,
        vec![
            repair("x", Rule::NullAsAbsent, json!(null), json!(null)),
            repair("x", Rule::Default, json!(null), json!(3)),
        ]
    );
}

#[test]
fn null_as_absent_refuses_null_for_a_required_field() {
    let model = tool(vec![Field::required("x", Schema::integer())]);
    let rejected = refuse(&model, json!({"x": null}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Type)]));
    assert_eq!(rejected.report.issues()[0].got, Some(json!(null)));
    assert_eq!(rejected.repairs, vec![]);
}

#[test]
fn null_is_kept_where_it_is_allowed() {
    let model = tool(vec![
        Field::optional("a", Schema::integer().nullable()),
        Field::required("b", Schema::string().nullable()),
        Field::optional("c", Schema::any()),
    ]);
    let decoded = accept(&model, json!({"a": null, "b": null, "c": null}));
    assert_eq!(decoded.value, json!({"a": null, "b": null, "c": null}));
    assert_eq!(decoded.repairs, vec![]);
}

// ---------------------------------------------------------------------------------------
// key_case
// ---------------------------------------------------------------------------------------

#[test]
fn key_case_repairs_a_key_in_another_case_or_with_other_separators() {
    let model = strict_tool(vec![
        Field::required("user_name", Schema::string()),
        Field::optional("age", Schema::integer()),
    ]);
    for key in [
        "userName",
        "UserName",
        "USER_NAME",
        "user-name",
        "User Name",
    ] {
        let mut input = serde_json::Map::new();
        input.insert(key.to_owned(), json!("ann"));
        let decoded = accept(&model, Value::Object(input));
        assert_eq!(decoded.value, json!({"user_name": "ann"}), "{key:?}");
        assert_eq!(
            decoded.repairs,
            vec![repair(
                "user_name",
                Rule::KeyCase,
                json!(key),
                json!("user_name")
            )],
            "{key:?}"
        );
    }
}

#[test]
fn key_case_repaired_values_get_their_own_repairs() {
    let model = tool(vec![Field::required("max_count", Schema::integer())]);
    let decoded = accept(&model, json!({"maxCount": "7"}));
    assert_eq!(decoded.value, json!({"max_count": 7}));
    assert_eq!(
        decoded.repairs,
        vec![
            repair(
                "max_count",
                Rule::KeyCase,
                json!("maxCount"),
                json!("max_count")
            ),
            repair("max_count", Rule::StringToNumber, json!("7"), json!(7)),
        ]
    );
}

#[test]
fn key_case_refuses_ties() {
    let model = strict_tool(vec![
        Field::optional("user_name", Schema::string()),
        Field::optional("username", Schema::string()),
    ]);
    let rejected = refuse(&model, json!({"UserName": "ann"}));
    assert_eq!(
        issues(&rejected),
        expect(&[("UserName", Constraint::AdditionalProperties)])
    );
    assert_eq!(rejected.report.issues()[0].got, Some(json!("UserName")));
    assert_eq!(rejected.repairs, vec![]);

    // Where unknown keys are allowed, the key stays as it is.
    let model = tool(vec![
        Field::optional("user_name", Schema::string()),
        Field::optional("username", Schema::string()),
    ]);
    let decoded = accept(&model, json!({"UserName": "ann"}));
    assert_eq!(decoded.value, json!({"UserName": "ann"}));
    assert_eq!(decoded.repairs, vec![]);
}

#[test]
fn key_case_does_not_apply_when_the_declared_key_is_present_too() {
    let fields = || vec![Field::required("user_name", Schema::string())];
    let input = json!({"user_name": "ann", "userName": "bob"});

    let decoded = accept(&tool(fields()), input.clone());
    assert_eq!(decoded.value, input);
    assert_eq!(decoded.repairs, vec![]);

    let rejected = refuse(&strict_tool(fields()), input);
    assert_eq!(
        issues(&rejected),
        expect(&[("userName", Constraint::AdditionalProperties)])
    );
    assert_eq!(rejected.repairs, vec![]);

    // The declared key after the folded one: the same.
    let rejected = refuse_text(
        &strict_tool(fields()),
        r#"{"userName": "bob", "user_name": "ann"}"#,
    );
    assert_eq!(
        issues(&rejected),
        expect(&[("userName", Constraint::AdditionalProperties)])
    );
    assert_eq!(rejected.repairs, vec![]);
}

// ---------------------------------------------------------------------------------------
// double_encoded
// ---------------------------------------------------------------------------------------

#[test]
fn double_encoded_repairs_arguments_sent_as_a_json_string() {
    let model = tool(vec![
        Field::required("a", Schema::integer()),
        Field::optional("b", Schema::string()),
    ]);
    let inner = r#"{"a": 1, "b": "x"}"#;
    let text = serde_json::to_string(inner).unwrap();
    let decoded = accept_text(&model, &text);
    assert_eq!(decoded.value, json!({"a": 1, "b": "x"}));
    assert_eq!(
        decoded.repairs,
        vec![repair(
            "",
            Rule::DoubleEncoded,
            json!(inner),
            json!({"a": 1, "b": "x"})
        )]
    );

    // The same through decode_value, with a repair inside.
    let decoded = accept(&model, json!(r#"{"a": "2"}"#));
    assert_eq!(decoded.value, json!({"a": 2}));
    assert_eq!(
        decoded.repairs,
        vec![
            repair(
                "",
                Rule::DoubleEncoded,
                json!(r#"{"a": "2"}"#),
                json!({"a": "2"})
            ),
            repair("a", Rule::StringToNumber, json!("2"), json!(2)),
        ]
    );
}

#[test]
fn double_encoded_does_not_apply_to_strings_that_hold_no_object() {
    let model = tool(vec![Field::optional("a", Schema::integer())]);
    for sent in [json!("[1, 2]"), json!("hello"), json!("{\"a\": 1")] {
        let rejected = refuse(&model, sent.clone());
        assert_eq!(
            issues(&rejected),
            expect(&[("", Constraint::Type)]),
            "{sent}"
        );
        assert_eq!(rejected.repairs, vec![], "{sent}");
    }
}

// ---------------------------------------------------------------------------------------
// json_text
// ---------------------------------------------------------------------------------------

fn text_model() -> ToolModel {
    tool(vec![
        Field::required("a", Schema::integer()),
        Field::optional("b", Schema::array(Schema::any())),
        Field::optional("c", Schema::string()),
    ])
}

#[test]
fn json_text_repairs_what_models_write() {
    let model = text_model();
    let expected = json!({"a": 1, "b": [true, false, null], "c": "it's"});
    let texts = [
        // markdown fence
        "```json\n{\"a\": 1, \"b\": [true, false, null], \"c\": \"it's\"}\n```",
        // fence without an info string
        "```\n{\"a\": 1, \"b\": [true, false, null], \"c\": \"it's\"}\n```",
        // prose around one value
        "Sure! Here are the arguments: {\"a\": 1, \"b\": [true, false, null], \"c\": \"it's\"} Hope that helps.",
        // trailing commas
        "{\"a\": 1, \"b\": [true, false, null,], \"c\": \"it's\",}",
        // single quotes
        "{'a': 1, 'b': [true, false, null], 'c': \"it's\"}",
        // Python literals
        "{\"a\": 1, \"b\": [True, False, None], \"c\": \"it's\"}",
        // unquoted keys
        "{a: 1, b: [true, false, null], c: \"it's\"}",
        // comments
        "{\n  // the count\n  \"a\": 1, /* flags */ \"b\": [true, false, null], # hash\n \"c\": \"it's\"\n}",
        // all at once
        "```python\n{'a': 1, b: [True, False, None,], 'c': \"it's\",  # done\n}\n```",
    ];
    for text in texts {
        let decoded = accept_text(&model, text);
        assert_eq!(decoded.value, expected, "{text:?}");
        assert_eq!(decoded.repairs.len(), 1, "{text:?}: {:?}", decoded.repairs);
        let logged = &decoded.repairs[0];
        assert_eq!(logged.rule, Rule::JsonText, "{text:?}");
        assert!(logged.path.is_root(), "{text:?}");
        assert_eq!(logged.to, json!(expected.to_string()), "{text:?}");
    }
}

#[test]
fn json_text_logs_the_text_as_sent() {
    let model = text_model();
    let decoded = accept_text(&model, "{a: 1,}");
    assert_eq!(decoded.value, json!({"a": 1}));
    assert_eq!(
        decoded.repairs,
        vec![repair(
            "",
            Rule::JsonText,
            json!("{a: 1,}"),
            json!("{\"a\":1}")
        )]
    );
}

#[test]
fn json_text_is_not_applied_to_strict_json() {
    let decoded = accept_text(&text_model(), "  {\"a\": 1}\n");
    assert_eq!(decoded.value, json!({"a": 1}));
    assert_eq!(decoded.repairs, vec![]);
}

#[test]
fn json_text_repairs_combine_with_value_repairs() {
    let decoded = accept_text(&text_model(), "```json\n{'a': '5', 'c': 7}\n```");
    assert_eq!(decoded.value, json!({"a": 5, "c": "7"}));
    assert_eq!(
        rules(&decoded.repairs),
        vec![Rule::JsonText, Rule::StringToNumber, Rule::ScalarToString]
    );
    assert_eq!(decoded.repairs[1].path, path("a"));
    assert_eq!(decoded.repairs[2].path, path("c"));
}

#[test]
fn json_text_repairs_prose_with_brackets_around_one_value() {
    let model = text_model();
    for text in [
        "Sure [see the docs]: {\"a\": 1}",
        "Calling the tool (per [1]):\n{\"a\": 1}",
    ] {
        let decoded = accept_text(&model, text);
        assert_eq!(decoded.value, json!({"a": 1}), "{text:?}");
        assert_eq!(rules(&decoded.repairs), vec![Rule::JsonText], "{text:?}");
    }
}

#[test]
fn json_text_refuses_cut_off_text_with_syntax_at_the_root() {
    let model = text_model();
    let texts = [
        "{\"a\": 1, \"b\": [tr",
        "{\"a\": 1, \"b\": [true, false",
        "{\"a\": 1, \"c\": \"unfinish",
        "{\"a\": 12",
        "{\"a\": 1,",
        "{\"a\"",
        "{",
        "[",
        "{'a': 1, 'c': 'unfinish",
        "{a: 1, b: [Tru",
        "{a: 1, b: [None, Fal",
        "{a: 1 /* a comment that never ends",
        "```json\n{\"a\": 1,",
        "```json\n{\"a\": 1, \"b\": [\n```",
        "Here you go: {\"a\": 1, \"c\": \"x\"",
        "Here you go: {\"a\": 1",
    ];
    for text in texts {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            issues(&rejected),
            expect(&[("", Constraint::Syntax)]),
            "{text:?}"
        );
        assert_eq!(rejected.repairs, vec![], "{text:?}: something was closed");
    }
}

#[test]
fn json_text_refuses_text_that_holds_no_single_value() {
    let model = text_model();
    for text in [
        "no json here",
        "",
        "{\"a\": 1} and also {\"a\": 2}",
        "{\"a\": nope}",
    ] {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            issues(&rejected),
            expect(&[("", Constraint::Syntax)]),
            "{text:?}"
        );
        assert_eq!(rejected.repairs, vec![], "{text:?}");
    }
}

// ---------------------------------------------------------------------------------------
// default
// ---------------------------------------------------------------------------------------

#[test]
fn default_fills_an_absent_optional_field() {
    let model = tool(vec![
        Field::required("a", Schema::integer()),
        Field::optional("unit", Schema::string().with_default(json!("celsius"))),
        Field::optional("days", u8_schema().with_default(json!(3))),
        Field::optional("note", Schema::string()),
    ]);
    let decoded = accept(&model, json!({"a": 1}));
    assert_eq!(decoded.value, json!({"a": 1, "unit": "celsius", "days": 3}));
    assert_eq!(
        decoded.repairs,
        vec![
            repair("unit", Rule::Default, json!(null), json!("celsius")),
            repair("days", Rule::Default, json!(null), json!(3)),
        ]
    );
    // A field that is present keeps its value.
    let decoded = accept(&model, json!({"a": 1, "unit": "kelvin", "days": 9}));
    assert_eq!(decoded.value, json!({"a": 1, "unit": "kelvin", "days": 9}));
    assert_eq!(decoded.repairs, vec![]);
}

#[test]
fn default_that_does_not_fit_its_schema_is_not_filled() {
    let model = tool(vec![
        Field::optional("flag", Schema::boolean().with_default(json!("false"))),
        Field::optional("count", u8_schema().with_default(json!(300))),
        Field::optional("kind", cabins().with_default(json!("luxury"))),
    ]);
    let decoded = accept(&model, json!({}));
    assert_eq!(decoded.value, json!({}));
    assert_eq!(decoded.repairs, vec![]);
}

#[test]
fn default_is_filled_in_nested_objects() {
    let inner = Schema::object(vec![Field::optional(
        "limit",
        Schema::integer().with_default(json!(10)),
    )]);
    let model = tool(vec![Field::required("page", inner)]);
    let decoded = accept(&model, json!({"page": {}}));
    assert_eq!(decoded.value, json!({"page": {"limit": 10}}));
    assert_eq!(
        decoded.repairs,
        vec![repair("page.limit", Rule::Default, json!(null), json!(10))]
    );
}

// ---------------------------------------------------------------------------------------
// Unknown keys
// ---------------------------------------------------------------------------------------

#[test]
fn unknown_keys_are_refused_where_the_object_denies_them() {
    let model = strict_tool(vec![Field::required("city", Schema::string())]);
    let rejected = refuse(&model, json!({"city": "Paris", "extra": 1}));
    assert_eq!(
        issues(&rejected),
        expect(&[("extra", Constraint::AdditionalProperties)])
    );
    let issue = &rejected.report.issues()[0];
    assert_eq!(issue.got, Some(json!("extra")));
    assert_eq!(issue.expected, Some(json!(["city"])));
    assert_eq!(rejected.repairs, vec![]);

    // Typed options too: a denial is a denial.
    let rejected = refuse_with(
        &model,
        json!({"city": "Paris", "extra": 1}),
        &Options::typed(),
    );
    assert_eq!(
        issues(&rejected),
        expect(&[("extra", Constraint::AdditionalProperties)])
    );
}

#[test]
fn unknown_keys_near_a_field_get_did_you_mean() {
    let model = strict_tool(vec![Field::required("destination", Schema::string())]);
    let rejected = refuse(&model, json!({"destination": "x", "destnation": "y"}));
    assert_eq!(
        issues(&rejected),
        expect(&[("destnation", Constraint::AdditionalProperties)])
    );
    assert!(rejected.report.issues()[0]
        .message
        .contains("did you mean \"destination\""));
}

#[test]
fn unknown_keys_are_kept_by_default() {
    let model = tool(vec![Field::required("city", Schema::string())]);
    let decoded = accept(&model, json!({"city": "Paris", "extra": [1, "2"]}));
    assert_eq!(decoded.value, json!({"city": "Paris", "extra": [1, "2"]}));
    assert_eq!(decoded.repairs, vec![]);
}

#[test]
fn unknown_keys_are_dropped_with_a_log_entry_for_typed_tools() {
    let model = tool(vec![Field::required("city", Schema::string())]);
    let decoded = accept_with(
        &model,
        json!({"city": "Paris", "extra": [1, "2"]}),
        &Options::typed(),
    );
    assert_eq!(decoded.value, json!({"city": "Paris"}));
    assert_eq!(
        decoded.repairs,
        vec![repair(
            "extra",
            Rule::DropUnknownKey,
            json!([1, "2"]),
            json!(null)
        )]
    );
}

// ---------------------------------------------------------------------------------------
// Switching repairs off
// ---------------------------------------------------------------------------------------

/// One case per rule: a tool, text that needs the rule, and the options it is decoded with.
struct Switch {
    rule: Rule,
    model: ToolModel,
    text: &'static str,
    options: Options,
}

fn switches() -> Vec<Switch> {
    let case = |rule, model, text| Switch {
        rule,
        model,
        text,
        options: Options::default(),
    };
    vec![
        case(
            Rule::StringToNumber,
            tool_x(Schema::integer()),
            r#"{"x": "5"}"#,
        ),
        case(
            Rule::FloatToInteger,
            tool_x(Schema::integer()),
            r#"{"x": 5.0}"#,
        ),
        case(
            Rule::StringToBool,
            tool_x(Schema::boolean()),
            r#"{"x": "yes"}"#,
        ),
        case(Rule::NumberToBool, tool_x(Schema::boolean()), r#"{"x": 1}"#),
        case(
            Rule::ScalarToString,
            tool_x(Schema::string()),
            r#"{"x": 5}"#,
        ),
        case(
            Rule::JsonString,
            tool_x(Schema::array(Schema::integer())),
            r#"{"x": "[1, 2]"}"#,
        ),
        case(
            Rule::WrapInArray,
            tool_x(Schema::array(Schema::integer())),
            r#"{"x": 5}"#,
        ),
        case(Rule::EnumCase, tool_x(cabins()), r#"{"x": "Business"}"#),
        case(
            Rule::NullAsAbsent,
            tool(vec![Field::optional("x", Schema::integer())]),
            r#"{"x": null}"#,
        ),
        case(
            Rule::KeyCase,
            strict_tool(vec![Field::optional("user_name", Schema::string())]),
            r#"{"userName": "ann"}"#,
        ),
        case(
            Rule::DoubleEncoded,
            tool_x(Schema::integer()),
            r#""{\"x\": 5}""#,
        ),
        case(Rule::JsonText, tool_x(Schema::integer()), "{'x': 5}"),
        Switch {
            rule: Rule::DropUnknownKey,
            model: tool(vec![]),
            text: r#"{"extra": 1}"#,
            options: Options::typed(),
        },
    ]
}

#[test]
fn every_rule_is_applied_with_the_default_options() {
    for Switch {
        rule,
        model,
        text,
        options,
    } in switches()
    {
        let decoded = accept_text_with(&model, text, &options);
        assert_eq!(rules(&decoded.repairs), vec![rule], "{rule}: {text}");
    }
}

#[test]
fn every_rule_can_be_switched_off_on_its_own() {
    // double_encoded is left to `double_encoded_can_be_switched_off` (ignored: a bug).
    let cases = switches()
        .into_iter()
        .filter(|case| case.rule != Rule::DoubleEncoded);
    for Switch {
        rule,
        model,
        text,
        options,
    } in cases
    {
        let options = options.without(rule);
        assert!(!options.allows(rule));
        for other in Rule::ALL.into_iter().filter(|other| *other != rule) {
            assert!(options.allows(other), "{rule} off switched {other} off too");
        }
        let rejected = refuse_text_with(&model, text.as_bytes(), &options);
        assert!(!rejected.report.is_empty(), "{rule}: {text}");
        assert!(
            !rules(&rejected.repairs).contains(&rule),
            "{rule} applied while off: {text}"
        );
        // And on again.
        let decoded = accept_text_with(&model, text, &options.with(rule));
        assert_eq!(rules(&decoded.repairs), vec![rule], "{rule}: {text}");
    }
}

#[test]
fn switched_off_rules_give_the_issue_of_the_value_as_sent() {
    let without = |rule| Options::default().without(rule);
    let rejected = refuse_with(
        &tool_x(Schema::integer()),
        json!({"x": "5"}),
        &without(Rule::StringToNumber),
    );
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Type)]));
    assert_eq!(rejected.report.issues()[0].got, Some(json!("5")));

    let rejected = refuse_with(
        &tool_x(cabins()),
        json!({"x": "Business"}),
        &without(Rule::EnumCase),
    );
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Enum)]));

    let rejected = refuse_with(
        &strict_tool(vec![Field::required("user_name", Schema::string())]),
        json!({"userName": "ann"}),
        &without(Rule::KeyCase),
    );
    assert_eq!(
        issues(&rejected),
        expect(&[
            ("userName", Constraint::AdditionalProperties),
            ("user_name", Constraint::Required),
        ])
    );

    let rejected = refuse_text_with(
        &tool_x(Schema::integer()),
        b"{'x': 5}",
        &without(Rule::JsonText),
    );
    assert_eq!(issues(&rejected), expect(&[("", Constraint::Syntax)]));

    let rejected = refuse_text_with(
        &tool_x(Schema::integer()),
        br#""{\"x\": 5}""#,
        &without(Rule::DoubleEncoded).without(Rule::JsonString),
    );
    assert_eq!(issues(&rejected), expect(&[("", Constraint::Type)]));
    assert_eq!(rejected.repairs, vec![]);
}

#[test]
fn double_encoded_can_be_switched_off() {
    let model = tool_x(Schema::integer());
    let options = Options::default().without(Rule::DoubleEncoded);
    let rejected = refuse_text_with(&model, br#""{\"x\": 5}""#, &options);
    assert_eq!(issues(&rejected), expect(&[("", Constraint::Type)]));
    assert_eq!(rejected.repairs, vec![]);
}

#[test]
fn default_can_be_switched_off() {
    let model = tool(vec![Field::optional(
        "x",
        Schema::integer().with_default(json!(3)),
    )]);
    let decoded = accept_with(
        &model,
        json!({}),
        &Options::default().without(Rule::Default),
    );
    assert_eq!(decoded.value, json!({}));
    assert_eq!(decoded.repairs, vec![]);
    let decoded = accept_with(
        &model,
        json!({"x": null}),
        &Options::default().without(Rule::Default),
    );
    assert_eq!(decoded.value, json!({}));
    assert_eq!(
        decoded.repairs,
        vec![repair("x", Rule::NullAsAbsent, json!(null), json!(null))]
    );
}

#[test]
fn strict_switches_every_rule_off() {
    let strict = Options::strict();
    for rule in Rule::ALL {
        assert!(!strict.allows(rule), "{rule} still on");
    }
    for Switch {
        rule,
        model,
        text,
        options,
    } in switches()
    {
        let options = Options {
            disabled: strict.disabled,
            ..options
        };
        let rejected = refuse_text_with(&model, text.as_bytes(), &options);
        assert_eq!(rejected.repairs, vec![], "{rule}: {text}");
    }
    // A default is not filled either.
    let model = tool(vec![Field::optional(
        "x",
        Schema::integer().with_default(json!(3)),
    )]);
    let decoded = accept_with(&model, json!({}), &strict);
    assert_eq!(decoded.value, json!({}));
    assert_eq!(decoded.repairs, vec![]);
}

#[test]
fn strict_accepts_values_that_are_right_as_sent() {
    let model = tool(vec![
        Field::required("n", u8_schema()),
        Field::required("on", Schema::boolean()),
        Field::required("cabin", cabins()),
        Field::optional("tags", Schema::array(Schema::string())),
    ]);
    let input = json!({"n": 7, "on": false, "cabin": "first", "tags": ["a"]});
    let decoded = accept_with(&model, input.clone(), &Options::strict());
    assert_eq!(decoded.value, input);
    assert_eq!(decoded.repairs, vec![]);
}

#[test]
fn strict_reports_every_value_the_repairs_would_have_fixed() {
    let model = tool(vec![
        Field::required("n", Schema::integer()),
        Field::required("on", Schema::boolean()),
        Field::required("cabin", cabins()),
        Field::required("tags", Schema::array(Schema::string())),
        Field::optional("note", Schema::string()),
    ]);
    let input = json!({"n": "5", "on": "yes", "cabin": "Business", "tags": "a", "note": null});
    let decoded = accept(&model, input.clone());
    assert_eq!(
        decoded.value,
        json!({"n": 5, "on": true, "cabin": "business", "tags": ["a"]})
    );
    let rejected = refuse_with(&model, input, &Options::strict());
    assert_eq!(
        issues(&rejected),
        expect(&[
            ("cabin", Constraint::Enum),
            ("n", Constraint::Type),
            ("note", Constraint::Type),
            ("on", Constraint::Type),
            ("tags", Constraint::Type),
        ])
    );
    assert_eq!(rejected.repairs, vec![]);
}

// ---------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------

#[test]
fn text_over_max_bytes_is_a_limit_issue() {
    let model = text_model();
    let options = Options {
        max_bytes: 10,
        ..Options::default()
    };
    let text = r#"{"a": 12345}"#;
    assert!(text.len() > 10);
    let rejected = refuse_text_with(&model, text.as_bytes(), &options);
    assert_eq!(issues(&rejected), expect(&[("", Constraint::Limit)]));
    let issue = &rejected.report.issues()[0];
    assert_eq!(issue.expected, Some(json!(10)));
    assert_eq!(issue.got, Some(json!(text.len())));
    // At the limit exactly: read.
    let decoded = accept_text_with(&model, r#"{"a": 123}"#, &options);
    assert_eq!(decoded.value, json!({"a": 123}));
}

/// A tool whose field `x` nests arrays of integers `levels` deep.
fn nested_arrays(levels: usize) -> ToolModel {
    let mut schema = Schema::integer();
    for _ in 0..levels {
        schema = Schema::array(schema);
    }
    tool_x(schema)
}

#[test]
fn nesting_deeper_than_max_depth_is_a_limit_issue() {
    let model = nested_arrays(10);
    let text = format!("{{\"x\": {}1{}}}", "[".repeat(10), "]".repeat(10));
    accept_text(&model, &text);
    let options = Options {
        max_depth: 5,
        ..Options::default()
    };
    let rejected = refuse_text_with(&model, text.as_bytes(), &options);
    let found = issues(&rejected);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].1, Constraint::Limit);
    // The same text, not strict JSON: the text stage stops it.
    let lenient = format!("{{x: {}1{}}}", "[".repeat(10), "]".repeat(10));
    let rejected = refuse_text_with(&model, lenient.as_bytes(), &options);
    assert_eq!(issues(&rejected), expect(&[("", Constraint::Limit)]));
}

#[test]
fn max_depth_holds_for_values_of_any_schema() {
    let model = tool_x(Schema::any());
    let options = Options {
        max_depth: 5,
        ..Options::default()
    };
    let text = format!("{{\"x\": {}1{}}}", "[".repeat(20), "]".repeat(20));
    let rejected = refuse_text_with(&model, text.as_bytes(), &options);
    assert_eq!(
        issues(&rejected).last().map(|(_, c)| *c),
        Some(Constraint::Limit)
    );
}

#[test]
fn max_depth_agrees_between_strict_and_lenient_text() {
    // The same nesting must give the same answer whether or not the text needed json_text.
    let options = Options {
        max_depth: 6,
        ..Options::default()
    };
    for depth in 1..12 {
        let model = nested_arrays(depth);
        let strict = format!("{{\"x\": {}1{}}}", "[".repeat(depth), "]".repeat(depth));
        let lenient = format!("{{x: {}1{}}}", "[".repeat(depth), "]".repeat(depth));
        let strict_ok = decode_text(&model, strict.as_bytes(), &options).is_ok();
        let lenient_ok = decode_text(&model, lenient.as_bytes(), &options).is_ok();
        assert_eq!(strict_ok, lenient_ok, "depth {depth}");
    }
}

#[test]
fn max_depth_agrees_between_strict_and_lenient_text_at_the_default_limit() {
    let model = tool(vec![Field::optional("x", Schema::any())]);
    for depth in 120..=130 {
        let value = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let strict = format!("{{\"x\": {value}}}");
        let lenient = format!("{{x: {value}}}");
        let strict_ok = decode_text(&model, strict.as_bytes(), &Options::default()).is_ok();
        let lenient_ok = decode_text(&model, lenient.as_bytes(), &Options::default()).is_ok();
        assert_eq!(strict_ok, lenient_ok, "depth {depth}");
    }
}

#[test]
fn nesting_of_exactly_max_depth_is_read() {
    // Three levels of containers: the object and two arrays.
    let model = nested_arrays(2);
    let options = Options {
        max_depth: 3,
        ..Options::default()
    };
    let lenient = decode_text(&model, b"{x: [[1]]}", &options);
    let strict = decode_text(&model, br#"{"x": [[1]]}"#, &options);
    assert!(
        lenient.is_ok(),
        "{:?}",
        lenient.err().map(|r| r.report.to_string())
    );
    assert!(
        strict.is_ok(),
        "{:?}",
        strict.err().map(|r| r.report.to_string())
    );
    // Four levels: refused.
    let model = nested_arrays(3);
    let rejected = refuse_text_with(&model, br#"{"x": [[[1]]]}"#, &options);
    assert_eq!(
        issues(&rejected).last().map(|(_, c)| *c),
        Some(Constraint::Limit)
    );
}

#[test]
fn a_hundred_thousand_open_brackets_do_not_overflow_the_stack() {
    let model = tool_x(Schema::any());
    let deep = "[".repeat(100_000);
    let texts = [
        deep.clone(),
        format!("{deep}{}", "]".repeat(100_000)),
        format!("{{\"x\": {deep}"),
        format!("```json\n{{x: {deep}\n```"),
        format!("Here: {deep}"),
        format!("\"{deep}\""),
        "{\"a\":".repeat(100_000),
    ];
    let expected = [
        Constraint::Limit,
        Constraint::Limit,
        Constraint::Limit,
        Constraint::Limit,
        Constraint::Limit,
        // A JSON string at the root that holds no readable object: a `type` issue.
        Constraint::Type,
        Constraint::Limit,
    ];
    for (text, constraint) in texts.iter().zip(expected) {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            issues(&rejected),
            expect(&[("", constraint)]),
            "{}",
            &text[..20]
        );
        assert_eq!(rejected.repairs, vec![]);
    }
}

#[test]
fn deep_strings_holding_json_are_refused_without_overflow() {
    let deep = "[".repeat(100_000);
    let model = tool_x(Schema::array(Schema::array(Schema::integer())));
    let rejected = refuse(&model, json!({ "x": deep }));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Type)]));
    let closed = format!("{deep}{}", "]".repeat(100_000));
    let rejected = refuse(&model, json!({ "x": closed }));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Type)]));
    let model = tool(vec![Field::optional("a", Schema::any())]);
    let rejected = refuse(&model, json!(format!("{{\"a\": {closed}}}")));
    assert_eq!(issues(&rejected), expect(&[("", Constraint::Type)]));
}

#[test]
fn more_issues_than_max_issues_are_capped_with_a_limit_issue() {
    let fields: Vec<Field> = (0..10)
        .map(|i| Field::required(format!("f{i}"), Schema::integer()))
        .collect();
    let model = tool(fields);
    let mut input = serde_json::Map::new();
    for i in 0..10 {
        input.insert(format!("f{i}"), json!("x"));
    }
    let options = Options {
        max_issues: 3,
        ..Options::default()
    };
    let rejected = refuse_with(&model, Value::Object(input.clone()), &options);
    assert_eq!(
        issues(&rejected),
        expect(&[
            ("f0", Constraint::Type),
            ("f1", Constraint::Type),
            ("f2", Constraint::Type),
            ("", Constraint::Limit),
        ])
    );
    assert_eq!(rejected.report.left_out(), 7);
    assert!(rejected.report.issues()[3].message.contains('7'));
    // Without the cap: all ten.
    let rejected = refuse(&model, Value::Object(input));
    assert_eq!(rejected.report.len(), 10);
}

#[test]
fn the_issue_cap_counts_required_fields_too() {
    let fields: Vec<Field> = (0..5)
        .map(|i| Field::required(format!("f{i}"), Schema::integer()))
        .collect();
    let options = Options {
        max_issues: 2,
        ..Options::default()
    };
    let rejected = refuse_with(&tool(fields), json!({}), &options);
    assert_eq!(
        issues(&rejected),
        expect(&[
            ("f0", Constraint::Required),
            ("f1", Constraint::Required),
            ("", Constraint::Limit),
        ])
    );
}

// ---------------------------------------------------------------------------------------
// One pass, every issue, in document order
// ---------------------------------------------------------------------------------------

fn booking() -> ToolModel {
    strict_tool(vec![
        Field::required("origin", Schema::string().min_length(3).max_length(3)),
        Field::required("destination", Schema::string().pattern("^[A-Z]{3}$")),
        Field::required("passengers", u8_schema().minimum(1).maximum(9)),
        Field::required("cabin", cabins()),
        Field::optional("bags", Schema::array(Schema::integer()).max_length(2)),
        Field::optional("refundable", Schema::boolean()),
    ])
}

#[test]
fn every_issue_is_collected_in_one_pass_in_document_order() {
    let text = r#"{
        "refundable": "maybe",
        "cabin": "luxury",
        "origin": "Paris",
        "passengers": 12,
        "bags": [1, "two", 3.5],
        "pets": true
    }"#;
    let rejected = refuse_text(&booking(), text);
    assert_eq!(
        issues(&rejected),
        expect(&[
            ("refundable", Constraint::Type),
            ("cabin", Constraint::Enum),
            ("origin", Constraint::MaxLength),
            ("passengers", Constraint::Maximum),
            ("bags", Constraint::MaxItems),
            ("bags[1]", Constraint::Type),
            ("bags[2]", Constraint::Type),
            ("pets", Constraint::AdditionalProperties),
            ("destination", Constraint::Required),
        ])
    );
    assert!(rejected.report.issues()[8].got.is_none());
    assert_eq!(rejected.hint().tool, "t");
    assert_eq!(
        rejected.hint().missing_fields,
        vec!["destination".to_owned()]
    );
}

#[test]
fn repairs_and_issues_come_together_in_one_pass() {
    let text = r#"{"origin": "CDG", "destination": "jfk", "passengers": "2", "cabin": "Business"}"#;
    let rejected = refuse_text(&booking(), text);
    assert_eq!(
        issues(&rejected),
        expect(&[("destination", Constraint::Pattern)])
    );
    assert_eq!(
        rejected.repairs,
        vec![
            repair("passengers", Rule::StringToNumber, json!("2"), json!(2)),
            repair(
                "cabin",
                Rule::EnumCase,
                json!("Business"),
                json!("business")
            ),
        ]
    );
    let fixed = text.replace("jfk", "JFK");
    let decoded = accept_text(&booking(), &fixed);
    assert_eq!(
        decoded.value,
        json!({"origin": "CDG", "destination": "JFK", "passengers": 2, "cabin": "business"})
    );
    assert_eq!(
        rules(&decoded.repairs),
        vec![Rule::StringToNumber, Rule::EnumCase]
    );
}

#[test]
fn issues_inside_arrays_of_objects_have_full_paths() {
    let item = Schema::object(vec![
        Field::required("label", Schema::string().min_length(1)),
        Field::optional("weight", Schema::number().minimum(0)),
    ]);
    let model = tool(vec![Field::required("options", Schema::array(item))]);
    let rejected = refuse(
        &model,
        json!({"options": [{"label": "a"}, {"label": "", "weight": -1}, {"weight": "x"}]}),
    );
    assert_eq!(
        issues(&rejected),
        expect(&[
            ("options[1].label", Constraint::MinLength),
            ("options[1].weight", Constraint::Minimum),
            ("options[2].weight", Constraint::Type),
            ("options[2].label", Constraint::Required),
        ])
    );
}

#[test]
fn a_repaired_value_is_still_checked_against_its_constraints() {
    let model = tool(vec![
        Field::required("lat", Schema::number().minimum(-90).maximum(90)),
        Field::required("code", Schema::string().min_length(3)),
    ]);
    let rejected = refuse_text(&model, r#"{"lat": "91.5", "code": 12}"#);
    assert_eq!(
        issues(&rejected),
        expect(&[
            ("lat", Constraint::Maximum),
            ("code", Constraint::MinLength)
        ])
    );
    // The repaired values were refused, so no repair is logged for them.
    assert_eq!(rules(&rejected.repairs), Vec::<Rule>::new());
}

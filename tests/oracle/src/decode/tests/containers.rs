//! Arrays, maps and enums: json_string, wrap_in_array, enum_case.

use super::*;

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
        ("premium_econmy", "premium_economy"),
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
    // Separators are folded away, so these are repairs, not near misses.
    for sent in ["premiumeconomy", "PremiumEconomy"] {
        let decoded = accept(&model, json!({ "x": sent }));
        assert_eq!(decoded.value, json!({"x": "premium_economy"}), "{sent:?}");
        assert_eq!(rules(&decoded.repairs), vec![Rule::EnumCase], "{sent:?}");
    }
    // Far off: refused, and nothing to suggest.
    let rejected = refuse(&model, json!({"x": "luxury"}));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Enum)]));
    assert!(!rejected.report.issues()[0].message.contains("did you mean"));
}

#[test]
fn a_string_that_starts_like_an_array_is_not_wrapped() {
    let model = tool_x(Schema::array(Schema::string()));
    for sent in ["[a, b]", "['a', 'b'"] {
        let rejected = refuse(&model, json!({ "x": sent }));
        assert_eq!(
            issues(&rejected),
            expect(&[("x", Constraint::Type)]),
            "{sent:?}"
        );
        assert_eq!(rejected.repairs, vec![], "{sent:?}");
    }
}

#[test]
fn unique_items_compare_by_value_and_name_the_indices_sent() {
    let model = tool_x(Schema::array(Schema::number().maximum(10)).unique_items());
    // [1] is refused, so the decoded elements are 0, 2, 3: the message names them as sent.
    let rejected = refuse(&model, json!({"x": [2, 11, 1, 2.0]}));
    let unique = rejected
        .report
        .issues()
        .iter()
        .find(|i| i.constraint == Constraint::UniqueItems)
        .unwrap();
    assert_eq!(unique.message, "items [0] and [3] are equal");
    // Many elements are compared in linear time.
    let many: Vec<u32> = (0..200_000).collect();
    assert!(decode_value(&model, &json!({"x": many}), &Options::default()).is_err());
}

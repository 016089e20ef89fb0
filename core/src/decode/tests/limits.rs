//! Limits (size, depth, issue count) and one pass collecting every issue in document order.

use super::*;

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
        // A candidate in prose nested past the limit.
        Constraint::Limit,
        // A JSON string at the root whose JSON nests too deeply: a `limit`, not a `type` issue.
        Constraint::Limit,
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
    // JSON text in a string that nests too deeply is refused as a depth `limit` (what is
    // wrong), not as a `type` issue.
    let rejected = refuse(&model, json!({ "x": deep }));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Limit)]));
    let closed = format!("{deep}{}", "]".repeat(100_000));
    let rejected = refuse(&model, json!({ "x": closed }));
    assert_eq!(issues(&rejected), expect(&[("x", Constraint::Limit)]));
    let model = tool(vec![Field::optional("a", Schema::any())]);
    let rejected = refuse(&model, json!(format!("{{\"a\": {closed}}}")));
    assert_eq!(issues(&rejected), expect(&[("", Constraint::Limit)]));
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

#[test]
fn nested_unions_stay_within_a_budget() {
    // Two alternatives that both recurse: without a budget, 40 levels would mean 2^40 trials.
    let model = ToolModel::from_json_schema(
        r##"{"title": "t", "type": "object", "properties": {"f": {"$ref": "#/$defs/Filter"}}, "$defs": {
            "Filter": {"anyOf": [
                {"type": "object", "properties": {"and": {"type": "array", "items": {"$ref": "#/$defs/Filter"}}}, "required": ["and"]},
                {"type": "object", "properties": {"and": {"type": "array", "items": {"$ref": "#/$defs/Filter"}}, "x": {"type": "integer"}}, "required": ["and"]},
                {"type": "object", "properties": {"leaf": {"type": "integer"}}, "required": ["leaf"], "additionalProperties": false}
            ]}}}"##,
    )
    .unwrap();
    let mut text = r#"{"leaf": "not a number"}"#.to_owned();
    for _ in 0..40 {
        text = format!(r#"{{"and": [{text}]}}"#);
    }
    let started = std::time::Instant::now();
    let rejected = decode_text(
        &model,
        format!(r#"{{"f": {text}}}"#).as_bytes(),
        &Options::default(),
    )
    .unwrap_err();
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
    let constraints: Vec<Constraint> = rejected
        .report
        .issues()
        .iter()
        .map(|i| i.constraint)
        .collect();
    assert!(
        constraints.contains(&Constraint::Limit) || constraints.contains(&Constraint::AnyOf),
        "{constraints:?}"
    );
    // A sound value of the same depth decodes.
    let sound = text.replace(r#""not a number""#, "1");
    assert!(decode_text(
        &model,
        format!(r#"{{"f": {sound}}}"#).as_bytes(),
        &Options::default()
    )
    .is_ok());
}

#[test]
fn hints_keep_size_and_depth_refusals() {
    let model = text_model();
    let options = Options {
        max_bytes: 10,
        ..Options::default()
    };
    let rejected = decode_text(&model, br#"{"a": 1, "b": [true]}"#, &options).unwrap_err();
    let hint = rejected.hint();
    assert_eq!(hint.fields.len(), 1);
    assert_eq!(hint.fields[0].constraint, Constraint::Limit);
    assert_eq!(
        hint.clarifying_question.as_deref(),
        Some("Could you send the arguments again, shorter and less deeply nested?")
    );
}

#[test]
fn the_strict_reads_tell_their_faults_apart() {
    let nested = "[".repeat(200);
    for read in [crate::decode::parse_strict, crate::decode::read_whole] {
        assert!(matches!(read(&nested, 128), Err(StrictError::TooDeep)));
        assert!(matches!(
            read("[1e400]", 128),
            Err(StrictError::NumberOutOfRange)
        ));
    }
    // After text a strict reader stops at, a fault is the lenient reader's to report.
    assert!(matches!(
        crate::decode::read_whole("['a', 1e400]", 128),
        Err(StrictError::NotStrict(Some((_, Err(_)))))
    ));
    for text in ["[1,]", "{\"a\": 1", "nul", "{\"a\": 1} and more"] {
        assert!(
            matches!(
                crate::decode::parse_strict(text, 128),
                Err(StrictError::NotStrict(None))
            ),
            "{text}"
        );
        assert!(
            matches!(
                crate::decode::read_whole(text, 128),
                Err(StrictError::NotStrict(Some(_)))
            ),
            "{text}"
        );
    }
}

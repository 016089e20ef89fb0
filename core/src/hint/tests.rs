use serde_json::json;

use super::*;
use crate::model::{EnumValue, Field, Kind, Schema};

fn model() -> ToolModel {
    let colours = [
        "red", "orange", "yellow", "green", "blue", "indigo", "violet",
    ]
    .map(EnumValue::new)
    .to_vec();
    ToolModel::new(
        "paint",
        None,
        Schema::object(vec![
            Field::required(
                "colour",
                Schema::enumeration(colours).with_description("Paint colour"),
            ),
            Field::required(
                "litres",
                Schema::number()
                    .minimum(1)
                    .maximum(20)
                    .with_description("Litres of paint"),
            ),
            Field::required(
                "wall",
                Schema::string().with_description("The wall to paint. Use the room name."),
            ),
            Field::required("room", Schema::string()),
            Field::required("finish", Schema::string()),
            Field::required("primer", Schema::boolean()),
        ]),
        Default::default(),
    )
}

fn missing(name: &str) -> Issue {
    Issue::new(Path::root().key(name), Constraint::Required, "is required")
}

#[test]
fn caps_missing_fields_and_fields_and_counts_the_rest() {
    let mut report = Report::new();
    for name in ["wall", "room", "finish", "primer"] {
        report.push(missing(name));
    }
    for value in ["mauve", "teal", "ochre", "cyan"] {
        report.push(Issue::new(
            Path::root().key(value),
            Constraint::AdditionalProperties,
            "unknown field",
        ));
    }
    report.push(
        Issue::new(
            Path::root().key("litres"),
            Constraint::Maximum,
            "30 is greater than the maximum 20",
        )
        .with_expected(json!(20)),
    );
    let hint = RetryHint::build(&model(), &report, HintReason::InvalidArguments);
    assert_eq!(hint.missing_fields, ["wall", "room", "finish"]);
    assert_eq!(hint.fields.len(), MAX_FIELDS);
    assert_eq!(hint.omitted, 1 + 2);
    // The message leads with what is missing, then the first other issue in the schema's
    // order: a declared field before keys the schema does not declare, whatever order the
    // issues came in.
    assert_eq!(
        hint.message,
        "missing required fields wall, room, finish; litres: 30 is greater than the maximum 20"
    );
    let shown: Vec<String> = hint.fields.iter().map(|f| f.path.to_string()).collect();
    assert_eq!(shown, ["litres", "mauve", "teal"]);
    // An unknown key with no declared key near it: leave it out, and the keys there are.
    assert_eq!(
        hint.fields[1].allowed_keys,
        ["colour", "litres", "wall", "room", "finish", "…"]
    );
    assert_eq!(hint.fields[1].did_you_mean, None);
    assert!(!hint.to_json().contains("\"did_you_mean\":null"));
    // Missing fields come first in the question; descriptions are used where they exist.
    assert_eq!(
        hint.clarifying_question.as_deref(),
        Some("What should the wall to paint, `room` and `finish` be?")
    );
    // In the schema's order, which `serde_json::Value` would have sorted.
    assert_eq!(
        hint.example_input
            .map(|example| example.to_string())
            .as_deref(),
        Some(r#"{"wall":"<string: the wall to paint>","room":"<string>","finish":"<string>"}"#)
    );
}

#[test]
fn enum_fields_list_five_values_then_an_ellipsis() {
    let mut report = Report::new();
    report.push(
        Issue::new(
            Path::root().key("colour"),
            Constraint::Enum,
            "\"gren\" is not one of …",
        )
        .with_got(json!("gren")),
    );
    let hint = RetryHint::build(&model(), &report, HintReason::InvalidArguments);
    let field = &hint.fields[0];
    assert_eq!(
        field.allowed_values,
        json!(["red", "orange", "yellow", "green", "blue", "…"])
            .as_array()
            .unwrap()
            .clone()
    );
    assert_eq!(field.did_you_mean.as_deref(), Some("green"));
    assert_eq!(field.description.as_deref(), Some("Paint colour"));
    assert_eq!(
        hint.clarifying_question.as_deref(),
        Some("Which of red, orange, yellow, green, blue or … should the paint colour be?")
    );
    assert_eq!(hint.example_input, None);
    assert!(hint.to_json().contains(r#""did_you_mean":"green""#));
}

#[test]
fn bounds_come_with_bound_issues_only() {
    let mut report = Report::new();
    report.push(
        Issue::new(
            Path::root().key("litres"),
            Constraint::Maximum,
            "30 is greater than the maximum 20",
        )
        .with_expected(json!(20)),
    );
    let hint = RetryHint::build(&model(), &report, HintReason::InvalidArguments);
    assert_eq!(
        (hint.fields[0].min, hint.fields[0].max),
        (Some(Num::Int(1)), Some(Num::Int(20)))
    );
    assert_eq!(
        hint.clarifying_question.as_deref(),
        Some("What should the litres of paint be (at most 20)?")
    );
    assert_eq!(hint.to_string(), "paint (invalid arguments): litres: 30 is greater than the maximum 20\n- litres (maximum): Litres of paint; min 1; max 20\nWhat should the litres of paint be (at most 20)?");
}

#[test]
fn questions_are_capped() {
    let long = "a very long description ".repeat(30);
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required(
            "x",
            Schema::string().with_description(long),
        )]),
        Default::default(),
    );
    let mut report = Report::new();
    report.push(missing("x"));
    let question = RetryHint::build(&model, &report, HintReason::InvalidArguments)
        .clarifying_question
        .unwrap();
    assert!(question.chars().count() <= MAX_QUESTION_CHARS);
    assert!(question.chars().count() > MAX_QUESTION_CHARS - 5);
    assert!(question.ends_with("…?"));
}

#[test]
fn nested_missing_fields_nest_in_the_example() {
    let inner = Schema::object(vec![Field::required(
        "email",
        Schema::string().with_description("Email address"),
    )]);
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required("contact", inner)]),
        Default::default(),
    );
    let mut report = Report::new();
    report.push(Issue::new(
        Path::root().key("contact").key("email"),
        Constraint::Required,
        "is required",
    ));
    let hint = RetryHint::build(&model, &report, HintReason::InvalidArguments);
    assert_eq!(hint.message, "missing required field contact.email");
    assert_eq!(
        hint.example_input,
        Some(Json::from(
            &json!({"contact": {"email": "<string: email address>"}})
        ))
    );
    assert_eq!(
        hint.clarifying_question.as_deref(),
        Some("What should the email address be?")
    );
}

#[test]
fn phrases_keep_acronyms() {
    assert_eq!(
        phrase("IATA code of the airport."),
        "IATA code of the airport"
    );
    assert_eq!(phrase("Departure day. More words."), "departure day");
}

/// Issue 11 §3: a `type` issue that is not the first one reached the model as
/// `{"path":"m","constraint":"type"}`; every entry now says what was wanted.
#[test]
fn type_entries_say_the_type_wanted_and_bounds_come_from_the_issue() {
    let model = model();
    let mut report = Report::new();
    report.push(
        Issue::new(
            Path::root().key("litres"),
            Constraint::Type,
            "expected number, got string \"x\"",
        )
        .with_expected(json!("number")),
    );
    report.push(
        Issue::new(
            Path::root().key("room"),
            Constraint::Type,
            "expected string or number, got true",
        )
        .with_expected(json!(["string", "number"])),
    );
    // A value the schema lookup does not reach (below a union, say): the issue's bound.
    report.push(
        Issue::new(
            Path::root().key("mauve").index(0),
            Constraint::MinLength,
            "shorter than 3 characters",
        )
        .with_expected(json!(3)),
    );
    let hint = RetryHint::build(&model, &report, HintReason::InvalidArguments);
    assert_eq!(hint.fields[0].expected_type, Some(json!("number")));
    assert_eq!(
        hint.fields[1].expected_type,
        Some(json!(["string", "number"]))
    );
    assert_eq!(hint.fields[2].min, Some(Num::Int(3)));
    assert_eq!(hint.fields[2].expected_type, None);
    let json: Value = serde_json::from_str(&hint.to_json()).unwrap();
    assert_eq!(
        json["fields"][1]["expected_type"],
        json!(["string", "number"])
    );
    let text = hint.to_string();
    assert!(
        text.contains("- litres (type): expected number; Litres of paint"),
        "{text}"
    );
    assert!(
        text.contains("- room (type): expected string or number"),
        "{text}"
    );
}

/// Issue 11 §3: `example_input` keeps the schema's field order, whatever the order of the
/// issues (a decoder reports nested missing fields before the root's).
#[test]
fn the_example_follows_the_schema_order_not_the_report_order() {
    let model = ToolModel::new(
        "book",
        None,
        Schema::object(vec![
            Field::required("zeta", Schema::string()),
            Field::required(
                "contact",
                Schema::object(vec![
                    Field::required("name", Schema::string()),
                    Field::required("email", Schema::string()),
                ]),
            ),
            Field::required("alpha", Schema::string()),
        ]),
        Default::default(),
    );
    let mut report = Report::new();
    for path in [
        Path::root().key("contact").key("email"),
        Path::root().key("contact").key("name"),
        Path::root().key("alpha"),
    ] {
        report.push(Issue::new(path, Constraint::Required, "is required"));
    }
    let hint = RetryHint::build(&model, &report, HintReason::InvalidArguments);
    assert_eq!(
        hint.example_input
            .map(|example| example.to_string())
            .as_deref(),
        Some(r#"{"contact":{"name":"<string>","email":"<string>"},"alpha":"<string>"}"#)
    );
}

/// Notion's `icon` (an emoji object, a file object or null) refused as a string, and a
/// search filter's `value` type list refused as an array: what was wanted reaches the model.
#[test]
fn union_and_type_list_hints_say_what_the_alternatives_want() {
    let model = ToolModel::from_definition(&json!({"type": "object", "properties": {
        "icon": {"anyOf": [
            {"type": "object", "properties": {"emoji": {"type": "string"}}, "required": ["emoji"]},
            {"type": "object", "properties": {"external": {"type": "object"}}, "required": ["external"]}]},
        "value": {"type": ["string", "number", "boolean"]}}}))
    .unwrap();
    let rejected = crate::decode::decode_value(
        &model,
        &json!({"icon": {"url": "x"}, "value": []}),
        &crate::decode::Options::default(),
    )
    .unwrap_err();
    let hint = RetryHint::build(&model, &rejected.report, HintReason::InvalidArguments);
    assert_eq!(hint.fields[0].constraint, Constraint::AnyOf);
    assert_eq!(hint.fields[0].alternatives, [json!("object")]);
    assert_eq!(hint.fields[1].constraint, Constraint::Type);
    let text = hint.to_string();
    assert!(text.contains("- icon (anyOf): one of: object"), "{text}");
    assert_eq!(
        hint.clarifying_question.as_deref(),
        Some("What should `icon` be (one of object)?")
    );
    let value_issue = &rejected.report.issues()[1];
    assert_eq!(
        value_issue.expected,
        Some(json!(["string", "number", "boolean"]))
    );
}

/// A `type` issue of a type list asks for the types by name.
#[test]
fn a_type_list_issue_asks_for_one_of_its_types() {
    let model = ToolModel::from_definition(&json!({"type": "object", "properties": {
        "value": {"type": ["string", "number", "boolean"]}}}))
    .unwrap();
    let rejected = crate::decode::decode_value(
        &model,
        &json!({"value": {}}),
        &crate::decode::Options::default(),
    )
    .unwrap_err();
    let hint = RetryHint::build(&model, &rejected.report, HintReason::InvalidArguments);
    assert_eq!(
        hint.clarifying_question.as_deref(),
        Some("What should `value` be (string, number or boolean)?")
    );
}

#[test]
fn the_hint_takes_the_did_you_mean_its_check_found() {
    let model = model();
    let mut checker = crate::Checker::new(&model);
    let Kind::Object(object) = &model.input().kind else {
        panic!("an object")
    };
    let Kind::Enum(colours) = &object.fields[0].schema.kind else {
        panic!("an enum")
    };
    checker.path_push_field("colour");
    checker.check_enum(&json!("gren"), colours);
    checker.path_pop();
    checker.unknown_field("litre", object);
    let report = checker.finish().unwrap_err();
    let found: Vec<_> = report
        .issues()
        .iter()
        .map(|i| i.did_you_mean.clone())
        .collect();
    assert_eq!(
        found,
        [
            Some(Some("green".to_owned())),
            Some(Some("litres".to_owned()))
        ]
    );
    let hint = RetryHint::build(&model, &report, HintReason::InvalidArguments);
    let shown: Vec<_> = hint
        .fields
        .iter()
        .map(|f| f.did_you_mean.as_deref())
        .collect();
    assert_eq!(shown, [Some("green"), Some("litres")]);

    // The hint reads what the check kept, and searches only when nothing was kept.
    let kept = Issue::new(
        Path::root().key("colour"),
        Constraint::Enum,
        "\"x\" is not one",
    )
    .with_got(json!("x"))
    .with_did_you_mean(Some("violet"));
    let searched = Issue::new(
        Path::root().key("colour"),
        Constraint::Enum,
        "\"gren\" is not one",
    )
    .with_got(json!("gren"));
    for (issue, shown) in [(kept, "violet"), (searched, "green")] {
        let mut report = Report::new();
        report.push(issue);
        let hint = RetryHint::build(&model, &report, HintReason::InvalidArguments);
        assert_eq!(hint.fields[0].did_you_mean.as_deref(), Some(shown));
    }
}

#[test]
fn a_description_that_is_a_clause_follows_the_field_name_in_the_question() {
    let contact = Schema::object(vec![Field::required("email", Schema::string())])
        .with_description("How to reach the passenger");
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required("contact", contact)]),
        Default::default(),
    );
    let mut report = Report::new();
    report.push(Issue::new(
        Path::root().key("contact"),
        Constraint::Required,
        "is required",
    ));
    let hint = RetryHint::build(&model, &report, HintReason::InvalidArguments);
    assert_eq!(
        hint.clarifying_question.as_deref(),
        Some("What should `contact` (how to reach the passenger) be?")
    );
    assert_eq!(
        subject_described(
            Some("Whether the ticket must be refundable"),
            &Path::root().key("refundable")
        ),
        "`refundable` (whether the ticket must be refundable)"
    );
    assert_eq!(
        subject_described(Some("Departure airport"), &Path::root().key("origin")),
        "the departure airport"
    );
}

/// The hint's hand-written JSON is serde_json's text of the hint, on any hint: strings that
/// need escaping and strings that do not, paths long enough to be shortened, every
/// constraint and reason, any values, numbers of any size (a float that is not finite is
/// `null`), absent and present parts.
mod json_writer {
    use proptest::prelude::*;

    use super::*;
    use crate::path::Segment;
    use crate::test_support::json_value;

    fn text() -> impl Strategy<Value = String> {
        "[a-z \"\\\\\u{0}-\u{1f}\u{7f}é東…/]{0,24}"
    }

    fn num() -> impl Strategy<Value = Num> {
        prop_oneof![
            any::<i128>().prop_map(Num::Int),
            any::<i64>().prop_map(|n| Num::Int(n.into())),
            any::<f64>().prop_map(Num::Float),
        ]
    }

    fn path() -> impl Strategy<Value = Path> {
        let segment = prop_oneof![
            text().prop_map(Segment::Key),
            any::<usize>().prop_map(Segment::Index),
        ];
        prop::collection::vec(segment, 0..12).prop_map(Path::from)
    }

    fn field() -> impl Strategy<Value = FieldHint> {
        (
            (
                path(),
                prop::sample::select(Constraint::ALL.to_vec()),
                prop::option::of(text()),
                prop::option::of(json_value()),
                prop::collection::vec(json_value(), 0..4),
                prop::option::of(num()),
            ),
            (
                prop::option::of(num()),
                prop::collection::vec(json_value(), 0..3),
                prop::option::of(text()),
                prop::option::of(text()),
                prop::collection::vec(text(), 0..3),
                prop::option::of(text()),
            ),
        )
            .prop_map(
                |(
                    (path, constraint, description, expected_type, allowed_values, min),
                    (max, alternatives, pattern, format, allowed_keys, did_you_mean),
                )| FieldHint {
                    path,
                    constraint,
                    description,
                    expected_type,
                    allowed_values,
                    min,
                    max,
                    alternatives,
                    pattern,
                    format,
                    allowed_keys,
                    did_you_mean,
                },
            )
    }

    fn hint() -> impl Strategy<Value = RetryHint> {
        (
            text(),
            prop::sample::select(vec![
                HintReason::InvalidArguments,
                HintReason::MalformedResponse,
                HintReason::ToolError,
            ]),
            text(),
            prop::collection::vec(text(), 0..4),
            prop::collection::vec(field(), 0..4),
            any::<usize>(),
            prop::option::of(text()),
            prop::option::of(json_value().prop_map(|value| Json::from(&value))),
        )
            .prop_map(
                |(
                    tool,
                    reason,
                    message,
                    missing_fields,
                    fields,
                    omitted,
                    clarifying_question,
                    example_input,
                )| RetryHint {
                    tool,
                    reason,
                    message,
                    missing_fields,
                    fields,
                    omitted,
                    clarifying_question,
                    example_input,
                },
            )
    }

    /// A path into the paint model: its fields' names, other keys and indexes.
    fn model_path() -> impl Strategy<Value = Path> {
        let key = prop_oneof![
            prop::sample::select(vec!["colour", "litres", "wall", "room", "finish", "primer"])
                .prop_map(str::to_owned),
            text(),
        ];
        let segment = prop_oneof![
            3 => key.prop_map(Segment::Key),
            1 => (0usize..4).prop_map(Segment::Index),
        ];
        prop::collection::vec(segment, 0..4).prop_map(Path::from)
    }

    /// Any issue at a path into the paint model: every constraint, any `expected` and `got`,
    /// a "did you mean" found or not, or not looked for.
    fn issue() -> impl Strategy<Value = Issue> {
        (
            model_path(),
            prop::sample::select(Constraint::ALL.to_vec()),
            text(),
            prop::option::of(json_value()),
            prop::option::of(json_value()),
            prop::option::of(prop::option::of(text())),
        )
            .prop_map(|(path, constraint, message, expected, got, near)| {
                let mut issue = Issue::new(path, constraint, message);
                issue.expected = expected;
                issue.got = got;
                issue.did_you_mean = near;
                issue
            })
    }

    proptest! {
        #[test]
        fn the_written_json_is_serde_jsons(hint in hint()) {
            prop_assert_eq!(hint.to_json(), serde_json::to_string(&hint).unwrap());
        }

        /// `RetryHint::build_json` (what `Rejected::hint_json` writes) is the built hint's
        /// JSON, on any report: every constraint at any path, capped or not.
        #[test]
        fn the_json_built_from_a_report_is_the_built_hints(
            issues in prop::collection::vec(issue(), 0..8),
            cap in 1usize..6,
        ) {
            let model = model();
            let mut report = Report::with_cap(cap);
            for issue in issues {
                report.push(issue);
            }
            for reason in [HintReason::InvalidArguments, HintReason::ToolError] {
                prop_assert_eq!(
                    RetryHint::build_json(&model, &report, reason),
                    RetryHint::build(&model, &report, reason).to_json()
                );
            }
        }
    }

    #[test]
    fn each_reason_is_written_as_serde_names_it() {
        for reason in [
            HintReason::InvalidArguments,
            HintReason::MalformedResponse,
            HintReason::ToolError,
        ] {
            let named = serde_json::to_value(reason).unwrap();
            assert_eq!(named.as_str(), Some(reason.as_str()));
        }
    }
}

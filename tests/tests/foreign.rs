//! `toolgate::foreign` on error texts produced by the real libraries (`tests/fixtures/foreign/`,
//! with the scripts that made them) and, for serde and jsonschema-rs, produced here by the
//! crates themselves. One input with ten known mistakes (`cases.json`'s `truth`) is sent to
//! each library; every issue read back must agree with the truth at its path, and the table
//! of what each form gives back (printed with `--nocapture`) must not shrink.

use serde::Deserialize;
use serde_json::{json, Value};
use toolgate::foreign::{parse_for, ForeignFormat};
use toolgate::model::ToolModel;
use toolgate::{Constraint, Issue};

const CASES: &str = include_str!("../fixtures/foreign/cases.json");
const PYTHON: &str = include_str!("../fixtures/foreign/python.json");
const NODE: &str = include_str!("../fixtures/foreign/node.json");
const DOCUMENTED: &str = include_str!("../fixtures/foreign/documented.json");

#[derive(Deserialize)]
struct Fixture {
    format: String,
    source: String,
    text: String,
}

#[derive(Deserialize, Clone)]
struct Truth {
    path: String,
    constraint: Constraint,
    #[serde(default)]
    expected: Option<Value>,
    #[serde(default)]
    got: Option<Value>,
}

fn cases() -> Value {
    serde_json::from_str(CASES).unwrap()
}

fn model() -> ToolModel {
    let schema = cases()["schema"].clone();
    ToolModel::from_definition(&json!({"name": "transfer", "parameters": schema})).unwrap()
}

fn truth() -> Vec<Truth> {
    serde_json::from_value(cases()["truth"].clone()).unwrap()
}

/// Numbers compare by value (`0` and `0.0`); everything else as JSON.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        _ => a == b,
    }
}

fn format_name(format: ForeignFormat) -> &'static str {
    match format {
        ForeignFormat::PydanticErrors => "pydantic_errors",
        ForeignFormat::PydanticText => "pydantic_text",
        ForeignFormat::FastApi => "fastapi_422",
        ForeignFormat::PythonJsonschema => "python_jsonschema_text",
        ForeignFormat::Zod => "zod_issues",
        ForeignFormat::ZodText => "zod_text",
        ForeignFormat::Ajv => "ajv_errors",
        ForeignFormat::AjvText => "ajv_text",
        ForeignFormat::SerdeJson => "serde_json",
        ForeignFormat::SerdePathToError => "serde_path_to_error",
        ForeignFormat::GoJson => "go_json",
        ForeignFormat::GoValidator => "go_validator",
        ForeignFormat::ProblemJson => "problem_json",
        ForeignFormat::PlainText => "plain_text",
        _ => "other",
    }
}

/// What one text gave back: issues read, and of those, right path, right constraint, and
/// `expected` / `got` given and right.
#[derive(Default)]
struct Row {
    issues: usize,
    paths: usize,
    constraints: usize,
    expected: usize,
    got: usize,
}

/// Reads `text`, checks every issue against `truth`, and counts what came back.
fn read(format: &str, source: &str, text: &str, truth: &[Truth]) -> Row {
    let model = model();
    let parsed = parse_for(&model, text).unwrap_or_else(|| panic!("{source}: not read:\n{text}"));
    let label = if format == "python_jsonschema_messages" {
        "plain_text"
    } else {
        format
    };
    assert_eq!(
        format_name(parsed.format),
        label,
        "{source}: read as {:?}",
        parsed.format
    );
    let mut row = Row {
        issues: parsed.issues.len(),
        ..Row::default()
    };
    for issue in &parsed.issues {
        let at = issue.path.to_string();
        let Some(want) = truth.iter().find(|t| t.path == at) else {
            // The one path not recovered: AJV's text names no key for an unknown one, so its
            // issue is at the object. Any other path is one the input does not have.
            assert!(
                issue.path.is_root() && issue.constraint == Constraint::AdditionalProperties,
                "{source}: {issue:?} matches no mistake"
            );
            continue;
        };
        row.paths += 1;
        assert_eq!(
            issue.constraint, want.constraint,
            "{source}: {at}: {issue:?}"
        );
        row.constraints += 1;
        if agrees(
            &source_at(source, &at),
            "expected",
            issue,
            &issue.expected,
            &want.expected,
        ) {
            row.expected += 1;
        }
        if agrees(&source_at(source, &at), "got", issue, &issue.got, &want.got) {
            row.got += 1;
        }
    }
    row
}

fn source_at(source: &str, at: &str) -> String {
    format!("{source}: {at}")
}

/// Whether the issue gives `what` (`expected` or `got`); panics if it gives a wrong one.
fn agrees(
    label: &str,
    what: &str,
    issue: &Issue,
    given: &Option<Value>,
    wanted: &Option<Value>,
) -> bool {
    let Some(given) = given else {
        return false;
    };
    let wanted = wanted
        .as_ref()
        .unwrap_or_else(|| panic!("{label}: the truth has no {what}"));
    // zod and Joi check an integer as a number with an extra rule, and say "number".
    let wider = what == "expected"
        && issue.constraint == Constraint::Type
        && *given == "number"
        && *wanted == "integer";
    assert!(
        same(given, wanted) || wider,
        "{label}: {what} {given} not {wanted}"
    );
    true
}

fn print(rows: &[(String, String, Row)]) {
    println!("| format | source | issues | path | constraint | expected | got |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (format, source, row) in rows {
        println!(
            "| {format} | {source} | {} | {} | {} | {} | {} |",
            row.issues, row.paths, row.constraints, row.expected, row.got
        );
    }
}

/// The least each form must give back: (format, issues, right paths, expected, got).
const FLOORS: &[(&str, usize, usize, usize, usize)] = &[
    ("pydantic_errors", 10, 10, 8, 9),
    ("pydantic_text", 10, 10, 8, 9),
    ("fastapi_422", 10, 10, 8, 9),
    ("python_jsonschema_text", 1, 1, 0, 0),
    ("python_jsonschema_messages", 10, 10, 7, 9),
    ("zod_issues", 10, 10, 7, 1),
    ("zod_text", 10, 10, 8, 1),
    ("ajv_errors", 10, 10, 8, 1),
    ("ajv_text", 10, 9, 7, 0),
    ("plain_text", 4, 4, 4, 0),
    ("go_json", 1, 1, 0, 0),
    ("go_validator", 7, 7, 0, 0),
    ("problem_json", 2, 2, 2, 0),
];

fn floor(format: &str) -> (usize, usize, usize, usize) {
    let (_, issues, paths, expected, got) = FLOORS
        .iter()
        .find(|(name, ..)| *name == format)
        .unwrap_or_else(|| panic!("no floor for {format}"));
    (*issues, *paths, *expected, *got)
}

#[test]
fn the_texts_of_real_libraries_read_back_as_their_mistakes() {
    let truth = truth();
    let mut rows = Vec::new();
    for fixtures in [PYTHON, NODE, DOCUMENTED] {
        let fixtures: Vec<Fixture> = serde_json::from_str(fixtures).unwrap();
        for fixture in fixtures {
            let row = read(&fixture.format, &fixture.source, &fixture.text, &truth);
            rows.push((fixture.format, fixture.source, row));
        }
    }
    print(&rows);
    for (format, source, row) in &rows {
        let (issues, paths, expected, got) = floor(format);
        assert!(
            row.issues >= issues && row.paths >= paths && row.expected >= expected && row.got >= got,
            "{format} ({source}): {} issues, {} paths, {} expected, {} got; floor {issues}/{paths}/{expected}/{got}",
            row.issues, row.paths, row.expected, row.got
        );
    }
}

/// serde's types for the same rules (serde checks types, names and variants, not bounds).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Transfer {
    age: i64,
    count: u8,
    kind: Kind,
    contact: Contact,
}

#[derive(Deserialize, Debug)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)]
enum Kind {
    Buy,
    Sell,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Contact {
    phone: String,
}

#[test]
fn serde_errors_read_back_plain_and_with_their_path() {
    let valid = json!({"age": 3, "count": 5, "kind": "buy", "contact": {"phone": "+1"}});
    let mistakes = [
        (
            "age",
            json!("ten"),
            Constraint::Type,
            Some(json!("integer")),
        ),
        (
            "kind",
            json!("hold"),
            Constraint::Enum,
            Some(json!(["buy", "sell"])),
        ),
        ("count", json!(500), Constraint::Maximum, Some(json!(255))),
        ("extra", json!(true), Constraint::AdditionalProperties, None),
    ];
    let mut rows = Vec::new();
    for (field, value, constraint, expected) in mistakes {
        let mut input = valid.clone();
        input[field] = value.clone();
        let text = input.to_string();
        let plain = serde_json::from_str::<Transfer>(&text)
            .unwrap_err()
            .to_string();
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let pathed = serde_path_to_error::deserialize::<_, Transfer>(&mut deserializer)
            .unwrap_err()
            .to_string();
        for (format, text) in [("serde_json", plain), ("serde_path_to_error", pathed)] {
            let parsed = parse_for(&model(), &text).unwrap_or_else(|| panic!("not read: {text}"));
            assert_eq!(format_name(parsed.format), format, "{text}");
            let issue: &Issue = &parsed.issues[0];
            assert_eq!(issue.constraint, constraint, "{text}");
            assert_eq!(issue.expected, expected, "{text}");
            if constraint != Constraint::AdditionalProperties {
                assert_eq!(issue.got, Some(value.clone()), "{text}");
            }
            if format == "serde_path_to_error" || constraint == Constraint::AdditionalProperties {
                assert_eq!(issue.path.to_string(), field, "{text}");
            }
            let row = Row {
                issues: 1,
                paths: usize::from(issue.path.to_string() == field),
                constraints: 1,
                expected: usize::from(issue.expected.is_some()),
                got: usize::from(issue.got.is_some()),
            };
            rows.push((format.to_owned(), text, row));
        }
    }
    // A missing nested field: serde names the key, serde_path_to_error its parent too.
    let text = r#"{"age": 3, "count": 5, "kind": "buy", "contact": {}}"#;
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let pathed = serde_path_to_error::deserialize::<_, Transfer>(&mut deserializer)
        .unwrap_err()
        .to_string();
    let parsed = parse_for(&model(), &pathed).unwrap();
    assert_eq!(
        parsed.issues[0].path.to_string(),
        "contact.phone",
        "{pathed}"
    );
    assert_eq!(parsed.issues[0].constraint, Constraint::Required);
    print(&rows);
}

#[test]
fn jsonschema_rs_messages_read_back_with_their_pointers() {
    let cases = cases();
    let validator = jsonschema::validator_for(&cases["schema"]).unwrap();
    let text: Vec<String> = validator
        .iter_errors(&cases["input"])
        .map(|error| {
            let pointer = error.instance_path().to_string();
            if pointer.is_empty() {
                error.to_string()
            } else {
                format!("{pointer}: {error}")
            }
        })
        .collect();
    let text = text.join("\n");
    let row = read(
        "plain_text",
        "jsonschema-rs (this workspace's)",
        &text,
        &truth(),
    );
    assert_eq!(row.issues, 10, "{text}");
    assert!(
        row.paths >= 10 && row.expected >= 6 && row.got >= 6,
        "{text}\n{} {} {}",
        row.paths,
        row.expected,
        row.got
    );
    print(&[("plain_text".to_owned(), "jsonschema-rs".to_owned(), row)]);
}

#[test]
fn hostile_texts_give_bounded_issues() {
    use toolgate::foreign::{parse, MAX_FOREIGN_MESSAGE_CHARS, MAX_FOREIGN_PATH_SEGMENTS};
    // A pydantic text whose one location is 31,000 segments deep, with 100 errors under it.
    let deep = format!(
        "1 validation error for M\n{}\n{}",
        "a.".repeat(31_000),
        "  x [type=missing]\n".repeat(100)
    );
    assert!(parse(&deep).is_none_or(|parsed| parsed.issues.is_empty()));
    // Paths and messages past their limits are cut, values shortened.
    let long = format!(
        r#"[{{"type": "missing", "loc": {}, "msg": "{}"}}]"#,
        serde_json::to_string(&vec!["k"; 1_000]).unwrap(),
        "m".repeat(100_000)
    );
    let parsed = parse(&long).unwrap();
    let issue = &parsed.issues[0];
    assert_eq!(issue.path.segments().len(), MAX_FOREIGN_PATH_SEGMENTS);
    assert_eq!(issue.message.chars().count(), MAX_FOREIGN_MESSAGE_CHARS + 1);
}

#[test]
fn a_long_json_body_is_read_whole_never_cut_into_text() {
    // FastAPI echoes the whole input in each entry: a real body passes 64 KiB.
    let input = "x".repeat(70_000);
    let body = json!({"detail": [{"type": "greater_than", "loc": ["body", "amount"],
        "msg": "Input should be greater than 0", "input": 0, "ctx": {"gt": 0}},
        {"type": "missing", "loc": ["body", "note"], "msg": "Field required", "input": {"blob": input}}]});
    let parsed = parse_for(&model(), &body.to_string()).unwrap();
    assert_eq!(parsed.format, ForeignFormat::FastApi);
    let paths: Vec<String> = parsed.issues.iter().map(|i| i.path.to_string()).collect();
    assert_eq!(paths, ["amount", "note"]);
    // pydantic's own list keeps a `loc` that starts like FastAPI's: a field named `path`.
    let own = r#"[{"type": "missing", "loc": ["path"], "msg": "Field required", "input": {}}]"#;
    let parsed = toolgate::foreign::parse(own).unwrap();
    assert_eq!(parsed.issues[0].path.to_string(), "path");
}

#[test]
fn a_sentence_about_no_field_is_no_issue_of_the_arguments() {
    for text in [
        "Token has expired",
        "Error: connection refused",
        "Database is locked",
    ] {
        assert!(parse_for(&model(), text).is_none(), "{text}");
    }
    // A field the model has is kept, whatever the rule.
    let parsed = parse_for(&model(), "Note has been flagged by moderation").unwrap();
    assert_eq!(parsed.issues[0].path.to_string(), "note");
    assert_eq!(parsed.issues[0].constraint, Constraint::Custom);
}

#[test]
fn a_text_in_no_known_form_gives_nothing_and_a_huge_one_is_cut() {
    assert!(toolgate::foreign::parse("insufficient funds").is_none());
    assert!(toolgate::foreign::parse("").is_none());
    let many = "amount must be greater than 0\n".repeat(100_000);
    let parsed = toolgate::foreign::parse(&many).unwrap();
    assert_eq!(parsed.issues.len(), toolgate::foreign::MAX_FOREIGN_ISSUES);
    // Only the first 64 KiB of a text are read: a rule past them is not seen.
    let late = format!("{}\namount must be greater than 0", "x ".repeat(40_000));
    assert!(toolgate::foreign::parse(&late).is_none());
    let deep = "[".repeat(100_000);
    assert!(toolgate::foreign::parse(&deep).is_none());
}

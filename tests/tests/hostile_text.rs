//! Argument texts that real models sent when a function-calling leaderboard failed them,
//! and their kin: bare identifiers, JavaScript functions, expressions, stray quotes,
//! comments, citations in prose, two objects, an object followed by junk. Each is either
//! refused, or accepted with a value that holds every key and value written in the text —
//! never a smaller value found inside a failed one, never the first of two.

use serde_json::{json, Value};
use toolgate::DynamicTool;

fn tools() -> Vec<(String, DynamicTool)> {
    let definitions = [
        json!({"name": "configure", "parameters": {"type": "object",
            "properties": {"store": {}, "context": {}}}}),
        json!({"name": "js_call", "parameters": {"type": "object",
            "properties": {"ctx": {"type": "string"}, "currentKey": {"type": "string"}}}}),
        json!({"name": "search", "parameters": {"type": "object",
            "properties": {"query": {"type": "string"}, "page": {"type": "integer"}, "meta": {}},
            "required": ["query"]}}),
        json!({"name": "run_java", "parameters": {"type": "object",
            "properties": {"argv": {"type": "array", "items": {"type": "string"}}},
            "required": ["argv"]}}),
        json!({"name": "pay", "parameters": {"type": "object",
            "properties": {"amount": {"type": "number"}}, "required": ["amount"]}}),
    ];
    definitions
        .iter()
        .map(|definition| {
            let name = definition["name"].as_str().unwrap().to_owned();
            (name, DynamicTool::from_definition(definition).unwrap())
        })
        .collect()
}

enum Outcome {
    Refused,
    Accepted(Value),
}
use Outcome::{Accepted, Refused};

fn cases() -> Vec<(&'static str, String, Outcome)> {
    let stray = " {x}".repeat(17);
    vec![
        // An outer object that fails is refused, never read as an inner `{}`.
        ("configure", r#"{"store": {"initialState": initialStateObject, "reducers": reducersMap}, "context": {}}"#.into(), Refused),
        // An inner quote closes a string early: the rest is not dropped.
        ("js_call", r#"{"ctx": "{\"a\": function(k) { return 1; }}"}", "currentKey": "userId"}"#.into(), Refused),
        // Citations in a page of prose are not arguments.
        ("search", "According to the documentation [1], the answer is no. See also [2].".into(), Refused),
        ("search", "The function returns {} when nothing matches, so no call is needed.".into(), Refused),
        ("search", "Based on [1] and [2], I will search.\n{\"query\": \"a\"}".into(), Refused),
        // Failed collection literals and separated lists are not wrapped into one item.
        ("run_java", r#"{"argv": "{\"/path/to/classes\", \"60\"}"}"#.into(), Refused),
        ("run_java", r#"{"argv": "{\"x\": [1, 2]}"}"#.into(), Refused),
        ("run_java", r#"{"argv": "[\"a\", \"b\""}"#.into(), Refused),
        ("run_java", r#"{"argv": "a, b, c"}"#.into(), Refused),
        ("run_java", r#"{"argv": "a; b"}"#.into(), Refused),
        ("run_java", r#"{"argv": "first\nsecond"}"#.into(), Refused),
        ("run_java", r#"{"argv": "single"}"#.into(), Accepted(json!({"argv": ["single"]}))),
        // Bare identifiers and functions.
        ("search", r#"{"query": weather}"#.into(), Refused),
        ("search", "{query: Paris}".into(), Refused),
        ("search", r#"{"query": "a", "meta": function() { return 1; }}"#.into(), Refused),
        ("search", r#"{"query": getQuery()}"#.into(), Refused),
        ("search", r#"{"query": "a", "page": undefined}"#.into(), Refused),
        // Expressions to compute.
        ("pay", r#"{"amount": 2 * 3.14}"#.into(), Refused),
        ("pay", r#"{"amount": 100 * 468.285}"#.into(), Refused),
        ("pay", r#"{"amount": 1 + 1}"#.into(), Refused),
        ("pay", r#"{"amount": 10 / 4}"#.into(), Refused),
        // Stray quotes.
        ("search", r#"{"query": "it"s raining"}"#.into(), Refused),
        ("search", r#"{"query": "a"", "page": 2}"#.into(), Refused),
        // Comments are read past, nothing is lost.
        ("search", "{\"query\": \"a\" // the query\n}".into(), Accepted(json!({"query": "a"}))),
        ("search", r#"{"query": "a", /* page */ "page": 2}"#.into(), Accepted(json!({"query": "a", "page": 2}))),
        ("search", "{\"query\": \"a\", # the page\n \"page\": 3}".into(), Accepted(json!({"query": "a", "page": 3}))),
        ("search", "Here is the call: {\"query\": \"a\", \"page\": 1}".into(), Accepted(json!({"query": "a", "page": 1}))),
        ("search", "```json\n{\"query\": \"a\"}\n```".into(), Accepted(json!({"query": "a"}))),
        // Two values: which one was meant is a guess.
        ("search", r#"{"query": "a"} {"query": "b"}"#.into(), Refused),
        ("search", "```json\n{\"query\": \"a\"}\n```\nor\n```json\n{\"query\": \"b\"}\n```".into(), Refused),
        ("search", "```json\n{\"query\": \"a\"}\n```\nActually, use `{\"query\": \"b\"}` instead.".into(), Refused),
        ("search", "Option one: {\"query\": \"a\"}\n```json\n{\"query\": \"b\"}\n```".into(), Refused),
        ("search", format!("{{\"query\": \"a\"}}{stray} {{\"query\": \"b\"}}"), Refused),
        ("search", "Call A: {\"query\": \"a\"} or call B: {\"query\": \"b".into(), Refused),
        // An object followed by junk.
        ("search", r#"{"query": "a"}}"#.into(), Refused),
        ("search", r#"{"query": "a"}, "page": 2}"#.into(), Refused),
        ("search", r#"{"query": "a"} garbage ]"#.into(), Refused),
        // Numbers are never rounded into integers; repeated keys are never resolved.
        ("search", r#"{"query": "a", "page": 1.0000000000000001}"#.into(), Refused),
        ("search", r#"{"query": "a", "page": "4.9999999999999999"}"#.into(), Refused),
        ("search", r#"{"query": "a", "page": 1e-400}"#.into(), Refused),
        ("search", r#"{"query": "a", "page": 5.0}"#.into(), Accepted(json!({"query": "a", "page": 5}))),
        ("search", r#"{"query": "a", "meta": {"k": 1, "k": 2}}"#.into(), Refused),
        ("search", r#"{"Query": "a", "QUERY": "b"}"#.into(), Refused),
    ]
}

/// The strings (in double or single quotes) and number tokens written in `text`.
fn written_scalars(text: &str) -> (Vec<String>, Vec<f64>) {
    let bytes = text.as_bytes();
    let (mut strings, mut numbers) = (Vec::new(), Vec::new());
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            quote @ (b'"' | b'\'') => {
                let mut end = at + 1;
                while end < bytes.len() && bytes[end] != quote {
                    end += if bytes[end] == b'\\' { 2 } else { 1 };
                }
                let literal = &text[at..(end + 1).min(text.len())];
                let decoded = serde_json::from_str::<String>(&literal.replace('\'', "\""))
                    .unwrap_or_else(|_| literal[1..literal.len().saturating_sub(1)].to_owned());
                strings.push(decoded);
                at = end + 1;
            }
            b'0'..=b'9' | b'-' => {
                let end = at
                    + text[at..]
                        .find(|c: char| !matches!(c, '0'..='9' | '-' | '+' | '.' | 'e' | 'E'))
                        .unwrap_or(text.len() - at);
                if let Ok(number) = text[at..end].parse::<f64>() {
                    numbers.push(number);
                }
                at = end.max(at + 1);
            }
            _ => at += 1,
        }
    }
    (strings, numbers)
}

fn holds_string(value: &Value, wanted: &str) -> bool {
    match value {
        Value::String(text) => text == wanted,
        Value::Array(items) => items.iter().any(|item| holds_string(item, wanted)),
        Value::Object(members) => members
            .iter()
            .any(|(key, member)| key == wanted || holds_string(member, wanted)),
        _ => false,
    }
}

fn holds_number(value: &Value, wanted: f64) -> bool {
    match value {
        Value::Number(number) => number.as_f64() == Some(wanted),
        Value::Array(items) => items.iter().any(|item| holds_number(item, wanted)),
        Value::Object(members) => members.values().any(|member| holds_number(member, wanted)),
        _ => false,
    }
}

#[test]
fn model_texts_are_refused_or_read_whole() {
    let tools = tools();
    let cases = cases();
    assert!(cases.len() >= 30);
    for (tool_name, text, outcome) in cases {
        let tool = &tools.iter().find(|(name, _)| name == tool_name).unwrap().1;
        let result = tool.decode(&text);
        match (outcome, result) {
            (Refused, Err(_)) => {}
            (Refused, Ok(decoded)) => {
                panic!("{text:?} was accepted as {}", decoded.value)
            }
            (Accepted(_), Err(rejected)) => {
                panic!("{text:?} was refused:\n{}", rejected.report)
            }
            (Accepted(expected), Ok(decoded)) => {
                assert_eq!(decoded.value, expected, "{text:?}");
                // Nothing written in the text is missing from the value.
                let (strings, numbers) = written_scalars(&text);
                for string in strings {
                    assert!(
                        holds_string(&decoded.value, &string),
                        "{text:?} lost {string:?}"
                    );
                }
                for number in numbers {
                    assert!(
                        holds_number(&decoded.value, number),
                        "{text:?} lost {number}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_failed_value_is_refused_naming_where_and_what() {
    let tools = tools();
    let configure = &tools[0].1;
    let text = r#"{"store": {"initialState": initialStateObject, "reducers": reducersMap}, "context": {}}"#;
    let rejected = configure.decode(text).unwrap_err();
    let message = &rejected.report.issues()[0].message;
    assert!(message.contains("byte 27"), "{message}");
    assert!(message.contains("unquoted word"), "{message}");
    assert!(message.contains("initialStateObject"), "{message}");
    let pay = &tools[4].1;
    let rejected = pay.decode(r#"{"amount": 2 * 3.14}"#).unwrap_err();
    assert!(
        rejected.report.issues()[0].message.contains("expression"),
        "{}",
        rejected.report
    );
}

#[test]
fn a_separated_list_is_refused_with_the_array_it_may_mean() {
    let tools = tools();
    let run_java = &tools[3].1;
    let rejected = run_java.decode(r#"{"argv": "a, b, c"}"#).unwrap_err();
    let field = &rejected.hint().fields[0];
    assert_eq!(field.did_you_mean.as_deref(), Some(r#"["a","b","c"]"#));
}

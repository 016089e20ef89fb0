use std::io::{BufReader, Read};

use toolgate_core::decode::Options;

use super::*;

const INTEGER_TOOL: &str = r#"{"type": "object", "properties": {"n": {"type": "integer"}}}"#;

/// One request line, with `arguments` JSON-escaped.
fn request(id: &str, tool: &str, arguments: &str) -> String {
    format!(
        r#"{{"id": "{id}", "tool": {tool}, "arguments": {}}}"#,
        serde_json::to_string(arguments).unwrap()
    )
}

fn answers_of(output: Vec<u8>) -> Vec<Value> {
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn run_batch(batch: &Batch, input: impl Read) -> Vec<Value> {
    let mut output = Vec::new();
    batch.run(BufReader::new(input), &mut output).unwrap();
    answers_of(output)
}

fn run_lines(input: &[u8]) -> Vec<Value> {
    run_batch(&Batch::new(DEFAULT_MAX_LINE_BYTES), input)
}

fn only_issue(answer: &Value) -> &Value {
    let issues = answer["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 1, "{answer}");
    &issues[0]
}

#[test]
fn answers_every_line_in_order() {
    let tool = r#"{"name": "t", "parameters": {"type": "dict", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}"#;
    let input = format!(
        "{{\"id\": \"a\", \"tool\": {tool}, \"arguments\": \"{{\\\"n\\\": \\\"5\\\"}}\"}}\nnot json\n{{\"id\": \"c\", \"tool\": {{\"type\": \"object\", \"properties\": {{\"x\": {{\"not\": {{\"type\": \"string\"}}}}}}}}, \"arguments\": \"{{}}\"}}\n{{\"id\": \"d\", \"tool\": {tool}, \"arguments\": \"{{\\\"n\\\": 1.5}}\"}}\n"
    );
    let answers = run_lines(input.as_bytes());
    assert_eq!(answers.len(), 4);
    assert_eq!(answers[0]["ok"], true);
    assert_eq!(answers[0]["value"], serde_json::json!({"n": 5}));
    assert_eq!(answers[0]["repairs"][0]["rule"], "string_to_number");
    assert_eq!(answers[1]["ok"], false);
    assert_eq!(answers[1]["issues"][0]["constraint"], "syntax");
    assert_eq!(answers[2]["id"], "c");
    assert_eq!(answers[2]["issues"][0]["constraint"], "schema");
    assert_eq!(answers[2]["issues"][0]["expected"], "/properties/x/not");
    assert_eq!(answers[3]["issues"][0]["path"], "n");
    assert_eq!(answers[3]["hint"]["fields"][0]["path"], "n");
}

#[test]
fn the_default_line_cap_fits_the_argument_limit_escaped_at_its_longest() {
    let max_bytes = Options::default().max_bytes;
    assert_eq!(ARGUMENT_LIMIT, max_bytes);
    assert_eq!(DEFAULT_MAX_LINE_BYTES, 8 << 20);
    // Arguments of exactly the limit, every byte written as a `\u00XX` escape.
    let mut arguments = br#"{"n": 5}"#.to_vec();
    arguments.resize(max_bytes, b' ');
    let escaped: String = arguments
        .iter()
        .map(|byte| format!("\\u{byte:04x}"))
        .collect();
    let line = format!(r#"{{"id": "wide", "tool": {INTEGER_TOOL}, "arguments": "{escaped}"}}"#);
    assert!(line.len() > LONGEST_ESCAPE * max_bytes);
    let answers = run_lines(line.as_bytes());
    assert_eq!(answers[0]["id"], "wide");
    assert_eq!(answers[0]["ok"], true, "{}", answers[0]["issues"]);
    assert_eq!(answers[0]["value"], serde_json::json!({"n": 5}));
}

#[test]
fn an_over_long_line_is_answered_with_one_limit_issue_and_its_id_and_the_batch_goes_on() {
    const CAP: usize = 1024;
    const FILLER: u64 = 10 << 20;
    let start = format!(r#"{{"id": "big", "tool": {INTEGER_TOOL}, "arguments": ""#);
    let end = format!("\"}}\n{}\n", request("next", INTEGER_TOOL, r#"{"n": 1}"#));
    // The long line is made as it is read: the test holds no copy of it.
    let input = start
        .as_bytes()
        .chain(std::io::repeat(b'a').take(FILLER))
        .chain(end.as_bytes());
    let batch = Batch::new(CAP);
    let answers = run_batch(&batch, input);
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0]["id"], "big");
    assert_eq!(answers[0]["ok"], false);
    let issue = only_issue(&answers[0]);
    assert_eq!(issue["constraint"], "limit");
    assert_eq!(issue["expected"], CAP);
    assert_eq!(issue["got"], start.len() as u64 + FILLER + 2);
    assert_eq!(answers[1]["id"], "next");
    assert_eq!(answers[1]["value"], serde_json::json!({"n": 1}));
}

#[test]
fn an_over_long_line_whose_id_comes_after_the_cap_is_answered_with_a_null_id() {
    let line = format!(
        r#"{{"tool": {INTEGER_TOOL}, "arguments": "{}", "id": "late"}}"#,
        "a".repeat(200)
    );
    let answers = run_batch(&Batch::new(100), line.as_bytes());
    assert_eq!(answers[0]["id"], Value::Null);
    assert_eq!(only_issue(&answers[0])["constraint"], "limit");
}

#[test]
fn blank_and_whitespace_lines_are_answered_in_their_place() {
    let input = format!(
        "{}\n\n   \n\t\r\n{}",
        request("a", INTEGER_TOOL, "{}"),
        request("b", INTEGER_TOOL, "{}")
    );
    let answers = run_lines(input.as_bytes());
    assert_eq!(answers.len(), 5);
    assert_eq!(answers[0]["id"], "a");
    for blank in &answers[1..4] {
        assert_eq!(blank["id"], Value::Null);
        assert_eq!(blank["ok"], false);
        let issue = only_issue(blank);
        assert_eq!(issue["constraint"], "syntax");
        assert!(issue["message"].as_str().unwrap().contains("blank"));
    }
    assert_eq!(answers[4]["id"], "b");
    assert_eq!(answers[4]["ok"], true);
}

#[test]
fn a_byte_order_mark_at_the_start_of_the_stream_or_a_line_is_skipped() {
    let input = format!(
        "\u{FEFF}{}\r\n\u{FEFF}{}\n\u{FEFF}\n",
        request("first", INTEGER_TOOL, r#"{"n": 1}"#),
        request("second", INTEGER_TOOL, r#"{"n": 2}"#)
    );
    let answers = run_lines(input.as_bytes());
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[0]["id"], "first");
    assert_eq!(answers[0]["value"], serde_json::json!({"n": 1}));
    assert_eq!(answers[1]["id"], "second");
    assert_eq!(answers[1]["value"], serde_json::json!({"n": 2}));
    assert_eq!(
        answers[2]["id"],
        Value::Null,
        "a mark alone is a blank line"
    );
    assert_eq!(only_issue(&answers[2])["constraint"], "syntax");
}

#[test]
fn a_line_that_is_not_utf8_is_answered_with_its_id_and_the_batch_goes_on() {
    let mut input = br#"{"id": "a", "tool": "#.to_vec();
    input.extend_from_slice(INTEGER_TOOL.as_bytes());
    input.extend_from_slice(b", \"arguments\": \"\xff\"}\n\xff\xfe\n");
    input.extend_from_slice(request("c", INTEGER_TOOL, "{}").as_bytes());
    let answers = run_lines(&input);
    assert_eq!(answers.len(), 3);
    assert_eq!(answers[0]["id"], "a");
    assert_eq!(answers[0]["ok"], false);
    let issue = only_issue(&answers[0]);
    assert_eq!(issue["constraint"], "syntax");
    assert!(issue["message"].as_str().unwrap().contains("not UTF-8"));
    assert_eq!(answers[1]["id"], Value::Null);
    assert_eq!(only_issue(&answers[1])["constraint"], "syntax");
    assert_eq!(answers[2]["id"], "c");
    assert_eq!(answers[2]["ok"], true);
}

#[test]
fn a_lone_surrogate_in_the_line_is_answered_with_the_id() {
    // A leading surrogate without its pair, then a trailing one alone.
    let input = [r"\ud800 ", r"\udc00"]
        .iter()
        .enumerate()
        .map(|(n, surrogate)| {
            let arguments = format!(r#"{{\"x\": \"{surrogate}\"}}"#);
            format!(r#"{{"id": {n}, "tool": {INTEGER_TOOL}, "arguments": "{arguments}"}}"#) + "\n"
        })
        .collect::<String>();
    let answers = run_lines(input.as_bytes());
    assert_eq!(answers.len(), 2);
    for (n, answer) in answers.iter().enumerate() {
        assert_eq!(answer["id"], n);
        assert_eq!(answer["ok"], false);
        assert_eq!(only_issue(answer)["constraint"], "syntax");
    }
}

#[test]
fn the_id_is_read_from_a_line_of_the_wrong_shape_wherever_it_stands() {
    // `arguments` is not a string, and the id comes after it, spelt with an escape.
    let line = format!(r#"{{"tool": {INTEGER_TOOL}, "arguments": {{"n": 1}}, "\u0069d": 7}}"#);
    let answers = run_lines(line.as_bytes());
    assert_eq!(answers[0]["id"], 7);
    assert_eq!(only_issue(&answers[0])["constraint"], "syntax");
}

#[test]
fn reading_the_id_past_deep_nesting_does_not_overflow() {
    let depth = 1_000_000;
    let line = format!(
        r#"{{"tool": {}{}, "id": "deep"}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    assert_eq!(read_id(line.as_bytes()), "deep");
    let answers = run_lines(line.as_bytes());
    assert_eq!(answers[0]["id"], "deep");
    assert_eq!(answers[0]["ok"], false);
}

#[test]
fn many_distinct_tools_keep_the_batch_cache_at_its_bound() {
    let batch = Batch {
        tools: ToolCache::with_limits(16, usize::MAX),
        ..Batch::new(DEFAULT_MAX_LINE_BYTES)
    };
    let input: String = (0..500)
        .map(|n| {
            let tool = format!(r#"{{"type": "object", "description": "tool {n}"}}"#);
            request(&n.to_string(), &tool, "{}") + "\n"
        })
        .collect();
    let answers = run_batch(&batch, input.as_bytes());
    assert_eq!(answers.len(), 500);
    assert!(answers.iter().all(|answer| answer["ok"] == true));
    assert_eq!(batch.tools.len(), 16);
}

#[test]
fn a_tool_with_warnings_is_used_and_refused_only_when_warnings_are_denied() {
    // Cloudflare's `{"type": "string", "enum": [true, false]}` and OpenAPI's `discriminator`:
    // read with warnings (on stderr), the tool works; `--deny-warnings` refuses it.
    let tool = r#"{"type": "object", "discriminator": {"propertyName": "kind"}, "properties": {"proxied": {"type": "string", "enum": [true, false]}, "name": {"type": "string"}}}"#;
    let input = request("1", tool, r#"{"name": "a"}"#)
        + "\n"
        + &request("2", tool, r#"{"proxied": true}"#)
        + "\n";
    let answers = run_batch(&Batch::new(DEFAULT_MAX_LINE_BYTES), input.as_bytes());
    assert_eq!(answers[0]["ok"], true);
    assert_eq!(answers[1]["ok"], false);
    assert_eq!(answers[1]["issues"][0]["path"], "proxied");
    assert_eq!(answers[1]["issues"][0]["constraint"], "enum");
    let strict = Batch::new(DEFAULT_MAX_LINE_BYTES).deny_warnings(true);
    let answers = run_batch(&strict, input.as_bytes());
    assert_eq!(answers[0]["ok"], false);
    // One `schema` issue, as for any schema that cannot be used.
    let issues = answers[0]["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0]["constraint"], "schema");
    assert!(issues[0]["message"]
        .as_str()
        .unwrap()
        .contains("(warnings are denied)"));
}

//! `toolgate check --batch` as a caller runs it: lines in, one answer per line out.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::Value;

/// Runs `toolgate check --batch` with `extra` arguments on `input`: exit code, the answers,
/// stderr.
fn batch(extra: &[&str], input: &[u8]) -> (i32, Vec<Value>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(["check", "--batch"])
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let answers = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (
        output.status.code().unwrap_or(-1),
        answers,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn request(id: &str, arguments: &str) -> String {
    format!(
        r#"{{"id": "{id}", "tool": {{"type": "object", "properties": {{"n": {{"type": "integer"}}}}}}, "arguments": {}}}"#,
        serde_json::to_string(arguments).unwrap()
    )
}

#[test]
fn every_line_gets_one_answer_in_its_place() {
    let input = format!(
        "\u{FEFF}{}\n\n  \n{}\n{}\r\n",
        request("a", r#"{"n": "1"}"#),
        r#"{"id": "b", "tool": {"type": "object"}, "arguments": 5}"#,
        request("c", r#"{"n": 3}"#),
    );
    let (code, answers, stderr) = batch(&[], input.as_bytes());
    assert_eq!(code, 0, "{stderr}");
    let ids: Vec<Value> = answers.iter().map(|answer| answer["id"].clone()).collect();
    let (a, b, c) = ("a".into(), "b".into(), "c".into());
    assert_eq!(ids, [a, Value::Null, Value::Null, b, c]);
    let oks: Vec<bool> = answers.iter().map(|answer| answer["ok"] == true).collect();
    assert_eq!(oks, [true, false, false, false, true]);
    for refused in &answers[1..4] {
        assert_eq!(refused["issues"][0]["constraint"], "syntax");
    }
}

#[test]
fn a_line_longer_than_max_line_is_refused_with_a_limit_issue() {
    let long = request(
        "long",
        &format!(r#"{{"n": 1, "pad": "{}"}}"#, "x".repeat(5000)),
    );
    let input = format!("{long}\n{}\n", request("short", r#"{"n": 2}"#));
    let (code, answers, stderr) = batch(&["--max-line", "4096"], input.as_bytes());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[0]["id"], "long");
    assert_eq!(answers[0]["issues"][0]["constraint"], "limit");
    assert_eq!(answers[0]["issues"][0]["expected"], 4096);
    assert_eq!(answers[0]["issues"][0]["got"], long.len());
    assert_eq!(answers[1]["value"], serde_json::json!({"n": 2}));
    // Under the default cap the same line is read whole and decoded.
    let (_, answers, _) = batch(&[], input.as_bytes());
    assert_eq!(answers[0]["ok"], true);
}

#[test]
fn max_line_needs_batch() {
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(["check", "--schema", "x.json", "--max-line", "10", "{}"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("cannot be used with '--max-line"),
        "{stderr}"
    );
}

#[test]
fn a_self_referencing_union_is_a_schema_issue_and_the_batch_goes_on() {
    // F2 of the hostile-input review: this tool overflowed the stack and killed the batch.
    let looping = r##"{"title":"t","type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"integer"}]}}}"##;
    let mutual = r##"{"type":"object","properties":{"x":{"$ref":"#/$defs/A"}},"$defs":{"A":{"oneOf":[{"$ref":"#/$defs/B"},{"type":"string"}]},"B":{"oneOf":[{"$ref":"#/$defs/A"},{"type":"integer"}]}}}"##;
    let input = format!(
        "{{\"id\": \"a\", \"tool\": {looping}, \"arguments\": \"{{\\\"x\\\": 5}}\"}}\n{{\"id\": \"b\", \"tool\": {mutual}, \"arguments\": \"{{\\\"x\\\": 5}}\"}}\n{}\n",
        request("c", r#"{"n": 1}"#)
    );
    let (code, answers, _) = batch(&[], input.as_bytes());
    assert_eq!(code, 0);
    assert_eq!(answers.len(), 3);
    for answer in &answers[..2] {
        assert_eq!(answer["ok"], false, "{answer}");
        assert_eq!(answer["issues"][0]["constraint"], "schema", "{answer}");
    }
    assert_eq!(answers[2]["ok"], true);
}

#[test]
fn schema_warnings_go_to_stderr_once_per_tool() {
    // Cloudflare's `{"type": "string", "enum": [true, false]}`, sent on three lines: stdout
    // stays the protocol, stderr says it once.
    let tool = r#"{"name": "dns", "parameters": {"type": "object", "properties": {"proxied": {"type": "string", "enum": [true, false]}}}}"#;
    let line = |id: &str, arguments: &str| {
        serde_json::json!({"id": id, "tool": serde_json::from_str::<Value>(tool).unwrap(), "arguments": arguments})
            .to_string()
            + "\n"
    };
    let input = line("1", "{}") + &line("2", r#"{"proxied": true}"#) + &line("3", "{}");
    let (code, answers, stderr) = batch(&[], input.as_bytes());
    assert_eq!(code, 0);
    let ok: Vec<&Value> = answers.iter().map(|a| &a["ok"]).collect();
    assert_eq!(ok, [true, false, true]);
    assert_eq!(
        stderr.trim(),
        "warning: dns: /parameters/properties/proxied/enum: `type` string contradicts the `enum` values true, false: no value fits: the value refuses whatever is sent for it"
    );
    let (_, answers, stderr) = batch(&["--deny-warnings"], input.as_bytes());
    assert!(answers
        .iter()
        .all(|a| a["ok"] == false && a["issues"][0]["constraint"] == "schema"));
    assert_eq!(stderr, "");
}

/// A request of `chunks` is answered as the request of their concatenation, with the issues
/// sent before the end, each after the chunk it came with; whatever the chunks.
#[test]
fn chunks_are_answered_as_their_whole_text_with_the_early_issues() {
    let tool = r#"{"type": "object", "properties": {"n": {"type": "integer", "maximum": 9}, "s": {"type": "string"}}}"#;
    let texts = [
        r#"{"n": 12, "s": "a"}"#,
        r#"{"n": "3", "s": "é"}"#,
        r#"{"n": 1, "s": "cut"#,
        "```json\n{\"n\": 12}\n```",
    ];
    let mut input = String::new();
    let mut expected = Vec::new();
    for (at, text) in texts.iter().enumerate() {
        let whole = format!(
            r#"{{"id": "w{at}", "tool": {tool}, "arguments": {}}}"#,
            serde_json::to_string(text).unwrap()
        );
        input.push_str(&whole);
        input.push('\n');
        for size in [1, 3, 5] {
            let chunks: Vec<String> = text
                .chars()
                .collect::<Vec<char>>()
                .chunks(size)
                .map(|chunk| chunk.iter().collect())
                .collect();
            let request = format!(
                r#"{{"id": "c{at}-{size}", "tool": {tool}, "chunks": {}}}"#,
                serde_json::to_string(&chunks).unwrap()
            );
            input.push_str(&request);
            input.push('\n');
            expected.push((at, size));
        }
    }
    input.push_str(&format!(
        r#"{{"id": "both", "tool": {tool}, "arguments": "{{}}", "chunks": ["{{}}"]}}"#
    ));
    input.push('\n');
    let (code, answers, _) = batch(&[], input.as_bytes());
    assert_eq!(code, 0);
    let whole: Vec<&Value> = answers.iter().step_by(4).take(texts.len()).collect();
    for (line, (at, size)) in expected.iter().enumerate() {
        let mut streamed = answers[at * 4 + 1 + line % 3].clone();
        let events = streamed
            .as_object_mut()
            .unwrap()
            .remove("events")
            .expect("events");
        streamed["id"] = whole[*at]["id"].clone();
        assert_eq!(&streamed, whole[*at], "{} in chunks of {size}", texts[*at]);
        let sent: Vec<(u64, String)> = events
            .as_array()
            .unwrap()
            .iter()
            .map(|event| {
                (
                    event["after_chunk"].as_u64().unwrap(),
                    event["issue"]["constraint"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        match at {
            // `12` is complete at the comma: the chunk holding it.
            0 => assert_eq!(sent, [((8 / size) as u64, "maximum".to_owned())], "{size}"),
            _ => assert!(sent.is_empty(), "{}: {sent:?}", texts[*at]),
        }
    }
    assert_eq!(answers.last().unwrap()["ok"], false);
}

//! `toolgate check --batch`: the check protocol (DESIGN.md, 'The check protocol').
//!
//! Each input line is `{"id": string, "tool": TOOL, "arguments": string}`; each output line
//! is `{"id", "ok", "value", "repairs", "issues", "hint"}`, in the same order. A line that is
//! not such an object, or a tool whose schema cannot be used, is answered with `ok: false`
//! and one issue; the batch goes on. Tools are built once per distinct definition.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use toolgate_core::decode::{Decoded, Rejected, Repair};
use toolgate_core::{schema_refusal, Constraint, Issue, Path, Report, RetryHint, ToolCache};

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    tool: &'a RawValue,
    arguments: String,
}

/// One answer of the protocol.
#[derive(Serialize)]
pub struct Answer<'a> {
    pub id: Value,
    pub ok: bool,
    pub value: Value,
    pub repairs: &'a [Repair],
    pub issues: &'a [Issue],
    pub hint: Option<&'a RetryHint>,
}

/// The answer to one decoding.
pub fn answer(id: Value, result: &Result<Decoded<Value>, Rejected>) -> String {
    let answer = match result {
        Ok(decoded) => Answer {
            id,
            ok: true,
            value: decoded.value.clone(),
            repairs: &decoded.repairs,
            issues: &[],
            hint: None,
        },
        Err(rejected) => Answer {
            id,
            ok: false,
            value: Value::Null,
            repairs: &rejected.repairs,
            issues: rejected.report.issues(),
            hint: Some(rejected.hint()),
        },
    };
    serde_json::to_string(&answer).unwrap_or_default()
}

/// The answer to a request that could not be decoded at all.
fn refusal(id: Value, report: &Report, hint: Option<&RetryHint>) -> String {
    let answer = Answer {
        id,
        ok: false,
        value: Value::Null,
        repairs: &[],
        issues: report.issues(),
        hint,
    };
    serde_json::to_string(&answer).unwrap_or_default()
}

fn answer_line(line: &str, tools: &ToolCache) -> String {
    let request: Request<'_> = match serde_json::from_str(line) {
        Ok(request) => request,
        Err(error) => {
            // Answer with the id if one can be read, so the answer stays traceable.
            let id = serde_json::from_str::<Value>(line)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .unwrap_or(Value::Null);
            let mut report = Report::new();
            let message = format!(
                "the request line is not {{\"id\", \"tool\", \"arguments\": string}}: {error}"
            );
            report.push(Issue::new(Path::root(), Constraint::Syntax, message));
            return refusal(id, &report, None);
        }
    };
    let id = request
        .id
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .unwrap_or(Value::Null);
    match tools.get_text(request.tool.get()) {
        Ok(tool) => answer(id, &tool.decode(&request.arguments)),
        Err(errors) => refusal(id, &schema_refusal(&errors), None),
    }
}

/// Answers every line of `input` on `output`. A line that is not UTF-8 is answered with a
/// `syntax` issue, like any other malformed line; the batch goes on.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> anyhow::Result<ExitCode> {
    let tools = ToolCache::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let answer = match std::str::from_utf8(&line) {
            Ok(text) if text.trim().is_empty() => continue,
            Ok(text) => answer_line(text.trim_end_matches(['\n', '\r']), &tools),
            Err(_) => {
                let mut report = Report::new();
                report.push(Issue::new(
                    Path::root(),
                    Constraint::Syntax,
                    "the request line is not UTF-8",
                ));
                refusal(Value::Null, &report, None)
            }
        };
        writeln!(output, "{answer}")?;
    }
    output.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_lines(input: &str) -> Vec<Value> {
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn answers_every_line_in_order() {
        let tool = r#"{"name": "t", "parameters": {"type": "dict", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}"#;
        let input = format!(
            "{{\"id\": \"a\", \"tool\": {tool}, \"arguments\": \"{{\\\"n\\\": \\\"5\\\"}}\"}}\nnot json\n{{\"id\": \"c\", \"tool\": {{\"type\": \"object\", \"properties\": {{\"x\": {{\"not\": {{\"type\": \"string\"}}}}}}}}, \"arguments\": \"{{}}\"}}\n{{\"id\": \"d\", \"tool\": {tool}, \"arguments\": \"{{\\\"n\\\": 1.5}}\"}}\n"
        );
        let answers = run_lines(&input);
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
    fn a_line_that_is_not_utf8_does_not_stop_the_batch() {
        let tool = r#"{"type": "object", "properties": {"n": {"type": "integer"}}}"#;
        let mut input = b"{\"id\": \"a\", \"tool\": ".to_vec();
        input.extend_from_slice(tool.as_bytes());
        input.extend_from_slice(b", \"arguments\": \"\\xff\"}\n\xff\xfe\n");
        input.extend_from_slice(b"{\"id\": \"c\", \"tool\": ");
        input.extend_from_slice(tool.as_bytes());
        input.extend_from_slice(b", \"arguments\": \"{}\"}\n");
        let mut out = Vec::new();
        run(&input[..], &mut out).unwrap();
        let answers: Vec<Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(answers.len(), 3);
        assert_eq!(
            answers[1]["issues"][0]["message"],
            "the request line is not UTF-8"
        );
        assert_eq!(answers[2]["id"], "c");
        assert_eq!(answers[2]["ok"], true);
    }
}

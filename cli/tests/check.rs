//! `toolgate check --schema FILE ARGS`, as people and scripts call it.

use std::process::Command;

fn toolgate(args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

/// A schema file of the test's own: tests run in parallel, so they must not share one.
fn schema_file(test: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("toolgate-check-{}-{test}.json", std::process::id()));
    std::fs::write(
        &path,
        r#"{"name": "book_flight", "description": "Book a flight", "inputSchema": {"type": "object",
            "properties": {"origin": {"type": "string", "pattern": "^[A-Z]{3}$", "description": "Departure airport (IATA code)"},
            "passengers": {"type": "integer", "minimum": 1, "maximum": 9}},
            "required": ["origin", "passengers"]}}"#,
    )
    .unwrap();
    path
}

#[test]
fn repaired_arguments_print_the_value_and_the_repairs() {
    let schema = schema_file("repaired");
    let (code, out) = toolgate(&[
        "check",
        "--schema",
        schema.to_str().unwrap(),
        r#"{"origin": "CDG", "passengers": "2"}"#,
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("ok: {"), "{out}");
    assert!(
        out.contains("passengers: string_to_number \"2\" -> 2"),
        "{out}"
    );
}

#[test]
fn refused_arguments_print_the_issues_and_the_hint() {
    let schema = schema_file("refused");
    let (code, out) = toolgate(&[
        "check",
        "--schema",
        schema.to_str().unwrap(),
        r#"{"passengers": 12}"#,
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("refused: 2 issue(s)"), "{out}");
    assert!(
        out.contains("passengers: 12 is greater than the maximum 9"),
        "{out}"
    );
    assert!(out.contains("origin: is required"), "{out}");
    assert!(
        out.contains("What should the departure airport (IATA code) be?"),
        "{out}"
    );
}

#[test]
fn json_output_is_the_protocol_answer() {
    let schema = schema_file("json");
    let (code, out) = toolgate(&[
        "check",
        "--json",
        "--schema",
        schema.to_str().unwrap(),
        r#"{"origin": "CDG", "passengers": 2}"#,
    ]);
    assert_eq!(code, 0, "{out}");
    let answer: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(answer["ok"], true);
    assert_eq!(
        answer["value"],
        serde_json::json!({"origin": "CDG", "passengers": 2})
    );
    assert_eq!(answer["repairs"], serde_json::json!([]));
}

#[test]
fn an_unusable_schema_names_the_pointer() {
    let path = std::env::temp_dir().join(format!("toolgate-bad-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"type": "object", "properties": {"x": {"type": "array", "contains": {"type": "string"}}}}"#).unwrap();
    let (code, out) = toolgate(&["check", "--schema", path.to_str().unwrap(), "{}"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("/properties/x/contains: keyword `contains` is not supported here"),
        "{out}"
    );
}

#[test]
fn schema_warnings_go_to_stderr_and_deny_warnings_makes_them_errors() {
    // A tools-dev schema with `"format": "json"` on a string and a vendor `x-order`.
    let path = std::env::temp_dir().join(format!("toolgate-warn-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"type": "object", "x-order": ["body"], "properties": {"body": {"type": "string", "format": "json"}}}"#).unwrap();
    let shown = path.display().to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(["check", "--schema", &shown, "--json", r#"{"body": "x"}"#])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let answer: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(answer["ok"], true);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "warning: {shown}: /properties/body/format: unknown string format \"json\""
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "warning: {shown}: /x-order: keyword `x-order` is not JSON Schema: ignored"
        )),
        "{stderr}"
    );
    let (code, out) = toolgate(&["check", "--schema", &shown, "--deny-warnings", "{}"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("(warnings are denied)"), "{out}");
}

/// Runs `toolgate args…` with `stdin` written from another thread; gives the exit code,
/// stdout, stderr and how the writing ended (an error when toolgate stopped reading).
fn toolgate_with_stdin(
    args: &[&str],
    stdin: impl FnOnce(&mut std::process::ChildStdin) -> std::io::Result<()> + Send + 'static,
) -> (i32, String, String, std::io::Result<()>) {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child_stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin(&mut child_stdin));
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        writer.join().unwrap(),
    )
}

#[test]
fn arguments_on_stdin_beyond_the_limit_are_refused_without_reading_the_rest() {
    use std::io::Write;
    let schema = schema_file("stdin-limit");
    // 64 MiB, far beyond the 1 MiB limit and any pipe's buffer: if toolgate read it all,
    // the writing would end well.
    let (code, out, err, writing) = toolgate_with_stdin(
        &["check", "--json", "--schema", schema.to_str().unwrap(), "-"],
        |stdin| {
            stdin.write_all(b"{\"origin\": \"")?;
            let chunk = vec![b'A'; 1 << 16];
            for _ in 0..1024 {
                stdin.write_all(&chunk)?;
            }
            Ok(())
        },
    );
    assert_eq!(code, 1, "{err}");
    let answer: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(answer["ok"], false);
    let issues = answer["issues"].as_array().unwrap();
    assert_eq!(issues.len(), 1, "{answer}");
    assert_eq!(issues[0]["constraint"], "limit");
    assert_eq!(issues[0]["expected"], 1 << 20);
    assert_eq!(answer["hint"]["fields"][0]["constraint"], "limit");
    let error = writing.expect_err("toolgate read the whole stdin");
    assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe);
}

#[test]
fn arguments_on_stdin_that_are_not_utf8_get_an_answer() {
    use std::io::Write;
    let schema = schema_file("stdin-utf8");
    let schema = schema.to_str().unwrap();
    let not_utf8 = |stdin: &mut std::process::ChildStdin| {
        stdin.write_all(b"{\"origin\": \"\xff\xfe\", \"passengers\": 1}")
    };
    let (code, out, err, _) =
        toolgate_with_stdin(&["check", "--json", "--schema", schema], not_utf8);
    assert_eq!(code, 1, "{err}");
    let answer: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(answer["ok"], false);
    assert_eq!(answer["issues"][0]["constraint"], "syntax");
    assert!(err.is_empty(), "{err}");
    let (code, out, _, _) = toolgate_with_stdin(&["check", "--schema", schema, "-"], not_utf8);
    assert_eq!(code, 1);
    assert!(out.starts_with("refused: 1 issue(s)"), "{out}");
}

//! Every command exits with a clean error, not a panic, when its stdout is closed (the reader
//! of a pipe went away): `toolgate: cannot write … Broken pipe`, exit code 2.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs toolgate with a stdout whose reading end is already closed, feeding it `stdin`;
/// gives the exit code and stderr.
fn toolgate_into_a_closed_pipe(args: &[&str], stdin: &[u8]) -> (i32, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_toolgate"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child_stdin = child.stdin.take().unwrap();
    // The child may exit before it reads everything; that is not this test's concern.
    let _ = child_stdin.write_all(stdin);
    drop(child_stdin);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn schema_file(test: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!(
        "toolgate-closed-stdout-{}-{test}.json",
        std::process::id()
    ));
    std::fs::write(
        &path,
        r#"{"name": "ping", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}"#,
    )
    .unwrap();
    path
}

fn assert_clean_broken_pipe((code, stderr): (i32, String)) {
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.starts_with("toolgate: cannot write"), "{stderr}");
    assert!(stderr.contains("Broken pipe"), "{stderr}");
}

#[test]
fn gen_exits_cleanly() {
    let schema = schema_file("gen");
    assert_clean_broken_pipe(toolgate_into_a_closed_pipe(
        &["gen", schema.to_str().unwrap()],
        b"",
    ));
}

#[test]
fn check_with_a_schema_exits_cleanly_as_text_and_as_json() {
    let schema = schema_file("check");
    let schema = schema.to_str().unwrap();
    for args in [
        &["check", "--schema", schema, r#"{"n": "5"}"#][..],
        &["check", "--schema", schema, "--json", r#"{"n": "5"}"#],
        &["check", "--schema", schema, r#"{"n": "x"}"#],
        &["check", "--schema", schema, "--json", "-"],
    ] {
        assert_clean_broken_pipe(toolgate_into_a_closed_pipe(args, br#"{"n": 1}"#));
    }
}

#[test]
fn check_batch_exits_cleanly() {
    let request = br#"{"id": "a", "tool": {"type": "object"}, "arguments": "{}"}"#;
    assert_clean_broken_pipe(toolgate_into_a_closed_pipe(&["check", "--batch"], request));
}

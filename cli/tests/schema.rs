//! `toolgate schema FILE --flavour NAME`: the flavoured definition on stdout, the report on
//! stderr, and the exit codes.

use std::path::PathBuf;

use serde_json::Value;

mod common;

use common::toolgate;

/// A file of the test's own (tests run in parallel).
fn file(test: &str, text: &str) -> String {
    let folder =
        std::env::temp_dir().join(format!("toolgate-schema-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path: PathBuf = folder.join("tool.json");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const NOTE: &str = r#"{"name": "add_note", "description": "Add a note",
    "parameters": {"type": "object", "properties": {
        "text": {"type": "string", "maxLength": 500},
        "tag": {"type": "string"}},
    "required": ["text"]}}"#;

#[test]
fn openai_strict_is_written_in_openais_shape_with_the_report_on_stderr() {
    let path = file("strict", NOTE);
    let (code, stdout, stderr) = toolgate(&["schema", &path, "--flavour", "openai-strict"]);
    assert_eq!(code, 0, "{stderr}");
    let definition: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(definition["type"], "function");
    assert_eq!(definition["function"]["name"], "add_note");
    assert_eq!(definition["function"]["strict"], true);
    assert_eq!(
        definition["function"]["parameters"]["required"],
        serde_json::json!(["text", "tag"])
    );
    // Properties in the tool's order.
    assert!(stdout.find("\"text\"").unwrap() < stdout.find("\"tag\"").unwrap());
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines.contains(&"/properties/text maxLength moved_to_description"),
        "{stderr}"
    );
    assert!(lines.contains(&"/ required rewritten (tag)"), "{stderr}");

    let (code, _, stderr) = toolgate(&[
        "schema",
        &path,
        "--flavour",
        "openai-strict",
        "--deny-dropped",
    ]);
    assert_eq!(code, 1);
    assert!(
        stderr.ends_with(
            "toolgate: openai-strict dropped 4 keyword(s) of add_note (--deny-dropped)\n"
        ),
        "{stderr}"
    );
}

#[test]
fn the_flavours_that_take_every_keyword_drop_nothing_and_pass_deny_dropped() {
    let path = file("mcp", NOTE);
    let (code, stdout, stderr) = toolgate(&["schema", &path, "--flavour", "mcp", "--deny-dropped"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let definition: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        definition["inputSchema"]["properties"]["text"]["maxLength"],
        500
    );
    let (code, stdout, stderr) =
        toolgate(&["schema", &path, "--flavour", "anthropic", "--deny-dropped"]);
    assert_eq!((code, stderr.as_str()), (0, ""));
    let definition: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        definition["input_schema"]["properties"]["text"]["maxLength"],
        500
    );
    let (code, stdout, _) = toolgate(&["schema", &path, "--flavour", "openai"]);
    assert_eq!(code, 0);
    let definition: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(definition["function"].get("strict"), None);
    assert_eq!(
        definition["function"]["parameters"]["required"],
        serde_json::json!(["text"])
    );
    let (code, stdout, _) = toolgate(&["schema", &path, "--flavour", "json-schema"]);
    assert_eq!(code, 0);
    let schema: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(schema["type"], "object");
}

#[test]
fn a_tool_the_flavour_cannot_express_is_exit_1_naming_why_and_a_bad_flavour_is_refused() {
    let map = r#"{"name": "tags", "parameters": {"type": "object", "properties": {
        "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}}"#;
    let path = file("map", map);
    let (code, stdout, stderr) = toolgate(&["schema", &path, "--flavour", "openai-strict"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "toolgate: tags: openai-strict cannot express free-form keys (`additionalProperties` with a schema) (at /properties/labels)\n"
    );
    let (code, _, stderr) = toolgate(&["schema", &path, "--flavour", "gemini-9"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no flavour named \"gemini-9\""), "{stderr}");
}

#[test]
fn anthropic_strict_and_gemini_are_written_in_their_providers_shapes() {
    let path = file("providers", NOTE);
    let (code, stdout, stderr) = toolgate(&["schema", &path, "--flavour", "anthropic-strict"]);
    assert_eq!(code, 0, "{stderr}");
    let definition: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(definition["name"], "add_note");
    assert_eq!(definition["strict"], true);
    assert_eq!(definition["input_schema"]["additionalProperties"], false);
    assert_eq!(
        definition["input_schema"]["required"],
        serde_json::json!(["text"])
    );
    assert!(
        stderr
            .lines()
            .any(|l| l == "/properties/text maxLength moved_to_description"),
        "{stderr}"
    );

    let (code, stdout, stderr) = toolgate(&["schema", &path, "--flavour", "gemini"]);
    assert_eq!(code, 0, "{stderr}");
    let definition: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(definition["description"], "Add a note");
    assert_eq!(
        definition["parameters"]["properties"]["text"]["maxLength"],
        500
    );
    assert_eq!(stderr, "");

    let (code, stdout, stderr) = toolgate(&["schema", &path, "--flavour", "gemini-json"]);
    assert_eq!(code, 0, "{stderr}");
    let definition: Value = serde_json::from_str(&stdout).unwrap();
    let text = &definition["parametersJsonSchema"]["properties"]["text"];
    assert_eq!(text["description"], "(maxLength: 500)");
    assert_eq!(stderr, "/properties/text maxLength moved_to_description\n");
}

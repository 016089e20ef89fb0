//! What the schema compiler refuses, each at its file and JSON pointer, and the code it
//! writes for `outputSchema` and `keep_undeclared_keys`.

use super::{Builder, Error};

mod annotations;
mod collisions;
mod fidelity;
mod held_as_json;
pub(crate) mod hostile;
pub(crate) mod markdown;
mod numbers;

/// The problems of one definition under `typed_only` (by default most of them are held as
/// JSON instead: `held_as_json.rs`), as `pointer: message` lines.
fn refusals(definition: &str) -> Vec<String> {
    match Builder::new()
        .typed_only(true)
        .generate_text("t.json", definition)
    {
        Err(Error::Schema(problems)) => problems
            .iter()
            .map(|p| {
                assert_eq!(p.file.to_str(), Some("t.json"));
                format!("{}: {}", p.pointer, p.message)
            })
            .collect(),
        other => panic!("expected schema problems, got {other:?}"),
    }
}

fn tool(properties: &str) -> String {
    format!(r#"{{"name": "t", "parameters": {{"type": "object", "properties": {properties}}}}}"#)
}

#[test]
fn a_false_schema_is_never() {
    let code = Builder::new()
        .generate_text(
            "t.json",
            &tool(r#"{"gone": false, "empty": {"type": "array", "items": false}}"#),
        )
        .unwrap();
    assert!(
        code.contains("pub gone: ::std::option::Option<::toolgate::model::Never>,"),
        "{code}"
    );
    assert!(
        code.contains(
            "pub empty: ::std::option::Option<::std::vec::Vec<::toolgate::model::Never>>,"
        ),
        "{code}"
    );
}

#[test]
fn output_schema_problems_are_at_their_pointer() {
    let definition = r#"[{"name": "t", "inputSchema": {"type": "object", "properties": {}},
        "outputSchema": {"type": "object", "properties": {"n": {"type": "object", "minProperties": 1}}}}]"#;
    assert_eq!(
        refusals(definition),
        ["/0/outputSchema/properties/n/minProperties: keyword `minProperties` is not supported here"]
    );
    let definition = r#"{"name": "t", "inputSchema": {"type": "object", "properties": {}}, "outputSchema": {"type": "string"}}"#;
    assert_eq!(
        refusals(definition),
        ["/outputSchema: the arguments of a tool must be an object (`\"type\": \"object\"`), or a union of objects"]
    );
}

#[test]
fn an_output_schema_is_the_result_type() {
    let code = Builder::new()
        .generate_text(
            "t.json",
            r#"{"name": "count", "inputSchema": {"type": "object", "properties": {}},
                "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}"#,
        )
        .unwrap();
    assert!(
        code.contains("pub struct CountOutput {\n    pub n: i64,\n}"),
        "{code}"
    );
    assert!(code.contains("#[tool(name = \"count_output\")]"), "{code}");
    assert!(
        code.contains("impl ::toolgate::ToolOutput for Count {\n    type Output = CountOutput;\n}"),
        "{code}"
    );
}

#[test]
fn undeclared_keys_are_kept_only_when_asked_and_allowed() {
    let schema = r#"{"name": "t", "parameters": {"type": "object", "properties": {"a": {"type": "string"}},
        "required": ["a"]}}"#;
    let dropped = Builder::new().generate_text("t.json", schema).unwrap();
    assert!(!dropped.contains("flatten"), "{dropped}");
    let kept = Builder::new()
        .keep_undeclared_keys(true)
        .generate_text("t.json", schema)
        .unwrap();
    assert!(kept.contains("#[serde(flatten)]\n    pub additional_properties: ::std::collections::BTreeMap<\n        ::std::string::String,\n        ::toolgate::serde_json::Value,\n    >,"), "{kept}");
    let denied = schema.replace(
        r#""required": ["a"]"#,
        r#""required": ["a"], "additionalProperties": false"#,
    );
    let denied = Builder::new()
        .keep_undeclared_keys(true)
        .generate_text("t.json", &denied)
        .unwrap();
    assert!(!denied.contains("flatten"), "{denied}");
}

#[test]
fn a_struct_used_more_than_once_is_boxed() {
    // `Pair` twice (through a definition written in place, `Pairs`, for the second), `Once`
    // and the enum `Side` once or twice: only `Pair` is boxed; in a `Vec`, it needs no box.
    let definition = r##"{"name": "t", "parameters": {"type": "object",
        "$defs": {
            "Pair": {"type": "object", "properties": {"side": {"$ref": "#/$defs/Side"}}},
            "Pairs": {"anyOf": [{"$ref": "#/$defs/Pair"}, {"type": "string"}]},
            "Once": {"type": "object", "properties": {"side": {"$ref": "#/$defs/Side"}}},
            "Side": {"type": "string", "enum": ["l", "r"]}
        },
        "properties": {
            "first": {"$ref": "#/$defs/Pair"},
            "either": {"$ref": "#/$defs/Pairs"},
            "many": {"type": "array", "items": {"$ref": "#/$defs/Pair"}},
            "once": {"$ref": "#/$defs/Once"}
        }}}"##;
    let code = Builder::new().generate_text("t.json", definition).unwrap();
    for expected in [
        "pub first: ::std::option::Option<::std::boxed::Box<Pair>>,",
        "Object(::std::boxed::Box<Pair>),",
        "pub many: ::std::option::Option<::std::vec::Vec<Pair>>,",
        "pub once: ::std::option::Option<Once>,",
        "pub side: ::std::option::Option<Side>,",
    ] {
        assert!(code.contains(expected), "{expected} not in:\n{code}");
    }
}

/// Two types must not report one tool name (review `hostile-inputs.md`, F33): the second
/// is refused, naming where the first is.
#[test]
fn two_tools_with_one_name_are_refused_naming_both() {
    let empty = r#"{"type": "object", "properties": {}}"#;
    let twice = format!(
        r#"[{{"name": "dup", "parameters": {empty}}}, {{"name": "dup", "parameters": {empty}}}]"#
    );
    assert_eq!(
        refusals(&twice),
        ["/1/parameters: the tool name \"dup\" is also the name of the tool at t.json: /0/parameters; two generated types would report it"]
    );
}

/// A result type's tool name is chosen, never refused (issue 27 §4): beside a tool
/// `x_output` and `x_output_2`, the result of `x` reports `x_output_3`, and each type has its
/// own name.
#[test]
fn a_result_type_takes_a_free_tool_name() {
    let empty = r#"{"type": "object", "properties": {}}"#;
    let output = format!(
        r#"[{{"name": "x", "inputSchema": {empty}, "outputSchema": {empty}}},
            {{"name": "x_output", "inputSchema": {empty}}},
            {{"name": "x_output_2", "inputSchema": {empty}}}]"#
    );
    let generated = Builder::new()
        .generate_text_tools("t.json", &output)
        .unwrap();
    let x = &generated.tools[0];
    assert_eq!(x.output_name.as_deref(), Some("x_output_3"));
    assert_eq!(x.output.as_deref(), Some("XOutput"));
    assert!(generated
        .code
        .contains("#[tool(name = \"x_output_3\")]\npub struct XOutput {"));
    assert!(generated
        .code
        .contains("#[tool(name = \"x_output\")]\npub struct XOutput2 {"));
}

/// Tool names follow MCP's rule, 1 to 128 characters (Cloudflare's
/// `get_livestream_session_for_livestream_id_realtime_kit_livestreams` has 66): a longer
/// one, or one with a space, is refused with the rule.
#[test]
fn tool_names_are_taken_up_to_mcps_128_characters() {
    let empty = r#"{"type": "object", "properties": {}}"#;
    let tool = |name: &str| format!(r#"{{"name": "{name}", "parameters": {empty}}}"#);
    let cloudflare = "get_livestream_session_for_livestream_id_realtime_kit_livestreams";
    let code = Builder::new()
        .generate_text("t.json", &tool(cloudflare))
        .unwrap();
    assert!(
        code.contains(&format!("#[tool(name = \"{cloudflare}\")]")),
        "{code}"
    );
    assert!(Builder::new()
        .generate_text("t.json", &tool(&"n".repeat(128)))
        .is_ok());
    for name in ["n".repeat(129), "two words".to_owned()] {
        assert_eq!(
            refusals(&tool(&name)),
            [format!("/parameters: a tool name must be 1 to 128 characters of ASCII letters, digits, `_`, `-` and `.` (the name is {name:?})")]
        );
    }
}

/// Definitions written in place that fan out (`A_k = array of anyOf[A_k-1, A_k-1]`) would
/// write 2^k schemas: the tool is held as JSON instead (each definition written once), after
/// work linear in the schema.
#[test]
fn definitions_written_in_place_that_fan_out_are_held_as_json() {
    let mut defs = vec![r#""A0": {"type": "integer"}"#.to_owned()];
    for k in 1..=40 {
        defs.push(format!(
            r##""A{k}": {{"type": "array", "items": {{"anyOf": [{{"$ref": "#/$defs/A{0}"}}, {{"$ref": "#/$defs/A{0}"}}]}}}}"##,
            k - 1
        ));
    }
    let definition = format!(
        r##"{{"name": "t", "parameters": {{"type": "object", "properties": {{"x": {{"$ref": "#/$defs/A40"}}}}, "$defs": {{{}}}}}}}"##,
        defs.join(", ")
    );
    let code = Builder::new().generate_text("t.json", &definition).unwrap();
    assert!(code.contains("pub struct T(\n"), "{code}");
    assert!(code.contains("(at `/$defs/A40`)"), "{code}");
    assert!(code.contains("more than 50000"), "{code}");
    assert!(code.len() < 20_000, "{} bytes", code.len());
}

/// Issue 11 §4: the types of public fields are named through public paths (the
/// `::toolgate::serde_json` re-export), never through `__private`, which is not an API.
#[test]
fn public_fields_use_public_paths() {
    let schema = r#"{"name": "t", "parameters": {"type": "object", "properties": {
        "anything": {}, "labels": {"type": "object", "additionalProperties": {}},
        "items": {"type": "array", "items": true}}}}"#;
    let code = Builder::new()
        .keep_undeclared_keys(true)
        .generate_text("t.json", schema)
        .unwrap();
    assert!(code.contains("::toolgate::serde_json::Value"), "{code}");
    let fields: Vec<&str> = code
        .lines()
        .filter(|line| line.trim_start().starts_with("pub "))
        .collect();
    assert!(fields.len() >= 3, "{code}");
    assert!(!code.contains("__private::serde_json"), "{code}");
}

#[test]
fn property_names_the_derive_cannot_say_are_refused_at_their_pointer() {
    // `propertyNames` beside declared properties (a struct), and a key schema that is a union.
    assert_eq!(
        refusals(&tool(
            r#"{"o": {"type": "object", "properties": {"a": {"type": "string"}}, "propertyNames": {"maxLength": 3}}}"#
        )),
        ["/parameters/properties/o/propertyNames: `propertyNames` beside `properties` is not supported by the schema compiler (a struct's keys cannot be checked against it)"]
    );
    assert_eq!(
        refusals(&tool(
            r#"{"m": {"type": "object", "additionalProperties": {"type": "integer"}, "propertyNames": {"anyOf": [{"maxLength": 1}, {"pattern": "^x"}]}}}"#
        )),
        ["/parameters/properties/m/propertyNames: this `propertyNames` is not supported by the schema compiler: it takes a string schema (length, pattern, format) or an `enum` of strings"]
    );
}

#[test]
fn property_names_of_a_map_become_keys() {
    // PostHog's survey tools: response keys limited by `propertyNames`.
    let code = Builder::new()
        .generate_text(
            "t.json",
            &tool(
                r#"{"m": {"type": "object", "propertyNames": {"enum": ["low", "high"]}}, "n": {"type": "object", "additionalProperties": {"type": "integer"}, "propertyNames": {"format": "uuid"}}}"#,
            ),
        )
        .unwrap();
    assert!(
        code.contains(r#"#[tool(keys(enum_values = ["low", "high"]))]"#),
        "{code}"
    );
    assert!(code.contains(r#"#[tool(keys(format = "uuid"))]"#), "{code}");
}

#[test]
fn a_flavour_lint_warns_denies_or_allows_each_loss_and_the_last_setting_wins() {
    use crate::{Flavour, Lint};
    let text = r#"[{"name": "lookup", "parameters": {"type": "object", "properties": {
        "tags": {"type": "object", "additionalProperties": {"type": "string"}}}}},
        {"name": "note", "parameters": {"type": "object", "properties": {
        "text": {"type": "string", "maxLength": 9, "title": "Text"}}}}]"#;
    let warned = Builder::new()
        .flavour(Flavour::OpenAiStrict, Lint::Warn)
        .flavour(Flavour::Mcp, Lint::Deny)
        .generate_text_tools("tools.json", text)
        .unwrap();
    let lines: Vec<String> = warned.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "tools.json: /0/parameters/properties/tags: lookup: openai-strict cannot express free-form keys (`additionalProperties` with a schema) (at /properties/tags)",
            "tools.json: /1/parameters/properties/text: openai-strict drops `maxLength: 9` (moved to the description); the gate still enforces it",
        ]
    );
    let Err(Error::Schema(problems)) = Builder::new()
        .flavour(Flavour::OpenAiStrict, Lint::Warn)
        .flavour(Flavour::OpenAiStrict, Lint::Deny)
        .generate_text_tools("tools.json", text)
    else {
        panic!("the lint denies");
    };
    assert_eq!(problems.len(), 2);
    assert!(problems[1]
        .message
        .ends_with("the gate still enforces it (the openai-strict lint denies it)"));
    let allowed = Builder::new()
        .flavour(Flavour::AnthropicStrict, Lint::Allow)
        .generate_text_tools("tools.json", text)
        .unwrap();
    assert!(allowed.warnings.is_empty());
}

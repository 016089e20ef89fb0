//! One reader decides what a schema means (issue 27 §4): the schema compiler (`toolgate gen`,
//! `Builder`) refuses a tool if and only if the run-time reader (`toolgate check`,
//! `DynamicTool`) refuses it, but for the compile-only limits the codegen module documents
//! (a tool name the derive cannot report). What it writes, the derive takes: no generated
//! type gets a `compile_error!` (a `#[tool(schema = "...")]` text is read again by the same
//! reader).
//!
//! Over every schema of the corpora (BFCL, tools-dev, the schema goldens, the root unions,
//! the hostile-gen files, the fuzz seeds, the JSON texts of the hostile schema tests), and
//! over generated mutations of the classes in which the two once disagreed.

use std::path::Path;

use proptest::prelude::*;
use serde_json::{json, Value};
use toolgate::model::Json;
use toolgate_codegen::Builder;
use toolgate_core::model::read::{read_parts, unwrap_definition};

/// Why the run-time reader refuses the definition `text`, if it does.
fn reader_refusal(text: &str) -> Option<String> {
    let json: Json = serde_json::from_str(text).expect("a definition is JSON");
    let parts = unwrap_definition(json);
    let name = parts.name.clone();
    let output = parts.output_schema.clone();
    if let Err(errors) = read_parts(parts.name, parts.description, parts.schema) {
        return Some(errors.to_string());
    }
    // The result type is read by the same reader.
    let (_, output) = output?;
    read_parts(name.map(|n| format!("{n}_output")), None, output)
        .err()
        .map(|errors| errors.to_string())
}

/// The tool names the derive can report (MCP's rule): the one compile-only limit.
fn reportable(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// Whether the definition `text` meets a compile-only limit: its tool name (its `name`, or
/// its schema's `title`) is one the derive cannot report.
fn compile_only_limit(text: &str) -> bool {
    let json: Json = serde_json::from_str(text).expect("a definition is JSON");
    let parts = unwrap_definition(json);
    let title = match parts.schema.get("title") {
        Some(Json::String(title)) => Some(title.clone()),
        _ => None,
    };
    !reportable(&parts.name.or(title).unwrap_or_default())
}

/// The `compile_error!`s the derive writes for the generated items (what rustc would show).
fn derive_errors(code: &str) -> Vec<String> {
    use quote::ToTokens;
    let file = syn::parse_file(code).expect("the generated code parses");
    let mut errors = Vec::new();
    for item in file.items {
        let (name, tokens) = match item {
            syn::Item::Struct(mut item) => {
                item.attrs.retain(|a| !a.path().is_ident("derive"));
                (item.ident.to_string(), item.into_token_stream())
            }
            syn::Item::Enum(mut item) => {
                item.attrs.retain(|a| !a.path().is_ident("derive"));
                (item.ident.to_string(), item.into_token_stream())
            }
            _ => continue,
        };
        let expanded = toolgate_codegen::derive_tool(tokens);
        if let Some(message) = compile_error(expanded) {
            errors.push(format!("{name}: {message}"));
        }
    }
    errors
}

/// The first `compile_error! { ... }` of `tokens` (a macro call, not text that says so).
fn compile_error(tokens: proc_macro2::TokenStream) -> Option<String> {
    use proc_macro2::TokenTree;
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    for (index, tree) in trees.iter().enumerate() {
        match tree {
            TokenTree::Ident(ident) if ident == "compile_error" => {
                let bang =
                    matches!(trees.get(index + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                if let (true, Some(TokenTree::Group(body))) = (bang, trees.get(index + 2)) {
                    return Some(body.stream().to_string());
                }
            }
            TokenTree::Group(group) => {
                if let Some(found) = compile_error(group.stream()) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// Where the two roads disagree on the definition `text`, if they do.
fn disagreement(text: &str) -> Option<String> {
    let reader = reader_refusal(text);
    let generated = Builder::new().generate_text_tools("t.json", text);
    match (reader, generated) {
        (Some(_), Err(_)) => None,
        (None, Err(_)) if compile_only_limit(text) => None,
        (None, Err(error)) => Some(format!("gen refuses what the reader reads: {error}")),
        (Some(refusal), Ok(_)) => Some(format!("gen compiles what the reader refuses: {refusal}")),
        (None, Ok(generated)) => {
            let errors = derive_errors(&generated.code);
            (!errors.is_empty()).then(|| format!("the derive refuses: {}", errors.join("\n")))
        }
    }
}

/// Every definition the corpora hold, as JSON text, with where it is from.
fn corpus_definitions() -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (index, line) in toolgate_tests::corpus::CASES.lines().enumerate() {
        let case: Value = serde_json::from_str(line).unwrap();
        found.push((format!("bfcl:{index}"), case["tool"].to_string()));
    }
    for (index, line) in toolgate_tests::tools_dev::corpus_lines().iter().enumerate() {
        let tool = toolgate_tests::tools_dev::tool_definition(line);
        found.push((
            format!("tools-dev:{index}"),
            serde_json::to_string(&tool).unwrap(),
        ));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for folder in [
        "schemas",
        "data/root-unions",
        "hostile-gen/schemas",
        "../fuzz/seeds/gen",
    ] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(folder))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "json"))
            .collect();
        paths.sort();
        for path in paths {
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(json) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            let definitions = match json {
                Value::Array(items) => items,
                one => vec![one],
            };
            for (index, definition) in definitions.into_iter().enumerate() {
                found.push((
                    format!("{}#{index}", path.display()),
                    definition.to_string(),
                ));
            }
        }
    }
    // The schemas the hostile schema tests hold as raw string literals.
    let hostile = include_str!("hostile_schemas.rs");
    for (index, literal) in hostile.split("r#").skip(1).enumerate() {
        let literal = literal.trim_start_matches('#');
        let Some(body) = literal.strip_prefix('"') else {
            continue;
        };
        let Some(end) = body.find("\"#") else {
            continue;
        };
        if let Ok(json @ Value::Object(_)) = serde_json::from_str::<Value>(&body[..end]) {
            found.push((
                format!("hostile_schemas.rs literal {index}"),
                json.to_string(),
            ));
        }
    }
    // A tool the corpora repeat (BFCL writes it into each of its cases) is compiled once:
    // 3,600 definitions are 1,900 texts.
    let mut seen = std::collections::HashSet::new();
    found.retain(|(_, text)| seen.insert(text.clone()));
    found
}

#[test]
fn gen_refuses_exactly_what_the_reader_refuses_over_the_corpora() {
    let definitions = corpus_definitions();
    assert!(definitions.len() > 1_800, "{}", definitions.len());
    let mut disagreements = Vec::new();
    for (from, text) in &definitions {
        if let Some(why) = disagreement(text) {
            disagreements.push(format!("{from}: {why:.1500}"));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} definitions:\n{}",
        disagreements.len(),
        definitions.len(),
        disagreements.join("\n\n")
    );
}

/// A schema in which the two roads once disagreed, at one of several places of a tool.
fn disagreement_class() -> impl Strategy<Value = Value> {
    prop_oneof![
        // References to the whole schema (recursion through the root).
        Just(json!({"$ref": "#"})),
        Just(json!({"anyOf": [{"$ref": "#"}, {"type": "null"}]})),
        Just(json!({"type": "array", "items": {"$ref": "#"}})),
        Just(json!({"type": "object", "additionalProperties": {"$ref": "#"}})),
        // Unknown and known formats, on strings and other types.
        "[a-z-]{1,12}".prop_map(|format| json!({"type": "string", "format": format})),
        Just(json!({"type": "integer", "format": "uuid"})),
        Just(json!({"type": "string", "format": "date-time"})),
        // Unions nested around the limit, of each kind.
        (25usize..40).prop_map(|depth| (0..depth).fold(
            json!({"type": "integer"}),
            |inner, level| {
                json!({"oneOf": [{"type": "string", "maxLength": level + 1}, inner]})
            }
        )),
        // Patterns: accepted, refused for their syntax, refused for their cost.
        prop::sample::select(vec![
            "^a+$",
            "a.{2000}c",
            "(?<=a)b",
            "[",
            "^\\d{3}$",
            "a[ab]{900}c"
        ])
        .prop_map(|pattern| json!({"type": "string", "pattern": pattern})),
        // A reference to nothing, and to itself.
        Just(json!({"$ref": "#/$defs/missing"})),
        Just(json!({"$ref": "#/properties/a"})),
    ]
}

/// Where in a tool the mutation goes.
fn place(schema: Value, at: usize) -> Value {
    let parameters = match at {
        0 => json!({"type": "object", "properties": {"a": schema}}),
        1 => json!({"type": "object", "properties": {"a": {"type": "array", "items": schema}}}),
        2 => {
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/d"}}, "$defs": {"d": schema}})
        }
        3 => {
            json!({"type": "object", "properties": {"a": {"anyOf": [schema, {"type": "boolean"}]}}})
        }
        _ => {
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": schema})
        }
    };
    json!({"name": "t", "parameters": parameters})
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn gen_refuses_exactly_what_the_reader_refuses_over_mutations(
        schema in disagreement_class(),
        at in 0usize..5,
    ) {
        let text = place(schema, at).to_string();
        if let Some(why) = disagreement(&text) {
            return Err(TestCaseError::fail(format!("{text:.2000}\n{why:.2000}")));
        }
    }
}

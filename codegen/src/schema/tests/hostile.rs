//! The schema compiler on hostile schemas (review `hostile-inputs.md`, F1, F16–F20, F32–F34):
//! descriptions never become code and are kept exactly, every name is one rustc takes
//! without a lint, numbers go into a type that holds them, and what cannot be written is
//! refused at its file and JSON pointer.

use super::markdown::{doc_comments, not_text, CODE_IN_DESCRIPTIONS};
use super::{refusals, tool};
use crate::schema::Builder;

/// rustc's `non_camel_case_types` rule (`rustc_lint::nonstandard_style`).
pub(crate) fn rustc_camel_case(name: &str) -> bool {
    let name = name.trim_matches('_');
    let chars: Vec<char> = name.chars().collect();
    let cased = |c: char| c.is_lowercase() || c.is_uppercase();
    !chars.first().is_some_and(|c| c.is_lowercase())
        && !name.contains("__")
        && !chars
            .windows(2)
            .any(|pair| cased(pair[0]) && pair[1] == '_' || cased(pair[1]) && pair[0] == '_')
}

/// rustc's `non_snake_case` rule.
pub(crate) fn rustc_snake_case(name: &str) -> bool {
    let name = name.strip_prefix("r#").unwrap_or(name).trim_matches('_');
    !name.contains("__") && !name.chars().any(char::is_uppercase)
}

fn generate(definition: &str) -> String {
    Builder::new()
        .generate_text("t.json", definition)
        .unwrap_or_else(|error| panic!("{error}"))
}

/// The description the derive reads from `attrs`: `#[tool(description = "...")]`, else the
/// doc comment.
pub(crate) fn described(attrs: &[syn::Attribute]) -> Option<String> {
    tool_key(attrs, "description").or_else(|| crate::derive::doc_description(attrs))
}

/// The string of `key = "..."` in the `#[tool(...)]` attributes.
pub(crate) fn tool_key(attrs: &[syn::Attribute], wanted: &str) -> Option<String> {
    use syn::punctuated::Punctuated;
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("tool")) {
        let keys = attr
            .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
            .expect("#[tool(...)] holds keys");
        for key in keys {
            if let syn::Meta::NameValue(key) = key {
                if let (
                    true,
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }),
                ) = (key.path.is_ident(wanted), &key.value)
                {
                    return Some(text.value());
                }
            }
        }
    }
    None
}

/// What the derive reads as the description of each struct, enum, field and variant.
fn descriptions_read(code: &str) -> Vec<(String, Option<String>)> {
    let file = syn::parse_file(code).unwrap();
    let mut read = Vec::new();
    for item in &file.items {
        match item {
            syn::Item::Struct(item) => {
                read.push((item.ident.to_string(), described(&item.attrs)));
                for field in &item.fields {
                    let name = format!("{}.{}", item.ident, field.ident.as_ref().unwrap());
                    read.push((name, described(&field.attrs)));
                }
            }
            syn::Item::Enum(item) => {
                read.push((item.ident.to_string(), described(&item.attrs)));
                for variant in &item.variants {
                    let name = format!("{}::{}", item.ident, variant.ident);
                    read.push((name, described(&variant.attrs)));
                }
            }
            _ => {}
        }
    }
    read
}

/// F1, F16, F34: the same description on a tool, a field, a nested object, a definition, a
/// union and its alternative. No doc comment holds a code block, HTML, a carriage return or
/// a bidirectional control, and the derive reads back the exact text everywhere.
#[test]
fn descriptions_are_text_and_kept_exactly() {
    let more = [
        "a\rb",
        "a\r\nb",
        "left \u{202E}right\u{202C} \u{2066}isolate\u{2069}",
        "See https://example.com/docs and http://x.org/a?b=c.",
        "plain",
    ];
    for description in CODE_IN_DESCRIPTIONS.iter().chain(&more) {
        let text = serde_json::to_string(description).unwrap();
        let definition = format!(
            r##"{{"name": "t", "description": {text}, "parameters": {{"type": "object",
            "$defs": {{"Place": {{"type": "object", "description": {text}, "properties": {{"city": {{"type": "string"}}}}}}}},
            "properties": {{
                "f": {{"type": "string", "description": {text}}},
                "o": {{"type": "object", "description": {text}, "properties": {{"x": {{"type": "integer", "description": {text}}}}}}},
                "p": {{"$ref": "#/$defs/Place"}},
                "u": {{"description": {text}, "anyOf": [{{"type": "string"}}, {{"type": "integer"}}]}}
            }}}}}}"##
        );
        let code = generate(&definition);
        for (at, doc) in doc_comments(&code) {
            assert_eq!(
                not_text(&doc),
                Vec::<String>::new(),
                "{at}: {doc:?}\n{code}"
            );
        }
        assert!(
            !code.contains(['\r', '\u{202E}', '\u{202C}', '\u{2066}', '\u{2069}']),
            "{code}"
        );
        let read = descriptions_read(&code);
        let expected = ["T", "T.f", "T.o", "TO", "TO.x", "Place", "T.u", "TU"];
        for owner in expected {
            let found = read.iter().find(|(at, _)| at == owner);
            assert_eq!(
                found.and_then(|(_, text)| text.as_deref()),
                Some(*description),
                "{owner} in\n{code}"
            );
        }
    }
}

/// F34: a URL in a description shows as text; its item allows `rustdoc::bare_urls`.
#[test]
fn a_url_in_a_description_allows_the_bare_url_lint() {
    let code = generate(&tool(
        r#"{"site": {"type": "string", "description": "See https://example.com"}}"#,
    ));
    assert!(
        code.contains(
            "/// See https://example.com\n    #[allow(rustdoc::bare_urls)]\n    pub site:"
        ),
        "{code}"
    );
}

/// A union's alternative takes its description from its doc comment only: a description
/// the doc comment cannot carry is refused at the alternative's pointer.
#[test]
fn an_alternative_whose_description_a_doc_comment_cannot_carry_is_refused() {
    let fence = serde_json::to_string(CODE_IN_DESCRIPTIONS[0]).unwrap();
    let union = format!(
        r#"{{"u": {{"anyOf": [{{"type": "string", "description": {fence}}}, {{"type": "integer"}}]}},
        "s": {{"oneOf": [
            {{"type": "object", "description": {fence}, "properties": {{"kind": {{"const": "a"}}}}, "required": ["kind"]}},
            {{"type": "object", "properties": {{"kind": {{"const": "b"}}}}, "required": ["kind"]}}]}}}}"#
    );
    let message = "this description cannot be written exactly as a variant's doc comment, and the derive reads a variant's description from its doc comment only (a doc comment gives back one line of text, without Markdown escapes or code fences)";
    assert_eq!(
        refusals(&tool(&union)),
        [
            format!("/parameters/properties/u/0: {message}"),
            format!("/parameters/properties/s/0: {message}"),
        ]
    );
}

/// F17: `gen` is a keyword of Rust 2024.
#[test]
fn a_property_named_gen_is_a_raw_identifier() {
    let code = generate(&tool(r#"{"gen": {"type": "string"}}"#));
    assert!(
        code.contains("    pub r#gen: ::std::option::Option<::std::string::String>,"),
        "{code}"
    );
    assert!(!code.contains("rename"), "{code}");
}

/// F32: names of every kind from names that tripped rustc's lints: all ASCII, types and
/// variants UpperCamelCase, fields and functions snake_case.
#[test]
fn generated_names_trip_no_lint() {
    let nested = r#"{"type": "object", "properties": {"x": {"type": "string"}}}"#;
    let names = [
        "self", "Self", "self_", "a", "а", "𝔞", "ǅ", "ﬁ", "Ⅻ", "名前",
    ];
    let properties: Vec<String> = names
        .iter()
        .map(|name| format!(r#""{name}": {nested}"#))
        .chain([
            r#""e": {"enum": ["Self", "self", "a", "а", "𝔞", "ǅ"]}"#.to_owned(),
            r#""d": {"type": "integer", "default": 1}"#.to_owned(),
            r#""self__": {"type": "integer", "default": 2}"#.to_owned(),
        ])
        .collect();
    let definition = format!(
        r#"[{{"name": "Self", "parameters": {{"type": "object", "properties": {{{}}}}}}},
            {{"name": "self", "parameters": {{"type": "object", "properties": {{}}}}}}]"#,
        properties.join(", ")
    );
    let code = generate(&definition);
    let file = syn::parse_file(&code).unwrap();
    let mut checked = 0;
    for item in &file.items {
        let (ty, members, snake): (String, Vec<String>, bool) = match item {
            syn::Item::Struct(item) => (
                item.ident.to_string(),
                item.fields
                    .iter()
                    .map(|f| f.ident.as_ref().unwrap().to_string())
                    .collect(),
                true,
            ),
            syn::Item::Enum(item) => (
                item.ident.to_string(),
                item.variants.iter().map(|v| v.ident.to_string()).collect(),
                false,
            ),
            syn::Item::Fn(item) => {
                let name = item.sig.ident.to_string();
                assert!(name.is_ascii() && rustc_snake_case(&name), "fn {name}");
                continue;
            }
            _ => continue,
        };
        assert!(ty.is_ascii() && rustc_camel_case(&ty), "type {ty}");
        for member in members {
            let fits = if snake {
                rustc_snake_case(&member)
            } else {
                rustc_camel_case(&member)
            };
            assert!(member.is_ascii() && fits, "{ty}: {member}");
            checked += 1;
        }
    }
    assert!(checked >= 19, "{checked} members in\n{code}");
}

//! Doc comments as rustdoc reads them: the doc attributes of every item, field and variant
//! of a generated file, and what pulldown-cmark (rustdoc's Markdown parser, with rustdoc's
//! extensions) makes of them.

use pulldown_cmark::{Event, Options, Parser, Tag};

/// Descriptions that are, or hold, code rustdoc would compile and run, each way Markdown
/// makes a code block.
pub(crate) const CODE_IN_DESCRIPTIONS: [&str; 14] = [
    "Example:\n```\ncompile_error!(\"INJECTED\");\n```",
    "```rust\npanic!(\"INJECTED\");\n```",
    "~~~\ncompile_error!(\"INJECTED\");\n~~~",
    "````\n```\ncompile_error!(\"INJECTED\");\n```\n````",
    "JSON example:\n```\n{\"a\": 1}\n```",
    "Call it so:\n\n    compile_error!(\"INJECTED\");",
    "Call it so:\n\n\tcompile_error!(\"INJECTED\");",
    "-     compile_error!(\"INJECTED\");",
    "1.\tcompile_error!(\"INJECTED\");",
    ">     compile_error!(\"INJECTED\");",
    "> ```\n> compile_error!(\"INJECTED\");\n> ```",
    "- item\n\n      compile_error!(\"INJECTED\");",
    "  ```\n  compile_error!(\"INJECTED\");\n  ```",
    "<pre><code>compile_error!(\"INJECTED\");</code></pre>",
];

/// The doc text of `attrs` as rustdoc assembles it: one line per doc attribute, the
/// smallest indentation of the non-blank lines removed from all.
pub(crate) fn doc_text(attrs: &[syn::Attribute]) -> Option<String> {
    let mut lines = Vec::new();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("doc")) {
        let syn::Meta::NameValue(meta) = &attr.meta else {
            continue;
        };
        let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(text),
            ..
        }) = &meta.value
        else {
            continue;
        };
        lines.extend(text.value().split('\n').map(str::to_owned));
    }
    if lines.is_empty() {
        return None;
    }
    let indent = lines
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0);
    let unindented: Vec<&str> = lines
        .iter()
        .map(|line| line.get(indent..).unwrap_or(""))
        .collect();
    Some(unindented.join("\n"))
}

/// What rustdoc would not show as text in `doc`: code blocks (which it runs as doctests)
/// and HTML, each with its start.
pub(crate) fn not_text(doc: &str) -> Vec<String> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_SMART_PUNCTUATION;
    Parser::new_ext(doc, options)
        .into_offset_iter()
        .filter_map(|(event, range)| {
            let what = match event {
                Event::Start(Tag::CodeBlock(_)) => "code block",
                Event::Start(Tag::HtmlBlock) | Event::Html(_) | Event::InlineHtml(_) => "HTML",
                _ => return None,
            };
            let from: String = doc[range.start..].chars().take(40).collect();
            Some(format!("{what} at {from:?}"))
        })
        .collect()
}

/// Every doc comment of a generated file, each with the item (and member) it documents.
pub(crate) fn doc_comments(code: &str) -> Vec<(String, String)> {
    let file = syn::parse_file(code).expect("generated code parses");
    let mut docs = Vec::new();
    let mut add = |at: String, attrs: &[syn::Attribute]| {
        if let Some(doc) = doc_text(attrs) {
            docs.push((at, doc));
        }
    };
    for item in &file.items {
        match item {
            syn::Item::Struct(item) => {
                let owner = item.ident.to_string();
                add(owner.clone(), &item.attrs);
                for (name, attrs) in members(&owner, &item.fields) {
                    add(name, attrs);
                }
            }
            syn::Item::Enum(item) => {
                add(item.ident.to_string(), &item.attrs);
                for variant in &item.variants {
                    let owner = format!("{}::{}", item.ident, variant.ident);
                    add(owner.clone(), &variant.attrs);
                    for (name, attrs) in members(&owner, &variant.fields) {
                        add(name, attrs);
                    }
                }
            }
            syn::Item::Fn(item) => add(item.sig.ident.to_string(), &item.attrs),
            syn::Item::Impl(item) => add("impl".to_owned(), &item.attrs),
            _ => {}
        }
    }
    docs
}

/// The fields of `owner`, each named `owner.field` (`owner.0` when unnamed), with its
/// attributes.
fn members<'f>(owner: &str, fields: &'f syn::Fields) -> Vec<(String, &'f [syn::Attribute])> {
    fields
        .iter()
        .enumerate()
        .map(|(index, field)| {
            let name = field
                .ident
                .as_ref()
                .map_or_else(|| index.to_string(), ToString::to_string);
            (format!("{owner}.{name}"), field.attrs.as_slice())
        })
        .collect()
}

//! Doc comments of descriptions. A description comes from someone else's schema: it is
//! data, so its doc comment renders as text and never as code.
//!
//! The decision: the doc comment is the description as Markdown prose (paragraphs, lists,
//! emphasis stay), with what could make it more than text taken out, line by line:
//! - **no code block can form**, so rustdoc never compiles or runs a description as a
//!   doctest: every run of three or more backticks or tildes is escaped character by
//!   character (no fence can open; single and double backticks, inline code, stay), and
//!   indentation never reaches four columns (leading whitespace is cut to three spaces, every
//!   other run of spaces and tabs to one space), so no indented code block forms, neither at
//!   the top level nor after the marker of a list item or a quote;
//! - `<`, `>`, `[`, `]` and `\` are escaped: no HTML, no intra-doc links;
//! - what a comment cannot hold or must not hide is shown as an escape: control characters
//!   and the bidirectional controls (U+202A–U+202E, U+2066–U+2069: rustc refuses them in
//!   comments) as `\u{..}`; a carriage return, alone or before a line feed, ends a line;
//! - an item whose doc holds a URL allows `rustdoc::bare_urls`: the URL shows as text;
//! - an item whose doc holds a list item and more than one line allows clippy's
//!   `doc_lazy_continuation` and `doc_overindented_list_items`: the description's own lines
//!   stay as written (a line after a list item continues it, as in the source), and a crate
//!   that lints generated code with `clippy -D warnings` stays clean.
//!
//! The model still gets the exact text: where the derive would not read the doc comment
//! back to the very description ([`doc_reproduces`]), the description is also written as
//! `#[tool(description = "...")]`, a string literal, which holds any text.
//!
//! The other choice was to fence every description as ```` ```text ````. It is as safe, but
//! shows every description as code, needs a fence longer than any run of backticks in the
//! text, and then never reproduces the text, so every description would be written twice.

use proc_macro2::TokenStream;
use quote::quote;

/// Characters rustdoc would read as HTML, links or escapes: escaped in doc comments.
const MARKDOWN_ESCAPED: [char; 5] = ['<', '>', '[', ']', '\\'];

/// The bidirectional controls rustc refuses in comments
/// (`text_direction_codepoint_in_comment`, deny by default).
const BIDI_CONTROLS: [char; 9] = [
    '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}',
];

/// The most leading spaces a doc line keeps: four would start an indented code block.
const MOST_INDENT: usize = 3;

/// A doc comment of `text`, written so that rustdoc shows it as text (see the module docs),
/// with `#[allow(rustdoc::bare_urls)]` when it holds a URL.
pub(crate) fn doc_attr(text: &str) -> TokenStream {
    let lines = doc_lines(text);
    let allow = lines
        .iter()
        .any(|line| line.contains("://"))
        .then(|| quote!(#[allow(rustdoc::bare_urls)]));
    let allow_list = (lines.len() > 1 && lines.iter().any(|line| is_list_item(line))).then(
        || quote!(#[allow(clippy::doc_lazy_continuation, clippy::doc_overindented_list_items)]),
    );
    let lines = lines.iter().map(|line| format!(" {line}"));
    quote!(#(#[doc = #lines])* #allow #allow_list)
}

/// Whether a doc line starts a Markdown list item (`- `, `* `, `+ `, `1. `, `1) `).
fn is_list_item(line: &str) -> bool {
    let line = line.trim_start();
    let digits = line.len() - line.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &line[digits..];
    match digits {
        0 => ["- ", "* ", "+ "]
            .iter()
            .any(|marker| line.starts_with(marker)),
        1..=9 => rest.starts_with(". ") || rest.starts_with(") "),
        _ => false,
    }
}

/// Whether the derive reads `text` back unchanged from [`doc_attr`]'s doc comment (it trims
/// lines and joins them); if not, the description is also given as
/// `#[tool(description = ...)]`.
///
/// Read as the derive gets it: from the code as written to the file (formatted by
/// prettyplease, which writes `#[doc = " "]` as a bare `///`, and read again), not from the
/// tokens: the two once differed on blank lines (issue 27 §5).
pub(crate) fn doc_reproduces(text: &str) -> bool {
    let attrs = doc_attr(text);
    let item: syn::File =
        syn::parse2(quote!(#attrs struct S;)).expect("doc_attr writes attributes");
    let written = prettyplease::unparse(&item);
    let Ok(read) = syn::parse_file(&written) else {
        return false;
    };
    let attrs = match read.items.first() {
        Some(syn::Item::Struct(item)) => &item.attrs[..],
        _ => &[],
    };
    crate::derive::doc_description(attrs).as_deref() == Some(text)
}

/// The lines of `text` as they go into a doc comment: a line break is `\n`, `\r\n` or `\r`.
fn doc_lines(text: &str) -> Vec<String> {
    text.replace("\r\n", "\n")
        .replace('\r', "\n")
        .lines()
        .map(doc_line)
        .collect()
}

/// One line, made text: indentation cut, runs of spaces and tabs made one space, fences,
/// HTML and links escaped, controls shown as escapes.
fn doc_line(line: &str) -> String {
    let content = line.trim_start_matches([' ', '\t']);
    let indent = columns(&line[..line.len() - content.len()]).min(MOST_INDENT);
    let content = content.trim_end_matches([' ', '\t']);
    let mut out = " ".repeat(indent);
    let mut chars = content.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                while chars.next_if(|next| matches!(next, ' ' | '\t')).is_some() {}
                out.push(' ');
            }
            '`' | '~' => {
                let mut run = 1;
                while chars.next_if_eq(&c).is_some() {
                    run += 1;
                }
                for _ in 0..run {
                    if run >= 3 {
                        out.push('\\');
                    }
                    out.push(c);
                }
            }
            _ if MARKDOWN_ESCAPED.contains(&c) => {
                out.push('\\');
                out.push(c);
            }
            _ if c.is_control() || BIDI_CONTROLS.contains(&c) => {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            }
            _ => out.push(c),
        }
    }
    out
}

/// The width of leading whitespace in columns, as CommonMark counts it (a tab advances to
/// the next multiple of four).
fn columns(whitespace: &str) -> usize {
    whitespace.chars().fold(0, |column, c| match c {
        '\t' => column + 4 - column % 4,
        _ => column + 1,
    })
}

#[cfg(test)]
mod tests;

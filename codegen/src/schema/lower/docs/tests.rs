//! Doc comments of hostile descriptions read as rustdoc reads them: never a code block, never
//! HTML, nothing rustc refuses in a comment.

use proptest::prelude::*;

use super::{doc_attr, doc_reproduces};
use crate::schema::tests::markdown::{doc_text, not_text, CODE_IN_DESCRIPTIONS};

/// What rustdoc reads from the doc comment of `description`.
fn rendered(description: &str) -> String {
    let attrs = syn::parse::Parser::parse2(syn::Attribute::parse_outer, doc_attr(description))
        .expect("doc_attr writes attributes");
    doc_text(&attrs).unwrap_or_default()
}

#[test]
fn code_in_a_description_is_text() {
    for description in CODE_IN_DESCRIPTIONS {
        let doc = rendered(description);
        assert_eq!(
            not_text(&doc),
            Vec::<String>::new(),
            "{description:?} → {doc:?}"
        );
        assert!(
            doc.contains("compile_error!") || doc.contains("\"a\": 1") || doc.contains("panic!"),
            "{doc}"
        );
        assert!(!doc_reproduces(description), "{description:?}");
    }
}

#[test]
fn characters_a_comment_cannot_hold_are_shown_as_escapes() {
    let doc = rendered("a\rb\r\nc \u{202E}d\u{2066}e\u{1b}f\u{7f}");
    assert_eq!(doc, "a\nb\nc \\u{202e}d\\u{2066}e\\u{1b}f\\u{7f}");
    for description in ["a\rb", "a\u{202A}b", "a\u{2069}b", "a\u{0}b"] {
        assert!(!doc_reproduces(description), "{description:?}");
    }
}

#[test]
fn a_url_is_text_and_its_lint_allowed() {
    let description = "See https://example.com/docs?q=1 and http://x.org.";
    let attrs = doc_attr(description).to_string();
    assert!(attrs.contains("allow (rustdoc :: bare_urls)"), "{attrs}");
    assert!(doc_reproduces(description));
    assert!(!doc_attr("No link here.").to_string().contains("allow"));
}

/// Real descriptions hold lists whose lines continue without indentation (Cloudflare's
/// generated schemas): the item allows clippy's list lints instead of rewriting the text.
#[test]
fn a_list_with_continued_lines_allows_clippy_list_lints() {
    let description = "Modes:\n- `a`: first\ncontinued here\n1. numbered";
    let attrs = doc_attr(description).to_string();
    assert!(attrs.contains("clippy :: doc_lazy_continuation"), "{attrs}");
    for plain in [
        "One line - with a dash",
        "Two lines\nno list",
        "- one item only",
    ] {
        assert!(!doc_attr(plain).to_string().contains("clippy"), "{plain:?}");
    }
}

#[test]
fn prose_reproduces_as_written() {
    for description in [
        "Current weather",
        "The `city` name, as `Paris` or ``Lyon``.",
        "**Bold**, _emphasis_ and a list marker - here.",
        "Name ~ alias ~~ strike",
        "Ünïcödé, 日本語, emoji 🎉",
    ] {
        assert!(doc_reproduces(description), "{description:?}");
        assert_eq!(rendered(description), description);
    }
    for description in [
        "",
        " padded",
        "two\nlines",
        "a  b",
        "a\tb",
        "a <b>",
        "[link]",
    ] {
        assert!(!doc_reproduces(description), "{description:?}");
    }
}

#[test]
fn indentation_is_cut_to_three_columns() {
    assert_eq!(
        rendered("- item\n  continued\n        deep\n\t\ttabbed"),
        "- item\n  continued\n   deep\n   tabbed"
    );
}

/// Text made of what Markdown builds blocks from.
fn markdown_soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "`",
        "```",
        "~",
        "~~~",
        " ",
        "    ",
        "\t",
        "\n",
        "\r",
        "\r\n",
        ">",
        "-",
        "*",
        "+",
        "1.",
        "2)",
        "#",
        "<",
        "pre>",
        "x",
        "code();",
        "\u{202E}",
        "\\",
        "[",
        "]",
        "(",
        ")",
        ":",
        "http://a.io",
        "|",
        "=",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_description_becomes_a_code_block(description in markdown_soup()) {
        let doc = rendered(&description);
        prop_assert_eq!(not_text(&doc), Vec::<String>::new(), "{:?} → {:?}", description, doc);
        prop_assert!(!doc.contains(['\r', '\u{202E}']), "{:?}", doc);
    }
}

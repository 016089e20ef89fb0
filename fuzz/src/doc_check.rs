//! Checks on the code the schema compiler writes: it parses with `syn`, and no doc
//! attribute holds a Markdown code block rustdoc would compile as a doctest.
//!
//! rustdoc joins the `#[doc = "..."]` attributes of one item (`///` lines are such
//! attributes), removes the indentation common to their non-blank lines (its
//! `unindent_doc_fragments`), reads the text as Markdown (pulldown-cmark) and compiles every
//! code block that is Rust: an indented block, or a fenced one (``` or ~~~) whose info
//! string is empty or names Rust (`rust`, `no_run`, `should_panic`, `compile_fail`,
//! `edition2021`...) and no other language (`text`, `json`, `sh`...). A block marked
//! `ignore` is not compiled. Doc attributes whose value is not a string literal
//! (`#[doc = include_str!(..)]`, `#[doc = concat!(..)]`) are reported too: the compiler
//! never needs them.

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag};
use syn::visit::{self, Visit};
use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// One doc problem: where (the item's kind and name), what, and the Markdown read.
#[derive(Debug, Clone)]
pub struct DocProblem {
    pub owner: String,
    pub problem: String,
    pub markdown: String,
}

/// The doc problems of a parsed file.
pub fn doc_problems(file: &syn::File) -> Vec<DocProblem> {
    let mut docs = Docs::default();
    docs.visit_file(file);
    docs.problems
}

#[derive(Default)]
struct Docs {
    problems: Vec<DocProblem>,
}

impl Docs {
    fn group(&mut self, owner: String, attrs: &[Attribute]) {
        let mut fragments = Vec::new();
        for attr in attrs {
            if !attr.path().is_ident("doc") {
                continue;
            }
            // `#[doc(hidden)]`, `#[doc(alias = ..)]`: no text.
            if let Meta::NameValue(pair) = &attr.meta {
                match &pair.value {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(text),
                        ..
                    }) => fragments.push(text.value()),
                    other => self.problems.push(DocProblem {
                        owner: owner.clone(),
                        problem: format!(
                            "a doc attribute whose value is not a string literal: {}",
                            quote::ToTokens::to_token_stream(other)
                        ),
                        markdown: String::new(),
                    }),
                }
            }
        }
        if fragments.is_empty() {
            return;
        }
        let markdown = unindent_and_join(&fragments);
        for problem in doctest_blocks(&markdown) {
            self.problems.push(DocProblem {
                owner: owner.clone(),
                problem,
                markdown: markdown.clone(),
            });
        }
    }
}

/// rustdoc's `unindent_doc_fragments` + `add_doc_fragment` for fragments of one kind.
pub fn unindent_and_join(fragments: &[String]) -> String {
    let indent = fragments
        .iter()
        .flat_map(|fragment| fragment.lines())
        .filter(|line| line.chars().any(|c| !c.is_whitespace()))
        .map(|line| line.chars().take_while(|c| *c == ' ' || *c == '\t').count())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for fragment in fragments {
        if fragment.is_empty() {
            out.push('\n');
            continue;
        }
        for line in fragment.lines() {
            if line.chars().any(|c| !c.is_whitespace()) {
                out.push_str(&line[indent..]);
            } else {
                out.push_str(line);
            }
            out.push('\n');
        }
    }
    out
}

/// Whether rustdoc compiles a fenced block with this info string (its `LangString`).
pub fn info_is_doctest(info: &str) -> bool {
    let mut rust = true;
    let mut seen_rust_tags = false;
    let mut seen_other_tags = false;
    let mut ignore = false;
    let tokens = info
        .split([',', ' ', '\t'])
        .map(|t| t.trim_matches(|c| c == '{' || c == '}' || c == '.'))
        .filter(|t| !t.is_empty());
    for token in tokens {
        match token {
            "should_panic" | "no_run" | "test_harness" | "compile_fail" | "standalone_crate" => {
                seen_rust_tags = !seen_other_tags || seen_rust_tags;
            }
            "ignore" => {
                ignore = true;
                seen_rust_tags = !seen_other_tags;
            }
            "rust" => seen_rust_tags = true,
            token if token.starts_with("ignore-") => seen_rust_tags = !seen_other_tags,
            token if token.starts_with("edition") => seen_rust_tags = !seen_other_tags,
            token
                if token.len() == 5
                    && token.starts_with('E')
                    && token[1..].chars().all(|c| c.is_ascii_digit()) =>
            {
                seen_rust_tags = !seen_other_tags || seen_rust_tags;
            }
            _ => seen_other_tags = true,
        }
    }
    rust &= !seen_other_tags || seen_rust_tags;
    rust && !ignore
}

/// The code blocks of `markdown` rustdoc would compile, described.
pub fn doctest_blocks(markdown: &str) -> Vec<String> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_SMART_PUNCTUATION;
    let mut found = Vec::new();
    for event in Parser::new_ext(markdown, options) {
        if let Event::Start(Tag::CodeBlock(kind)) = event {
            match kind {
                CodeBlockKind::Indented => found.push("an indented code block".to_owned()),
                CodeBlockKind::Fenced(info) if info_is_doctest(&info) => {
                    found.push(format!("a fenced code block with info string {:?}", &*info))
                }
                CodeBlockKind::Fenced(_) => {}
            }
        }
    }
    found
}

fn item_owner(item: &syn::Item) -> Option<(String, &[Attribute])> {
    use syn::Item;
    let (kind, name, attrs): (&str, String, &[Attribute]) = match item {
        Item::Const(i) => ("const", i.ident.to_string(), &i.attrs),
        Item::Enum(i) => ("enum", i.ident.to_string(), &i.attrs),
        Item::ExternCrate(i) => ("extern crate", i.ident.to_string(), &i.attrs),
        Item::Fn(i) => ("fn", i.sig.ident.to_string(), &i.attrs),
        Item::ForeignMod(i) => ("extern block", String::new(), &i.attrs),
        Item::Impl(i) => (
            "impl",
            quote::ToTokens::to_token_stream(&i.self_ty).to_string(),
            &i.attrs,
        ),
        Item::Macro(i) => ("macro", String::new(), &i.attrs),
        Item::Mod(i) => ("mod", i.ident.to_string(), &i.attrs),
        Item::Static(i) => ("static", i.ident.to_string(), &i.attrs),
        Item::Struct(i) => ("struct", i.ident.to_string(), &i.attrs),
        Item::Trait(i) => ("trait", i.ident.to_string(), &i.attrs),
        Item::TraitAlias(i) => ("trait alias", i.ident.to_string(), &i.attrs),
        Item::Type(i) => ("type", i.ident.to_string(), &i.attrs),
        Item::Union(i) => ("union", i.ident.to_string(), &i.attrs),
        Item::Use(i) => ("use", String::new(), &i.attrs),
        _ => return None,
    };
    Some((format!("{kind} {name}"), attrs))
}

impl<'ast> Visit<'ast> for Docs {
    fn visit_file(&mut self, file: &'ast syn::File) {
        self.group("the file (inner)".to_owned(), &file.attrs);
        visit::visit_file(self, file);
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        if let Some((owner, attrs)) = item_owner(item) {
            self.group(owner, attrs);
        }
        visit::visit_item(self, item);
    }

    fn visit_field(&mut self, field: &'ast syn::Field) {
        let name = field
            .ident
            .as_ref()
            .map_or_else(|| "(tuple field)".to_owned(), ToString::to_string);
        self.group(format!("field {name}"), &field.attrs);
        visit::visit_field(self, field);
    }

    fn visit_variant(&mut self, variant: &'ast syn::Variant) {
        self.group(format!("variant {}", variant.ident), &variant.attrs);
        visit::visit_variant(self, variant);
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let (name, attrs): (String, &[Attribute]) = match item {
            syn::ImplItem::Const(i) => (i.ident.to_string(), &i.attrs),
            syn::ImplItem::Fn(i) => (i.sig.ident.to_string(), &i.attrs),
            syn::ImplItem::Type(i) => (i.ident.to_string(), &i.attrs),
            syn::ImplItem::Macro(i) => (String::new(), &i.attrs),
            _ => (String::new(), &[]),
        };
        self.group(format!("impl item {name}"), attrs);
        visit::visit_impl_item(self, item);
    }

    fn visit_trait_item(&mut self, item: &'ast syn::TraitItem) {
        let (name, attrs): (String, &[Attribute]) = match item {
            syn::TraitItem::Const(i) => (i.ident.to_string(), &i.attrs),
            syn::TraitItem::Fn(i) => (i.sig.ident.to_string(), &i.attrs),
            syn::TraitItem::Type(i) => (i.ident.to_string(), &i.attrs),
            syn::TraitItem::Macro(i) => (String::new(), &i.attrs),
            _ => (String::new(), &[]),
        };
        self.group(format!("trait item {name}"), attrs);
        visit::visit_trait_item(self, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(code: &str) -> Vec<String> {
        let file = syn::parse_file(code).expect("parses");
        doc_problems(&file).into_iter().map(|p| p.problem).collect()
    }

    #[test]
    fn finds_the_blocks_rustdoc_runs() {
        assert_eq!(
            problems("/// ```\n/// fn x() {}\n/// ```\nstruct A;").len(),
            1
        );
        assert_eq!(problems("/// ```rust\n/// x\n/// ```\nstruct A;").len(), 1);
        assert_eq!(
            problems("/// ```no_run\n/// x\n/// ```\nstruct A;").len(),
            1
        );
        assert_eq!(
            problems("/// text\n///\n///     indented();\nstruct A;").len(),
            1
        );
        assert_eq!(
            problems("struct A { /// ~~~\n/// x\n/// ~~~\n a: u8 }").len(),
            1
        );
        assert_eq!(problems("enum E { /// ```\n/// x\n/// ```\n V }").len(), 1);
    }

    #[test]
    fn leaves_the_blocks_rustdoc_does_not_run() {
        assert!(problems("/// ```text\n/// x\n/// ```\nstruct A;").is_empty());
        assert!(problems("/// ```ignore\n/// x\n/// ```\nstruct A;").is_empty());
        assert!(problems("/// ```json\n/// {}\n/// ```\nstruct A;").is_empty());
        assert!(problems("/// \\`\\`\\`\n/// x\nstruct A;").is_empty());
        // Four spaces under a paragraph continue it: no block.
        assert!(problems("/// text\n///     not code\nstruct A;").is_empty());
        // All lines indented alike: rustdoc removes the common indentation.
        assert!(problems("///     a\n///     b\nstruct A;").is_empty());
    }
}

/// The errors `#[derive(Tool)]` gives on the generated items (what rustc would report when
/// compiling them): each struct and enum deriving `Tool` goes through
/// `toolgate_codegen::derive_tool`, and every `compile_error!` it writes is an error.
/// Errors that need the whole crate (a type that does not implement a trait) are not seen.
pub fn derive_errors(file: &syn::File) -> Vec<(String, String)> {
    use quote::ToTokens;
    let mut errors = Vec::new();
    for item in &file.items {
        let (name, attrs, tokens) = match item {
            syn::Item::Struct(s) => {
                let mut s = s.clone();
                let derives = take_derives(&mut s.attrs);
                (s.ident.to_string(), derives, s.into_token_stream())
            }
            syn::Item::Enum(e) => {
                let mut e = e.clone();
                let derives = take_derives(&mut e.attrs);
                (e.ident.to_string(), derives, e.into_token_stream())
            }
            _ => continue,
        };
        if !attrs.iter().any(|d| d.ends_with("Tool")) {
            continue;
        }
        let expanded = toolgate_codegen::derive_tool(tokens);
        let mut found = CompileErrors::default();
        match syn::parse2::<syn::File>(expanded.clone()) {
            Ok(file) => found.visit_file(&file),
            Err(error) => found
                .messages
                .push(format!("the derive's output does not parse: {error}")),
        }
        for message in found.messages {
            errors.push((name.clone(), message));
        }
    }
    errors
}

/// Removes the `#[derive(...)]` attributes (a derive macro does not see its own), giving the
/// paths they list.
fn take_derives(attrs: &mut Vec<Attribute>) -> Vec<String> {
    let mut paths = Vec::new();
    attrs.retain(|attr| {
        if !attr.path().is_ident("derive") {
            return true;
        }
        if let Ok(list) = attr.parse_args_with(
            syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
        ) {
            for path in list {
                paths.push(
                    path.segments
                        .iter()
                        .map(|s| s.ident.to_string())
                        .collect::<Vec<_>>()
                        .join("::"),
                );
            }
        }
        false
    });
    paths
}

#[derive(Default)]
struct CompileErrors {
    messages: Vec<String>,
}

impl<'ast> Visit<'ast> for CompileErrors {
    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if mac
            .path
            .segments
            .last()
            .is_some_and(|s| s.ident == "compile_error")
        {
            let message = mac
                .parse_body::<syn::LitStr>()
                .map_or_else(|_| mac.tokens.to_string(), |text| text.value());
            self.messages.push(message);
        }
        visit::visit_macro(self, mac);
    }
}

//! Values held as JSON: where serde cannot read a shape as a Rust type (a union of two object
//! shapes without a tag, alternatives of one JSON type, a non-exact `allOf`, an object-valued
//! `const` or `enum`, a map inside a tagged variant, a self-containing definition that is not
//! an object...), the field is a `serde_json::Value` with `#[tool(schema = "...")]`: the
//! field's own schema, written back as JSON Schema text with the definitions it reaches. The
//! derive reads the text into the tool model, so decoding repairs and checks the value as the
//! run-time road does, and `validate()` checks it with the run-time value checker: every
//! constraint holds, none is dropped. The doc comment says why the field is JSON.
//!
//! A root that is not an object with properties (a union of object shapes, Cloudflare's
//! one-shape-per-way-to-call tools) is a tool struct around one JSON value:
//! `pub struct PurgeCache(pub serde_json::Value);` with `#[tool(name, schema)]`.
//!
//! Lowering is tried first; the JSON value is what a failed try becomes (the types the try
//! wrote are taken back). Names the try claimed stay claimed, so later names may carry a
//! number: harmless, and deterministic.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use toolgate_core::model::{Additional, Kind, Schema, ToolModel};

use super::{doc_attr, doc_reproduces, LowerError, Lowering, Scope};

/// What a try undoes when it fails.
pub(super) struct Attempt {
    items: usize,
    errors: usize,
    named: BTreeMap<String, String>,
    loop_objects: BTreeMap<String, String>,
}

impl Lowering<'_> {
    /// Starts a try: what [`Lowering::failed`] takes back.
    pub(super) fn attempt(&self, scope: &Scope<'_>) -> Attempt {
        Attempt {
            items: self.items.len(),
            errors: scope.errors.len(),
            named: scope.named.clone(),
            loop_objects: scope.loop_objects.clone(),
        }
    }

    /// `None` when the try wrote no error; else its first error, with every item, error and
    /// named type of the try taken back.
    /// Under `typed_only`, a try never fails: its errors stay.
    pub(super) fn failed(&mut self, scope: &mut Scope<'_>, attempt: Attempt) -> Option<LowerError> {
        if scope.errors.len() == attempt.errors || self.style.typed_only {
            return None;
        }
        let first = scope.errors[attempt.errors].clone();
        scope.errors.truncate(attempt.errors);
        self.items.truncate(attempt.items);
        scope.named = attempt.named;
        scope.loop_objects = attempt.loop_objects;
        Some(first)
    }

    /// A tool whose arguments are held as JSON (see the module's doc).
    pub(super) fn checked_tool(&mut self, model: &ToolModel, name: &str, why: &LowerError) {
        let ident = format_ident!("{}", name);
        let kept = keeping_model(model, self.style.keep_undeclared_keys);
        let text = raw_literal(&kept.schema_text(kept.input()));
        let tool = model.name();
        let description = model.description();
        let doc = description.map(doc_attr);
        let exact = description
            .filter(|text| !doc_reproduces(text))
            .map(|text| quote!(, description = #text));
        let note = doc_attr(json_note(why).trim_start());
        let derives = self.derives(quote!());
        self.items.push(quote! {
            #doc
            #derives
            #[tool(name = #tool, schema = #text #exact)]
            pub struct #ident(
                #note
                pub ::toolgate::serde_json::Value,
            );
        });
    }
}

/// The model whose objects keep undeclared keys where a Rust type would keep them: an
/// object without properties everywhere (a Rust map), any object under `keep` (the
/// flattened map of `keep_undeclared_keys`). The schema text then says
/// `"additionalProperties": {}` where the schema said nothing: the same values pass, and
/// the decoder keeps those keys in the JSON value as the Rust type would. Built once per
/// tool.
pub(super) fn keeping_model(model: &ToolModel, keep: bool) -> ToolModel {
    let definitions = model
        .definitions()
        .iter()
        .map(|(name, schema)| (name.clone(), keeping(schema, keep)))
        .collect();
    ToolModel::new(
        model.name(),
        model.description().map(str::to_owned),
        keeping(model.input(), keep),
        definitions,
    )
}

/// `schema` with [`keeping_model`]'s objects.
pub(super) fn keeping(schema: &Schema, keep: bool) -> Schema {
    let mut schema = schema.clone();
    let mut pending = vec![&mut schema];
    while let Some(next) = pending.pop() {
        if let Kind::Object(object) = &mut next.kind {
            if matches!(object.additional, Additional::Allow) && (keep || object.fields.is_empty())
            {
                object.additional = Additional::Schema(Box::new(Schema::any()));
            }
        }
        pending.extend(next.kind.children_mut());
    }
    schema
}

/// How an optional field held as JSON is typed.
#[derive(Clone, Copy)]
pub(super) enum OptionalJson {
    /// `Option<Value>`: the schema refuses `null`, so `None` is only ever absent.
    Option,
    /// `Nullable<Value>`: the schema takes `null`, kept apart from absent.
    Nullable,
}

/// The field's type and `#[tool(...)]` key when its value is held as JSON (`optional`:
/// `None` for a required field); `model` is the [`keeping_model`].
pub(super) fn checked_field(
    model: &ToolModel,
    schema: &Schema,
    optional: Option<OptionalJson>,
    keep: bool,
) -> (TokenStream, TokenStream) {
    let text = model.schema_text(&keeping(schema, keep));
    let ty = match optional {
        None => quote!(::toolgate::serde_json::Value),
        Some(OptionalJson::Option) => {
            quote!(::std::option::Option<::toolgate::serde_json::Value>)
        }
        Some(OptionalJson::Nullable) => quote!(::toolgate::Nullable<::toolgate::serde_json::Value>),
    };
    let text = raw_literal(&text);
    (ty, quote!(schema = #text))
}

/// `text` as a raw string literal (`r#"..."#`, with more `#` than any run in the text), so
/// JSON reads as JSON in the generated code. It is a literal whatever the text: serde_json
/// writes control characters escaped, and the closing quote needs more `#`s than the text
/// holds in a row.
pub(super) fn raw_literal(text: &str) -> TokenStream {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '#' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let hashes = "#".repeat(longest + 1);
    let literal: syn::LitStr = syn::parse_str(&format!("r{hashes}\"{text}\"{hashes}"))
        .expect("a raw string holds any text without a quote followed by as many `#`s");
    debug_assert_eq!(literal.value(), text);
    quote!(#literal)
}

/// The doc note of a value held as JSON, saying why.
pub(super) fn json_note(why: &LowerError) -> String {
    let (pointer, reason) = why;
    let at = if pointer.is_empty() {
        String::new()
    } else {
        format!(" (at `{pointer}`)")
    };
    format!(
        "\nHeld as JSON: the schema compiler does not write this schema as a Rust type{at}: {reason}. Decoding and `validate()` check the value against the schema in `#[tool(schema)]`, every constraint included, as the run-time road does."
    )
}

//! `oneOf`/`anyOf` → Rust enums the derive turns back into the same unions.
//!
//! - Tagged: every alternative is an object (directly or through `$ref`) with a required
//!   string field whose `const` differs across them (`"kind": {"const": "circle"}`): an enum
//!   with `#[serde(tag = "kind")]`, one struct variant per alternative (a unit variant when
//!   the tag is its only field), named after the tag's value.
//! - Untagged: alternatives told apart by their JSON type alone (a string, an integer, an
//!   object...): an enum with `#[serde(untagged)]`, one `Name(Type)` variant per alternative,
//!   named after its type, constraints on the value. `integer` before `number` is allowed in
//!   an `anyOf` (serde tries the integer first; both schemas hold for a whole number).
//! - Anything else is an error: alternatives of the same type would be read by serde as the
//!   first that parses, which may not be the one the schema's constraints accept.

use heck::ToUpperCamelCase;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;
use toolgate_core::model::{Additional, Kind, Schema, UnionMode, UnionSchema};

use super::{doc_attr, doc_reproduces, variant_name, Lowered, Lowering, Scope, Taken};

impl Lowering<'_> {
    pub(super) fn union(
        &mut self,
        scope: &mut Scope<'_>,
        schema: &Schema,
        union: &UnionSchema,
        hint: &str,
        pointer: &str,
    ) -> Lowered {
        let model = scope.model;
        let mut resolved = Vec::new();
        for (index, variant) in union.variants.iter().enumerate() {
            match model.resolve(variant) {
                Some(found) => resolved.push(found),
                None => {
                    scope.errors.push((
                        format!("{pointer}/{index}"),
                        "a reference that leads nowhere".to_owned(),
                    ));
                    return Lowered::any();
                }
            }
        }
        let name = self.types.claim(hint, "");
        match union.tag(model) {
            Some(tag) => self.tagged(scope, schema, &name, &resolved, tag, pointer),
            None => self.untagged(scope, schema, union, &name, &resolved, pointer),
        }
    }

    fn tagged(
        &mut self,
        scope: &mut Scope<'_>,
        schema: &Schema,
        name: &str,
        resolved: &[&Schema],
        tag: &str,
        pointer: &str,
    ) -> Lowered {
        let slot = self.items.len();
        self.items.push(TokenStream::new());
        let mut taken = Taken::default();
        let mut variants = Vec::new();
        let mut policies = Vec::new();
        for (index, variant) in resolved.iter().enumerate() {
            let at = format!("{pointer}/{index}");
            let Kind::Object(object) = &variant.kind else {
                unreachable!("a tagged union's alternatives are objects")
            };
            let Some(Value::String(value)) = object
                .field(tag)
                .and_then(|field| field.schema.constant.as_ref())
            else {
                unreachable!("the tag is a const string in every alternative")
            };
            let tag_schema = &object.field(tag).expect("found above").schema;
            if tag_schema.description.is_some()
                || tag_schema.default.is_some()
                || !tag_schema.examples.is_empty()
                || !matches!(tag_schema.kind, Kind::String(_) | Kind::Any)
            {
                scope.errors.push((
                    format!("{at}/properties/{tag}"),
                    "a union's tag field is written as `{\"const\": \"...\"}` (a description, default or other constraint on it is not supported by the schema compiler yet)".to_owned(),
                ));
            }
            policies.push(object.additional.clone());
            let variant_ident = format_ident!("{}", taken.claim(&variant_name(value), ""));
            let owner = format!("{name}{variant_ident}");
            let fields = self.fields(scope, &owner, object, &at, Some(tag));
            let doc = variant_doc(scope, variant.description.as_deref(), &at);
            variants.push(if fields.is_empty() {
                quote!(#doc #[serde(rename = #value)] #variant_ident)
            } else {
                quote!(#doc #[serde(rename = #value)] #variant_ident { #(#fields,)* })
            });
        }
        let deny = match policies.first() {
            Some(Additional::Deny) => true,
            Some(Additional::Allow) | None => false,
            Some(Additional::Schema(_)) => {
                scope.errors.push((pointer.to_owned(), "`additionalProperties` with a schema in an alternative of a tagged union is not supported: serde cannot flatten a map into an enum variant".to_owned()));
                false
            }
        };
        if policies.iter().any(|p| *p != policies[0]) {
            scope.errors.push((
                pointer.to_owned(),
                "the alternatives of a tagged union must agree on `additionalProperties` (the derive writes one policy for the enum)".to_owned(),
            ));
        }
        let deny = deny.then(|| quote!(, deny_unknown_fields));
        self.union_enum(
            slot,
            name,
            schema,
            quote!(tag = #tag #deny),
            true,
            &variants,
        )
    }

    fn untagged(
        &mut self,
        scope: &mut Scope<'_>,
        schema: &Schema,
        union: &UnionSchema,
        name: &str,
        resolved: &[&Schema],
        pointer: &str,
    ) -> Lowered {
        let classes: Vec<Option<&'static str>> = resolved.iter().copied().map(json_type).collect();
        let mut seen: Vec<&str> = Vec::new();
        let mut clear = true;
        for class in &classes {
            let Some(class) = class else {
                clear = false;
                continue;
            };
            // `integer` after `number` would never be read (serde takes the number first);
            // in a `oneOf` a whole number matches both, so the pair is refused there.
            let numbers_clash = match *class {
                "integer" => seen.contains(&"number"),
                "number" => union.mode == UnionMode::OneOf && seen.contains(&"integer"),
                _ => false,
            };
            if seen.contains(class) || numbers_clash {
                clear = false;
            } else {
                seen.push(class);
            }
        }
        if !clear {
            scope.errors.push((
                pointer.to_owned(),
                "the schema compiler writes a union without a tag field only when its alternatives differ in JSON type (a string, an integer, an object...); these do not, so serde could read a value as an alternative whose constraints refuse it".to_owned(),
            ));
            return Lowered::any();
        }
        let slot = self.items.len();
        self.items.push(TokenStream::new());
        let mut variants = Vec::new();
        for (index, (variant, class)) in union.variants.iter().zip(&classes).enumerate() {
            let at = format!("{pointer}/{index}");
            let class = class.expect("checked above");
            let variant_ident = format_ident!("{}", class.to_upper_camel_case());
            let lowered = self.lower(scope, variant, &format!("{name}{variant_ident}"), &at, true);
            let ty = lowered.ty;
            let constraints = lowered.constraints;
            let tool = (!constraints.is_empty()).then(|| quote!(#[tool(#(#constraints),*)]));
            let doc = match &variant.kind {
                // A referenced type carries its own description.
                Kind::Ref(_) => None,
                _ => variant_doc(scope, variant.description.as_deref(), &at),
            };
            variants.push(quote!(#doc #variant_ident(#tool #ty)));
        }
        self.union_enum(slot, name, schema, quote!(untagged), false, &variants)
    }
}

impl Lowering<'_> {
    /// Writes the enum of a union into its reserved `slot`, with the union's description and
    /// the `#[serde(...)]` that says how its variants are told apart.
    fn union_enum(
        &mut self,
        slot: usize,
        name: &str,
        schema: &Schema,
        serde: TokenStream,
        tagged: bool,
        variants: &[TokenStream],
    ) -> Lowered {
        let ident = format_ident!("{}", name);
        let (doc, described) = descriptions(schema);
        let derives = self.derives(quote!());
        // The derive writes a tagged union `oneOf`; one the source wrote `anyOf` says so.
        let any_of = matches!(&schema.kind, Kind::Union(union) if union.mode == UnionMode::AnyOf);
        let any_of = (tagged && any_of).then(|| quote!(#[tool(any_of)]));
        self.items[slot] = quote! {
            #doc
            #derives
            #described
            #any_of
            #[serde(#serde)]
            pub enum #ident {
                #(#variants,)*
            }
        };
        Lowered::plain(super::type_path(name))
    }
}

/// The doc comment of a variant's description. The derive reads a variant's description
/// from its doc comment only, so a description the doc comment cannot carry exactly (several
/// lines, Markdown escapes, a code fence...) is an error at `pointer`, not a silent change.
fn variant_doc(
    scope: &mut Scope<'_>,
    description: Option<&str>,
    pointer: &str,
) -> Option<TokenStream> {
    let text = description?;
    if !doc_reproduces(text) {
        scope.errors.push((
            pointer.to_owned(),
            "this description cannot be written exactly as a variant's doc comment, and the derive reads a variant's description from its doc comment only (a doc comment gives back one line of text, without Markdown escapes or code fences)".to_owned(),
        ));
    }
    Some(doc_attr(text))
}

/// The doc comment of a union's description, and `#[tool(description)]` when the doc
/// comment cannot carry it exactly.
fn descriptions(schema: &Schema) -> (Option<TokenStream>, Option<TokenStream>) {
    let doc = schema.description.as_deref().map(doc_attr);
    let described = schema
        .description
        .as_deref()
        .filter(|text| !doc_reproduces(text))
        .map(|text| quote!(#[tool(description = #text)]));
    (doc, described)
}

/// The JSON type an alternative's values have, when it is one.
fn json_type(schema: &Schema) -> Option<&'static str> {
    if schema.nullable {
        return None;
    }
    match &schema.kind {
        Kind::Enum(values) if values.values.iter().all(|v| v.value.is_string()) => Some("string"),
        Kind::Map(_) => Some("object"),
        Kind::Boolean
        | Kind::Integer(_)
        | Kind::Number(_)
        | Kind::String(_)
        | Kind::Array(_)
        | Kind::Object(_) => schema.kind.type_name(),
        _ => None,
    }
}

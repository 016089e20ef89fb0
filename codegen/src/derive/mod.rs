//! `#[derive(Tool)]` in three stages, each in its own modules, the arrows one way:
//!
//! 1. **Parse** (`attrs`, `serde_attrs`, `shape`): the `#[tool(...)]` and `#[serde(...)]`
//!    attributes read (darling for toolgate's, syn for serde's) and each field's type
//!    classified.
//! 2. **Check** (`check`, then `fields` and a module per kind of body: `data_enum`,
//!    `tuple`, `checked`, `flatten`; the constraint rules in `constraints` and `literals`):
//!    every attribute checked against the type it is on, every error collected with its
//!    span, into a [`plan::Plan`] (`plan`: data only).
//! 3. **Emit** (`emit/`): the plan turned into the `ToolArg` and `Tool` impls, small code
//!    calling `toolgate`'s runtime.
//!
//! Each field and variant is read on its own, so an error in one (an unknown key, say)
//! never hides the errors of the others.

mod attrs;
mod check;
mod checked;
mod constraints;
mod data_enum;
mod emit;
mod fields;
mod flatten;
mod literals;
mod plan;
mod serde_attrs;
mod shape;
mod tuple;

use proc_macro2::TokenStream;
use syn::DeriveInput;

pub(crate) use attrs::doc_description;
pub(crate) use check::{valid_tool_name, TOOL_NAME_RULE};
pub(crate) use shape::reads_by_name;

/// Expands `#[derive(Tool)]` on `input`; errors become `compile_error!`s at their spans.
pub fn derive_tool(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    match check::plan(&input) {
        Ok(plan) => emit::emit(&plan),
        Err(errors) => {
            let mut tokens = errors.write_errors();
            tokens.extend(stand_in_impls(&input));
            tokens
        }
    }
}

/// The impls a failed derive stands in with, so that the type's uses (`T::decode`,
/// `T::model()`, a field of type `T` in another tool) raise no second error: a misused
/// attribute is one compile error, at its tokens, not also ``no function or associated item
/// named `decode` found``. Their bodies never run: the crate does not compile.
fn stand_in_impls(input: &DeriveInput) -> TokenStream {
    let ident = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let arg = quote::quote! {
        #[automatically_derived]
        impl #impl_generics ::toolgate::ToolArg for #ident #type_generics #where_clause {
            fn describe(_: &mut ::toolgate::model::Definitions) -> ::toolgate::model::Schema {
                ::core::unreachable!()
            }
            fn check<'__m>(&self, _: &'__m ::toolgate::model::Schema, _: &mut ::toolgate::check::Checker<'__m>) {
                ::core::unreachable!()
            }
            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                ::core::unreachable!()
            }
        }
    };
    match &input.data {
        // A struct's derive writes `Tool` too (an enum's is a value inside arguments).
        syn::Data::Struct(_) => quote::quote! {
            #arg
            #[automatically_derived]
            impl #impl_generics ::toolgate::Tool for #ident #type_generics #where_clause {
                fn model() -> &'static ::toolgate::model::ToolModel {
                    ::core::unreachable!()
                }
            }
        },
        _ => arg,
    }
}

/// What the derive's front end (parse and check, no emit) makes of one generated struct's
/// fields, for the schema compiler's tests: wire name, description, and the schema
/// of the field's own type with its `#[tool(...)]` constraints (`None` for a field held as
/// JSON, whose schema is its text); every error as text.
#[cfg(test)]
pub(crate) fn front_end_fields(item: &syn::ItemStruct) -> Result<Vec<FrontEndField>, String> {
    let input: DeriveInput =
        syn::parse2(quote::ToTokens::to_token_stream(item)).map_err(|error| error.to_string())?;
    let plan = check::plan(&input).map_err(|error| error.to_string())?;
    let plan::Body::Struct { fields, .. } = plan.body else {
        return Ok(Vec::new());
    };
    Ok(fields
        .into_iter()
        .map(|field| FrontEndField {
            schema: match &field.schema_text {
                Some(_) => None,
                None => shape::classify(&field.described).ok().map(|shape| {
                    constraints::apply(constraints::base_schema(shape.value()), &field.setters)
                }),
            },
            wire_name: field.wire_name,
            description: field.description,
            annotations: field.annotations,
            schema_text: field.schema_text,
        })
        .collect())
}

/// One field as [`front_end_fields`] reads it.
#[cfg(test)]
pub(crate) struct FrontEndField {
    pub wire_name: String,
    pub description: Option<String>,
    /// The field's `annotations = "..."` text.
    pub annotations: Option<String>,
    pub schema: Option<toolgate_core::model::Schema>,
    /// The text of `#[tool(schema = "...")]`, which holds the description then.
    pub schema_text: Option<String>,
}

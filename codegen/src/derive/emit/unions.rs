//! `impl ToolArg` for an enum with `#[serde(tag)]` or `#[serde(untagged)]`: a union (see
//! `data_enum.rs` for the forms allowed).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use super::fields::{field_schema, writer_method};
use crate::derive::constraints;
use crate::derive::plan::{DataVariant, FieldPlan, Tagging, VariantData};

/// `impl ToolArg` of a union enum.
pub(super) fn emit(
    ident: &Ident,
    type_name: &str,
    description: &TokenStream,
    tagging: &Tagging,
    variants: &[DataVariant],
    deny_unknown_fields: bool,
    any_of: bool,
) -> TokenStream {
    let mode = match tagging {
        Tagging::Internal(_) if !any_of => quote!(OneOf),
        Tagging::Internal(_) | Tagging::Untagged => quote!(AnyOf),
    };
    let deny = deny_unknown_fields.then(|| quote!(.deny_unknown_fields()));
    let schemas = variants.iter().map(|variant| {
        let described = variant
            .description
            .as_ref()
            .map(|text| quote!(.with_description(#text)));
        match (&variant.data, tagging) {
            (VariantData::One(ty, setters), _) => {
                let constraints = constraints::tokens(setters);
                quote_spanned!(ty.span()=> <#ty as ::toolgate::ToolArg>::describe(definitions) #constraints #described)
            }
            (VariantData::Unit, Tagging::Internal(tag)) => {
                let tag_field = tag_field(tag, &variant.wire_name);
                quote!(::toolgate::model::Schema::object(::std::vec::Vec::from([#tag_field])) #deny #described)
            }
            (VariantData::Fields(fields), Tagging::Internal(tag)) => {
                let tag_field = tag_field(tag, &variant.wire_name);
                let fields = fields.iter().map(field_schema);
                quote!(::toolgate::model::Schema::object(::std::vec::Vec::from([#tag_field, #(#fields),*])) #deny #described)
            }
            (_, Tagging::Untagged) => unreachable!("untagged variants hold one value"),
        }
    });
    let checks = variants.iter().enumerate().map(|(index, variant)| {
        let name = &variant.ident;
        match &variant.data {
            VariantData::Unit => quote!(Self::#name => {}),
            VariantData::One(ty, _) => quote_spanned!(ty.span()=> Self::#name(value) => {
                if let ::core::option::Option::Some(variant) = checker.variant(schema, #index) {
                    ::toolgate::ToolArg::check(value, variant, checker);
                }
            }),
            VariantData::Fields(fields) => {
                let bound: Vec<Ident> = bindings(fields);
                let each = bound.iter().zip(fields).enumerate().map(|(position, (binding, field))| {
                    // The tag is field 0 of the variant's object.
                    let position = position + 1;
                    quote_spanned!(field.ty.span()=> checker.field(fields, #position, #binding);)
                });
                let idents = fields.iter().map(|f| &f.ident);
                quote!(Self::#name { #(#idents: #bound,)* .. } => {
                    if let ::core::option::Option::Some(variant) = checker.variant(schema, #index) {
                        let fields = checker.fields(variant);
                        #(#each)*
                    }
                })
            }
        }
    });
    let writes = variants.iter().map(|variant| {
        let name = &variant.ident;
        let wire_name = &variant.wire_name;
        match (&variant.data, tagging) {
            (VariantData::One(..), _) => {
                quote!(Self::#name(value) => ::toolgate::ToolArg::to_json_value(value),)
            }
            (VariantData::Unit, Tagging::Internal(tag)) => {
                quote!(Self::#name => ::toolgate::__private::ObjectWriter::new().tag(#tag, #wire_name).finish(),)
            }
            (VariantData::Fields(fields), Tagging::Internal(tag)) => {
                let bound = bindings(fields);
                let idents = fields.iter().map(|f| &f.ident);
                let members = fields.iter().zip(&bound).map(|(field, binding)| {
                    let wire = &field.wire_name;
                    let add = writer_method(field);
                    quote!(.#add(#wire, #binding))
                });
                quote!(Self::#name { #(#idents: #bound,)* .. } => ::toolgate::__private::ObjectWriter::new().tag(#tag, #wire_name) #(#members)* .finish(),)
            }
            (_, Tagging::Untagged) => unreachable!("untagged variants hold one value"),
        }
    });
    let checks: Vec<TokenStream> = checks.collect();
    let writes: Vec<TokenStream> = writes.collect();
    // An enum without variants has no values: `match *self {}` proves it to the compiler.
    let (check_body, write_body) = if variants.is_empty() {
        (quote!(match *self {}), quote!(match *self {}))
    } else {
        (
            quote!(match self { #(#checks)* }),
            quote!(match self { #(#writes)* }),
        )
    };
    quote! {
        #[automatically_derived]
        impl ::toolgate::ToolArg for #ident {
            fn describe(definitions: &mut ::toolgate::model::Definitions) -> ::toolgate::model::Schema {
                definitions.named::<Self>(#type_name, |definitions| {
                    ::toolgate::model::Schema::union(
                        ::toolgate::model::UnionMode::#mode,
                        ::std::vec::Vec::from([#(#schemas),*]),
                    ) #description
                })
            }

            fn check<'m>(&self, schema: &'m ::toolgate::model::Schema, checker: &mut ::toolgate::check::Checker<'m>) {
                #check_body
            }

            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                #write_body
            }
        }
    }
}

/// The tag field of one variant: required, its `const` the variant's wire name.
fn tag_field(tag: &str, wire_name: &str) -> TokenStream {
    quote!(::toolgate::model::Field::required(
        #tag,
        ::toolgate::model::Schema::string()
            .with_constant(::toolgate::serde_json::Value::from(#wire_name)),
    ))
}

/// Names to bind a variant's fields to in a pattern (`field_0`, ...), clear of the fields'
/// own names.
fn bindings(fields: &[FieldPlan]) -> Vec<Ident> {
    (0..fields.len())
        .map(|index| format_ident!("__toolgate_field_{}", index))
        .collect()
}

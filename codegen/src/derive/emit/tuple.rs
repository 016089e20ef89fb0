//! `impl ToolArg` for a tuple struct: a JSON array of exactly its elements.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::fields::{type_annotations, with_description};
use crate::derive::constraints;
use crate::derive::plan::{ElementPlan, Plan};

/// `impl ToolArg` for a tuple struct.
pub(super) fn emit(plan: &Plan, elements: &[ElementPlan]) -> TokenStream {
    let ident = &plan.ident;
    let type_name = &plan.type_name;
    let schemas = elements.iter().map(|element| {
        let ty = &element.ty;
        let mut schema =
            quote_spanned!(ty.span()=> <#ty as ::toolgate::ToolArg>::describe(definitions));
        schema.extend(constraints::tokens(&element.setters));
        schema.extend(with_description(&element.description));
        schema
    });
    let indexes: Vec<syn::Index> = (0..elements.len()).map(syn::Index::from).collect();
    let checked = elements.iter().zip(&indexes).map(|(element, index)| {
        quote_spanned!(element.ty.span()=> &self.#index as &dyn ::toolgate::ToolArg)
    });
    let description = type_annotations(plan);
    quote! {
        #[automatically_derived]
        impl ::toolgate::ToolArg for #ident {
            fn describe(definitions: &mut ::toolgate::model::Definitions) -> ::toolgate::model::Schema {
                definitions.named::<Self>(#type_name, |definitions| {
                    ::toolgate::model::Schema::tuple(::std::vec::Vec::from([#(#schemas),*]))
                        #description
                })
            }

            fn check<'m>(&self, schema: &'m ::toolgate::model::Schema, checker: &mut ::toolgate::check::Checker<'m>) {
                checker.check_tuple(&[#(#checked),*], schema);
            }

            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                ::toolgate::serde_json::Value::Array(::std::vec::Vec::from([
                    #(::toolgate::ToolArg::to_json_value(&self.#indexes)),*
                ]))
            }
        }
    }
}

//! `impl ToolArg` for an enum of unit variants: a string enum.

use proc_macro2::TokenStream;
use quote::quote;

use super::fields::type_annotations;
use crate::derive::plan::{Plan, VariantPlan};

/// `impl ToolArg` of a string enum.
pub(super) fn emit(plan: &Plan, variants: &[VariantPlan]) -> TokenStream {
    let ident = &plan.ident;
    let values = variants.iter().filter(|v| !v.skip).map(|variant| {
        let wire_name = &variant.wire_name;
        let aliases = &variant.aliases;
        quote!(::toolgate::model::EnumValue::new(#wire_name) #(.alias(#aliases))*)
    });
    let arms = variants.iter().map(|variant| {
        let variant_ident = &variant.ident;
        let wire_name = &variant.wire_name;
        quote!(Self::#variant_ident => #wire_name,)
    });
    // The reader maps the index of the value sent (among the values the schema lists, the
    // variants serde reads) to its variant.
    let read_arms = variants
        .iter()
        .filter(|v| !v.skip)
        .enumerate()
        .map(|(at, variant)| {
            let variant_ident = &variant.ident;
            quote!(#at => ::core::result::Result::Ok(Self::#variant_ident),)
        });
    let description = type_annotations(plan);
    let arms: Vec<TokenStream> = arms.collect();
    // An enum with no variants has no values: `match *self {}` proves it to the compiler.
    let (check, to_json) = if variants.is_empty() {
        (quote!(match *self {}), quote!(match *self {}))
    } else {
        let name = quote!(match self { #(#arms)* });
        (
            quote!(checker.check_variant(#name, schema);),
            quote!(::toolgate::serde_json::Value::from(#name)),
        )
    };
    quote! {
        #[automatically_derived]
        impl ::toolgate::ToolArg for #ident {
            fn describe(_: &mut ::toolgate::model::Definitions) -> ::toolgate::model::Schema {
                ::toolgate::model::Schema::enumeration(::std::vec::Vec::from([#(#values),*])) #description
            }

            fn check<'m>(&self, schema: &'m ::toolgate::model::Schema, checker: &mut ::toolgate::check::Checker<'m>) {
                #check
            }

            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                #to_json
            }

            fn read_arg(
                reader: &mut ::toolgate::__private::Reader<'_, '_>,
                node: ::toolgate::__private::NodeId,
            ) -> ::toolgate::__private::Read<Self> {
                match reader.variant(node)? {
                    #(#read_arms)*
                    _ => ::core::result::Result::Err(::toolgate::__private::Unread::Fallback),
                }
            }
        }
    }
}

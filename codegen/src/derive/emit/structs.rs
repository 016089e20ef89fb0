//! `impl ToolArg` and `impl Tool` for a struct of named fields: a tool's arguments.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::fields::{field_schema, tool_impl, type_annotations, writer_method};
use crate::derive::plan::{Body, FlattenPlan, Plan};
use crate::derive::serde_attrs::DefaultValue;

pub(super) fn emit(plan: &Plan) -> TokenStream {
    let Body::Struct {
        tool_name,
        fields,
        deny_unknown_fields,
        container_default,
        flatten,
    } = &plan.body
    else {
        unreachable!("emit_struct is called for structs")
    };
    let ident = &plan.ident;
    let type_name = &plan.type_name;
    let field_schemas = fields.iter().map(field_schema);
    let default_binding = match container_default {
        Some(DefaultValue::Trait) => {
            quote!(let container_default = <Self as ::core::default::Default>::default();)
        }
        Some(DefaultValue::Function(path)) => quote!(let container_default: Self = #path();),
        None => quote!(),
    };
    let deny = deny_unknown_fields.then(|| quote!(.deny_unknown_fields()));
    let additional = flatten.as_deref().map(schema_call);
    let check_additional = flatten.as_deref().map(check_call);
    let write_additional = flatten.as_deref().map(write_call);
    let description = type_annotations(plan);
    // Spanned at the field's type, so a type that is not a `ToolArg` is reported there.
    let checks = fields.iter().enumerate().map(|(index, field)| {
        let field_ident = &field.ident;
        quote_spanned!(field.ty.span()=> checker.field(fields, #index, &self.#field_ident);)
    });
    // Without fields the binding would be unused; the call still reports a schema that is
    // not an object.
    let fields_binding = if fields.is_empty() {
        quote!(let _ = checker.fields(schema);)
    } else {
        quote!(let fields = checker.fields(schema);)
    };
    let members = fields.iter().map(|field| {
        let field_ident = &field.ident;
        let wire_name = &field.wire_name;
        let add = writer_method(field);
        quote_spanned!(field.ty.span()=> .#add(#wire_name, &self.#field_ident))
    });
    let tool = tool_impl(ident, tool_name, plan);
    quote! {
        #[automatically_derived]
        impl ::toolgate::ToolArg for #ident {
            fn describe(definitions: &mut ::toolgate::model::Definitions) -> ::toolgate::model::Schema {
                definitions.named::<Self>(#type_name, |definitions| {
                    #default_binding
                    ::toolgate::model::Schema::object(::std::vec::Vec::from([#(#field_schemas),*]))
                        #deny
                        #additional
                        #description
                })
            }

            fn check<'m>(&self, schema: &'m ::toolgate::model::Schema, checker: &mut ::toolgate::check::Checker<'m>) {
                #fields_binding
                #(#checks)*
                #check_additional
            }

            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                ::toolgate::__private::ObjectWriter::new()
                    #write_additional
                    #(#members)*
                    .finish()
            }
        }

        #tool
    }
}

/// The call that records the map in the struct's schema.
fn schema_call(plan: &FlattenPlan) -> TokenStream {
    let value_type = &plan.value_type;
    let setters = crate::derive::constraints::tokens(&plan.value_setters);
    quote!(.additional(<#value_type as ::toolgate::ToolArg>::describe(definitions) #setters))
}

/// The statement that checks the map's members.
fn check_call(plan: &FlattenPlan) -> TokenStream {
    let ident = &plan.ident;
    quote!(checker.additional_entries(schema, self.#ident.iter());)
}

/// The call that writes the map's members (before the declared fields, which win).
fn write_call(plan: &FlattenPlan) -> TokenStream {
    let ident = &plan.ident;
    quote!(.entries(self.#ident.iter()))
}

//! `impl ToolArg` and `impl Tool` for a struct of named fields: a tool's arguments.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use super::fields::{field_schema, tool_impl, type_annotations, writer_method};
use crate::derive::plan::{Body, FieldPlan, FlattenPlan, Plan};
use crate::derive::serde_attrs::DefaultValue;

pub(super) fn emit(plan: &Plan) -> TokenStream {
    let Body::Struct {
        tool_name,
        fields,
        deny_unknown_fields,
        container_default,
        flatten,
        every_member_a_field,
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
    let reader = every_member_a_field.then(|| reader(fields));
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

            #reader
        }

        #tool
    }
}

/// `ToolArg::read_arg` of a struct whose members are all fields: the fields read by index as
/// the reader matches their keys, each by its type's own reader (a refused one is `None`, and
/// the reader refuses the object at its end); a field left out is `None` where it is an
/// optional `Option`, and the reader decides the others' absence at the object's end.
fn reader(fields: &[FieldPlan]) -> TokenStream {
    let slots: Vec<Ident> = (0..fields.len())
        .map(|at| format_ident!("field_{}", at))
        .collect();
    let arms = fields
        .iter()
        .zip(&slots)
        .enumerate()
        .map(|(at, (field, slot))| {
            let ty = &field.ty;
            // `<T as ToolArg>::` as `describe` writes it: a type that is not a `ToolArg` is one
            // error at its field, not one more here.
            quote_spanned!(field.ty.span()=> #at => #slot = reader.field_value(
            object.child(#at),
            <#ty as ::toolgate::ToolArg>::read_arg,
        )?,)
        });
    let members = fields.iter().zip(&slots).map(|(field, slot)| {
        let ident = &field.ident;
        let ty = &field.ty;
        let described = &field.described;
        let optional_option = !field.required
            && field.default.is_none()
            && !field.absent_apart
            && quote!(#ty).to_string() != quote!(#described).to_string();
        if optional_option {
            quote!(#ident: #slot.unwrap_or(::core::option::Option::None))
        } else {
            quote!(#ident: #slot.ok_or(::toolgate::__private::Unread::Fallback)?)
        }
    });
    quote! {
        fn read_arg(
            reader: &mut ::toolgate::__private::Reader<'_, '_>,
            node: ::toolgate::__private::NodeId,
        ) -> ::toolgate::__private::Read<Self> {
            let mut object = reader.object(node)?;
            #(let mut #slots = ::core::option::Option::None;)*
            while let ::core::option::Option::Some(at) = reader.field(&mut object)? {
                match at {
                    #(#arms)*
                    _ => return ::core::result::Result::Err(::toolgate::__private::Unread::Fallback),
                }
            }
            ::core::result::Result::Ok(Self { #(#members),* })
        }
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

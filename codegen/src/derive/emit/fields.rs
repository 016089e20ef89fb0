//! What every kind of item emits for its fields: a field's schema (with its constraints,
//! description, examples, wire names and default), the writer method of its JSON form, a
//! description call.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, Type};

use crate::derive::constraints;
use crate::derive::plan::{FieldDefault, FieldPlan};
use crate::derive::serde_attrs::DefaultValue;

pub(super) fn with_description(description: &Option<String>) -> TokenStream {
    match description.as_deref() {
        // `description = ""` is kept as written (`with_description` clears an empty one).
        Some("") => quote!(.with_empty_description()),
        Some(text) => quote!(.with_description(#text)),
        None => quote!(),
    }
}

/// The `ObjectWriter` method that writes `field`: a nullable `Option` field's `None` is
/// written as `null`, any other field's `None` (and `Nullable::Absent`) is left out.
pub(super) fn writer_method(field: &FieldPlan) -> TokenStream {
    if field.nullable && !field.absent_apart {
        quote!(nullable_field)
    } else {
        quote!(field)
    }
}

/// The calls that give a type's own schema its description and annotations.
pub(super) fn type_annotations(plan: &super::super::plan::Plan) -> TokenStream {
    let mut calls = with_description(&plan.description);
    if let Some(text) = &plan.annotations {
        calls.extend(quote!(.with_annotations(::toolgate::__private::annotations(#text))));
    }
    calls
}

/// A field's `Field` constructor call, with everything the plan says of it.
pub(super) fn field_schema(field: &FieldPlan) -> TokenStream {
    let described = &field.described;
    let wire_name = &field.wire_name;
    let mut schema = match &field.schema_text {
        Some(text) => schema_text(described, text),
        None => quote!(<#described as ::toolgate::ToolArg>::describe(definitions)),
    };
    schema.extend(constraints::tokens(&field.setters));
    if field.nullable {
        schema.extend(quote!(.nullable()));
    }
    schema.extend(with_description(&field.description));
    if let Some(text) = &field.annotations {
        schema.extend(quote!(.with_annotations(::toolgate::__private::annotations(#text))));
    }
    for example in &field.examples {
        let example = crate::derive::literals::json(example);
        schema.extend(quote!(.with_example(#example)));
    }
    let constructor = if field.required {
        quote!(required)
    } else {
        quote!(optional)
    };
    let mut built = quote!(::toolgate::model::Field::#constructor(#wire_name, #schema));
    if field.rust_name != field.wire_name {
        let rust_name = &field.rust_name;
        built.extend(quote!(.rust_name(#rust_name)));
    }
    for alias in &field.aliases {
        built.extend(quote!(.alias(#alias)));
    }
    // A nullable `Option` field's `None` default is `null`; elsewhere `None` (and
    // `Nullable::Absent`) means no default.
    let record = if field.nullable && !field.absent_apart {
        quote!(nullable_default_of)
    } else {
        quote!(default_of)
    };
    match &field.default {
        // `#[serde(default)]` on a nullable field only makes it optional: absent is `None`,
        // which the model says by the field being optional.
        Some(FieldDefault::Own(DefaultValue::Trait)) if field.nullable => {}
        Some(FieldDefault::Own(DefaultValue::Trait)) => {
            let ty = &field.ty;
            built.extend(quote!(.default_of(&<#ty as ::core::default::Default>::default())));
        }
        Some(FieldDefault::Own(DefaultValue::Function(path))) => {
            built.extend(quote!(.#record(&#path())))
        }
        Some(FieldDefault::Container) => {
            let ident = &field.ident;
            built.extend(quote!(.#record(&container_default.#ident)));
        }
        None => {}
    }
    built
}

/// The schema of a field given as text; a type that is not a JSON value is refused at the
/// field's type.
pub(super) fn schema_text(ty: &Type, text: &str) -> TokenStream {
    quote_spanned!(ty.span()=> ::toolgate::__private::schema_text::<#ty>(definitions, #text))
}

/// `impl Tool` of an item whose values are a tool's arguments: its model, built once.
pub(super) fn tool_impl(
    ident: &Ident,
    tool_name: &str,
    plan: &super::super::plan::Plan,
) -> TokenStream {
    let tool_description = match &plan.description {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    };
    let width_formats = plan.width_formats.then(|| quote!(.with_width_formats()));
    quote! {
        #[automatically_derived]
        impl ::toolgate::Tool for #ident {
            fn model() -> &'static ::toolgate::model::ToolModel {
                static MODEL: ::std::sync::OnceLock<::toolgate::model::ToolModel> = ::std::sync::OnceLock::new();
                MODEL.get_or_init(|| ::toolgate::model::ToolModel::of::<Self>(#tool_name, #tool_description)#width_formats)
            }
        }
    }
}

//! Tokens for a checked [`Plan`]: `impl ToolArg` (schema, checks, JSON form), `impl Tool` for
//! structs, and the schemars hook. Generated code is small: it calls runtime functions
//! through absolute `::toolgate::` paths, inside `const _: () = { ... };`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::constraints;
use super::serde_attrs::DefaultValue;
use super::{Body, FieldDefault, FieldPlan, Plan, VariantPlan};

pub(crate) fn emit(plan: &Plan) -> TokenStream {
    let ident = &plan.ident;
    let type_name = &plan.type_name;
    let items = match &plan.body {
        Body::Struct { .. } => emit_struct(plan),
        Body::Enum { variants } => emit_enum(plan, variants),
        Body::Checked(tool) => super::checked::emit_tool(plan, tool),
        Body::Tuple(elements) => super::tuple::emit(plan, elements),
        Body::Union {
            tagging,
            variants,
            deny_unknown_fields,
        } => super::data_enum::emit(
            ident,
            type_name,
            &with_description(&plan.description),
            tagging,
            variants,
            *deny_unknown_fields,
        ),
    };
    quote! {
        const _: () = {
            #items

            ::toolgate::__impl_json_schema!(#ident, #type_name);
        };
    }
}

pub(super) fn with_description(description: &Option<String>) -> TokenStream {
    match description {
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

pub(super) fn field_schema(field: &FieldPlan) -> TokenStream {
    let described = &field.described;
    let wire_name = &field.wire_name;
    let mut schema = match &field.schema_text {
        Some(text) => super::checked::field_schema(described, text),
        None => quote!(<#described as ::toolgate::ToolArg>::describe(definitions)),
    };
    schema.extend(constraints::tokens(&field.setters));
    if field.nullable {
        schema.extend(quote!(.nullable()));
    }
    schema.extend(with_description(&field.description));
    for example in &field.examples {
        let example = super::literals::json(example);
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

fn emit_struct(plan: &Plan) -> TokenStream {
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
    let additional = flatten.as_deref().map(super::flatten::schema_call);
    let check_additional = flatten.as_deref().map(super::flatten::check_call);
    let write_additional = flatten.as_deref().map(super::flatten::write_call);
    let description = with_description(&plan.description);
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
    let tool_description = match &plan.description {
        Some(text) => quote!(::core::option::Option::Some(#text)),
        None => quote!(::core::option::Option::None),
    };
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

            fn check<'m>(&self, schema: &'m ::toolgate::model::Schema, checker: &mut ::toolgate::Checker<'m>) {
                #fields_binding
                #(#checks)*
                #check_additional
            }

            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                ::toolgate::ObjectWriter::new()
                    #write_additional
                    #(#members)*
                    .finish()
            }
        }

        #[automatically_derived]
        impl ::toolgate::Tool for #ident {
            fn model() -> &'static ::toolgate::model::ToolModel {
                static MODEL: ::std::sync::OnceLock<::toolgate::model::ToolModel> = ::std::sync::OnceLock::new();
                MODEL.get_or_init(|| ::toolgate::model::ToolModel::of::<Self>(#tool_name, #tool_description))
            }
        }
    }
}

fn emit_enum(plan: &Plan, variants: &[VariantPlan]) -> TokenStream {
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
    let description = with_description(&plan.description);
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

            fn check<'m>(&self, schema: &'m ::toolgate::model::Schema, checker: &mut ::toolgate::Checker<'m>) {
                #check
            }

            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                #to_json
            }
        }
    }
}

//! Enums as unions: `#[serde(tag = "...")]` (internally tagged) and `#[serde(untagged)]`.
//!
//! | serde form | variants allowed | tool model |
//! | --- | --- | --- |
//! | `#[serde(tag = "kind")]` | unit, `Name { fields }` | `oneOf` of objects, each with `kind` required and `const` its variant's wire name |
//! | `#[serde(untagged)]` | `Name(Type)` | `anyOf` of the types' schemas, in order |
//!
//! serde's default for enums with data (externally tagged, `{"Circle": {...}}`) and adjacent
//! tagging (`content`) are refused: models send flat objects, and a discriminator field is
//! what tool schemas (OpenAPI, MCP) use.
//!
//! An untagged enum is read by serde trying its variants in order, while the checker accepts
//! a value when any alternative accepts it. Write variants whose JSON types differ (a string,
//! a number, an object), or the narrower before the wider; the schema compiler only writes
//! untagged enums whose alternatives differ in type.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Fields, Ident, Type};

use super::attrs::{doc_description, error_at};
use super::serde_attrs::{self, SerdeContainer};
use super::{check_unique_names, plan_field, unraw, FieldPlan};

/// How the enum's variants are told apart on the wire.
pub(crate) enum Tagging {
    /// `#[serde(tag = "...")]`: a field naming the variant.
    Internal(String),
    /// `#[serde(untagged)]`: by shape.
    Untagged,
}

pub(crate) struct DataVariant {
    ident: Ident,
    wire_name: String,
    description: Option<String>,
    data: VariantData,
}

enum VariantData {
    Unit,
    Fields(Vec<FieldPlan>),
    /// `Name(Type)`, with the constraints written on the value (`Name(#[tool(length(min = 1))] String)`).
    One(Box<Type>, Vec<super::constraints::Setter>),
}

/// Plans the variants of an enum written with `tag` or `untagged` (or carrying data without
/// either, which is an error naming the two).
pub(crate) fn plan(
    data: &syn::DataEnum,
    serde: &SerdeContainer,
    ident: &Ident,
    errors: &mut darling::error::Accumulator,
) -> Option<(Tagging, Vec<DataVariant>)> {
    let tagging = match (&serde.tag, &serde.untagged) {
        (Some(tag), None) => Tagging::Internal(tag.value()),
        (None, Some(_)) => Tagging::Untagged,
        (Some(tag), Some(_)) => {
            errors.push(error_at(
                tag,
                "an enum is either tagged or untagged, not both",
            ));
            return None;
        }
        (None, None) => {
            errors.push(error_at(ident, "an enum whose variants carry data needs `#[serde(tag = \"kind\")]` (variants `Name { fields }`, told apart by a field) or `#[serde(untagged)]` (variants `Name(Type)`, told apart by shape); serde's default form `{\"Variant\": {...}}` is not what tool schemas use"));
            return None;
        }
    };
    let variant_fields = SerdeContainer {
        deny_unknown_fields: serde.deny_unknown_fields,
        ..SerdeContainer::default()
    };
    let mut variants = Vec::new();
    for variant in &data.variants {
        let member = serde_attrs::member(&variant.attrs, errors);
        if member.skip || !member.aliases.is_empty() || member.default.is_some() {
            errors.push(error_at(variant, "`skip`, `alias` and `default` are not supported on a variant of a tagged or untagged enum"));
            continue;
        }
        if let Some(tool) = variant.attrs.iter().find(|a| a.path().is_ident("tool")) {
            errors.push(error_at(&tool.meta, "a variant of a tagged or untagged enum takes no `#[tool]` attribute: write constraints on its fields or on the type it holds"));
        }
        let rust_name = unraw(&variant.ident);
        let wire_name = member
            .rename
            .or_else(|| {
                serde
                    .rename_all
                    .map(|rule| rule.apply_to_variant(&rust_name))
            })
            .unwrap_or(rust_name);
        let data = match (&tagging, &variant.fields) {
            (Tagging::Internal(_), Fields::Unit) => VariantData::Unit,
            (Tagging::Internal(_), Fields::Named(named)) => VariantData::Fields(
                named
                    .named
                    .iter()
                    .filter_map(|field| plan_field(field, &variant_fields, errors))
                    .collect(),
            ),
            (Tagging::Untagged, Fields::Unnamed(one)) if one.unnamed.len() == 1 => {
                let value = &one.unnamed[0];
                let Some(setters) = value_constraints(value, errors) else {
                    continue;
                };
                VariantData::One(Box::new(value.ty.clone()), setters)
            }
            (Tagging::Internal(_), _) => {
                errors.push(error_at(variant, "a variant of a tagged enum is a unit variant or has named fields (`Name { field: Type }`), so that the tag sits beside its fields"));
                continue;
            }
            (Tagging::Untagged, _) => {
                errors.push(error_at(
                    variant,
                    "a variant of an untagged enum holds one value (`Name(Type)`)",
                ));
                continue;
            }
        };
        if let (Tagging::Internal(tag), VariantData::Fields(fields)) = (&tagging, &data) {
            let names = std::iter::once((tag.as_str(), variant.ident.span()))
                .chain(fields.iter().flat_map(FieldPlan::wire_names));
            check_unique_names(names, "field (or the tag)", errors);
        }
        variants.push(DataVariant {
            ident: variant.ident.clone(),
            wire_name,
            description: doc_description(&variant.attrs),
            data,
        });
    }
    if let Tagging::Internal(_) = tagging {
        let names = variants
            .iter()
            .map(|v| (v.wire_name.as_str(), v.ident.span()));
        check_unique_names(names, "variant", errors);
    }
    Some((tagging, variants))
}

/// `impl ToolArg` of a union enum.
pub(crate) fn emit(
    ident: &Ident,
    type_name: &str,
    description: &TokenStream,
    tagging: &Tagging,
    variants: &[DataVariant],
    deny_unknown_fields: bool,
) -> TokenStream {
    let mode = match tagging {
        Tagging::Internal(_) => quote!(OneOf),
        Tagging::Untagged => quote!(AnyOf),
    };
    let deny = deny_unknown_fields.then(|| quote!(.deny_unknown_fields()));
    let schemas = variants.iter().map(|variant| {
        let described = variant
            .description
            .as_ref()
            .map(|text| quote!(.with_description(#text)));
        match (&variant.data, tagging) {
            (VariantData::One(ty, setters), _) => {
                let constraints = super::constraints::tokens(setters);
                quote_spanned!(ty.span()=> <#ty as ::toolgate::ToolArg>::describe(definitions) #constraints #described)
            }
            (VariantData::Unit, Tagging::Internal(tag)) => {
                let tag_field = tag_field(tag, &variant.wire_name);
                quote!(::toolgate::model::Schema::object(::std::vec::Vec::from([#tag_field])) #deny #described)
            }
            (VariantData::Fields(fields), Tagging::Internal(tag)) => {
                let tag_field = tag_field(tag, &variant.wire_name);
                let fields = fields.iter().map(super::emit::field_schema);
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
                quote!(Self::#name => ::toolgate::ObjectWriter::new().tag(#tag, #wire_name).finish(),)
            }
            (VariantData::Fields(fields), Tagging::Internal(tag)) => {
                let bound = bindings(fields);
                let idents = fields.iter().map(|f| &f.ident);
                let members = fields.iter().zip(&bound).map(|(field, binding)| {
                    let wire = &field.wire_name;
                    let add = super::emit::writer_method(field);
                    quote!(.#add(#wire, #binding))
                });
                quote!(Self::#name { #(#idents: #bound,)* .. } => ::toolgate::ObjectWriter::new().tag(#tag, #wire_name) #(#members)* .finish(),)
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

            fn check<'m>(&self, schema: &'m ::toolgate::model::Schema, checker: &mut ::toolgate::Checker<'m>) {
                #check_body
            }

            fn to_json_value(&self) -> ::toolgate::serde_json::Value {
                #write_body
            }
        }
    }
}

/// The `#[tool(...)]` constraints on the value of a `Name(Type)` variant (only constraints:
/// the variant's doc comment is its description).
fn value_constraints(
    value: &syn::Field,
    errors: &mut darling::error::Accumulator,
) -> Option<Vec<super::constraints::Setter>> {
    use darling::FromField;
    let raw = errors.handle(super::attrs::RawField::from_field(value))?;
    if !raw.alias.is_empty()
        || raw.constraints.description.is_some()
        || !raw.example.is_empty()
        || raw.nullable.is_present()
    {
        errors.push(error_at(value, "the value of an untagged variant takes constraints only (`range`, `length`, `pattern`, ...); its description is the variant's doc comment"));
    }
    let shape = match super::shape::classify(&value.ty) {
        Ok(shape) => shape,
        Err(error) => {
            errors.push(error.into());
            return None;
        }
    };
    Some(super::constraints::Planner { errors }.plan(&raw.constraints, &shape))
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

/// The `tag` key as written, for errors on structs.
pub(crate) fn refuse_on_struct(serde: &SerdeContainer, errors: &mut darling::error::Accumulator) {
    if let Some(tag) = &serde.tag {
        errors.push(error_at(
            tag,
            "`tag` applies to enums; a tool's arguments are an object already",
        ));
    }
    if let Some(untagged) = &serde.untagged {
        errors.push(error_at(untagged, "`untagged` applies to enums"));
    }
}

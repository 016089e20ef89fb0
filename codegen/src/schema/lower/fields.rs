//! The fields of a generated struct: names, wire names, defaults, `#[tool(...)]` keys, and
//! the flattened map of undeclared keys.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;
use toolgate_core::model::{Additional, ObjectSchema, Schema};
use toolgate_core::path::escape_pointer_token;

use super::checked::{checked_field, json_note, keeping_model, OptionalJson};
use super::{
    default_expression, doc_attr, doc_reproduces, example_literal, field_name, type_name, Lowering,
    Scope, Taken,
};

impl Lowering<'_> {
    /// The fields of a struct (or of a struct variant: `skip` names its tag), with the types,
    /// enums and default functions they bring pushed as items. `name` is the owner's name,
    /// which nested types and default functions are named after.
    pub(super) fn fields(
        &mut self,
        scope: &mut Scope<'_>,
        name: &str,
        object: &ObjectSchema,
        pointer: &str,
        skip: Option<&str>,
    ) -> Vec<TokenStream> {
        super::keys::refuse_on_struct(object, pointer, &mut scope.errors);
        let mut field_names = Taken::default();
        let mut fields = Vec::new();
        for field in object
            .fields
            .iter()
            .filter(|f| Some(f.name.as_str()) != skip)
        {
            let at = format!("{pointer}/properties/{}", escape_pointer_token(&field.name));
            let rust = field_names.claim(&field_name(&field.name), "_");
            let field_ident: syn::Ident =
                syn::parse_str(&rust).expect("names.rs makes identifiers");
            let hint = format!("{name}{}", type_name(&field.name, "Field"));
            // A definition written in place gives the field its description and annotations.
            let schema = &*super::references::with_carried_annotations(
                &field.schema,
                scope.model.definitions(),
            );
            let attempt = self.attempt(scope);
            let lowered = self.lower(scope, schema, &hint, &at, true);
            let mut attrs = Vec::new();
            if let Some(doc) = &schema.description {
                attrs.push(doc_attr(doc));
            }
            let public = skip.is_none().then(|| quote!(pub));
            if let Some(why) = self.failed(scope, attempt) {
                // The text holds the description, default and examples.
                let note = json_note(&why);
                let note = match &schema.description {
                    Some(_) => note.as_str(),
                    None => note.trim_start(),
                };
                attrs.push(doc_attr(note));
                let keep = self.style.keep_undeclared_keys;
                let kept = scope
                    .json_model
                    .get_or_insert_with(|| keeping_model(scope.model, keep));
                let optional = match field.required {
                    true => None,
                    false if scope.model.check_against(schema, &Value::Null).is_ok() => {
                        Some(OptionalJson::Nullable)
                    }
                    false => Some(OptionalJson::Option),
                };
                let (ty, key) = checked_field(kept, schema, optional, keep);
                let unraw = rust.strip_prefix("r#").unwrap_or(&rust);
                if unraw != field.name {
                    let wire = &field.name;
                    attrs.push(quote!(#[serde(rename = #wire)]));
                }
                for alias in &field.aliases {
                    attrs.push(quote!(#[serde(alias = #alias)]));
                }
                let default = match optional {
                    None => None,
                    Some(OptionalJson::Option) => Some(quote!(#[serde(default)])),
                    Some(OptionalJson::Nullable) => Some(
                        quote!(#[serde(default, skip_serializing_if = "::toolgate::Nullable::is_absent")]),
                    ),
                };
                fields.push(quote! {
                    #(#attrs)*
                    #default
                    #[tool(#key)]
                    #public #field_ident: #ty
                });
                continue;
            }
            // Notes for the reader go into the doc comment after the description; the
            // description itself is then given to the derive as written.
            let mut noted = false;
            let unraw = rust.strip_prefix("r#").unwrap_or(&rust);
            if unraw != field.name {
                let wire = &field.name;
                attrs.push(quote!(#[serde(rename = #wire)]));
            }
            for alias in &field.aliases {
                attrs.push(quote!(#[serde(alias = #alias)]));
            }
            let nullable = lowered.value_ty.is_some();
            let mut tool_keys = lowered.constraints;
            // An optional field that takes `null` and is not filled with a default keeps
            // absent apart from `null` (issue 11 §4): `Nullable<T>`, written back as it came.
            // `any` and `null` schemas take `null` without an `Option`.
            let takes_null = nullable || scope.model.check_against(schema, &Value::Null).is_ok();
            let value_ty = lowered.value_ty.unwrap_or_else(|| lowered.ty.clone());
            let absent_apart = |attrs: &mut Vec<TokenStream>| {
                attrs.push(quote!(#[serde(default, skip_serializing_if = "::toolgate::Nullable::is_absent")]));
                quote!(::toolgate::Nullable<#value_ty>)
            };
            let mut option_is_null = nullable;
            // The derive takes an example written as a literal that fits the field (it
            // refuses one that does not: issue 27 §9, G4). JSON Schema does not require
            // examples to be valid, so the others are shown in the doc comment: those the
            // derive cannot write, and, said apart, those that do not fit.
            let fits = |example: &Value| scope.model.check_against(schema, example).is_ok();
            let (taken, shown): (Vec<&Value>, Vec<&Value>) = schema
                .examples
                .iter()
                .partition(|e| fits(e) && example_literal(e).is_some());
            tool_keys.extend(taken.into_iter().filter_map(example_literal));
            let (other_examples, unfit): (Vec<&Value>, Vec<&Value>) =
                shown.into_iter().partition(|e| fits(e));
            let list = |examples: &[&Value]| {
                let shown: Vec<String> = examples.iter().map(|e| e.to_string()).collect();
                shown.join(", ")
            };
            if !other_examples.is_empty() {
                attrs.push(doc_attr(&format!("\nExamples: {}", list(&other_examples))));
                noted = true;
            }
            if !unfit.is_empty() {
                attrs.push(doc_attr(&format!(
                    "\nExamples that do not fit the schema (left out of the model): {}",
                    list(&unfit)
                )));
                noted = true;
            }
            let ty = lowered.ty;
            let ty = match (&field.required, &schema.default) {
                (true, None) => ty,
                (true, Some(default)) => {
                    attrs.push(doc_attr(&format!(
                        "\nThe schema's default, {default}, does not apply: the field is required."
                    )));
                    noted = true;
                    ty
                }
                (false, None) if takes_null => {
                    option_is_null = false;
                    absent_apart(&mut attrs)
                }
                (false, None) => quote!(::std::option::Option<#ty>),
                (false, Some(default)) => {
                    if scope.model.check_against(schema, default).is_ok() {
                        let function = self.functions.claim(
                            &format!(
                                "default_{}_{}",
                                heck::ToSnakeCase::to_snake_case(name),
                                unraw
                            ),
                            "_",
                        );
                        let function_ident = format_ident!("{}", function);
                        let kind = scope.model.resolve(schema).map(|s| &s.kind);
                        let body = match (nullable, default) {
                            (true, Value::Null) => quote!(::std::option::Option::None),
                            (true, _) => {
                                let value = default_expression(default, kind);
                                quote!(::std::option::Option::Some(#value))
                            }
                            (false, _) => default_expression(default, kind),
                        };
                        self.items.push(quote! {
                            fn #function_ident() -> #ty { #body }
                        });
                        attrs.push(quote!(#[serde(default = #function)]));
                        ty
                    } else {
                        attrs.push(doc_attr(&format!("\nThe schema's default, {default}, does not fit the field's own schema and is not applied.")));
                        noted = true;
                        if takes_null {
                            option_is_null = false;
                            absent_apart(&mut attrs)
                        } else {
                            quote!(::std::option::Option<#ty>)
                        }
                    }
                }
            };
            if option_is_null {
                tool_keys.insert(0, quote!(nullable));
            }
            match &schema.description {
                Some(text) if noted || !doc_reproduces(text) => {
                    tool_keys.push(quote!(description = #text));
                }
                // The doc comment holds only notes: they are not the field's description.
                None if noted => tool_keys.push(quote!(no_description)),
                _ => {}
            }
            // `title`, `$comment`, an unknown `format`...: kept as written (issue 27 §5).
            tool_keys.extend(super::annotations_key(&schema.annotations));
            if !tool_keys.is_empty() {
                attrs.push(quote!(#[tool(#(#tool_keys),*)]));
            }
            // Fields of an enum variant take no visibility (`public` above).
            fields.push(quote! {
                #(#attrs)*
                #public #field_ident: #ty
            });
        }
        // A tagged union's alternative cannot hold a flattened map (serde flattens into
        // structs only): `unions.rs` reports that.
        let any_value = Schema::any();
        let kept = match &object.additional {
            _ if skip.is_some() => None,
            Additional::Schema(values) => Some(values.as_ref()),
            Additional::Allow if self.style.keep_undeclared_keys => Some(&any_value),
            _ => None,
        };
        if let Some(values) = kept {
            let at = format!("{pointer}/additionalProperties");
            let rust = field_names.claim("additional_properties", "_");
            let field_ident = format_ident!("{}", rust);
            let map = self.map(scope, values, &format!("{name}Additional"), &at);
            let ty = map.ty;
            let keys = map.constraints;
            let tool = (!keys.is_empty()).then(|| quote!(#[tool(#(#keys),*)]));
            fields.push(quote! {
                /// The keys not declared above (`additionalProperties`).
                #[serde(flatten)]
                #tool
                pub #field_ident: #ty
            });
        }
        fields
    }
}

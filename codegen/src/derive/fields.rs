//! The check stage for one field, member or variant: its attributes read, its constraints
//! checked against its type, its wire names decided.

use darling::{FromField, FromVariant};
use proc_macro2::Span;
use syn::{Fields, Ident};

use super::attrs::{doc_description, error_at, RawField, RawVariant};
use super::constraints::{self, Planner};
use super::plan::{FieldDefault, FieldPlan, FlattenPlan, VariantPlan};
use super::shape::{self, Shape};
use super::{checked, flatten, literals, serde_attrs};

pub(super) fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

/// Wire names and aliases must all differ, or serde could not tell the members apart.
pub(super) fn check_unique_names<'a>(
    names: impl Iterator<Item = (&'a str, Span)>,
    what: &str,
    errors: &mut darling::error::Accumulator,
) {
    let mut seen: Vec<&str> = Vec::new();
    for (name, span) in names {
        if seen.contains(&name) {
            errors.push(
                darling::Error::custom(format!(
                    "another {what} already has the wire name or alias {name:?}"
                ))
                .with_span(&span),
            );
        }
        seen.push(name);
    }
}

/// serde's aliases, then toolgate's, each once.
pub(super) fn merge_aliases(mut aliases: Vec<String>, more: &[String]) -> Vec<String> {
    for alias in more {
        if !aliases.contains(alias) {
            aliases.push(alias.clone());
        }
    }
    aliases
}

/// A planned struct field: a field of the arguments, or the flattened map.
pub(super) enum Member {
    Field(Box<FieldPlan>),
    /// With the `flatten` key as written (no plan after an error).
    Flatten(Option<Box<FlattenPlan>>, Box<syn::Path>),
}

/// Plans a field of an enum variant (where `flatten` is refused).
pub(super) fn plan_field(
    field: &syn::Field,
    container: &serde_attrs::SerdeContainer,
    errors: &mut darling::error::Accumulator,
) -> Option<FieldPlan> {
    match plan_member(field, container, errors)? {
        Member::Field(plan) => Some(*plan),
        Member::Flatten(_, key) => {
            errors.push(error_at(
                &key,
                "`flatten` is supported on a map field of a struct, not inside an enum variant",
            ));
            None
        }
    }
}

pub(super) fn plan_member(
    field: &syn::Field,
    container: &serde_attrs::SerdeContainer,
    errors: &mut darling::error::Accumulator,
) -> Option<Member> {
    let raw = errors.handle(RawField::from_field(field));
    let attrs = raw.as_ref().map_or(&field.attrs[..], |raw| &raw.attrs[..]);
    let serde = serde_attrs::member(attrs, errors);
    if let (Some(key), false) = (&serde.flatten, serde.skip) {
        let plan = flatten::plan(field, raw, &serde, key, errors).map(Box::new);
        return Some(Member::Flatten(plan, Box::new(key.clone())));
    }
    if serde.skip {
        if let Some(tool) = field.attrs.iter().find(|a| a.path().is_ident("tool")) {
            errors.push(error_at(&tool.meta, "serde skips this field, so it is not part of the arguments and its `#[tool]` attribute would never apply"));
        }
        return None;
    }
    let shape = match shape::classify(&field.ty) {
        Ok(shape) => shape,
        Err(error) => {
            errors.push(error.into());
            return None;
        }
    };
    let mut raw = raw?;
    let ident = raw.ident.clone()?;
    let description = raw.constraints.description.take();
    let annotations = raw.constraints.annotations.take();
    let setters = Planner { errors }.plan(&raw.constraints, &shape);
    let schema_text = raw
        .schema
        .as_ref()
        .and_then(|text| checked::plan_field(text, &setters, &raw, errors));
    let annotations = annotations
        .as_ref()
        .and_then(|text| annotations_text(text, errors));
    let field_schema = constraints::apply(constraints::base_schema(shape.value()), &setters);
    for example in &raw.example {
        for misfit in literals::misfits(&example.value, &field_schema) {
            errors.push(error_at(
                &example.expr,
                format!("this example does not fit the field: {misfit}"),
            ));
        }
    }
    let rust_name = unraw(&ident);
    let wire_name = container.field_wire_name(serde.rename.clone(), &rust_name);
    let default = match (&serde.default, &container.default) {
        (Some(own), _) => Some(FieldDefault::Own(own.clone())),
        (None, Some(_)) => Some(FieldDefault::Container),
        (None, None) => None,
    };
    // An `Option<T>` field is an optional field of `T`'s schema; `None` is an absent field.
    // With `#[tool(nullable)]`, `None` is `null`, and the field must be sent. A
    // `Nullable<T>` field is optional and takes `null`, each kept apart.
    let mut nullable = raw.nullable.is_present();
    let mut absent_apart = false;
    let wrapped = shape::generic_arguments(&field.ty)
        .and_then(|(name, arguments)| Some((name.to_string(), (*arguments.first()?).clone())));
    let (described, optional) = match (&shape, wrapped) {
        (Shape::Option(_), Some((name, inner))) if name == "Option" => (inner, !nullable),
        (Shape::Option(_), Some((_, inner))) => {
            if default.is_none() {
                errors.push(error_at(
                    &field.ty,
                    "a `Nullable<T>` field needs `#[serde(default)]`: serde reads an absent field as `null` without it, and absent is `Nullable::Absent`, the default",
                ));
            }
            // With `schema`, the text says whether `null` is taken.
            nullable = schema_text.is_none();
            absent_apart = true;
            (inner, true)
        }
        _ => {
            if nullable {
                errors.push(error_at(
                    &field.ty,
                    "`nullable` needs an `Option<T>` field: `None` is the `null`",
                ));
            }
            (field.ty.clone(), false)
        }
    };
    Some(Member::Field(Box::new(FieldPlan {
        ident,
        ty: field.ty.clone(),
        described,
        wire_name,
        rust_name,
        aliases: merge_aliases(serde.aliases, &raw.alias),
        required: !optional && default.is_none(),
        default,
        // With `schema`, the text holds the description: the doc comment is for readers.
        description: match (&description, &schema_text) {
            (None, None) if raw.no_description.is_present() => None,
            (None, None) => doc_description(&raw.attrs),
            _ => description,
        },
        examples: raw.example.iter().map(|e| e.value.clone()).collect(),
        setters,
        nullable,
        absent_apart,
        schema_text,
        annotations,
    })))
}

/// The text of `annotations = "..."` when it is a JSON object of annotation keywords (the
/// model keeps them as written). A `format` string is one too: the schema compiler writes
/// one there when the reader kept it as written (a format toolgate does not know, or a known
/// one on a type it does not apply to, `{"type": "integer", "format": "uuid"}`); a format
/// toolgate checks is the field's `format = ...` key.
pub(super) fn annotations_text(
    text: &syn::LitStr,
    errors: &mut darling::error::Accumulator,
) -> Option<String> {
    use toolgate_core::model::read::keywords::ANNOTATIONS;
    let value = text.value();
    let problem = match serde_json::from_str::<toolgate_core::model::Json>(&value) {
        Ok(toolgate_core::model::Json::Object(members)) => members.iter().find_map(|(key, v)| {
            let kept_format = key == "format" && v.as_str().is_some();
            (!ANNOTATIONS.contains(&key.as_str()) && !kept_format).then(|| {
                format!("`{key}` is not an annotation the model keeps as written ({}, or a `format` string)", ANNOTATIONS.join(", "))
            })
        }),
        Ok(_) => Some("`annotations` is a JSON object of annotation keywords".to_owned()),
        Err(error) => Some(format!("`annotations` is not JSON: {error}")),
    };
    match problem {
        Some(message) => {
            errors.push(error_at(text, message));
            None
        }
        None => Some(value),
    }
}

pub(super) fn plan_variant(
    variant: &syn::Variant,
    container: &serde_attrs::SerdeContainer,
    errors: &mut darling::error::Accumulator,
) -> Option<VariantPlan> {
    if !matches!(variant.fields, Fields::Unit) {
        let message = format!(
            "`{}` carries data; #[derive(Tool)] supports enums of unit variants (string enums)",
            variant.ident
        );
        errors.push(error_at(variant, message));
        return None;
    }
    let raw = errors.handle(RawVariant::from_variant(variant));
    let attrs = raw
        .as_ref()
        .map_or(&variant.attrs[..], |raw| &raw.attrs[..]);
    let serde = serde_attrs::member(attrs, errors);
    if let Some(key) = &serde.default_key {
        errors.push(error_at(key, "`default` does not apply to an enum variant"));
    }
    let raw = raw?;
    let wire_name = container.variant_wire_name(serde.rename, &unraw(&variant.ident));
    Some(VariantPlan {
        ident: variant.ident.clone(),
        wire_name,
        aliases: merge_aliases(serde.aliases, &raw.alias),
        skip: serde.skip,
    })
}

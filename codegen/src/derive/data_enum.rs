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

use syn::{Fields, Ident};

use super::attrs::{doc_description, error_at};
use super::fields::{check_unique_names, plan_field, unraw};
use super::plan::{DataVariant, FieldPlan, Tagging, VariantData};
use super::serde_attrs::{self, SerdeContainer};

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
        let wire_name = serde.variant_wire_name(member.rename, &unraw(&variant.ident));
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
        || raw.constraints.annotations.is_some()
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

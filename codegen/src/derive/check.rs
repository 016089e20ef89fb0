//! The check stage for a whole item: its container attributes read, its body planned by
//! kind (named fields, unit variants, a union, a tuple, a value checked against a schema
//! text), every error collected with its span.

use darling::FromDeriveInput;
use heck::ToSnakeCase;
use syn::{Data, DeriveInput, Fields};

use super::attrs::{doc_description, error_at, RawContainer};
use super::fields::{check_unique_names, plan_member, plan_variant, unraw, Member};
use super::plan::{Body, FieldPlan, FlattenPlan, Plan, VariantPlan};
use super::{checked, data_enum, serde_attrs, tuple};

pub(super) fn plan(input: &DeriveInput) -> darling::Result<Plan> {
    let mut errors = darling::Error::accumulator();
    let container = errors.handle(RawContainer::from_derive_input(input));
    let attrs = container
        .as_ref()
        .map_or(&input.attrs[..], |c| &c.attrs[..]);
    if let Some(param) = input.generics.params.first() {
        errors.push(error_at(param, "#[derive(Tool)] does not support generic parameters: a tool's schema is one fixed type"));
    }
    let serde = serde_attrs::container(attrs, &mut errors);
    let doc_describes = container
        .as_ref()
        .is_none_or(|c| !c.no_description.is_present());
    let description = container
        .as_ref()
        .and_then(|c| c.description.clone())
        .or_else(|| {
            doc_describes
                .then(|| doc_description(&input.attrs))
                .flatten()
        });
    let annotations = container
        .as_ref()
        .and_then(|c| c.annotations.as_ref())
        .and_then(|text| super::fields::annotations_text(text, &mut errors));
    let any_of = container.as_ref().map(|c| c.any_of).unwrap_or_default();
    let any_of_span = proc_macro2::Ident::new("any_of", any_of.span());
    let width_formats = container
        .as_ref()
        .map(|c| c.width_formats)
        .unwrap_or_default();
    // Widths are written by a tool's model: a struct with named fields, or one checked
    // against a schema's text.
    let refuse_width_formats = |errors: &mut darling::error::Accumulator| {
        if width_formats.is_present() {
            let span = proc_macro2::Ident::new("width_formats", width_formats.span());
            errors.push(error_at(&span, "`width_formats` is for a tool: a struct with named fields, whose model writes the schema"));
        }
    };
    let type_name = unraw(&input.ident);
    let name_attr = container.as_ref().and_then(|c| c.name.as_ref());
    let container_schema = container.as_ref().and_then(|c| c.schema.as_ref());
    let body = match &input.data {
        Data::Struct(data) if container_schema.is_some() => {
            let text = container_schema.expect("matched");
            let tool_name = match name_attr {
                Some(name) => {
                    check_tool_name(name, &mut errors);
                    name.value()
                }
                None => type_name.to_snake_case(),
            };
            data_enum::refuse_on_struct(&serde, &mut errors);
            match checked::plan_tool(data, text, tool_name, &mut errors) {
                Some(tool) => Body::Checked(tool),
                // `plan_tool` said why.
                None => {
                    return Err(errors.finish().err().unwrap_or_else(|| {
                        error_at(text, "this struct cannot hold the arguments")
                    }))
                }
            }
        }
        _ if container_schema.is_some() => {
            let text = container_schema.expect("matched");
            let message = "`schema` describes a tool's whole arguments held as JSON: write it on `struct Name(serde_json::Value);`";
            return Err(fail(errors, error_at(text, message)));
        }
        Data::Struct(data) => {
            let named = match &data.fields {
                Fields::Named(named) => named,
                Fields::Unnamed(fields) => {
                    if let Some(name) = name_attr {
                        let message = "a tool's arguments are named fields (`struct Name { field: Type }`); a tuple struct is an array, a value inside them";
                        return Err(fail(errors, error_at(name, message)));
                    }
                    data_enum::refuse_on_struct(&serde, &mut errors);
                    let elements = tuple::plan(fields, &mut errors);
                    if any_of.is_present() {
                        let message = "`any_of` is for an enum with `#[serde(tag = \"...\")]`, whose schema is a union";
                        errors.push(error_at(&any_of_span, message));
                    }
                    refuse_width_formats(&mut errors);
                    return errors.finish_with(Plan {
                        ident: input.ident.clone(),
                        type_name,
                        description,
                        annotations,
                        width_formats: false,
                        body: Body::Tuple(elements),
                    });
                }
                Fields::Unit => {
                    let message = format!("a tool's arguments are an object: write `struct {type_name} {{}}` (serde reads a unit struct from `null`, not `{{}}`)");
                    return Err(fail(errors, error_at(&input.ident, message)));
                }
            };
            data_enum::refuse_on_struct(&serde, &mut errors);
            let tool_name = match name_attr {
                Some(name) => {
                    check_tool_name(name, &mut errors);
                    name.value()
                }
                None => type_name.to_snake_case(),
            };
            let mut fields = Vec::new();
            let mut flattened: Option<Box<FlattenPlan>> = None;
            let mut any_flattened = false;
            let mut any_skipped = false;
            for field in &named.named {
                match plan_member(field, &serde, &mut errors) {
                    Some(Member::Field(plan)) => fields.push(*plan),
                    Some(Member::Flatten(planned, key)) => {
                        if serde.deny_unknown_fields {
                            errors.push(error_at(&key, "`deny_unknown_fields` refuses the keys a flattened map would collect"));
                        }
                        if any_flattened {
                            errors.push(error_at(&key, "only one field may be flattened: it collects every key the struct does not declare"));
                        }
                        if let Some(plan) = planned {
                            flattened.get_or_insert(plan);
                        }
                        any_flattened = true;
                    }
                    None => any_skipped = true,
                }
            }
            check_unique_names(
                fields.iter().flat_map(FieldPlan::wire_names),
                "field",
                &mut errors,
            );
            Body::Struct {
                tool_name,
                fields,
                deny_unknown_fields: serde.deny_unknown_fields,
                container_default: serde.default.clone(),
                flatten: flattened,
                every_member_a_field: !any_flattened && !any_skipped,
            }
        }
        Data::Enum(data) => {
            if let Some(name) = name_attr {
                errors.push(error_at(name, "`name` names a tool, and a tool's arguments are a struct; an enum is a value inside them"));
            }
            let carries_data = data
                .variants
                .iter()
                .any(|v| !matches!(v.fields, Fields::Unit));
            if carries_data || serde.tag.is_some() || serde.untagged.is_some() {
                let Some((tagging, variants)) =
                    data_enum::plan(data, &serde, &input.ident, &mut errors)
                else {
                    // `plan` said why.
                    return Err(errors.finish().err().unwrap_or_else(|| {
                        error_at(&input.ident, "this enum cannot be described")
                    }));
                };
                let any_of = any_of.is_present();
                if any_of && !matches!(tagging, super::plan::Tagging::Internal(_)) {
                    let message = "`any_of` is for an enum with `#[serde(tag = \"...\")]`: an untagged union is written `anyOf` already";
                    errors.push(error_at(&any_of_span, message));
                }
                refuse_width_formats(&mut errors);
                return errors.finish_with(Plan {
                    ident: input.ident.clone(),
                    type_name,
                    description,
                    annotations,
                    width_formats: false,
                    body: Body::Union {
                        tagging,
                        variants,
                        deny_unknown_fields: serde.deny_unknown_fields,
                        any_of,
                    },
                });
            }
            let variants: Vec<VariantPlan> = data
                .variants
                .iter()
                .filter_map(|variant| plan_variant(variant, &serde, &mut errors))
                .collect();
            let names = variants.iter().filter(|v| !v.skip).flat_map(|v| {
                std::iter::once((v.wire_name.as_str(), v.ident.span()))
                    .chain(v.aliases.iter().map(|a| (a.as_str(), v.ident.span())))
            });
            check_unique_names(names, "variant", &mut errors);
            refuse_width_formats(&mut errors);
            Body::Enum { variants }
        }
        Data::Union(data) => {
            let message = "#[derive(Tool)] supports structs with named fields and enums of unit variants, not unions";
            return Err(fail(errors, error_at(&data.union_token, message)));
        }
    };
    if any_of.is_present() {
        let message =
            "`any_of` is for an enum with `#[serde(tag = \"...\")]`, whose schema is a union";
        errors.push(error_at(&any_of_span, message));
    }
    errors.finish_with(Plan {
        ident: input.ident.clone(),
        type_name,
        description,
        annotations,
        width_formats: width_formats.is_present(),
        body,
    })
}

/// The errors so far and `last`, for an input the derive cannot go on with.
fn fail(mut errors: darling::error::Accumulator, last: darling::Error) -> darling::Error {
    errors.push(last);
    match errors.finish() {
        Err(all) => all,
        Ok(()) => unreachable!("an error was just pushed"),
    }
}

/// What a tool name may be, for messages (the derive's and the schema compiler's).
///
/// This is MCP's rule for tool names (the 2025-11-25 specification: 1 to 128 characters of
/// `A-Z`, `a-z`, `0-9`, `_`, `-`, `.`), the widest a tool is served under. Providers
/// allow less (OpenAI and Anthropic take 64 characters; Anthropic no `.`): that is a
/// provider flavour's check, not a reason to refuse a tool that MCP serves (Cloudflare's
/// `get_livestream_session_for_livestream_id_realtime_kit_livestreams`, 66 characters).
pub(crate) const TOOL_NAME_RULE: &str =
    "a tool name must be 1 to 128 characters of ASCII letters, digits, `_`, `-` and `.`";

/// Whether `name` follows [`TOOL_NAME_RULE`].
pub(crate) fn valid_tool_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 128
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn check_tool_name(name: &syn::LitStr, errors: &mut darling::error::Accumulator) {
    if !valid_tool_name(&name.value()) {
        errors.push(error_at(name, TOOL_NAME_RULE));
    }
}

//! `#[derive(Tool)]`: Rust item → [`Plan`] (parse and check, every error collected with its
//! span) → tokens ([`emit`]).
//!
//! Each field and variant is read on its own, so an error in one (an unknown key, say)
//! never hides the errors of the others.

mod attrs;
mod checked;
mod constraints;
mod data_enum;
mod emit;
mod flatten;
mod literals;
mod serde_attrs;
mod shape;
mod tuple;

use darling::{FromDeriveInput, FromField, FromVariant};
use heck::ToSnakeCase;
use proc_macro2::{Span, TokenStream};
use serde_json::Value;
use syn::{Data, DeriveInput, Fields, Ident, Type};

pub(crate) use attrs::doc_description;
use attrs::{error_at, RawContainer, RawField, RawVariant};
use constraints::{Planner, Setter};
use serde_attrs::DefaultValue;
use shape::Shape;

/// A checked `#[derive(Tool)]` input, ready to emit.
pub(crate) struct Plan {
    ident: Ident,
    /// The type's name without `r#`, for `$defs` when it is used more than once or contains
    /// itself.
    type_name: String,
    description: Option<String>,
    body: Body,
}

enum Body {
    Struct {
        tool_name: String,
        fields: Vec<FieldPlan>,
        deny_unknown_fields: bool,
        /// `#[serde(default)]` on the container: where field defaults come from.
        container_default: Option<DefaultValue>,
        /// A `#[serde(flatten)]` map: where undeclared keys go.
        flatten: Option<Box<flatten::FlattenPlan>>,
    },
    Enum {
        variants: Vec<VariantPlan>,
    },
    /// `struct Name(serde_json::Value);` with `#[tool(schema = "...")]`: a tool whose
    /// arguments are a JSON value checked against that schema.
    Checked(checked::CheckedTool),
    /// A tuple struct: a JSON array of exactly its elements.
    Tuple(Vec<tuple::ElementPlan>),
    /// An enum with `#[serde(tag)]` or `#[serde(untagged)]`: a union.
    Union {
        tagging: data_enum::Tagging,
        variants: Vec<data_enum::DataVariant>,
        deny_unknown_fields: bool,
    },
}

struct FieldPlan {
    ident: Ident,
    /// The field's type as written.
    ty: Type,
    /// The type whose schema the field has: the field's type, or `T` of an optional
    /// `Option<T>` field.
    described: Type,
    wire_name: String,
    rust_name: String,
    aliases: Vec<String>,
    required: bool,
    /// Where the default comes from, if the field has one.
    default: Option<FieldDefault>,
    description: Option<String>,
    examples: Vec<Value>,
    setters: Vec<Setter>,
    /// `null` is a value of the field: `#[tool(nullable)]` on an `Option<T>` (the field
    /// required unless it has a default; `None` is `null`), or a `Nullable<T>`.
    nullable: bool,
    /// A `Nullable<T>` field: optional, with absent (`Nullable::Absent`, left out when
    /// written) apart from `null`.
    absent_apart: bool,
    /// `#[tool(schema = "...")]`: the field's whole schema, as JSON Schema text.
    schema_text: Option<String>,
}

impl FieldPlan {
    /// The wire name and the aliases, each with the field's span: what must differ across
    /// the fields of one object.
    fn wire_names(&self) -> impl Iterator<Item = (&str, Span)> {
        let span = self.ident.span();
        std::iter::once((self.wire_name.as_str(), span))
            .chain(self.aliases.iter().map(move |a| (a.as_str(), span)))
    }
}

enum FieldDefault {
    /// `Default::default()` of the field's type, or a function.
    Own(DefaultValue),
    /// The field of the container's default value.
    Container,
}

struct VariantPlan {
    ident: Ident,
    wire_name: String,
    aliases: Vec<String>,
    /// `#[serde(skip)]`: not accepted on the wire.
    skip: bool,
}

/// Expands `#[derive(Tool)]` on `input`; errors become `compile_error!`s at their spans.
pub fn derive_tool(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(error) => return error.to_compile_error(),
    };
    match plan(&input) {
        Ok(plan) => emit::emit(&plan),
        Err(errors) => errors.write_errors(),
    }
}

fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

fn plan(input: &DeriveInput) -> darling::Result<Plan> {
    let mut errors = darling::Error::accumulator();
    let container = errors.handle(RawContainer::from_derive_input(input));
    let attrs = container
        .as_ref()
        .map_or(&input.attrs[..], |c| &c.attrs[..]);
    if let Some(param) = input.generics.params.first() {
        errors.push(error_at(param, "#[derive(Tool)] does not support generic parameters: a tool's schema is one fixed type"));
    }
    let serde = serde_attrs::container(attrs, &mut errors);
    let description = container
        .as_ref()
        .and_then(|c| c.description.clone())
        .or_else(|| doc_description(&input.attrs));
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
                    return errors.finish_with(Plan {
                        ident: input.ident.clone(),
                        type_name,
                        description,
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
            let mut flattened: Option<Box<flatten::FlattenPlan>> = None;
            let mut any_flattened = false;
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
                    None => {}
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
                return errors.finish_with(Plan {
                    ident: input.ident.clone(),
                    type_name,
                    description,
                    body: Body::Union {
                        tagging,
                        variants,
                        deny_unknown_fields: serde.deny_unknown_fields,
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
            Body::Enum { variants }
        }
        Data::Union(data) => {
            let message = "#[derive(Tool)] supports structs with named fields and enums of unit variants, not unions";
            return Err(fail(errors, error_at(&data.union_token, message)));
        }
    };
    errors.finish_with(Plan {
        ident: input.ident.clone(),
        type_name,
        description,
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

/// Wire names and aliases must all differ, or serde could not tell the members apart.
fn check_unique_names<'a>(
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
fn merge_aliases(mut aliases: Vec<String>, more: &[String]) -> Vec<String> {
    for alias in more {
        if !aliases.contains(alias) {
            aliases.push(alias.clone());
        }
    }
    aliases
}

/// A planned struct field: a field of the arguments, or the flattened map.
enum Member {
    Field(Box<FieldPlan>),
    /// With the `flatten` key as written (no plan after an error).
    Flatten(Option<Box<flatten::FlattenPlan>>, Box<syn::Path>),
}

/// Plans a field of an enum variant (where `flatten` is refused).
fn plan_field(
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

fn plan_member(
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
    let setters = Planner { errors }.plan(&raw.constraints, &shape);
    let schema_text = raw
        .schema
        .as_ref()
        .and_then(|text| checked::plan_field(text, &setters, &raw, errors));
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
    let wire_name = serde
        .rename
        .clone()
        .or_else(|| {
            container
                .rename_all
                .map(|rule| rule.apply_to_field(&rust_name))
        })
        .unwrap_or_else(|| rust_name.clone());
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
            (None, None) => doc_description(&raw.attrs),
            _ => description,
        },
        examples: raw.example.iter().map(|e| e.value.clone()).collect(),
        setters,
        nullable,
        absent_apart,
        schema_text,
    })))
}

fn plan_variant(
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
    let rust_name = unraw(&variant.ident);
    let wire_name = serde
        .rename
        .clone()
        .or_else(|| {
            container
                .rename_all
                .map(|rule| rule.apply_to_variant(&rust_name))
        })
        .unwrap_or(rust_name);
    Some(VariantPlan {
        ident: variant.ident.clone(),
        wire_name,
        aliases: merge_aliases(serde.aliases, &raw.alias),
        skip: serde.skip,
    })
}

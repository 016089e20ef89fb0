//! `#[derive(Tool)]`: Rust item → [`Plan`] (parse and check, every error collected with its
//! span) → tokens ([`emit`]).

mod attrs;
mod emit;
mod serde_attrs;
mod shape;

use darling::FromDeriveInput;
use heck::ToSnakeCase;
use proc_macro2::TokenStream;
use serde_json::Value;
use syn::{DeriveInput, Ident, Type};

use attrs::{doc_description, RawConstraints, RawField, RawInput, RawVariant};
use serde_attrs::DefaultValue;
use shape::Shape;

/// A checked `#[derive(Tool)]` input, ready to emit.
pub(crate) struct Plan {
    ident: Ident,
    /// The type's name, for `$defs` when it contains itself.
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
    },
    Enum {
        variants: Vec<VariantPlan>,
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
    constraints: RawConstraints,
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

fn plan(input: &DeriveInput) -> darling::Result<Plan> {
    let raw = RawInput::from_derive_input(input)?;
    let mut errors = darling::Error::accumulator();
    if let Some(param) = raw.generics.params.first() {
        errors.push(darling::Error::custom("#[derive(Tool)] does not support generic parameters: a tool's schema is one fixed type").with_span(param));
    }
    let serde = serde_attrs::container(&raw.attrs, &mut errors);
    let description = raw
        .description
        .clone()
        .or_else(|| doc_description(&raw.attrs));
    let body = match raw.data {
        darling::ast::Data::Struct(fields) => {
            let tool_name = match &raw.name {
                Some(name) => {
                    check_tool_name(name, &mut errors);
                    (**name).clone()
                }
                None => raw.ident.to_string().to_snake_case(),
            };
            let fields = fields
                .fields
                .into_iter()
                .filter_map(|field| plan_field(field, &serde, &mut errors))
                .collect::<Vec<_>>();
            check_unique_names(
                fields
                    .iter()
                    .map(|f| (f.wire_name.as_str(), f.ident.span())),
                "field",
                &mut errors,
            );
            Body::Struct {
                tool_name,
                fields,
                deny_unknown_fields: serde.deny_unknown_fields,
                container_default: serde.default.clone(),
            }
        }
        darling::ast::Data::Enum(variants) => {
            if let Some(name) = &raw.name {
                errors.push(darling::Error::custom("`name` names a tool, and a tool's arguments are a struct; an enum is a value inside them").with_span(&name.span()));
            }
            let variants: Vec<VariantPlan> = variants
                .iter()
                .map(|variant| plan_variant(variant, &serde, &mut errors))
                .collect();
            let wire = variants
                .iter()
                .filter(|v| !v.skip)
                .map(|v| (v.wire_name.as_str(), v.ident.span()));
            check_unique_names(wire, "variant", &mut errors);
            Body::Enum { variants }
        }
    };
    errors.finish_with(Plan {
        ident: raw.ident.clone(),
        type_name: raw.ident.to_string(),
        description,
        body,
    })
}

fn check_tool_name(
    name: &darling::util::SpannedValue<String>,
    errors: &mut darling::error::Accumulator,
) {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !valid {
        errors.push(
            darling::Error::custom(
                "a tool name must be 1 to 64 characters of ASCII letters, digits, `_`, `-` and `.`",
            )
            .with_span(&name.span()),
        );
    }
}

fn check_unique_names<'a>(
    names: impl Iterator<Item = (&'a str, proc_macro2::Span)>,
    what: &str,
    errors: &mut darling::error::Accumulator,
) {
    let mut seen: Vec<&str> = Vec::new();
    for (name, span) in names {
        if seen.contains(&name) {
            errors.push(
                darling::Error::custom(format!(
                    "another {what} already has the wire name {name:?}"
                ))
                .with_span(&span),
            );
        }
        seen.push(name);
    }
}

fn unraw(ident: &Ident) -> String {
    let name = ident.to_string();
    name.strip_prefix("r#").map(str::to_owned).unwrap_or(name)
}

fn plan_field(
    field: RawField,
    container: &serde_attrs::SerdeContainer,
    errors: &mut darling::error::Accumulator,
) -> Option<FieldPlan> {
    let ident = field.ident.clone()?;
    let serde = serde_attrs::member(&field.attrs, errors);
    if serde.skip {
        return None;
    }
    let shape = match shape::classify(&field.ty) {
        Ok(shape) => shape,
        Err(error) => {
            errors.push(error.into());
            return None;
        }
    };
    shape::check_constraints(&field.constraints, &shape, errors);
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
    // An `Option<T>` field is an optional field of `T`'s schema; `None` is an absent field.
    let (described, optional) = match (&shape, option_argument(&field.ty)) {
        (Shape::Option(_), Some(inner)) => (inner.clone(), true),
        _ => (field.ty.clone(), false),
    };
    let default = match (&serde.default, &container.default) {
        (Some(own), _) => Some(FieldDefault::Own(own.clone())),
        (None, Some(_)) => Some(FieldDefault::Container),
        (None, None) => None,
    };
    let aliases = merge_aliases(serde.aliases, &field.alias);
    for example in &field.example {
        if let Err(message) = example_fits(&example.value, &shape) {
            errors.push(darling::Error::custom(message).with_span(&example.span));
        }
    }
    Some(FieldPlan {
        ident,
        ty: field.ty.clone(),
        described,
        wire_name,
        rust_name,
        aliases,
        required: !optional && default.is_none(),
        default,
        description: field
            .description
            .clone()
            .or_else(|| doc_description(&field.attrs)),
        examples: field.example.iter().map(|e| e.value.clone()).collect(),
        constraints: field.constraints,
    })
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

/// `T` of a type written `Option<T>` (any path ending in `Option`).
fn option_argument(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if last.ident != "Option" {
        return None;
    }
    match &last.arguments {
        syn::PathArguments::AngleBracketed(angle) => match angle.args.first()? {
            syn::GenericArgument::Type(inner) => Some(inner),
            _ => None,
        },
        _ => None,
    }
}

/// Whether an example value has the JSON type of the field.
fn example_fits(value: &Value, shape: &Shape) -> Result<(), String> {
    let fits = match (shape.value(), value) {
        (Shape::Any | Shape::Named, _) => true,
        (Shape::Bool, Value::Bool(_)) | (Shape::String, Value::String(_)) => true,
        (Shape::Integer { .. }, Value::Number(n)) => n.is_i64() || n.is_u64(),
        (Shape::Float { .. }, Value::Number(_)) => true,
        (Shape::Array(element), Value::Array(items)) => {
            return items
                .iter()
                .try_for_each(|item| example_fits(item, element));
        }
        _ => false,
    };
    if fits {
        Ok(())
    } else {
        Err(format!(
            "this example is {}, which does not fit the field",
            toolgate_core::check::json_type(value)
        ))
    }
}

fn plan_variant(
    variant: &RawVariant,
    container: &serde_attrs::SerdeContainer,
    errors: &mut darling::error::Accumulator,
) -> VariantPlan {
    let serde = serde_attrs::member(&variant.attrs, errors);
    if serde.default.is_some() {
        errors.push(
            darling::Error::custom("`default` does not apply to an enum variant")
                .with_span(&variant.ident),
        );
    }
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
    let aliases = merge_aliases(serde.aliases, &variant.alias);
    VariantPlan {
        ident: variant.ident.clone(),
        wire_name,
        aliases,
        skip: serde.skip,
    }
}

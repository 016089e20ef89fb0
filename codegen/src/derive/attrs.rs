//! The `#[tool(...)]` attributes as written, read with darling (which reports unknown keys
//! with "did you mean", duplicate keys, and wrong value kinds at their spans).

use darling::util::{Flag, SpannedValue};
use darling::{FromDeriveInput, FromField, FromMeta, FromVariant};
use proc_macro2::Span;
use serde_json::Value;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, Generics, Ident, Lit, Type, UnOp};

/// `#[derive(Tool)]` input: a struct with named fields or an enum of unit variants.
#[derive(FromDeriveInput)]
#[darling(
    attributes(tool),
    supports(struct_named, enum_unit),
    forward_attrs(doc, serde)
)]
pub struct RawInput {
    pub ident: Ident,
    pub generics: Generics,
    pub data: darling::ast::Data<RawVariant, RawField>,
    pub attrs: Vec<Attribute>,
    /// `#[tool(name = "...")]`: the tool's name.
    pub name: Option<SpannedValue<String>>,
    /// `#[tool(description = "...")]`: overrides the doc comment.
    pub description: Option<String>,
}

/// One field and its `#[tool(...)]` attributes.
#[derive(FromField)]
#[darling(attributes(tool), forward_attrs(doc, serde))]
pub struct RawField {
    pub ident: Option<Ident>,
    pub ty: Type,
    pub attrs: Vec<Attribute>,
    #[darling(flatten)]
    pub constraints: RawConstraints,
    /// `#[tool(alias = "...")]`, repeatable.
    #[darling(multiple)]
    pub alias: Vec<String>,
    /// `#[tool(description = "...")]`: overrides the doc comment.
    pub description: Option<String>,
    /// `#[tool(example = ...)]`, repeatable: a literal, or an array of literals.
    #[darling(multiple)]
    pub example: Vec<JsonLiteral>,
}

/// One unit variant and its `#[tool(...)]` attributes.
#[derive(FromVariant)]
#[darling(attributes(tool), forward_attrs(serde))]
pub struct RawVariant {
    pub ident: Ident,
    pub attrs: Vec<Attribute>,
    /// `#[tool(alias = "...")]`, repeatable.
    #[darling(multiple)]
    pub alias: Vec<String>,
}

/// The value constraints, on a field or (inside `items(...)`) on its elements.
#[derive(FromMeta, Default)]
pub struct RawConstraints {
    /// `range(min = .., max = ..)`: inclusive bounds.
    pub range: Option<SpannedValue<RawRange>>,
    /// `exclusive_range(min = .., max = ..)`: exclusive bounds.
    pub exclusive_range: Option<SpannedValue<RawRange>>,
    /// `length(min = .., max = ..)`: characters of a string, elements of an array.
    pub length: Option<SpannedValue<RawLength>>,
    /// `pattern = "..."`: a regular expression.
    pub pattern: Option<syn::LitStr>,
    /// `format = "email"`, ...
    pub format: Option<syn::LitStr>,
    /// `multiple_of = ..`.
    pub multiple_of: Option<NumberLiteral>,
    /// `unique`: no two equal elements.
    pub unique: Flag,
    /// `items(...)`: the same constraints, for the elements of an array.
    pub items: Option<SpannedValue<Box<RawConstraints>>>,
}

/// `range(min = .., max = ..)`.
#[derive(FromMeta)]
pub struct RawRange {
    pub min: Option<NumberLiteral>,
    pub max: Option<NumberLiteral>,
}

/// `length(min = .., max = ..)`.
#[derive(FromMeta)]
pub struct RawLength {
    pub min: Option<SpannedValue<u64>>,
    pub max: Option<SpannedValue<u64>>,
}

/// A number as written in an attribute: `3`, `-90.0`, `1e3`.
#[derive(Clone, Debug)]
pub struct NumberLiteral {
    /// The value, exact when `integer` is `Some`.
    pub value: f64,
    /// The value, when written as an integer.
    pub integer: Option<i128>,
    pub span: Span,
}

impl NumberLiteral {
    /// The literal as it reads in messages.
    pub fn text(&self) -> String {
        match self.integer {
            Some(integer) => integer.to_string(),
            None => self.value.to_string(),
        }
    }
}

fn number_from_lit(lit: &Lit, negative: bool, span: Span) -> darling::Result<NumberLiteral> {
    let sign = if negative { -1.0 } else { 1.0 };
    match lit {
        Lit::Int(int) => {
            let magnitude: i128 = int.base10_parse().map_err(darling::Error::from)?;
            let integer = if negative { -magnitude } else { magnitude };
            Ok(NumberLiteral {
                value: integer as f64,
                integer: Some(integer),
                span,
            })
        }
        Lit::Float(float) => {
            let value: f64 = float.base10_parse().map_err(darling::Error::from)?;
            Ok(NumberLiteral {
                value: sign * value,
                integer: None,
                span,
            })
        }
        _ => Err(darling::Error::custom("expected a number").with_span(&span)),
    }
}

impl FromMeta for NumberLiteral {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Lit(lit) => number_from_lit(&lit.lit, false, expr.span()),
            Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => match &*unary.expr {
                Expr::Lit(lit) => number_from_lit(&lit.lit, true, expr.span()),
                _ => Err(darling::Error::custom("expected a number").with_span(expr)),
            },
            Expr::Group(group) => Self::from_expr(&group.expr),
            _ => Err(darling::Error::custom("expected a number").with_span(expr)),
        }
    }
}

/// A JSON value written as a Rust literal: a string, number or bool, or an array of them.
#[derive(Clone, Debug)]
pub struct JsonLiteral {
    pub value: Value,
    pub span: Span,
}

impl FromMeta for JsonLiteral {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        let span = expr.span();
        let value = match expr {
            Expr::Lit(lit) => match &lit.lit {
                Lit::Str(text) => Value::String(text.value()),
                Lit::Bool(flag) => Value::Bool(flag.value),
                number @ (Lit::Int(_) | Lit::Float(_)) => {
                    json_number(&number_from_lit(number, false, span)?)
                }
                _ => {
                    return Err(
                        darling::Error::custom("expected a string, number, bool or array")
                            .with_span(expr),
                    )
                }
            },
            Expr::Unary(_) => json_number(&NumberLiteral::from_expr(expr)?),
            Expr::Array(array) => Value::Array(
                array
                    .elems
                    .iter()
                    .map(|element| JsonLiteral::from_expr(element).map(|literal| literal.value))
                    .collect::<darling::Result<_>>()?,
            ),
            Expr::Group(group) => return Self::from_expr(&group.expr),
            _ => {
                return Err(
                    darling::Error::custom("expected a string, number, bool or array")
                        .with_span(expr),
                )
            }
        };
        Ok(JsonLiteral { value, span })
    }
}

fn json_number(number: &NumberLiteral) -> Value {
    match number.integer {
        Some(integer) => i64::try_from(integer)
            .map(Value::from)
            .or_else(|_| u64::try_from(integer).map(Value::from))
            .unwrap_or_else(|_| Value::from(number.value)),
        None => serde_json::Number::from_f64(number.value).map_or(Value::Null, Value::Number),
    }
}

/// The doc comment as a description: lines trimmed, joined with spaces within a paragraph,
/// paragraphs separated by a blank line. `None` without one.
pub fn doc_description(attrs: &[Attribute]) -> Option<String> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let syn::Meta::NameValue(meta) = &attr.meta else {
            continue;
        };
        let Expr::Lit(syn::ExprLit {
            lit: Lit::Str(text),
            ..
        }) = &meta.value
        else {
            continue;
        };
        for line in text.value().lines() {
            let line = line.trim();
            if line.is_empty() {
                if !current.is_empty() {
                    paragraphs.push(std::mem::take(&mut current));
                }
            } else {
                if !current.is_empty() {
                    current.push(' ');
                }
                current.push_str(line);
            }
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    (!paragraphs.is_empty()).then(|| paragraphs.join("\n\n"))
}

//! The `#[tool(...)]` attributes as written, read with darling (which reports unknown keys
//! with "did you mean", duplicate keys, and wrong value kinds at their spans).
//!
//! Errors carry the span of the whole offending tokens (`syn::Error::new_spanned`), so a
//! negative literal is underlined from its `-`, a type from its first to its last token.

use darling::util::Flag;
use darling::{FromDeriveInput, FromField, FromMeta, FromVariant};
use quote::ToTokens;
use serde_json::Value;
use syn::{Attribute, Expr, Lit, Meta, UnOp};

/// An error covering all of `tokens`.
pub fn error_at(tokens: &impl ToTokens, message: impl std::fmt::Display) -> darling::Error {
    syn::Error::new_spanned(tokens, message).into()
}

/// The container's `#[tool(...)]` attributes (the fields are read one by one, so that an
/// error in one does not hide the others).
#[derive(FromDeriveInput)]
#[darling(attributes(tool), forward_attrs(doc, serde))]
pub struct RawContainer {
    pub attrs: Vec<Attribute>,
    /// `#[tool(name = "...")]`: the tool's name.
    pub name: Option<syn::LitStr>,
    /// `#[tool(description = "...")]`: overrides the doc comment.
    pub description: Option<String>,
    /// `#[tool(schema = "...")]` on `struct Name(serde_json::Value);`: the JSON Schema of
    /// the whole arguments, checked as JSON (see `checked.rs`).
    pub schema: Option<syn::LitStr>,
    /// `#[tool(annotations = r#"{"title": "Dimension"}"#)]`: annotation keywords of the
    /// type's own schema, wherever it is a value (a field's own `annotations` replace a
    /// keyword it repeats). At a tool's root, `title` is the tool's name and this one is not
    /// written.
    pub annotations: Option<syn::LitStr>,
    /// `#[tool(no_description)]`: the doc comment is for readers only, the type has no
    /// description (a `description = "..."` still gives one). The schema compiler writes it
    /// where a type's doc comment holds only its notes.
    pub no_description: Flag,
    /// `#[tool(any_of)]` on an enum with `#[serde(tag = "...")]`: its schema is written
    /// `anyOf` rather than `oneOf` (the tag makes the alternatives exclusive either way, so
    /// both accept the same values). The schema compiler writes it where the source did.
    pub any_of: Flag,
    /// `#[tool(width_formats)]` on a tool: every number's Rust width is written as its
    /// `format` (`"format": "uint8"`, `"double"`), as schemars writes them. Left out by
    /// default: the bounds say the range, and strict providers drop the `format`.
    pub width_formats: Flag,
}

/// One field and its `#[tool(...)]` attributes.
#[derive(FromField)]
#[darling(attributes(tool), forward_attrs(doc, serde))]
pub struct RawField {
    pub ident: Option<syn::Ident>,
    pub attrs: Vec<Attribute>,
    #[darling(flatten)]
    pub constraints: RawConstraints,
    /// `#[tool(alias = "...")]`, repeatable.
    #[darling(multiple)]
    pub alias: Vec<String>,
    /// `#[tool(example = ...)]`, repeatable: a literal, or an array of literals.
    #[darling(multiple)]
    pub example: Vec<JsonLiteral>,
    /// `#[tool(nullable)]` on an `Option<T>` field: `null` is a value the field takes, and
    /// the field is required (unless serde gives it a default).
    pub nullable: Flag,
    /// `#[tool(schema = "...")]` on a `serde_json::Value` field: its JSON Schema, checked as
    /// JSON (see `checked.rs`).
    pub schema: Option<syn::LitStr>,
    /// `#[tool(no_description)]`: the doc comment is for readers only, the field has no
    /// description (a `description = "..."` still gives one). The schema compiler writes it
    /// where a field's doc comment holds only its notes.
    pub no_description: Flag,
}

/// One unit variant and its `#[tool(...)]` attributes.
#[derive(FromVariant)]
#[darling(attributes(tool), forward_attrs(serde))]
pub struct RawVariant {
    pub attrs: Vec<Attribute>,
    /// `#[tool(alias = "...")]`, repeatable.
    #[darling(multiple)]
    pub alias: Vec<String>,
}

/// The value constraints, on a field or (inside `items(...)` and `values(...)`) on its
/// elements.
#[derive(FromMeta, Default)]
pub struct RawConstraints {
    /// `description = "..."`: on a field, overrides the doc comment; inside `items(...)` or
    /// `values(...)`, describes each element.
    pub description: Option<String>,
    /// `annotations = r#"{"title": "Region"}"#`: annotation keywords of the field's schema
    /// (inside `items(...)` or `values(...)`, of each element's) as a JSON object, kept in
    /// the model as written, in order; they constrain nothing (`title`, `$comment`,
    /// `deprecated`, `readOnly`, `writeOnly`, `contentMediaType`, `contentEncoding`,
    /// `contentSchema`, and a `format` toolgate does not know). The schema compiler writes
    /// them, so a generated type keeps its schema's.
    pub annotations: Option<syn::LitStr>,
    /// `constant = <literal>`: the one value allowed (JSON Schema's `const`).
    pub constant: Option<JsonLiteral>,
    /// `enum_values = [...]`: the values allowed (JSON Schema's `enum`), for numbers, bools
    /// and `serde_json::Value` (string choices are better a unit enum).
    pub enum_values: Option<JsonLiteral>,
    /// `range(min = .., max = ..)`: inclusive bounds.
    pub range: Option<ListArg<RawRange>>,
    /// `exclusive_range(min = .., max = ..)`: exclusive bounds.
    pub exclusive_range: Option<ListArg<RawRange>>,
    /// `length(min = .., max = ..)`: characters of a string, elements of an array.
    pub length: Option<ListArg<RawRange>>,
    /// `pattern = "..."`: a regular expression.
    pub pattern: Option<Keyed<syn::LitStr>>,
    /// `format = "email"`, ...
    pub format: Option<Keyed<syn::LitStr>>,
    /// `multiple_of = ..`.
    pub multiple_of: Option<Keyed<NumberLiteral>>,
    /// `unique`: no two equal elements.
    pub unique: Flag,
    /// `items(...)`: the same constraints, for the elements of an array.
    pub items: Option<ListArg<Box<RawConstraints>>>,
    /// `values(...)`: the same constraints, for the values of a map.
    pub values: Option<ListArg<Box<RawConstraints>>>,
    /// `keys(...)`: string constraints for the keys of a map (JSON Schema's
    /// `propertyNames`): `length`, `pattern`, `format`, `enum_values`.
    pub keys: Option<ListArg<Box<RawConstraints>>>,
}

/// A value with the span of its key, for errors about the key (`pattern` on a number).
pub struct Keyed<T> {
    pub value: T,
    pub key: syn::Path,
}

impl<T: FromMeta> FromMeta for Keyed<T> {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        Ok(Keyed {
            value: T::from_meta(item)?,
            key: item.path().clone(),
        })
    }
}

/// A key that takes a list (`range(min = 1)`), with its key and whole text for errors.
pub struct ListArg<T> {
    pub value: T,
    pub key: syn::Path,
    pub meta: Meta,
}

impl<T: FromMeta> FromMeta for ListArg<T> {
    fn from_meta(item: &Meta) -> darling::Result<Self> {
        let key = item
            .path()
            .get_ident()
            .map(ToString::to_string)
            .unwrap_or_default();
        match item {
            Meta::List(list) if list.tokens.is_empty() => Err(error_at(
                item,
                format!(
                    "`{key}` needs bounds, as in `{key}({})`",
                    list_example(&key)
                ),
            )),
            Meta::List(_) => Ok(ListArg {
                value: T::from_meta(item)?,
                key: item.path().clone(),
                meta: item.clone(),
            }),
            _ => Err(error_at(
                item,
                format!(
                    "`{key}` takes a list, as in `{key}({})`",
                    list_example(&key)
                ),
            )),
        }
    }
}

fn list_example(key: &str) -> &'static str {
    match key {
        "range" => "min = 1, max = 9",
        "exclusive_range" => "min = 0",
        "length" => "min = 1, max = 64",
        _ => "length(max = 40)",
    }
}

/// `range(min = .., max = ..)`, `exclusive_range(...)`, `length(...)`.
#[derive(FromMeta)]
pub struct RawRange {
    pub min: Option<NumberLiteral>,
    pub max: Option<NumberLiteral>,
}

/// A number as written in an attribute: `3`, `-90.0`, `1e3`.
#[derive(Clone, Debug)]
pub struct NumberLiteral {
    /// The value, exact when `integer` is `Some`.
    pub value: f64,
    /// The value, when written as an integer.
    pub integer: Option<i128>,
    /// The tokens as written, for errors and messages.
    pub expr: Expr,
}

impl NumberLiteral {
    /// The value when it is a whole number an `i128` holds, written as an integer (`100`) or
    /// as a float (`100.0`, `1e20`): a bound of an integer field may be either, and keeps the
    /// spelling it was written with (issue 27 §5: a schema's `maximum: 100.0` reads back so).
    pub fn whole(&self) -> Option<i128> {
        // 2^127: the first float above every i128.
        const ABOVE_I128: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
        self.integer.or_else(|| {
            (self.value.fract() == 0.0 && self.value.abs() < ABOVE_I128)
                .then_some(self.value as i128)
        })
    }

    /// The literal as written (`-1`, `1e39`).
    pub fn text(&self) -> String {
        self.expr.to_token_stream().to_string().replace(' ', "")
    }
}

fn number_from_lit(lit: &Lit, negative: bool, expr: &Expr) -> darling::Result<NumberLiteral> {
    let number = match lit {
        Lit::Int(int) => {
            // `-1` may arrive as one negative literal token or as `-` and `1`.
            let carried = toolgate_core::num::CARRIED_INTEGERS;
            let beyond = || {
                error_at(
                    expr,
                    format!(
                        "beyond the integers toolgate carries exactly ({} to {}): a JSON value holds no larger integer, and a float would round it",
                        carried.start(),
                        carried.end()
                    ),
                )
            };
            let integer = match int.base10_parse::<i128>() {
                Ok(value) => value,
                Err(_) if int.base10_parse::<u128>().is_ok() => return Err(beyond()),
                Err(_) => return Err(error_at(expr, "not a whole number")),
            };
            let integer = if negative { -integer } else { integer };
            if !carried.contains(&integer) {
                return Err(beyond());
            }
            NumberLiteral {
                value: integer as f64,
                integer: Some(integer),
                expr: expr.clone(),
            }
        }
        Lit::Float(float) => {
            let value: f64 = float
                .base10_parse()
                .map_err(|_| error_at(expr, "not a number"))?;
            NumberLiteral {
                value: if negative { -value } else { value },
                integer: None,
                expr: expr.clone(),
            }
        }
        _ => {
            return Err(error_at(
                expr,
                "expected a number, as in `min = 1` or `min = -0.5`",
            ))
        }
    };
    if !number.value.is_finite() {
        return Err(error_at(expr, "not a finite number"));
    }
    Ok(number)
}

impl FromMeta for NumberLiteral {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        match expr {
            Expr::Lit(lit) => number_from_lit(&lit.lit, false, expr),
            Expr::Unary(unary) if matches!(unary.op, UnOp::Neg(_)) => match &*unary.expr {
                Expr::Lit(lit) => number_from_lit(&lit.lit, true, expr),
                _ => Err(error_at(
                    expr,
                    "expected a number, as in `min = 1` or `min = -0.5`",
                )),
            },
            Expr::Group(group) => Self::from_expr(&group.expr),
            _ => Err(error_at(
                expr,
                "expected a number, as in `min = 1` or `min = -0.5`",
            )),
        }
    }
}

/// A JSON value written as a Rust literal: a string, number or bool, or an array of them.
#[derive(Clone, Debug)]
pub struct JsonLiteral {
    pub value: Value,
    pub expr: Expr,
}

const EXAMPLE_FORMS: &str = "expected a string, number, bool, or an array of them";

impl FromMeta for JsonLiteral {
    fn from_expr(expr: &Expr) -> darling::Result<Self> {
        let value = match expr {
            Expr::Lit(lit) => match &lit.lit {
                Lit::Str(text) => Value::String(text.value()),
                Lit::Bool(flag) => Value::Bool(flag.value),
                number @ (Lit::Int(_) | Lit::Float(_)) => {
                    json_number(&number_from_lit(number, false, expr)?)
                }
                _ => return Err(error_at(expr, EXAMPLE_FORMS)),
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
            _ => return Err(error_at(expr, EXAMPLE_FORMS)),
        };
        Ok(JsonLiteral {
            value,
            expr: expr.clone(),
        })
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
///
/// A blank `///` line is `#[doc = ""]`, which holds no line (`"".lines()` is empty) but is
/// one: each attribute's text is split at every `\n`, so an empty one separates paragraphs
/// too (issue 27 §5: `two` + `///` + `paragraphs` was read as `"two paragraphs"`).
pub fn doc_description(attrs: &[Attribute]) -> Option<String> {
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for attr in attrs.iter().filter(|a| a.path().is_ident("doc")) {
        let Meta::NameValue(meta) = &attr.meta else {
            continue;
        };
        let Expr::Lit(syn::ExprLit {
            lit: Lit::Str(text),
            ..
        }) = &meta.value
        else {
            continue;
        };
        for line in text.value().split('\n') {
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

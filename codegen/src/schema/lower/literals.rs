//! Rust tokens for the values in a schema: number and JSON literals, bounds and lengths as
//! `#[tool(...)]` keys, doc comments, defaults, and the Rust type of enum values.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;
use toolgate_core::model::{EnumSchema, IntWidth, Kind, Num, Schema};

/// `i64`, or `u64` when the bounds reach above `i64::MAX`.
pub(super) fn default_width(bounds: &toolgate_core::model::Bounds) -> IntWidth {
    let above = [bounds.maximum, bounds.exclusive_maximum, bounds.minimum]
        .into_iter()
        .flatten()
        .any(|bound| bound > Num::from(i64::MAX));
    IntWidth {
        bits: 64,
        signed: !above,
    }
}

/// Whether the derive reads `text` back unchanged from a doc comment (it trims lines and
/// joins them); if not, the description is also given as `#[tool(description = ...)]`.
pub(super) fn doc_reproduces(text: &str) -> bool {
    !text.is_empty()
        && !text.contains('\n')
        && text.trim() == text
        && !text.contains("  ")
        && !text.contains(MARKDOWN_ESCAPED)
}

/// Characters rustdoc would read as HTML or links: escaped in doc comments.
pub(super) const MARKDOWN_ESCAPED: [char; 5] = ['<', '>', '[', ']', '\\'];

/// A doc comment of `text`, escaped so rustdoc shows it as written.
pub(super) fn doc_attr(text: &str) -> TokenStream {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if MARKDOWN_ESCAPED.contains(&c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    let lines = escaped.lines().map(|line| format!(" {line}"));
    quote!(#(#[doc = #lines])*)
}

/// A number as a literal the derive reads: `-3`, `0.5`.
pub(super) fn number(value: Num) -> TokenStream {
    match value {
        Num::Int(integer) if integer < 0 => {
            let literal = Literal::u128_unsuffixed(integer.unsigned_abs());
            quote!(-#literal)
        }
        Num::Int(integer) => {
            let literal = Literal::u128_unsuffixed(integer.unsigned_abs());
            quote!(#literal)
        }
        Num::Float(float) if float < 0.0 => {
            let literal = Literal::f64_unsuffixed(-float);
            quote!(-#literal)
        }
        Num::Float(float) => {
            let literal = Literal::f64_unsuffixed(float);
            quote!(#literal)
        }
    }
}

/// The bounds without those the Rust type implies (the reader fills a width's range in;
/// the derive fills it in again from the type).
pub(super) fn without_range(
    bounds: &toolgate_core::model::Bounds,
    range: Option<(Num, Num)>,
) -> toolgate_core::model::Bounds {
    let mut bounds = bounds.clone();
    if let Some((low, high)) = range {
        if bounds.minimum == Some(low) {
            bounds.minimum = None;
        }
        if bounds.maximum == Some(high) {
            bounds.maximum = None;
        }
    }
    bounds
}

pub(super) fn bounds(bounds: &toolgate_core::model::Bounds) -> Vec<TokenStream> {
    let mut keys = Vec::new();
    let pair = |min: Option<Num>, max: Option<Num>| {
        let min = min.map(|m| {
            let m = number(m);
            quote!(min = #m)
        });
        let max = max.map(|m| {
            let m = number(m);
            quote!(max = #m)
        });
        let parts: Vec<TokenStream> = min.into_iter().chain(max).collect();
        (!parts.is_empty()).then(|| quote!(#(#parts),*))
    };
    if let Some(inner) = pair(bounds.minimum, bounds.maximum) {
        keys.push(quote!(range(#inner)));
    }
    if let Some(inner) = pair(bounds.exclusive_minimum, bounds.exclusive_maximum) {
        keys.push(quote!(exclusive_range(#inner)));
    }
    keys
}

pub(super) fn range_key(key: &str, min: Option<u64>, max: Option<u64>) -> Option<TokenStream> {
    let key = format_ident!("{}", key);
    let min = min.map(|m| {
        let m = Literal::u64_unsuffixed(m);
        quote!(min = #m)
    });
    let max = max.map(|m| {
        let m = Literal::u64_unsuffixed(m);
        quote!(max = #m)
    });
    let parts: Vec<TokenStream> = min.into_iter().chain(max).collect();
    (!parts.is_empty()).then(|| quote!(#key(#(#parts),*)))
}

/// `value` as a literal the derive takes (`example`, `constant`, `enum_values`): a scalar
/// or an array of scalars.
pub(super) fn literal(value: &Value) -> Option<TokenStream> {
    fn scalar(value: &Value) -> Option<TokenStream> {
        Some(match value {
            Value::Bool(flag) => quote!(#flag),
            Value::String(text) => quote!(#text),
            Value::Number(n) => number(Num::from_json(n)),
            _ => return None,
        })
    }
    match value {
        Value::Array(items) => {
            let items: Option<Vec<TokenStream>> = items.iter().map(scalar).collect();
            let items = items?;
            Some(quote!([#(#items),*]))
        }
        other => scalar(other),
    }
}

/// `example = <literal>` for the examples the derive can take.
pub(super) fn example_literal(example: &Value) -> Option<TokenStream> {
    let literal = literal(example)?;
    Some(quote!(example = #literal))
}

/// The narrowest Rust type that holds every value.
pub(super) fn value_type(values: &[Value]) -> TokenStream {
    if values.iter().all(Value::is_string) {
        quote!(::std::string::String)
    } else if values.iter().all(Value::is_boolean) {
        quote!(bool)
    } else if values.iter().all(Value::is_i64) {
        quote!(i64)
    } else if values.iter().all(Value::is_u64) {
        quote!(u64)
    } else if values.iter().all(Value::is_number) {
        quote!(f64)
    } else {
        quote!(::toolgate::__private::serde_json::Value)
    }
}

/// Whether an enum's values are all strings (a Rust enum); others are a value with
/// `enum_values`.
pub(super) fn string_enum(enumeration: &EnumSchema) -> bool {
    enumeration.values.iter().all(|v| v.value.is_string())
}

/// The keys inside `items(...)` or `values(...)`: the element's constraints, and its
/// description unless its type carries it (a struct, a union's enum, a definition).
pub(super) fn element_keys(
    mut constraints: Vec<TokenStream>,
    element: &Schema,
) -> Vec<TokenStream> {
    let carried = match &element.kind {
        Kind::Object(object) => !object.fields.is_empty(),
        Kind::Union(_) | Kind::Ref(_) => true,
        _ => false,
    };
    if let (Some(text), false) = (&element.description, carried) {
        constraints.push(quote!(description = #text));
    }
    constraints
}

/// The Rust expression of a default of a value of `kind`: a literal for scalars, else read
/// from its JSON.
pub(super) fn default_expression(default: &Value, kind: Option<&Kind>) -> TokenStream {
    match (default, kind) {
        (Value::Bool(flag), Some(Kind::Boolean)) => quote!(#flag),
        (Value::Number(n), Some(Kind::Number(_))) => {
            number(Num::Float(n.as_f64().unwrap_or_default()))
        }
        (Value::Number(n), Some(Kind::Integer(_))) => number(Num::from_json(n)),
        (Value::String(text), Some(Kind::String(_))) => {
            quote!(::std::string::String::from(#text))
        }
        (other, _) => {
            let json = other.to_string();
            quote!(::toolgate::__private::from_json_default(#json))
        }
    }
}

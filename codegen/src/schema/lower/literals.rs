//! Rust tokens for the values in a schema: number and JSON literals, bounds and lengths as
//! `#[tool(...)]` keys, defaults, and the Rust type of enum values.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;
use std::collections::BTreeMap;

use toolgate_core::model::{EnumSchema, Kind, Num, Schema};

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
    // Only a bound spelled as the type writes its range: `maximum: 127.0` on an `int8`
    // stays, so the model writes it as the schema did (issue 27 §5).
    // A bound at an edge of the carried integers stays too: the type's model does not
    // write that edge back (`Bounds::fill_range`).
    let same = |bound: Option<Num>, edge: Num| {
        bound.is_some_and(|bound| {
            bound == edge
                && matches!(bound, Num::Int(_)) == matches!(edge, Num::Int(_))
                && !toolgate_core::num::is_carried_edge(edge)
        })
    };
    // Nor one beside an exclusive bound on its side, which takes the width's own out
    // (`Schema::exclusive_minimum`): the schema's is written, and set after it.
    let mut bounds = bounds.clone();
    if let Some((low, high)) = range {
        if same(bounds.minimum, low) && bounds.exclusive_minimum.is_none() {
            bounds.minimum = None;
        }
        if same(bounds.maximum, high) && bounds.exclusive_maximum.is_none() {
            bounds.maximum = None;
        }
    }
    bounds
}

/// `range(...)` and `exclusive_range(...)` of `bounds`, each bound written by `literal`.
pub(super) fn bounds(
    bounds: &toolgate_core::model::Bounds,
    literal: fn(Num) -> TokenStream,
) -> Vec<TokenStream> {
    let mut keys = Vec::new();
    let pair = |min: Option<Num>, max: Option<Num>| {
        let min = min.map(|m| {
            let m = literal(m);
            quote!(min = #m)
        });
        let max = max.map(|m| {
            let m = literal(m);
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
        quote!(::toolgate::serde_json::Value)
    }
}

/// Whether an enum's values are all strings (a Rust enum); others are a value with
/// `enum_values`.
pub(super) fn string_enum(enumeration: &EnumSchema) -> bool {
    enumeration.values.iter().all(|v| v.value.is_string())
}

/// The keys inside `items(...)` or `values(...)`: the element's constraints, and its
/// description and annotations unless its type carries them (a struct, a union's enum, a
/// named definition); a definition written in place gives its own.
pub(super) fn element_keys(
    mut constraints: Vec<TokenStream>,
    element: &Schema,
    definitions: &BTreeMap<String, Schema>,
) -> Vec<TokenStream> {
    let element = super::references::with_carried_annotations(element, definitions);
    // What the element is once the definitions written in place are: a named definition, a
    // struct or a union is a type that carries its own.
    let mut resolved = &*element;
    for _ in 0..toolgate_core::model::MOST_FOLLOWED_REFERENCES {
        let Kind::Ref(key) = &resolved.kind else {
            break;
        };
        match definitions.get(key) {
            Some(definition) if !super::references::is_named(definition) => resolved = definition,
            _ => break,
        }
    }
    let carried = match &resolved.kind {
        Kind::Object(object) => !object.fields.is_empty(),
        Kind::Union(_) | Kind::Ref(_) => true,
        _ => false,
    };
    if carried {
        return constraints;
    }
    if let Some(text) = &element.description {
        constraints.push(quote!(description = #text));
    }
    constraints.extend(super::annotations_key(&element.annotations));
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
        // `5.0` is the integer 5: the function returns the field's integer type.
        (Value::Number(n), Some(Kind::Integer(_))) => {
            super::numbers::whole_literal(Num::from_json(n))
                .unwrap_or_else(|| number(Num::from_json(n)))
        }
        (Value::String(text), Some(Kind::String(_))) => {
            quote!(::std::string::String::from(#text))
        }
        (other, _) => {
            let json = other.to_string();
            quote!(::toolgate::__private::from_json_default(#json))
        }
    }
}

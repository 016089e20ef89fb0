//! What a field's Rust type is, read from its syntax ([`Shape`]), and whether the
//! constraints written on it fit ([`check_constraints`]).
//!
//! The derive only sees tokens, so it knows the types it can name: `bool`, the integer and
//! float types, `String`, `Option`, `Vec`, `Box`, `HashMap`/`BTreeMap` with `String` keys and
//! `serde_json::Value`. Any other path is taken to be a type that implements `ToolArg` (a
//! nested `#[derive(Tool)]` type); the compiler checks that, and only `description`, `alias`
//! and `example` may be written on such fields (constraints belong on the type itself).

use darling::util::SpannedValue;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::{GenericArgument, PathArguments, Type};
use toolgate_core::format::Format;

use super::attrs::{NumberLiteral, RawConstraints, RawRange};

/// The syntactic kind of a field type.
#[derive(Clone, Debug)]
pub enum Shape {
    Bool,
    Integer {
        bits: u8,
        signed: bool,
    },
    Float {
        bits: u8,
    },
    String,
    Option(Box<Shape>),
    Box(Box<Shape>),
    Array(Box<Shape>),
    /// A map with `String` keys (its value type is checked, but takes no constraints).
    Map,
    Any,
    /// Any other path: a type that implements `ToolArg`.
    Named,
}

impl Shape {
    /// The shape values have, through `Option` and `Box`.
    pub fn value(&self) -> &Shape {
        match self {
            Shape::Option(inner) | Shape::Box(inner) => inner.value(),
            other => other,
        }
    }

    fn describe(&self) -> &'static str {
        match self.value() {
            Shape::Bool => "a bool",
            Shape::Integer { .. } => "an integer",
            Shape::Float { .. } => "a float",
            Shape::String => "a string",
            Shape::Array(_) => "an array",
            Shape::Map => "a map",
            Shape::Any => "any JSON value",
            Shape::Named => "a type toolgate cannot see into",
            Shape::Option(_) | Shape::Box(_) => unreachable!("value() looks through them"),
        }
    }
}

/// The one type argument of `Option<T>`, `Vec<T>`, `Box<T>`.
fn type_arguments(arguments: &PathArguments) -> Vec<&Type> {
    match arguments {
        PathArguments::AngleBracketed(angle) => angle
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

const UNSUPPORTED: [(&str, &str); 14] = [
    (
        "char",
        "use `String` with `#[tool(length(min = 1, max = 1))]`",
    ),
    ("str", "use `String`"),
    ("HashSet", "use `Vec<T>` with `#[tool(unique)]`"),
    ("BTreeSet", "use `Vec<T>` with `#[tool(unique)]`"),
    ("VecDeque", "use `Vec<T>`"),
    ("LinkedList", "use `Vec<T>`"),
    ("BinaryHeap", "use `Vec<T>`"),
    ("Rc", "use `Box<T>` or `T`"),
    ("Arc", "use `Box<T>` or `T`"),
    ("Cow", "use the owned type"),
    ("Cell", "use `T`"),
    ("RefCell", "use `T`"),
    ("PathBuf", "use `String`"),
    (
        "Duration",
        "use an integer of the unit you mean, e.g. `u64` seconds",
    ),
];

/// Reads the shape of `ty`, or says why the derive cannot use it.
pub fn classify(ty: &Type) -> syn::Result<Shape> {
    let unsupported = |what: &str| {
        syn::Error::new(
            ty.span(),
            format!("{what} cannot be a tool argument; #[derive(Tool)] supports bool, integers, floats, String, Option, Vec, Box, HashMap/BTreeMap<String, _>, serde_json::Value and types that derive Tool"),
        )
    };
    let path = match ty {
        Type::Paren(inner) => return classify(&inner.elem),
        Type::Group(inner) => return classify(&inner.elem),
        Type::Reference(_) => {
            return Err(unsupported(
                "a reference (tool arguments are owned: `String`, not `&str`)",
            ))
        }
        Type::Tuple(tuple) if tuple.elems.is_empty() => return Err(unsupported("`()`")),
        Type::Tuple(_) => return Err(unsupported("a tuple")),
        Type::Array(_) | Type::Slice(_) => {
            return Err(unsupported("a fixed-size array or slice (use `Vec<T>`)"))
        }
        Type::Path(path) if path.qself.is_none() => &path.path,
        _ => return Err(unsupported(&format!("`{}`", ty.to_token_stream()))),
    };
    let Some(last) = path.segments.last() else {
        return Err(unsupported("an empty path"));
    };
    let name = last.ident.to_string();
    let arguments = type_arguments(&last.arguments);
    let one = |wrap: fn(Box<Shape>) -> Shape| -> syn::Result<Shape> {
        match arguments.as_slice() {
            [inner] => Ok(wrap(Box::new(classify(inner)?))),
            _ => Err(syn::Error::new(
                last.span(),
                format!("`{name}` takes one type argument here"),
            )),
        }
    };
    let integer = |bits, signed| Ok(Shape::Integer { bits, signed });
    match name.as_str() {
        "bool" => Ok(Shape::Bool),
        "i8" => integer(8, true),
        "i16" => integer(16, true),
        "i32" => integer(32, true),
        "i64" | "isize" => integer(64, true),
        "i128" => integer(128, true),
        "u8" => integer(8, false),
        "u16" => integer(16, false),
        "u32" => integer(32, false),
        "u64" | "usize" => integer(64, false),
        "u128" => integer(128, false),
        "f32" => Ok(Shape::Float { bits: 32 }),
        "f64" => Ok(Shape::Float { bits: 64 }),
        "String" => Ok(Shape::String),
        "Value" => Ok(Shape::Any),
        "Option" => one(Shape::Option),
        "Box" => one(Shape::Box),
        "Vec" => one(Shape::Array),
        "HashMap" | "BTreeMap" => match arguments.as_slice() {
            [key, value, ..] => match classify(key)? {
                Shape::String => classify(value).map(|_| Shape::Map),
                _ => Err(syn::Error::new(
                    key.span(),
                    "map keys must be `String` (JSON object keys are strings)",
                )),
            },
            _ => Err(syn::Error::new(
                last.span(),
                format!("`{name}` takes a key and a value type"),
            )),
        },
        other => match UNSUPPORTED
            .iter()
            .find(|(unsupported, _)| *unsupported == other)
        {
            Some((_, advice)) => Err(unsupported(&format!("`{other}` ({advice})"))),
            None => Ok(Shape::Named),
        },
    }
}

/// The range of an integer type, as `i128` (for `u128` the upper end is clamped; bounds
/// that large are rejected anyway).
fn integer_range(bits: u8, signed: bool) -> (i128, i128) {
    match (bits, signed) {
        (128, true) => (i128::MIN, i128::MAX),
        (128, false) => (0, i128::MAX),
        (bits, true) => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
        (bits, false) => (0, (1i128 << bits) - 1),
    }
}

fn type_name(bits: u8, signed: bool) -> String {
    format!("{}{bits}", if signed { 'i' } else { 'u' })
}

/// Checks one bound against the number shape; errors at the bound's span.
fn check_bound(
    bound: &NumberLiteral,
    shape: &Shape,
    key: &str,
    errors: &mut darling::error::Accumulator,
) {
    match shape {
        Shape::Integer { bits, signed } => {
            let Some(value) = bound.integer else {
                errors.push(
                    darling::Error::custom(format!(
                        "`{key}` of an integer field must be an integer, not {}",
                        bound.text()
                    ))
                    .with_span(&bound.span),
                );
                return;
            };
            let (min, max) = integer_range(*bits, *signed);
            if value < min || value > max {
                errors.push(
                    darling::Error::custom(format!(
                        "{value} is outside the range of `{}` ({min}..={max})",
                        type_name(*bits, *signed)
                    ))
                    .with_span(&bound.span),
                );
            }
        }
        Shape::Float { bits: 32 } if bound.value.abs() > f64::from(f32::MAX) => {
            errors.push(
                darling::Error::custom(format!("{} is outside the range of `f32`", bound.text()))
                    .with_span(&bound.span),
            );
        }
        _ => {}
    }
}

fn check_range(
    range: &SpannedValue<RawRange>,
    shape: &Shape,
    key: &str,
    exclusive: bool,
    errors: &mut darling::error::Accumulator,
) {
    if range.min.is_none() && range.max.is_none() {
        errors.push(
            darling::Error::custom(format!("`{key}` needs `min`, `max` or both"))
                .with_span(&range.span()),
        );
    }
    for bound in range.min.iter().chain(&range.max) {
        check_bound(bound, shape, key, errors);
    }
    if let (Some(min), Some(max)) = (&range.min, &range.max) {
        let empty = if exclusive {
            min.value >= max.value
        } else {
            min.value > max.value
        };
        if empty {
            let relation = if exclusive {
                "not below"
            } else {
                "greater than"
            };
            errors.push(
                darling::Error::custom(format!(
                    "`{key}`: min ({}) is {relation} max ({}), so no value fits",
                    min.text(),
                    max.text()
                ))
                .with_span(&range.span()),
            );
        }
    }
}

fn misfit(key: &str, applies_to: &str, shape: &Shape, span: proc_macro2::Span) -> darling::Error {
    darling::Error::custom(format!(
        "`{key}` applies to {applies_to}, but this is {}",
        shape.describe()
    ))
    .with_span(&span)
}

/// Checks that every constraint fits `shape` (looking through `Option` and `Box`), with its
/// values in range; every error goes to `errors` at the span of the offending tokens.
pub fn check_constraints(
    constraints: &RawConstraints,
    shape: &Shape,
    errors: &mut darling::error::Accumulator,
) {
    let value = shape.value();
    let is_number = matches!(value, Shape::Integer { .. } | Shape::Float { .. });
    for (key, range, exclusive) in [
        ("range", &constraints.range, false),
        ("exclusive_range", &constraints.exclusive_range, true),
    ] {
        if let Some(range) = range {
            if is_number {
                check_range(range, value, key, exclusive, errors);
            } else {
                errors.push(misfit(key, "numbers", value, range.span()));
            }
        }
    }
    if let Some(divisor) = &constraints.multiple_of {
        if !is_number {
            errors.push(misfit("multiple_of", "numbers", value, divisor.span));
        } else if divisor.value <= 0.0 {
            errors.push(
                darling::Error::custom("`multiple_of` must be greater than 0")
                    .with_span(&divisor.span),
            );
        } else {
            check_bound(divisor, value, "multiple_of", errors);
        }
    }
    if let Some(length) = &constraints.length {
        if !matches!(value, Shape::String | Shape::Array(_)) {
            errors.push(misfit("length", "strings and arrays", value, length.span()));
        }
        if length.min.is_none() && length.max.is_none() {
            errors.push(
                darling::Error::custom("`length` needs `min`, `max` or both")
                    .with_span(&length.span()),
            );
        }
        if let (Some(min), Some(max)) = (&length.min, &length.max) {
            if **min > **max {
                errors.push(
                    darling::Error::custom(format!(
                        "`length`: min ({}) is greater than max ({}), so no value fits",
                        **min, **max
                    ))
                    .with_span(&length.span()),
                );
            }
        }
    }
    if let Some(pattern) = &constraints.pattern {
        if !matches!(value, Shape::String) {
            errors.push(misfit("pattern", "strings", value, pattern.span()));
        }
        if let Err(error) = regex::Regex::new(&pattern.value()) {
            errors.push(
                darling::Error::custom(format!("the pattern does not compile: {error}"))
                    .with_span(pattern),
            );
        }
    }
    if let Some(format) = &constraints.format {
        if !matches!(value, Shape::String) {
            errors.push(misfit("format", "strings", value, format.span()));
        }
        if Format::from_name(&format.value()).is_none() {
            let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
            let mut message = format!(
                "unknown format {:?}; toolgate checks {}",
                format.value(),
                names.join(", ")
            );
            if let Some(near) =
                toolgate_core::suggest::nearest(&format.value(), names.iter().copied())
            {
                message.push_str(&format!(" (did you mean {near:?}?)"));
            }
            errors.push(darling::Error::custom(message).with_span(format));
        }
    }
    if constraints.unique.is_present() && !matches!(value, Shape::Array(_)) {
        errors.push(misfit("unique", "arrays", value, constraints.unique.span()));
    }
    if let Some(items) = &constraints.items {
        match value {
            Shape::Array(element) => check_constraints(items, element, errors),
            _ => errors.push(misfit("items", "arrays", value, items.span())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(source: &str) -> syn::Result<Shape> {
        classify(&syn::parse_str(source).unwrap())
    }

    #[test]
    fn classifies_supported_types() {
        assert!(matches!(
            shape("u8").unwrap(),
            Shape::Integer {
                bits: 8,
                signed: false
            }
        ));
        assert!(matches!(
            shape("std::string::String").unwrap(),
            Shape::String
        ));
        assert!(matches!(
            shape("Option<Vec<f32>>").unwrap().value(),
            Shape::Array(_)
        ));
        assert!(matches!(
            shape("BTreeMap<String, Contact>").unwrap(),
            Shape::Map
        ));
        assert!(matches!(shape("serde_json::Value").unwrap(), Shape::Any));
        assert!(matches!(shape("Contact").unwrap(), Shape::Named));
    }

    #[test]
    fn refuses_unsupported_types() {
        for source in [
            "&str",
            "(u8, u8)",
            "[u8; 4]",
            "char",
            "HashSet<String>",
            "HashMap<u32, String>",
            "Vec<&str>",
            "fn()",
        ] {
            assert!(shape(source).is_err(), "{source}");
        }
    }

    #[test]
    fn integer_ranges() {
        assert_eq!(integer_range(8, false), (0, 255));
        assert_eq!(integer_range(8, true), (-128, 127));
        assert_eq!(integer_range(64, false).1, i128::from(u64::MAX));
    }
}

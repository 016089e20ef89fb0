//! What a field's Rust type is, read from its syntax ([`Shape`]), and whether the
//! constraints written on it fit (`constraints.rs`, which reads the shape).
//!
//! The derive only sees tokens, so it knows the types it can name: `bool`, the integer and
//! float types, `String`, `Option`, `Nullable`, `Vec`, `Box`, `HashMap`/`BTreeMap` with `String` keys and
//! `serde_json::Value`. Any other path is taken to be a type that implements `ToolArg` (a
//! nested `#[derive(Tool)]` type); the compiler checks that, and only `description`, `alias`
//! and `example` may be written on such fields (constraints belong on the type itself).
//!
//! Types are known by their last name (`Option`, `std::option::Option` and
//! `::core::option::Option` alike). A path that starts with `self`, `super` or `crate` names
//! a type of this crate, never one of those: `self::Box` is a type called `Box` that derives
//! Tool (the schema compiler writes its types so when their names are ones read here, see
//! [`reads_by_name`]).

use quote::ToTokens;
use syn::{GenericArgument, PathArguments, Type};

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
    /// `Option<T>` or `toolgate::Nullable<T>`: a value or `null`.
    Option(Box<Shape>),
    Box(Box<Shape>),
    Array(Box<Shape>),
    /// A map with `String` keys, and the shape of its values.
    Map(Box<Shape>),
    /// `()`: only `null`.
    Null,
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

    /// The shape in words, for messages.
    pub fn describe(&self) -> &'static str {
        match self.value() {
            Shape::Bool => "a bool",
            Shape::Integer { .. } => "an integer",
            Shape::Float { .. } => "a float",
            Shape::String => "a string",
            Shape::Array(_) => "an array",
            Shape::Map(_) => "a map",
            Shape::Null => "`()` (only null)",
            Shape::Any => "any JSON value",
            Shape::Named => "a type toolgate cannot see into",
            Shape::Option(_) | Shape::Box(_) => unreachable!("value() looks through them"),
        }
    }
}

/// The last name of a path type and its type arguments: `Option` and `[T]` of
/// `std::option::Option<T>`, `BTreeMap` and `[String, T]` of `BTreeMap<String, T>`.
pub fn generic_arguments(ty: &Type) -> Option<(&syn::Ident, Vec<&Type>)> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    Some((&last.ident, type_arguments(&last.arguments)))
}

/// The type arguments of `Option<T>`, `Vec<T>`, `Box<T>`, `HashMap<K, V>`.
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

/// What the derive supports, for messages.
const SUPPORTED: &str = "#[derive(Tool)] supports bool, integers, floats, String, Option, Vec, Box, HashMap/BTreeMap<String, _>, serde_json::Value, () (null) and types that derive Tool";

/// Reads the shape of `ty`, or says why the derive cannot use it (the error covers the
/// whole type).
pub fn classify(ty: &Type) -> syn::Result<Shape> {
    let unsupported = |what: &str, advice: &str| {
        let advice = if advice.is_empty() {
            String::new()
        } else {
            format!(": {advice}")
        };
        syn::Error::new_spanned(
            ty,
            format!("{what} cannot be a tool argument{advice}; {SUPPORTED}"),
        )
    };
    let path = match ty {
        Type::Paren(inner) => return classify(&inner.elem),
        Type::Group(inner) => return classify(&inner.elem),
        Type::Reference(_) => {
            return Err(unsupported(
                "a reference",
                "tool arguments are owned (`String`, not `&str`)",
            ))
        }
        Type::Tuple(tuple) if tuple.elems.is_empty() => return Ok(Shape::Null),
        // A Rust tuple implements `ToolArg` (`prefixItems`); its elements must be types
        // toolgate knows. Constraints on elements go on a derived tuple struct's fields.
        Type::Tuple(tuple) if tuple.elems.len() <= 8 => {
            for element in &tuple.elems {
                classify(element)?;
            }
            return Ok(Shape::Named);
        }
        Type::Tuple(_) => {
            return Err(unsupported(
                "a tuple of more than 8 elements",
                "use a tuple struct that derives Tool",
            ))
        }
        Type::Array(_) | Type::Slice(_) => {
            return Err(unsupported(
                "a fixed-size array or slice",
                "use `Vec<T>` with `#[tool(length(..))]`",
            ))
        }
        Type::Path(path) if path.qself.is_none() => &path.path,
        _ => return Err(unsupported(&format!("`{}`", ty.to_token_stream()), "")),
    };
    let Some(last) = path.segments.last() else {
        return Err(unsupported("an empty path", ""));
    };
    if is_local(path) {
        return Ok(Shape::Named);
    }
    let name = last.ident.to_string();
    let arguments = type_arguments(&last.arguments);
    let one = |wrap: fn(Box<Shape>) -> Shape| -> syn::Result<Shape> {
        match arguments.as_slice() {
            [inner] => Ok(wrap(Box::new(classify(inner)?))),
            _ => Err(syn::Error::new_spanned(
                ty,
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
        "Option" | "Nullable" => one(Shape::Option),
        "Box" => one(Shape::Box),
        "Vec" => one(Shape::Array),
        "HashMap" | "BTreeMap" => match arguments.as_slice() {
            [key, value, ..] => match classify(key)? {
                Shape::String => classify(value).map(|value| Shape::Map(Box::new(value))),
                _ => Err(syn::Error::new_spanned(
                    key,
                    "map keys must be `String` (JSON object keys are strings)",
                )),
            },
            _ => Err(syn::Error::new_spanned(
                ty,
                format!("`{name}` takes a key and a value type"),
            )),
        },
        other => match UNSUPPORTED
            .iter()
            .find(|(unsupported, _)| *unsupported == other)
        {
            Some((_, advice)) => Err(unsupported(&format!("`{other}`"), advice)),
            None => Ok(Shape::Named),
        },
    }
}

/// The names [`classify`] reads as a type it knows (or refuses) wherever the path comes from.
const READ_BY_NAME: [&str; 24] = [
    "bool", "i8", "i16", "i32", "i64", "isize", "i128", "u8", "u16", "u32", "u64", "usize", "u128",
    "f32", "f64", "String", "Value", "Option", "Nullable", "Box", "Vec", "HashMap", "BTreeMap",
    "str",
];

/// Whether a type called `name` would be read by its name as a known (or refused) type:
/// such a type of this crate must be written with a path from `self`, `super` or `crate`.
pub fn reads_by_name(name: &str) -> bool {
    READ_BY_NAME.contains(&name) || UNSUPPORTED.iter().any(|(known, _)| *known == name)
}

/// Whether `path` starts with `self`, `super` or `crate`: a type of this crate.
fn is_local(path: &syn::Path) -> bool {
    path.leading_colon.is_none()
        && path.segments.len() > 1
        && path.segments.first().is_some_and(|first| {
            first.ident == "self" || first.ident == "super" || first.ident == "crate"
        })
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
            Shape::Map(_)
        ));
        assert!(matches!(shape("()").unwrap(), Shape::Null));
        assert!(matches!(shape("serde_json::Value").unwrap(), Shape::Any));
        assert!(matches!(shape("Contact").unwrap(), Shape::Named));
        assert!(matches!(shape("(f64, f64)").unwrap(), Shape::Named));
    }

    /// Issue 27 §9 (G5): a type of this crate called like a std type is a named type when
    /// its path says it is local, and every such name is one `reads_by_name` reports.
    #[test]
    fn local_paths_name_types_of_this_crate() {
        for name in READ_BY_NAME
            .iter()
            .chain(UNSUPPORTED.iter().map(|(name, _)| name))
        {
            assert!(reads_by_name(name), "{name}");
            for prefix in ["self", "super", "crate", "crate::tools"] {
                let source = format!("{prefix}::{name}");
                assert!(matches!(shape(&source), Ok(Shape::Named)), "{source}");
            }
        }
        assert!(!reads_by_name("Place"));
        assert!(matches!(
            shape("::std::boxed::Box<u8>").unwrap(),
            Shape::Box(_)
        ));
    }

    #[test]
    fn refuses_unsupported_types() {
        for source in [
            "&str",
            "(u8, &str)",
            "(u8, u8, u8, u8, u8, u8, u8, u8, u8)",
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
}

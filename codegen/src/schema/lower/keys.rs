//! `propertyNames`: the schema of a map's keys, as `#[tool(keys(...))]` on the map field (the
//! derive puts it back into the model, so `validate()` and decoding check every key).
//!
//! A key schema the derive can say is a string schema (`length`, `pattern`, `format`) or an
//! `enum` of strings (`enum_values`); anything else, and `propertyNames` beside declared
//! properties (a struct), is refused at its pointer: the keys would go unchecked.

use proc_macro2::TokenStream;
use quote::quote;
use toolgate_core::model::{Kind, ObjectSchema, Schema};

use super::literals::string_enum;
use super::{numbers, LowerError};

/// The constraints inside `keys(...)`, or an error at `pointer` (the `propertyNames`).
pub(super) fn key_constraints(
    keys: &Schema,
    pointer: &str,
    errors: &mut Vec<LowerError>,
) -> Option<TokenStream> {
    let refuse = |errors: &mut Vec<LowerError>| {
        errors.push((
            pointer.to_owned(),
            "this `propertyNames` is not supported by the schema compiler: it takes a string schema (length, pattern, format) or an `enum` of strings".to_owned(),
        ));
        None
    };
    if keys.constant.is_some() || keys.nullable {
        return refuse(errors);
    }
    let mut constraints = Vec::new();
    match &keys.kind {
        Kind::String(string) => {
            constraints = numbers::string_constraints(string, pointer, errors);
        }
        Kind::Enum(enumeration)
            if string_enum(enumeration)
                && !enumeration.values.is_empty()
                && enumeration.values.iter().all(|v| v.aliases.is_empty()) =>
        {
            let values = enumeration.values.iter().filter_map(|v| v.value.as_str());
            constraints.push(quote!(enum_values = [#(#values),*]));
        }
        _ => return refuse(errors),
    }
    Some(quote!(keys(#(#constraints),*)))
}

/// An error for `propertyNames` on an object with declared properties (a struct).
pub(super) fn refuse_on_struct(object: &ObjectSchema, pointer: &str, errors: &mut Vec<LowerError>) {
    if object.property_names.is_some() {
        errors.push((
            format!("{pointer}/propertyNames"),
            "`propertyNames` beside `properties` is not supported by the schema compiler (a struct's keys cannot be checked against it)".to_owned(),
        ));
    }
}

//! Literal values in attributes (`constant`, `enum_values`, `example`): their Rust
//! expression in generated code, and whether they fit a schema. Below the constraint rules
//! (`constraints.rs`), which use them.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use serde_json::Value;
use toolgate_core::model::{Schema, ToolModel};

/// A JSON value as an expression (objects do not occur: attributes hold literals and
/// arrays of them).
pub fn json(value: &Value) -> TokenStream {
    let value_type = quote!(::toolgate::serde_json::Value);
    match value {
        Value::Null => quote!(#value_type::Null),
        Value::Bool(flag) => quote!(#value_type::Bool(#flag)),
        Value::Number(n) => {
            let literal = if let Some(integer) = n.as_i64() {
                Literal::i64_suffixed(integer)
            } else if let Some(integer) = n.as_u64() {
                Literal::u64_suffixed(integer)
            } else {
                Literal::f64_suffixed(n.as_f64().unwrap_or_default())
            };
            quote!(#value_type::from(#literal))
        }
        Value::String(text) => quote!(#value_type::from(#text)),
        Value::Array(items) => {
            let items = items.iter().map(json);
            quote!(#value_type::Array(::std::vec::Vec::from([#(#items),*])))
        }
        Value::Object(_) => quote!(#value_type::Null),
    }
}

/// The issues of `value` against `schema`, as messages (empty when it fits).
pub fn misfits(value: &Value, schema: &Schema) -> Vec<String> {
    let model = ToolModel::new("value", None, schema.clone(), Default::default());
    match model.check_against(model.input(), value) {
        Ok(()) => Vec::new(),
        Err(report) => report.issues().iter().map(ToString::to_string).collect(),
    }
}

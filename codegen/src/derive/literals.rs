//! Literal values in attributes (`constant`, `enum_values`, `example`): their Rust
//! expression in generated code, and whether they fit the field.

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use serde_json::Value;
use toolgate_core::model::{Schema, ToolModel};

use super::attrs::{error_at, JsonLiteral};
use super::constraints::{base_schema, Planner, Setter};
use super::shape::Shape;

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

impl Planner<'_> {
    /// The values of `enum_values`, each checked against the value's type; `None` after an
    /// error.
    pub(super) fn enum_values(
        &mut self,
        listed: &JsonLiteral,
        shape: &Shape,
        setters: &[Setter],
    ) -> Option<Vec<Value>> {
        let Value::Array(values) = &listed.value else {
            self.errors.push(error_at(
                &listed.expr,
                "`enum_values` takes an array of the values allowed, as in `enum_values = [1, 2, 4]`",
            ));
            return None;
        };
        if !matches!(
            shape,
            Shape::Integer { .. } | Shape::Float { .. } | Shape::Bool | Shape::String | Shape::Any
        ) {
            let message = format!("`enum_values` applies to numbers, strings, bools and `serde_json::Value`, but this is {}", shape.describe());
            self.errors.push(error_at(&listed.expr, message));
            return None;
        }
        if !setters.is_empty() {
            // The values replace the kind (and with it any bound): each value was checked
            // against them, but the schema would no longer say so.
            self.errors.push(error_at(
                &listed.expr,
                "`enum_values` lists every value allowed: write it without other constraints on the same value",
            ));
            return None;
        }
        if values.is_empty() {
            self.errors.push(error_at(
                &listed.expr,
                "`enum_values` is empty, so no value would fit",
            ));
            return None;
        }
        let schema = base_schema(shape);
        let mut fits = true;
        for (index, value) in values.iter().enumerate() {
            for misfit in misfits(value, &schema) {
                self.errors.push(error_at(
                    &listed.expr,
                    format!("the value {value} does not fit the field: {misfit}"),
                ));
                fits = false;
            }
            if values[..index]
                .iter()
                .any(|earlier| toolgate_core::check::json_equal(earlier, value))
            {
                self.errors.push(error_at(
                    &listed.expr,
                    format!("the value {value} is listed twice"),
                ));
                fits = false;
            }
        }
        fits.then(|| values.clone())
    }
}

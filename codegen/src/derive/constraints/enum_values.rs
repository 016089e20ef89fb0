//! `enum_values = [...]`: the values allowed, each checked against the value's type.

use serde_json::Value;

use super::{base_schema, Planner, Setter};
use crate::derive::attrs::{error_at, JsonLiteral};
use crate::derive::shape::Shape;

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
            for misfit in crate::derive::literals::misfits(value, &schema) {
                self.errors.push(error_at(
                    &listed.expr,
                    format!("the value {value} does not fit the field: {misfit}"),
                ));
                fits = false;
            }
            if values[..index]
                .iter()
                .any(|earlier| toolgate_core::values::json_equal(earlier, value))
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

//! Tuple structs: `struct Range(#[tool(range(min = 0))] i64, i64);` is a JSON array of
//! exactly its elements, each with its own schema and constraints (JSON Schema's
//! `prefixItems` with `items: false` and `minItems`), as serde reads and writes it. This is
//! what the schema compiler writes for a `prefixItems` tuple.
//!
//! An element takes the keys of a field that concern its value (constraints, `description`,
//! `example`); wire names (`alias`, `rename`) and defaults have no place in an array. A tuple
//! struct is a value inside a tool's arguments, not the arguments themselves (`name` is
//! refused), and a tuple struct of one field is that field to serde (a newtype), not an array.

use syn::FieldsUnnamed;

use super::attrs::{error_at, RawField};
use super::constraints::{self, Planner};
use super::plan::ElementPlan;
use super::{literals, serde_attrs, shape};
use darling::FromField;

/// The elements of `fields`; errors go to `errors`.
pub(super) fn plan(
    fields: &FieldsUnnamed,
    errors: &mut darling::error::Accumulator,
) -> Vec<ElementPlan> {
    if fields.unnamed.len() == 1 {
        errors.push(error_at(
            fields,
            "a tuple struct of one field is that field to serde (a newtype), not an array: derive on the field's type, or give the struct two or more elements",
        ));
    }
    let mut elements = Vec::new();
    for field in &fields.unnamed {
        let Some(raw) = errors.handle(RawField::from_field(field)) else {
            continue;
        };
        let serde = serde_attrs::member(&raw.attrs, errors);
        let named = serde.rename.is_some() || !serde.aliases.is_empty() || !raw.alias.is_empty();
        if named || serde.default.is_some() || serde.skip || serde.flatten.is_some() {
            errors.push(error_at(
                &field.ty,
                "an element of a tuple struct is an array element: it has no name, alias, default, and is never skipped or flattened",
            ));
        }
        if raw.nullable.is_present() || raw.schema.is_some() {
            errors.push(error_at(
                &field.ty,
                "`nullable` and `schema` are keys of named fields: an element's type says whether it takes `null`",
            ));
        }
        let shape = match shape::classify(&field.ty) {
            Ok(shape) => shape,
            Err(error) => {
                errors.push(error.into());
                continue;
            }
        };
        let setters = Planner { errors }.plan(&raw.constraints, &shape);
        let schema = constraints::apply(constraints::base_schema(&shape), &setters);
        for example in &raw.example {
            for misfit in literals::misfits(&example.value, &schema) {
                errors.push(error_at(
                    &example.expr,
                    format!("this example does not fit the element: {misfit}"),
                ));
            }
        }
        let mut description = raw.constraints.description.clone();
        if description.is_none() {
            description = super::doc_description(&raw.attrs);
        }
        elements.push(ElementPlan {
            ty: field.ty.clone(),
            setters,
            description,
        });
    }
    elements
}

//! `#[serde(flatten)]` on a map field: the keys a struct does not declare, kept with their
//! values (JSON Schema's `additionalProperties` with a schema).
//!
//! Decisions: only a `BTreeMap<String, T>` or `HashMap<String, T>` field may be flattened
//! (a flattened struct would merge two field lists, which serde buffers and the model cannot
//! say); one per struct; not beside `deny_unknown_fields` (it refuses the keys the map
//! collects); the map takes `values(...)` constraints and nothing else (it has no wire name,
//! so no alias, example or description).

use super::attrs::{error_at, RawField};
use super::constraints::{Planner, Setter};
use super::plan::FlattenPlan;
use super::serde_attrs::SerdeMember;
use super::shape::{self, Shape};

const ONLY_MAPS: &str = "`#[serde(flatten)]` is supported on a `BTreeMap<String, T>` or `HashMap<String, T>` field, which collects the keys the struct does not declare";

/// Plans `field`, whose serde attributes say `flatten`.
pub(crate) fn plan(
    field: &syn::Field,
    raw: Option<RawField>,
    serde: &SerdeMember,
    flatten_key: &syn::Path,
    errors: &mut darling::error::Accumulator,
) -> Option<FlattenPlan> {
    if serde.rename.is_some() || !serde.aliases.is_empty() || serde.default.is_some() {
        errors.push(error_at(
            flatten_key,
            "a flattened map has no wire name or default: `rename`, `alias` and `default` do not apply",
        ));
    }
    let shape = match shape::classify(&field.ty) {
        Ok(shape @ Shape::Map(_)) => shape,
        Ok(_) => {
            errors.push(error_at(&field.ty, ONLY_MAPS));
            return None;
        }
        Err(error) => {
            errors.push(error.into());
            return None;
        }
    };
    // A map's shape is read from `BTreeMap<String, T>` / `HashMap<String, T>` as written.
    let (_, arguments) = shape::generic_arguments(&field.ty)?;
    let value_type = (*arguments.get(1)?).clone();
    let raw = raw?;
    let constraints = &raw.constraints;
    let others = !raw.alias.is_empty()
        || !raw.example.is_empty()
        || raw.nullable.is_present()
        || constraints.description.is_some()
        || constraints.annotations.is_some()
        || constraints.constant.is_some()
        || constraints.enum_values.is_some()
        || constraints.keys.is_some();
    if others {
        let tool = field.attrs.iter().find(|a| a.path().is_ident("tool"));
        let at: &dyn quote::ToTokens = match tool {
            Some(attr) => &attr.meta,
            None => field,
        };
        errors.push(error_at(
            &at,
            "a flattened map takes only `values(...)`: the constraints on the values of the keys it collects",
        ));
    }
    let value_setters = Planner { errors }
        .plan(constraints, &shape)
        .into_iter()
        .flat_map(|setter| match setter {
            Setter::Values(inner) => inner,
            _ => Vec::new(),
        })
        .collect();
    Some(FlattenPlan {
        ident: raw.ident?,
        value_type,
        value_setters,
    })
}

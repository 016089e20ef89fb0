//! What a field entry of the hint takes from an issue's own `expected`, where the issue's
//! path does not lead to the schema that says it (inside a union's alternative), and a
//! union's alternatives.

use serde_json::Value;

use super::{capped_values, FieldHint};
use crate::{suggest, Constraint, Issue};

/// The values an issue's `expected` lists, without the `"… N more"` entry a long list ends
/// with (see [`crate::check::shorten_list`]): the hint writes its own `"…"`.
fn listed(values: &[Value]) -> Vec<Value> {
    let mut values = values.to_vec();
    if values.len() > crate::check::LISTED_VALUES {
        values.truncate(crate::check::LISTED_VALUES);
    }
    values
}

/// An `enum` issue whose path does not lead to an enum schema (inside a union's
/// alternative): the values the issue says it expected still tell the model what to send.
pub(super) fn allowed_values(mut hint: FieldHint, issue: &Issue) -> FieldHint {
    if let (Constraint::Enum, Some(Value::Array(values)), true) = (
        issue.constraint,
        &issue.expected,
        hint.allowed_values.is_empty(),
    ) {
        hint.allowed_values = capped_values(listed(values));
        let names = hint.allowed_values.iter().filter_map(Value::as_str);
        let got = issue.got.as_ref().and_then(Value::as_str).unwrap_or("");
        hint.did_you_mean = Some(suggest::nearest(got, names).map(str::to_owned));
    }
    hint
}

/// What the alternatives of a union want, from a `oneOf`/`anyOf` issue's `expected` (at most
/// 5, then `"…"`); empty for other issues.
pub(super) fn alternatives(issue: &Issue) -> Vec<Value> {
    match (issue.constraint, &issue.expected) {
        (Constraint::OneOf | Constraint::AnyOf, Some(Value::Array(alternatives))) => {
            capped_values(listed(alternatives))
        }
        _ => Vec::new(),
    }
}

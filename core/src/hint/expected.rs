//! What a field entry of the hint takes from an issue's own `expected`, where the issue's
//! path does not lead to the schema that says it (inside a union's alternative), and a
//! union's alternatives.

use std::borrow::Cow;

use serde_json::Value;

use super::parts::{capped_refs, FieldParts};
use crate::num::Num;
use crate::{suggest, Constraint, Issue};

/// The values an issue's `expected` lists, without the `"… N more"` entry a long list ends
/// with (see [`crate::values::shorten_list`]): the hint writes its own `"…"`.
fn listed(values: &[Value]) -> impl ExactSizeIterator<Item = &Value> {
    values.iter().take(crate::values::LISTED_VALUES)
}

/// What the schema lookup did not give `hint`, taken from the issue's `expected`: a bound
/// or size, a format or pattern, the allowed values.
pub(super) fn fill<'a>(hint: &mut FieldParts<'a>, issue: &'a Issue) {
    bound_from_issue(hint, issue);
    allowed_values(hint, issue);
}

/// An `enum` issue whose path does not lead to an enum schema (inside a union's
/// alternative), or a key refused by an `enum` of `propertyNames` (the path names the key,
/// whose schema is the value's): the values the issue says it expected still tell the model
/// what to send.
fn allowed_values<'a>(hint: &mut FieldParts<'a>, issue: &'a Issue) {
    if let (Constraint::Enum | Constraint::PropertyNames, Some(Value::Array(values)), true) = (
        issue.constraint,
        &issue.expected,
        hint.allowed_values.is_empty(),
    ) {
        hint.allowed_values = capped_refs(listed(values));
        let names = hint
            .allowed_values
            .iter()
            .filter_map(|value| value.as_str());
        let got = issue.got.as_ref().and_then(Value::as_str).unwrap_or("");
        hint.did_you_mean =
            suggest::nearest(got, names).map(|near| Cow::Owned(crate::issue::shorten_name(near)));
    }
}

/// What the alternatives of a union want, from a `oneOf`/`anyOf` issue's `expected` (at most
/// 5, then `"…"`); empty for other issues.
pub(super) fn alternatives(issue: &Issue) -> Vec<Cow<'_, Value>> {
    match (issue.constraint, &issue.expected) {
        (Constraint::OneOf | Constraint::AnyOf, Some(Value::Array(alternatives))) => {
            capped_refs(listed(alternatives))
        }
        _ => Vec::new(),
    }
}

/// A bound or size the schema lookup did not give (a value inside a union's branch, say):
/// the one the issue names, so that every such entry says what was wanted.
fn bound_from_issue<'a>(hint: &mut FieldParts<'a>, issue: &'a Issue) {
    let bound = || match &issue.expected {
        Some(Value::Number(number)) => Some(Num::from_json(number)),
        _ => None,
    };
    let text = || {
        issue
            .expected
            .as_ref()
            .and_then(Value::as_str)
            .map(Cow::Borrowed)
    };
    match issue.constraint {
        Constraint::Minimum
        | Constraint::ExclusiveMinimum
        | Constraint::MinLength
        | Constraint::MinItems
            if hint.min.is_none() =>
        {
            hint.min = bound()
        }
        Constraint::Maximum
        | Constraint::ExclusiveMaximum
        | Constraint::MaxLength
        | Constraint::MaxItems
            if hint.max.is_none() =>
        {
            hint.max = bound()
        }
        Constraint::Format if hint.format.is_none() => hint.format = text(),
        Constraint::Pattern if hint.pattern.is_none() => hint.pattern = text(),
        _ => {}
    }
}

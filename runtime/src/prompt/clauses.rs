//! The clauses of one schema (its type and the constraints models break), as the rules of
//! [`prompt_rules`](super::prompt_rules) state them; lists are shortened to
//! [`MAX_RULE_CHARS`] with a count of what is left out.

use serde_json::Value;
use toolgate_core::issue::shorten_text;
use toolgate_core::model::{Bounds, Kind, Schema, ToolModel};
use toolgate_core::num::Num;

use super::{Weight, MAX_LISTED_VALUES, MAX_PATH_CHARS, MAX_QUOTED_CHARS, MAX_RULE_CHARS};

/// `prefix` and as many of `items` (of `count` in all) as fit in [`MAX_RULE_CHARS`]
/// characters, joined by `, `, then `… (N more)` for those left out: a list in a rule never
/// makes it longer than any other rule, however long the list.
pub(super) fn listed(
    prefix: &str,
    items: impl IntoIterator<Item = String>,
    count: usize,
) -> String {
    let mut text = prefix.to_owned();
    let mut length = text.chars().count();
    let mut shown = 0;
    for item in items {
        let left = count.saturating_sub(shown + 1);
        let separator = if shown == 0 { 0 } else { 2 };
        let added = separator + item.chars().count();
        // Room for this item and, when some would be left after it, the count of them.
        let tail = if left > 0 {
            more(left).chars().count() + 2
        } else {
            0
        };
        if length + added + tail > MAX_RULE_CHARS {
            break;
        }
        if shown > 0 {
            text.push_str(", ");
        }
        text.push_str(&item);
        length += added;
        shown += 1;
    }
    if shown < count {
        if shown > 0 {
            text.push_str(", ");
        }
        text.push_str(&more(count - shown));
    }
    shorten(&text)
}

fn more(count: usize) -> String {
    format!("… ({count} more)")
}

/// A rule's text at most [`MAX_RULE_CHARS`] characters (with `…` where it is cut).
pub(super) fn shorten(text: &str) -> String {
    match text.chars().count() > MAX_RULE_CHARS {
        true => shorten_text(text, MAX_RULE_CHARS - 1),
        false => text.to_owned(),
    }
}

/// A field's path: identifier-like names joined with `.`, others as bracketed JSON strings
/// (at most [`MAX_PATH_CHARS`] characters, then `…`).
pub(super) fn join(at: &str, name: &str) -> String {
    let name = shorten_text(name, MAX_QUOTED_CHARS);
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let path = match (at.is_empty(), plain) {
        (true, true) => name,
        (false, true) => format!("{at}.{name}"),
        (_, false) => format!("{at}[{}]", quoted_str(&name)),
    };
    shorten_text(&path, MAX_PATH_CHARS)
}

pub(super) fn quoted_str(text: &str) -> String {
    Value::String(shorten_text(text, MAX_QUOTED_CHARS)).to_string()
}

pub(super) fn quoted(value: &Value) -> String {
    match value {
        Value::String(text) => quoted_str(text),
        other => shorten_text(&other.to_string(), MAX_QUOTED_CHARS),
    }
}

/// Whether a value of this kind has a rule beyond its type.
pub(super) fn has_constraints(kind: &Kind) -> bool {
    !clauses_of_kind(kind)
        .iter()
        .all(|(weight, _)| matches!(weight, Weight::Type | Weight::PlainString))
}

/// The clauses of a schema (references followed): its type and its constraints.
pub(super) fn clauses(model: &ToolModel, schema: &Schema) -> Vec<(Weight, String)> {
    let mut clauses = clauses_of_kind(&schema.kind);
    if let Kind::Array(array) = &schema.kind {
        // "array of strings": the items' type, when it is one.
        if let Some(items) = model.resolve(&array.items).and_then(|s| s.kind.type_name()) {
            if let Some(clause) = clauses.iter_mut().find(|(w, _)| *w == Weight::Type) {
                clause.1 = format!("array of {}", plural(items));
            }
        }
    }
    if let Some(constant) = &schema.constant {
        clauses.push((Weight::Constant, format!("always {}", quoted(constant))));
    }
    let has_format_example = clauses.iter().any(|(w, _)| *w == Weight::Format);
    if let Some(example) = schema.examples.first() {
        if !has_format_example {
            clauses.push((Weight::Example, format!("e.g. {}", quoted(example))));
        }
    }
    clauses
}

fn plural(type_name: &str) -> String {
    match type_name {
        "null" => "nulls".to_owned(),
        other => format!("{other}s"),
    }
}

fn clauses_of_kind(kind: &Kind) -> Vec<(Weight, String)> {
    let mut clauses = Vec::new();
    match kind {
        Kind::Any | Kind::Ref(_) => {}
        Kind::Never => clauses.push((Weight::Type, "send nothing here".to_owned())),
        Kind::Null => clauses.push((Weight::Type, "null".to_owned())),
        Kind::Boolean => clauses.push((Weight::Type, "boolean".to_owned())),
        Kind::Integer(integer) => {
            clauses.push((Weight::Type, "integer".to_owned()));
            // A width's own range says little a model breaks, but for the sign of an
            // unsigned one: it is written only where the schema narrows it.
            let range = integer.width.map(|width| {
                let (low, high) = width.range();
                (width.signed.then_some(low), high)
            });
            bounds(
                &narrowed(&integer.bounds, range),
                integer.multiple_of,
                &mut clauses,
            );
        }
        Kind::Number(number) => {
            clauses.push((Weight::Type, "number".to_owned()));
            let range = number.width.and_then(|width| width.range());
            let range = range.map(|(low, high)| (Some(low), high));
            bounds(
                &narrowed(&number.bounds, range),
                number.multiple_of,
                &mut clauses,
            );
        }
        Kind::String(string) => {
            clauses.push((Weight::PlainString, "string".to_owned()));
            if let Some(format) = string.format {
                clauses.push((
                    Weight::Format,
                    format!("{format}, e.g. {}", quoted_str(format.example())),
                ));
            }
            if let Some(pattern) = &string.pattern {
                clauses.push((
                    Weight::Pattern,
                    format!(
                        "matching {}",
                        shorten_text(pattern.as_str(), MAX_QUOTED_CHARS)
                    ),
                ));
            }
            if let Some(range) = range(string.min_length, string.max_length, "characters") {
                clauses.push((Weight::Length, range));
            }
        }
        Kind::Enum(enumeration) => {
            let values = enumeration.values.iter().map(|value| quoted(&value.value));
            let text = match enumeration.values.as_slice() {
                [one] => shorten(&format!("exactly {}", quoted(&one.value))),
                all => listed("one of ", values.take(MAX_LISTED_VALUES), all.len()),
            };
            clauses.push((Weight::Values, text));
        }
        Kind::Array(array) => {
            clauses.push((Weight::Type, "array".to_owned()));
            if let Some(range) = range(array.min_items, array.max_items, "items") {
                clauses.push((Weight::Items, range));
            }
            if array.unique_items {
                clauses.push((Weight::Items, "no duplicates".to_owned()));
            }
        }
        Kind::Map(_) => clauses.push((Weight::Type, "object (any keys)".to_owned())),
        Kind::Object(_) => clauses.push((Weight::Type, "object".to_owned())),
        Kind::Union(union) => {
            let mut types: Vec<&str> = union
                .variants
                .iter()
                .filter_map(|variant| variant.kind.type_name())
                .collect();
            types.dedup();
            if !types.is_empty() {
                clauses.push((Weight::Type, format!("one of: {}", types.join(" or "))));
            }
        }
    }
    clauses
}

/// The bounds without those that only repeat a width's range (`low` where it is worth
/// leaving out, `high`).
fn narrowed(bounds: &Bounds, range: Option<(Option<Num>, Num)>) -> Bounds {
    let mut written = bounds.clone();
    if let Some((low, high)) = range {
        if low.is_some() && written.minimum == low {
            written.minimum = None;
        }
        if written.maximum == Some(high) {
            written.maximum = None;
        }
    }
    written
}

/// `1 to 9`, `at least 1`, `above 0`... of a number's bounds, and its `multipleOf`.
fn bounds(bounds: &Bounds, multiple_of: Option<Num>, clauses: &mut Vec<(Weight, String)>) {
    let low = bounds
        .minimum
        .map(|n| (n, false))
        .or(bounds.exclusive_minimum.map(|n| (n, true)));
    let high = bounds
        .maximum
        .map(|n| (n, false))
        .or(bounds.exclusive_maximum.map(|n| (n, true)));
    let text = match (low, high) {
        (Some((low, false)), Some((high, false))) => Some(format!("{low} to {high}")),
        (low, high) => {
            let parts: Vec<String> = [
                low.map(|(n, exclusive)| {
                    if exclusive {
                        format!("above {n}")
                    } else {
                        format!("at least {n}")
                    }
                }),
                high.map(|(n, exclusive)| {
                    if exclusive {
                        format!("below {n}")
                    } else {
                        format!("at most {n}")
                    }
                }),
            ]
            .into_iter()
            .flatten()
            .collect();
            (!parts.is_empty()).then(|| parts.join(" and "))
        }
    };
    if let Some(text) = text {
        clauses.push((Weight::Bounds, text));
    }
    if let Some(step) = multiple_of {
        clauses.push((Weight::Bounds, format!("a multiple of {step}")));
    }
}

/// `4 to 12 characters`, `at most 5 items`...
fn range(min: Option<u64>, max: Option<u64>, unit: &str) -> Option<String> {
    match (min, max) {
        (Some(min), Some(max)) if min == max => Some(format!("exactly {min} {unit}")),
        (Some(min), Some(max)) => Some(format!("{min} to {max} {unit}")),
        (Some(min), None) if min > 0 => Some(format!("at least {min} {unit}")),
        (_, Some(max)) => Some(format!("at most {max} {unit}")),
        _ => None,
    }
}

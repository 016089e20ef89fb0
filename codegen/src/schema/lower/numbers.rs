//! Integers, numbers, strings' and arrays' lengths: the Rust type that holds every bound,
//! the bounds and `multipleOf` as `#[tool(...)]` keys, or, at the schema's JSON pointer,
//! why the schema compiler cannot write them. What it writes, the derive takes: the schema
//! compiler refuses a schema rather than write code that does not compile.
//!
//! - An integer without a `format` is the first of `i64`, `u64`, `i128` whose range holds
//!   every bound and the `multipleOf` (the derive reads each as a value of the type),
//!   preferring, of `i64` and `u64`, one that adds no bound the schema did not set (issue 43
//!   §8): `"minimum": 1` is a `u64`, whose model writes `minimum: 1` and no maximum (an
//!   edge of the carried integers, `i64::MIN` or `u64::MAX`, is no bound of its own);
//!   `"maximum": 100` is an `i64`. An integer open both ways (`{"type": "integer"}`) is an
//!   `i64`, whose model writes its maximum: a decision, since the alternative, `i128`,
//!   would take what the run-time road takes but breaks serde's untagged enums and
//!   `flatten`, which buffer values in a form without 128-bit integers. With a `format`, a
//!   bound outside that type's range is refused, and the field keeps the `format`
//!   (`#[tool(format = "int32")]`), which a derived width does not write.
//! - A bound of an integer that is not a whole number (`maximum: 10.5`) is refused: the
//!   derive takes whole-number bounds on integer fields. A whole number written as a float
//!   (`100.0`, `1e20`) stays a float literal, which the derive keeps as written (issue 27
//!   §5), so the type's model spells it as the schema did.
//! - `multipleOf` of an integer is written as the schema says, a whole number or not
//!   (`multiple_of = 0.5`: every integer passes; `1.5`: the multiples of 3), so the type's
//!   model keeps it (issue 27 §5); only a whole-number divisor counts in the choice of width.
//! - Bounds that no value meets (`minimum` above `maximum`, `exclusiveMinimum` not below
//!   `exclusiveMaximum`, `minLength` above `maxLength`, `minItems` above `maxItems`) are
//!   refused: a schema no value fits is a mistake in the schema.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use toolgate_core::model::{
    Bounds, FloatWidth, IntWidth, IntegerSchema, Num, NumberSchema, StringSchema,
};

use super::literals::{bounds, number, range_key, without_range};
use super::{LowerError, Lowered};

/// The widths an integer without `format` may take, narrowest first.
const DEFAULT_WIDTHS: [IntWidth; 3] = [
    IntWidth {
        bits: 64,
        signed: true,
    },
    IntWidth {
        bits: 64,
        signed: false,
    },
    IntWidth {
        bits: 128,
        signed: true,
    },
];

/// An integer's Rust type and constraints, or the reasons it cannot be written (each at its
/// pointer, in `errors`; the type is then `i64` without constraints).
pub(super) fn integer(
    integer: &IntegerSchema,
    pointer: &str,
    errors: &mut Vec<LowerError>,
) -> Lowered {
    let found = errors.len();
    // The reader fills a `format`'s range in where no bound is written; the type says those.
    let own_bounds = without_range(&integer.bounds, integer.width.map(IntWidth::range));
    let mut values = Vec::new();
    for (keyword, value) in written_bounds(&own_bounds) {
        if value.is_integral() {
            values.push((keyword, value));
        } else {
            errors.push((
                format!("{pointer}/{keyword}"),
                format!("`{keyword}` {} of an integer is not a whole number: the generated field takes whole-number bounds only", shown(value)),
            ));
        }
    }
    // A whole-number divisor is read by the derive as a value of the type too.
    let divisor = integer
        .multiple_of
        .and_then(|divisor| integer_divisor(divisor, pointer, errors));
    values.extend(
        divisor
            .filter(|divisor| divisor.is_integral())
            .map(|divisor| ("multipleOf", divisor)),
    );
    let width = match integer.width {
        Some(width) => {
            let (low, high) = width.type_range();
            for (keyword, value) in &values {
                if !holds(width, *value) {
                    errors.push((
                        format!("{pointer}/{keyword}"),
                        format!(
                            "`{keyword}` {} is outside the range of `{}` ({low}..={high}), the type of `format: {}`",
                            shown(*value),
                            rust_type(width),
                            width.format_name()
                        ),
                    ));
                }
            }
            width
        }
        None => default_width(&own_bounds, &values, pointer, errors),
    };
    if errors.len() == found {
        if let Some(message) = empty_integers(&own_bounds, width) {
            errors.push((pointer.to_owned(), message));
        }
    }
    if errors.len() > found {
        return Lowered::plain(quote!(i64));
    }
    let ty = format_ident!("{}", rust_type(width));
    // Written as the schema spells them (`100.0` stays a float literal, which the derive
    // takes on an integer field when it is whole, and keeps).
    let mut constraints = bounds(&without_range(&own_bounds, Some(width.range())), number);
    if let Some(divisor) = divisor {
        // As written: `2.0` stays a float literal, which the derive keeps as `2.0`.
        let divisor = number(divisor);
        constraints.push(quote!(multiple_of = #divisor));
    }
    // The schema named the width: the type's model names it too.
    if integer.written_width().is_some() {
        let name = width.format_name();
        constraints.push(quote!(format = #name));
    }
    Lowered {
        ty: quote!(#ty),
        constraints,
        value_ty: None,
    }
}

/// A number's Rust type (`f64`, or `f32` for `format: float`) and constraints, or the
/// reasons it cannot be written.
pub(super) fn float(float: &NumberSchema, pointer: &str, errors: &mut Vec<LowerError>) -> Lowered {
    let found = errors.len();
    let ty = match float.width {
        Some(FloatWidth::F32) => quote!(f32),
        _ => quote!(f64),
    };
    let range = float.width.and_then(FloatWidth::range);
    let mut values = written_bounds(&float.bounds);
    if let Some(divisor) = float.multiple_of {
        if divisor <= Num::Int(0) {
            errors.push((
                format!("{pointer}/multipleOf"),
                format!(
                    "`multipleOf` must be greater than 0, not {}",
                    shown(divisor)
                ),
            ));
        }
        values.push(("multipleOf", divisor));
    }
    if let Some((low, high)) = range {
        for (keyword, value) in &values {
            if *value < low || *value > high {
                errors.push((
                    format!("{pointer}/{keyword}"),
                    format!(
                        "`{keyword}` {} is outside the range of `f32`, the type of `format: float`",
                        shown(*value)
                    ),
                ));
            }
        }
    }
    if let Some(message) = empty_numbers(&float.bounds) {
        errors.push((pointer.to_owned(), message));
    }
    if errors.len() > found {
        return Lowered::plain(ty);
    }
    let mut constraints = bounds(&without_range(&float.bounds, range), number);
    if let Some(divisor) = float.multiple_of {
        let divisor = number(divisor);
        constraints.push(quote!(multiple_of = #divisor));
    }
    if let Some(width) = float.written_width() {
        let name = width.format_name();
        constraints.push(quote!(format = #name));
    }
    Lowered {
        ty,
        constraints,
        value_ty: None,
    }
}

/// The `#[tool(...)]` keys of a string schema: `length(..)`, `pattern`, `format` (for a
/// string field, and for the keys of a map in `keys(..)`).
pub(super) fn string_constraints(
    string: &StringSchema,
    pointer: &str,
    errors: &mut Vec<LowerError>,
) -> Vec<TokenStream> {
    let mut constraints = Vec::new();
    let min = ("minLength", string.min_length);
    let max = ("maxLength", string.max_length);
    if let Some(length) = length(min, max, pointer, errors) {
        constraints.push(length);
    }
    if let Some(pattern) = &string.pattern {
        let pattern = pattern.as_str();
        constraints.push(quote!(pattern = #pattern));
    }
    if let Some(format) = string.format {
        let format = format.as_str();
        constraints.push(quote!(format = #format));
    }
    constraints
}

/// `length(min = .., max = ..)` of a string (`minLength`, `maxLength`) or an array
/// (`minItems`, `maxItems`), or the reason no value fits.
pub(super) fn length(
    (min_keyword, min): (&str, Option<u64>),
    (max_keyword, max): (&str, Option<u64>),
    pointer: &str,
    errors: &mut Vec<LowerError>,
) -> Option<TokenStream> {
    if let (Some(low), Some(high)) = (min, max) {
        if low > high {
            errors.push((
                pointer.to_owned(),
                format!(
                    "`{min_keyword}` {low} is greater than `{max_keyword}` {high}: no value fits"
                ),
            ));
            return None;
        }
    }
    range_key("length", min, max)
}

/// The bounds written in the schema, with their keywords.
fn written_bounds(bounds: &Bounds) -> Vec<(&'static str, Num)> {
    [
        ("minimum", bounds.minimum),
        ("maximum", bounds.maximum),
        ("exclusiveMinimum", bounds.exclusive_minimum),
        ("exclusiveMaximum", bounds.exclusive_maximum),
    ]
    .into_iter()
    .filter_map(|(keyword, value)| Some((keyword, value?)))
    .collect()
}

/// The `multipleOf` of an integer, as written; an error when it is not above 0.
fn integer_divisor(divisor: Num, pointer: &str, errors: &mut Vec<LowerError>) -> Option<Num> {
    if divisor <= Num::Int(0) {
        errors.push((
            format!("{pointer}/multipleOf"),
            format!(
                "`multipleOf` must be greater than 0, not {}",
                shown(divisor)
            ),
        ));
        None
    } else {
        Some(divisor)
    }
}

/// The first default width that holds every value and leaves some integer between the
/// bounds (`exclusiveMinimum: 9223372036854775807` needs `u64`); the widest, with an error
/// for each value it does not hold, when none holds them.
fn default_width(
    bounds: &Bounds,
    values: &[(&str, Num)],
    pointer: &str,
    errors: &mut Vec<LowerError>,
) -> IntWidth {
    let holding = |width: &IntWidth| values.iter().all(|(_, value)| holds(*width, *value));
    let mut fitting = DEFAULT_WIDTHS.into_iter().filter(holding);
    if let Some(first) = fitting.next() {
        let leaves_some = |width: &IntWidth| empty_integers(bounds, *width).is_none();
        let fitting: Vec<IntWidth> = std::iter::once(first).chain(fitting).collect();
        // The first 64-bit one that adds no bound the schema did not set (issue 43 §8: its
        // model writes the schema's bounds and no others; `minimum: 1` is a `u64`), else the
        // first (`{"type": "integer"}` is an `i64`, whose maximum its model writes). Not an
        // `i128` unless the bounds need one: serde's untagged enums and `flatten` buffer
        // values in a form that carries no 128-bit integer.
        return (fitting.iter().copied())
            .find(|width| width.bits < 128 && leaves_some(width) && adds_no_bound(bounds, *width))
            .or_else(|| fitting.iter().copied().find(leaves_some))
            .unwrap_or(first);
    }
    let widest = DEFAULT_WIDTHS[DEFAULT_WIDTHS.len() - 1];
    for (keyword, value) in values {
        if !holds(widest, *value) {
            errors.push((
                format!("{pointer}/{keyword}"),
                format!(
                    "`{keyword}` {} is beyond the widest integer type the schema compiler writes (`i128`)",
                    shown(*value)
                ),
            ));
        }
    }
    widest
}

/// Whether `width`'s range sets no bound on a side the schema left open: each edge of its
/// range is an edge of the carried integers (which its model does not write), or the
/// schema bounds that side itself.
fn adds_no_bound(bounds: &Bounds, width: IntWidth) -> bool {
    let (low, high) = width.range();
    let carried = toolgate_core::num::is_carried_edge;
    (carried(low) || bounds.minimum.is_some() || bounds.exclusive_minimum.is_some())
        && (carried(high) || bounds.maximum.is_some() || bounds.exclusive_maximum.is_some())
}

/// Whether a value of `width` can be `value`, as the derive reads it.
fn holds(width: IntWidth, value: Num) -> bool {
    let (low, high) = width.type_range();
    to_i128(value).is_some_and(|value| (low..=high).contains(&value))
}

/// Why no integer of `width` fits the bounds, if none does.
fn empty_integers(bounds: &Bounds, width: IntWidth) -> Option<String> {
    let whole = |value: Option<Num>| value.and_then(to_i128);
    let (mut low, mut high) = width.type_range();
    if let Some(minimum) = whole(bounds.minimum) {
        low = low.max(minimum);
    }
    if let Some(minimum) = whole(bounds.exclusive_minimum) {
        low = low.max(minimum.saturating_add(1));
    }
    if let Some(maximum) = whole(bounds.maximum) {
        high = high.min(maximum);
    }
    if let Some(maximum) = whole(bounds.exclusive_maximum) {
        high = high.min(maximum.saturating_sub(1));
    }
    (low > high).then(|| no_value_fits(bounds, &format!("no `{}`", rust_type(width))))
}

/// Why no number fits the bounds, if none does.
fn empty_numbers(bounds: &Bounds) -> Option<String> {
    // The tightest lower and upper bound, each with whether it is exclusive.
    let tighter = |a: Option<(Num, bool)>, b: Option<(Num, bool)>, lower: bool| match (a, b) {
        (Some(x), Some(y)) if x.0 == y.0 => Some((x.0, x.1 || y.1)),
        (Some(x), Some(y)) => Some(if (x.0 > y.0) == lower { x } else { y }),
        (x, y) => x.or(y),
    };
    let low = tighter(
        bounds.minimum.map(|m| (m, false)),
        bounds.exclusive_minimum.map(|m| (m, true)),
        true,
    );
    let high = tighter(
        bounds.maximum.map(|m| (m, false)),
        bounds.exclusive_maximum.map(|m| (m, true)),
        false,
    );
    let ((low, low_open), (high, high_open)) = (low?, high?);
    let empty = low > high || (low == high && (low_open || high_open));
    empty.then(|| no_value_fits(bounds, "no value"))
}

fn no_value_fits(bounds: &Bounds, nothing: &str) -> String {
    let written: Vec<String> = written_bounds(bounds)
        .into_iter()
        .map(|(keyword, value)| format!("`{keyword}` {}", shown(value)))
        .collect();
    format!("{nothing} fits these bounds ({})", written.join(", "))
}

/// A whole number as the integer literal the derive reads (`100`, not `100.0`).
/// A whole number in `i128`'s range as an integer literal; `None` for any other number.
pub(super) fn whole_literal(value: Num) -> Option<TokenStream> {
    let value = to_i128(value)?;
    let literal = Literal::u128_unsuffixed(value.unsigned_abs());
    Some(if value < 0 {
        quote!(-#literal)
    } else {
        quote!(#literal)
    })
}

/// A whole number in `i128`'s range, exactly.
fn to_i128(value: Num) -> Option<i128> {
    match value {
        Num::Int(integer) => Some(integer),
        // 2^127: the first float above every i128.
        Num::Float(float)
            if value.is_integral() && (-(2f64.powi(127))..2f64.powi(127)).contains(&float) =>
        {
            Some(float as i128)
        }
        Num::Float(_) => None,
    }
}

fn rust_type(width: IntWidth) -> String {
    format!("{}{}", if width.signed { 'i' } else { 'u' }, width.bits)
}

/// A number as JSON writes it (`1e40`, not forty digits).
fn shown(value: Num) -> String {
    value
        .to_json()
        .map_or_else(|| value.to_string(), |json| json.to_string())
}

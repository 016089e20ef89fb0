//! Integers, taken from the digits sent, never through a float (issue 27 §1).
//!
//! A number at an `integer` schema written with a fraction or an exponent
//! (`9007199254740993.0`, `9.007199254740993e15`, `"90071992547409930e-1"`) is the integer
//! its digits say ([`crate::num::decimal_integer`]), or it is refused: `type` when the
//! digits have a fraction, the schema's bound (`maximum`, `minimum`: every Rust width's
//! range is one) when it is outside them, and `limit` when it is an integer the schema
//! allows but a JSON value cannot carry.
//!
//! **Which integers are carried.** The values toolgate hands on are `serde_json::Value`s
//! (the run-time road's value, and the typed road's through its `Deserialize`), whose
//! integers are `i64` and `u64` (serde_json's `arbitrary_precision` is not assumed, as it
//! changes every `Value` in the user's build). So an integer is accepted in
//! `-2^63..=2^64-1`; beyond it, even for a `u128` or `i128` field or an unbounded
//! `integer`, it is refused with a `limit` issue rather than rounded into a float. Which
//! digits: the number's text as sent; a number read without its text (a float in a
//! `serde_json::Value` given to `decode_value` or `check_value`) is taken as serde_json
//! writes it, its shortest text, so the value road and the text road of the same JSON agree.

use std::borrow::Cow;
use std::cmp::Ordering;

use serde_json::{Number, Value};

use super::Decoder;
use crate::decode::Rule;
use crate::model::{Json, Kind, Schema};
pub(super) use crate::num::is_uncarried_integer;
use crate::num::{decimal_integer, DecimalInteger, Num};
use crate::Constraint;

/// The smallest and largest integers a `serde_json::Value` holds.
const CARRIED: std::ops::RangeInclusive<i128> = crate::num::CARRIED_INTEGERS;

/// The digits of a float `number`: `sent` (its text as sent), else serde_json's spelling.
fn float_digits<'t>(number: &Number, sent: Option<&'t str>) -> Cow<'t, str> {
    match sent {
        Some(text) => Cow::Borrowed(text),
        None => Cow::Owned(number.to_string()),
    }
}

/// The integer a float-spelled number's digits say (`9007199254740993.0` is
/// `9007199254740993`, not the float `9007199254740992.0`), when it fits an `i128`; `None`
/// for an integer as sent, a fraction, and integers beyond. Where a number is compared with
/// an integer `enum` or `const`, this is what is compared.
pub(super) fn float_spelled_integer(json: &Json) -> Option<i128> {
    let (number, sent) = match json {
        Json::Number(number) => (number, None),
        Json::SpelledNumber(number, sent) => (number, Some(&**sent)),
        _ => return None,
    };
    if !number.is_f64() {
        return None;
    }
    decimal_integer(&float_digits(number, sent))?.to_i128()
}

/// The text of `json` when it is an integer written as one (no fraction, no exponent)
/// beyond [`CARRIED`], which no `serde_json::Value` holds exactly (its number is the nearest
/// float): only an integer schema (which names the bound it passes) or a string (which
/// takes the text as sent) may take it; anywhere else it is refused with a `limit` issue
/// ([`Decoder::refuse_uncarried`]), never rounded.
pub(super) fn uncarried_literal(json: &Json) -> Option<&str> {
    match json {
        Json::SpelledNumber(number, sent) if number.is_f64() && is_uncarried_integer(sent) => {
            Some(sent)
        }
        _ => None,
    }
}

/// `integer` as a `Value`, when it is in [`CARRIED`].
pub(super) fn carried(integer: i128) -> Option<Value> {
    if !CARRIED.contains(&integer) {
        return None;
    }
    Num::Int(integer).to_json().map(Value::Number)
}

/// The text of a string sent for a number: trimmed, and one leading `+` dropped (`"+5"`,
/// not `"+-5"`).
pub(super) fn string_digits(text: &str) -> &str {
    let trimmed = text.trim();
    match trimmed.strip_prefix('+') {
        Some(rest) if !rest.starts_with(['+', '-']) => rest,
        _ => trimmed,
    }
}

impl<'m> Decoder<'m> {
    /// A value at an `integer` schema.
    pub(super) fn integer(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        let (digits, original, rule): (Cow<'_, str>, Value, Rule) = match json {
            // An integer as sent (`-0` included): nothing to make.
            Json::Number(number) | Json::SpelledNumber(number, _) if !number.is_f64() => {
                self.checker.check_number(Num::from_json(&number), schema);
                return Some(Value::Number(number));
            }
            Json::Number(number) => (
                float_digits(&number, None).into_owned().into(),
                Value::Number(number),
                Rule::FloatToInteger,
            ),
            Json::SpelledNumber(number, sent) => (
                String::from(sent).into(),
                Value::Number(number),
                Rule::FloatToInteger,
            ),
            // Its float is an integer, its digits are not: never an integer.
            Json::RoundedNumber(number) => {
                return self.rounded_into_integer(Value::Number(number));
            }
            Json::String(text) if self.allows(Rule::StringToNumber) => (
                string_digits(&text).to_owned().into(),
                Value::String(text),
                Rule::StringToNumber,
            ),
            other => return self.type_issue(schema, other.into_value()),
        };
        let read = match decimal_integer(&digits) {
            Some(DecimalInteger::Fraction) => {
                // A string whose float rounds its fraction away says so, as a number does.
                let rounds = digits.parse::<f64>().is_ok_and(|f| f.fract() == 0.0);
                if original.is_string() && rounds {
                    return self.rounded_into_integer(original);
                }
                return self.type_issue(schema, original);
            }
            Some(read) if self.allows(rule) => read,
            _ => return self.type_issue(schema, original),
        };
        let Some(value) = read.to_i128().and_then(carried) else {
            self.integer_beyond(read, &digits, schema, original);
            return None;
        };
        let number = Num::from_json(value.as_number()?);
        self.repair_if_accepted(Some(rule), original, &value, |checker| {
            checker.check_number(number, schema)
        });
        Some(value)
    }

    /// The issue of an integer beyond [`CARRIED`]: the schema's bound it passes (a Rust
    /// width's range included), else a `limit` issue.
    fn integer_beyond(
        &mut self,
        read: DecimalInteger,
        digits: &str,
        schema: &'m Schema,
        original: Value,
    ) {
        if self.constant_differs(read, digits, schema, &original) {
            return;
        }
        let before = self.checker.issue_count();
        match read.to_i128() {
            // `Num::Int` compares exactly outside the range a `Value` holds.
            Some(integer) => self.checker.check_number(Num::Int(integer), schema),
            None => self.huge_beyond_bound(read, digits, schema, &original),
        }
        if self.checker.issue_count() > before {
            return;
        }
        self.refuse_uncarried(digits, original);
    }

    /// The `limit` issue of an integer (its `digits`, as sent) beyond [`CARRIED`]: refused
    /// rather than rounded into a float.
    pub(super) fn refuse_uncarried(&mut self, digits: &str, original: Value) {
        let message = format!(
            "{} is an integer beyond what a JSON value carries exactly ({} to {}): it is refused rather than rounded into a float",
            crate::issue::shorten_str(digits).as_str().unwrap_or(digits),
            CARRIED.start(),
            CARRIED.end(),
        );
        self.checker.issue(
            Constraint::Limit,
            message,
            Some(Value::from(format!(
                "an integer from {} to {}",
                CARRIED.start(),
                CARRIED.end()
            ))),
            Some(original),
        );
    }

    /// The `const` issue when the schema has a `const` other than this integer beyond
    /// [`CARRIED`] (compared exactly: its float may equal the constant, its digits do not).
    fn constant_differs(
        &mut self,
        read: DecimalInteger,
        digits: &str,
        schema: &'m Schema,
        original: &Value,
    ) -> bool {
        let Some(constant) = self
            .checker
            .resolve(schema)
            .and_then(|s| s.constant.as_ref())
        else {
            return false;
        };
        let exact = match read.to_i128() {
            Some(integer) => Num::Int(integer),
            None => Num::Float(digits.parse::<f64>().unwrap_or(f64::NAN)),
        };
        if constant
            .as_number()
            .is_some_and(|c| Num::from_json(c) == exact)
        {
            return false;
        }
        let shown = crate::issue::shorten_str(digits);
        let message = format!(
            "expected {constant}, got {}",
            shown.as_str().unwrap_or(digits)
        );
        let expected = Some(constant.clone());
        self.checker
            .issue(Constraint::Const, message, expected, Some(original.clone()));
        true
    }

    /// An integer beyond `u128` against the schema's bounds, compared as the nearest float
    /// (past every integer type's range, whatever the rounding).
    fn huge_beyond_bound(
        &mut self,
        read: DecimalInteger,
        digits: &str,
        schema: &'m Schema,
        original: &Value,
    ) {
        let Some(Kind::Integer(integer)) = self.checker.resolve(schema).map(|s| &s.kind) else {
            return;
        };
        let approx = Num::Float(digits.parse::<f64>().unwrap_or(f64::NAN));
        let bounds = &integer.bounds;
        let negative = matches!(read, DecimalInteger::Huge { negative: true });
        type Fails = fn(Option<Ordering>) -> bool;
        let checks: [(Option<Num>, Constraint, &str, Fails); 2] = if negative {
            [
                (
                    bounds.minimum,
                    Constraint::Minimum,
                    "is less than the minimum",
                    |o| !matches!(o, Some(Ordering::Greater | Ordering::Equal)),
                ),
                (
                    bounds.exclusive_minimum,
                    Constraint::ExclusiveMinimum,
                    "is not greater than",
                    |o| o != Some(Ordering::Greater),
                ),
            ]
        } else {
            [
                (
                    bounds.maximum,
                    Constraint::Maximum,
                    "is greater than the maximum",
                    |o| !matches!(o, Some(Ordering::Less | Ordering::Equal)),
                ),
                (
                    bounds.exclusive_maximum,
                    Constraint::ExclusiveMaximum,
                    "is not less than",
                    |o| o != Some(Ordering::Less),
                ),
            ]
        };
        let passed = checks
            .into_iter()
            .find_map(|(bound, constraint, words, fails)| {
                let bound = bound?;
                fails(approx.partial_cmp(&bound)).then_some((bound, constraint, words))
            });
        if let Some((bound, constraint, words)) = passed {
            let shown = crate::issue::shorten_str(digits);
            let message = format!("{} {words} {bound}", shown.as_str().unwrap_or(digits));
            self.checker.issue(
                constraint,
                message,
                bound.to_json().map(Value::Number),
                Some(original.clone()),
            );
        }
    }
}

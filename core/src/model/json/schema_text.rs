//! Schema text read with its integers' digits kept (issue 27 §1): a schema's `const`,
//! `enum`, bounds and defaults are the integers their digits say, as arguments are.

use serde_json::Number;

use super::{each_number, mark_number_texts, Json, Step};
use crate::model::read::{SchemaError, SchemaErrors};
use crate::num::{is_uncarried_integer, Num, CARRIED_INTEGERS};
use crate::Path;

/// The integers of `json` (read from the strict JSON `text`) written as integers beyond
/// [`CARRIED_INTEGERS`], each an error at its JSON pointer. serde_json reads such an integer
/// as a float, so only floats are looked at.
fn uncarried_integers(json: &mut Json, text: &[u8]) -> Vec<SchemaError> {
    let mut errors = Vec::new();
    each_number(json, text, &mut |json, token, steps| {
        let Json::Number(number) = json else { return };
        if !number.is_f64() || !is_uncarried_integer(token) {
            return;
        }
        let path = steps.iter().fold(Path::root(), |path, step| match step {
            Step::Key(key) => path.key(*key),
            Step::Index(index) => path.index(*index),
        });
        errors.push(SchemaError {
            pointer: path.to_json_pointer(),
            message: format!(
                "the integer {} is beyond the integers toolgate carries exactly ({} to {}): a JSON value holds none larger, and read as the float {number} it would be another number",
                crate::issue::shorten_str(token).as_str().unwrap_or(token),
                CARRIED_INTEGERS.start(),
                CARRIED_INTEGERS.end()
            ),
        });
    });
    errors
}

impl Json {
    /// Reads schema text (a tool definition, a JSON Schema) keeping the integers its
    /// digits say (`Json::integers_by_digits`): an integral number written with a fraction
    /// or an exponent whose float is not exactly that integer, or is written back as another
    /// (`"default": 9007199254740993.0`, whose float is `9007199254740992.0`;
    /// `9223372036854775808.0`, whose float is written `9.223372036854776e18`), becomes the
    /// integer, where a JSON value holds it (`i64`, `u64`); every other number is what
    /// serde_json reads (`5.0` stays the float `5.0`). A schema read from a
    /// `serde_json::Value` gets the same, its floats taken at their shortest text (as a
    /// float in a `Value` of arguments is).
    ///
    /// An integer written as one (no fraction, no exponent) beyond
    /// [`crate::num::CARRIED_INTEGERS`] is an error at its JSON pointer, wherever it is
    /// (`"const": 18446744073709551617`): no JSON value holds it, and read through a float it
    /// would be another number, so a `const`, `enum`, bound or default would give wrong
    /// verdicts. Text that is not JSON is an error at the root.
    ///
    /// ```
    /// use toolgate_core::model::Json;
    ///
    /// let json = Json::from_schema_text(r#"{"default": 9007199254740993.0, "minimum": 5.0}"#).unwrap();
    /// assert_eq!(json.get("default"), Some(&Json::Number(9007199254740993u64.into())));
    /// assert_eq!(json.get("minimum").unwrap().to_value(), serde_json::json!(5.0));
    /// ```
    pub fn from_schema_text(text: &str) -> Result<Json, SchemaErrors> {
        let mut json: Json = serde_json::from_str(text).map_err(SchemaErrors::syntax)?;
        if json.has_float() {
            let uncarried = uncarried_integers(&mut json, text.as_bytes());
            if !uncarried.is_empty() {
                return Err(SchemaErrors(uncarried));
            }
            mark_number_texts(&mut json, text.as_bytes());
            json.integers_by_digits();
        }
        Ok(json)
    }

    /// Reads JSON text that is not a schema and not arguments (another library's error
    /// body) as a `Value`, keeping every number's digits: a number a float would change
    /// (`18446744073709551617`, `9007199254740993.5`) is its text, a string, as
    /// [`crate::num::float_keeping_digits`] decides; every other number is what serde_json
    /// reads.
    ///
    /// ```
    /// use toolgate_core::model::Json;
    ///
    /// let value = Json::value_keeping_digits(r#"{"gt": 123456789012345678901234567890, "le": 0.5}"#).unwrap();
    /// assert_eq!(value, serde_json::json!({"gt": "123456789012345678901234567890", "le": 0.5}));
    /// ```
    pub fn value_keeping_digits(text: &str) -> Result<serde_json::Value, serde_json::Error> {
        let mut json: Json = serde_json::from_str(text)?;
        if json.has_float() {
            each_number(&mut json, text.as_bytes(), &mut |json, token, _| {
                let Json::Number(number) = json else { return };
                if number.is_f64() && crate::num::float_keeping_digits(token).is_none() {
                    *json = Json::String(token.to_owned());
                }
            });
        }
        Ok(json.to_value())
    }

    /// Whether some number in this value is a float, counted without recursion.
    fn has_float(&self) -> bool {
        let mut pending = vec![self];
        while let Some(json) = pending.pop() {
            match json {
                Json::Number(number) if number.is_f64() => return true,
                Json::Array(items) => pending.extend(items),
                Json::Object(members) => pending.extend(members.iter().map(|(_, member)| member)),
                _ => {}
            }
        }
        false
    }

    /// Every number back to a plain [`Json::Number`], an integral one as the integer its
    /// digits say (its text as sent, or its shortest text) unless its float is exactly that
    /// integer and is written back so (`5.0`, `1e3` stay floats; `9007199254740993.0`,
    /// `9223372036854775808.0` and `9.223372036854776e18` become integers), where a `Value`
    /// holds the integer.
    pub(crate) fn integers_by_digits(&mut self) {
        let mut pending = vec![self];
        while let Some(json) = pending.pop() {
            match json {
                Json::Number(number) if number.is_f64() => {
                    if let Some(integer) = integer_by_digits(number, None) {
                        *json = Json::Number(integer);
                    }
                }
                Json::SpelledNumber(number, text) => {
                    let integer = integer_by_digits(number, Some(text));
                    *json = Json::Number(integer.unwrap_or_else(|| number.clone()));
                }
                Json::RoundedNumber(number) => *json = Json::Number(number.clone()),
                Json::Array(items) => pending.extend(items.iter_mut()),
                Json::Object(members) => {
                    pending.extend(members.iter_mut().map(|(_, member)| member))
                }
                Json::Null | Json::Bool(_) | Json::Number(_) | Json::String(_) => {}
            }
        }
    }
}

/// The integer a float `number` written `text` (else its shortest text) says, where a
/// `Value` holds it and the float is not already exactly it and written back so.
fn integer_by_digits(number: &Number, text: Option<&str>) -> Option<Number> {
    let integer = |text: &str| {
        crate::num::decimal_integer(text).and_then(crate::num::DecimalInteger::to_i128)
    };
    let shortest = number.to_string();
    let exact = integer(text.unwrap_or(&shortest))?;
    let kept = Num::from_json(number) == Num::Int(exact) && integer(&shortest) == Some(exact);
    if kept {
        return None;
    }
    Num::from_i128(exact)
        .to_json()
        .filter(|exact| exact.is_i64() || exact.is_u64())
}

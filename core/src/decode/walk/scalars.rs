//! Scalars: numbers, booleans, strings and enum values, each taken as sent, repaired where a
//! rule allows (`string_to_number`, `float_to_integer`, `string_to_bool`, `number_to_bool`,
//! `scalar_to_string`, `enum_case`...) or refused with its issue.

use serde_json::Value;

use super::Decoder;
use crate::check::Checker;
use crate::decode::Rule;
use crate::model::lookup::FoldedMatch;
use crate::model::{EnumSchema, Json, Kind, Schema};
use crate::num::Num;
use crate::{suggest, Constraint};

/// Largest integer a float holds exactly; integral floats beyond it are not turned into
/// integers (the digits would be invented).
const EXACT_FLOAT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// A number read from a string, and whether its digits denote an integer (a float may
/// round digits that do not into one: `"1.0000000000000001"`).
struct ParsedNumber {
    value: Num,
    is_integral_text: bool,
}

/// A string read as a number: trimmed, an optional `+`, then JSON number syntax.
fn parse_number(text: &str) -> Option<ParsedNumber> {
    let trimmed = text.trim();
    let unsigned = trimmed.strip_prefix('+').unwrap_or(trimmed);
    if unsigned.starts_with(['+', '-']) && trimmed.starts_with('+') {
        return None;
    }
    let number: serde_json::Number = unsigned.parse().ok()?;
    let value = Num::from_json(&number);
    value.is_finite().then(|| ParsedNumber {
        value,
        is_integral_text: crate::num::decimal_is_integral(unsigned),
    })
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" | "t" | "y" => Some(true),
        "false" | "no" | "off" | "0" | "f" | "n" => Some(false),
        _ => None,
    }
}

fn number_value(number: Num) -> Value {
    number.to_json().map_or(Value::Null, Value::Number)
}

impl<'m> Decoder<'m> {
    fn repair_if_accepted(
        &mut self,
        rule: Option<Rule>,
        from: Value,
        to: &Value,
        check: impl FnOnce(&mut Checker<'m>),
    ) {
        let before = self.checker.issue_count();
        check(&mut self.checker);
        if let (Some(rule), true) = (rule, self.checker.issue_count() == before) {
            self.repair(rule, from, to.clone());
        }
    }

    pub(super) fn number(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        let integer = matches!(schema.kind, Kind::Integer(_));
        let (number, original, sent_as) = match json {
            Json::Number(number) | Json::SpelledNumber(number, _) => {
                (Num::from_json(&number), Value::Number(number), None)
            }
            // Its float is an integer, its digits are not: never an integer.
            Json::RoundedNumber(number) if integer => {
                return self.rounded_into_integer(Value::Number(number));
            }
            Json::RoundedNumber(number) => (Num::from_json(&number), Value::Number(number), None),
            Json::String(text) if self.allows(Rule::StringToNumber) => match parse_number(&text) {
                Some(number)
                    if integer
                        && !number.is_integral_text
                        && number.value.as_f64().fract() == 0.0 =>
                {
                    return self.rounded_into_integer(Value::String(text));
                }
                Some(number) => (
                    number.value,
                    Value::String(text),
                    Some(Rule::StringToNumber),
                ),
                None => return self.type_issue(schema, Value::String(text)),
            },
            other => return self.type_issue(schema, other.into_value()),
        };
        let (number, rule) = match number {
            Num::Float(float) if integer => {
                let rule = sent_as.unwrap_or(Rule::FloatToInteger);
                if float.fract() != 0.0 || !self.allows(rule) {
                    return self.type_issue(schema, original);
                }
                if float.abs() > EXACT_FLOAT_INTEGER {
                    // Outside the integer's range, say which bound; inside it, the digits of a
                    // float this large cannot be trusted.
                    let before = self.checker.issue_count();
                    self.checker.check_number(Num::Float(float), schema);
                    if self.checker.issue_count() == before {
                        let message = "an integer beyond 2^53 sent as a float cannot be read exactly; send it as an integer";
                        self.checker.issue(
                            Constraint::Type,
                            message,
                            Some(Value::from("integer")),
                            Some(original),
                        );
                    }
                    return None;
                }
                (Num::from_i128(float as i128), Some(rule))
            }
            number => (number, sent_as),
        };
        let value = match (&original, rule) {
            (Value::Number(_), None) => original.clone(),
            _ => number_value(number),
        };
        self.repair_if_accepted(rule, original, &value, |checker| {
            checker.check_number(number, schema)
        });
        Some(value)
    }

    /// A `type` issue for a number whose digits are not an integer but whose float is
    /// (`1.0000000000000001`, `1e-400`): turning it into an integer would round it.
    fn rounded_into_integer(&mut self, got: Value) -> Option<Value> {
        let message = format!(
            "expected integer, got {}: its digits have a fraction that a 64-bit float rounds away, and nothing is rounded into an integer",
            crate::issue::shorten(got.clone())
        );
        self.checker.issue(
            Constraint::Type,
            message,
            Some(Value::from("integer")),
            Some(got),
        );
        None
    }

    pub(super) fn boolean(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        let (flag, original, rule) = match json {
            Json::Bool(flag) => (flag, Value::Bool(flag), None),
            Json::String(text) if self.allows(Rule::StringToBool) => match parse_bool(&text) {
                Some(flag) => (flag, Value::String(text), Some(Rule::StringToBool)),
                None => return self.type_issue(schema, Value::String(text)),
            },
            Json::Number(number) | Json::SpelledNumber(number, _)
                if self.allows(Rule::NumberToBool) =>
            {
                // `0`, `1`, `0.0` and `1.0` all compare equal to the integers.
                let as_number = Num::from_json(&number);
                let flag = if as_number == Num::Int(0) {
                    false
                } else if as_number == Num::Int(1) {
                    true
                } else {
                    return self.type_issue(schema, Value::Number(number));
                };
                (flag, Value::Number(number), Some(Rule::NumberToBool))
            }
            other => return self.type_issue(schema, other.into_value()),
        };
        let value = Value::Bool(flag);
        self.repair_if_accepted(rule, original, &value, |checker| {
            checker.check_bool(flag, schema)
        });
        Some(value)
    }

    pub(super) fn string(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        let (text, original, rule) = match json {
            Json::String(text) => (text, None, None),
            // A float this large was rounded when it was read: its text would invent digits.
            Json::Number(number) | Json::SpelledNumber(number, _)
                if number.as_f64().is_some_and(|f| {
                    !number.is_i64() && !number.is_u64() && f.abs() >= EXACT_FLOAT_INTEGER
                }) =>
            {
                return self.type_issue(schema, Value::Number(number));
            }
            // The number as it was sent (`1e3` stays `"1e3"`), not serde_json's spelling.
            Json::SpelledNumber(number, sent) if self.allows(Rule::ScalarToString) => (
                sent.into(),
                Some(Value::Number(number)),
                Some(Rule::ScalarToString),
            ),
            scalar @ (Json::Number(_) | Json::Bool(_)) if self.allows(Rule::ScalarToString) => {
                let original = scalar.into_value();
                (
                    original.to_string(),
                    Some(original),
                    Some(Rule::ScalarToString),
                )
            }
            other => return self.type_issue(schema, other.into_value()),
        };
        let value = Value::String(text);
        let Value::String(text) = &value else {
            unreachable!("made a string just above")
        };
        let from = original.unwrap_or(Value::Null);
        self.repair_if_accepted(rule, from, &value, |checker| {
            checker.check_string(text, schema)
        });
        Some(value)
    }

    pub(super) fn enumeration(&mut self, json: Json, enumeration: &'m EnumSchema) -> Option<Value> {
        if let Json::RoundedNumber(number) = json {
            let message = format!(
                "{number} is not exactly one of the allowed values: its digits have a fraction that a 64-bit float rounds away"
            );
            let expected = crate::values::shorten_list(
                enumeration.values.iter().map(|v| v.value.clone()),
                enumeration.values.len(),
            );
            self.checker.issue(
                Constraint::Enum,
                message,
                Some(expected),
                Some(Value::Number(number)),
            );
            return None;
        }
        let value = json.into_value();
        if self.model.enum_contains(enumeration, &value) {
            return self.enum_integer_sent_as_float(value, enumeration);
        }
        let index = self.model.enum_index(enumeration);
        // A declared alias is part of the schema, as serde takes it: no repair to log.
        let aliased = value.as_str().and_then(|text| match index {
            Some(index) => index.alias(text),
            None => enumeration
                .values
                .iter()
                .position(|v| v.aliases.iter().any(|a| a == text)),
        });
        if let Some(at) = aliased {
            return Some(enumeration.values[at].value.clone());
        }
        if let Some((rule, canonical)) = self.enum_repair(&value, enumeration) {
            self.repair(rule, value, canonical.clone());
            return Some(canonical);
        }
        self.checker.check_enum(&value, enumeration);
        None
    }

    /// An allowed value as sent, but `1.0` for the integer `1`: normalised and logged
    /// `float_to_integer`, as for a plain integer (issue 11 §4: an integer field whose
    /// schema also has an integer `enum` took `1.0` unchanged and unlogged). With the rule
    /// off, refused as the integer would be.
    fn enum_integer_sent_as_float(
        &mut self,
        value: Value,
        enumeration: &EnumSchema,
    ) -> Option<Value> {
        let Value::Number(number) = &value else {
            return Some(value);
        };
        if number.is_i64() || number.is_u64() {
            return Some(value);
        }
        let integer = enumeration.values.iter().find(|allowed| {
            allowed.value.as_number().is_some_and(|n| {
                (n.is_i64() || n.is_u64()) && crate::values::json_equal(&allowed.value, &value)
            })
        });
        let Some(integer) = integer else {
            return Some(value);
        };
        if !self.allows(Rule::FloatToInteger) {
            let message = format!(
                "{value} is not one of the allowed values as sent: the integer {} is written without a fraction",
                integer.value
            );
            let expected = crate::values::shorten_list(
                enumeration.values.iter().map(|v| v.value.clone()),
                enumeration.values.len(),
            );
            self.checker
                .issue(Constraint::Enum, message, Some(expected), Some(value));
            return None;
        }
        let integer = integer.value.clone();
        self.repair(Rule::FloatToInteger, value, integer.clone());
        Some(integer)
    }

    /// The one allowed value `value` means, and by which rule.
    fn enum_repair(&self, value: &Value, enumeration: &EnumSchema) -> Option<(Rule, Value)> {
        match value {
            Value::String(text) => {
                if let Some(number) = parse_number(text).filter(|number| {
                    self.allows(Rule::StringToNumber)
                        && (number.is_integral_text || number.value.as_f64().fract() != 0.0)
                }) {
                    let as_number = number_value(number.value);
                    if let Some(found) = enumeration
                        .values
                        .iter()
                        .find(|v| crate::values::json_equal(&v.value, &as_number))
                    {
                        return Some((Rule::StringToNumber, found.value.clone()));
                    }
                }
                if !self.allows(Rule::EnumCase) {
                    return None;
                }
                if let Some(index) = self.model.enum_index(enumeration) {
                    return match index.folded(text)? {
                        FoldedMatch::One(at) => {
                            Some((Rule::EnumCase, enumeration.values[at].value.clone()))
                        }
                        FoldedMatch::Tie => None,
                    };
                }
                let mut matches = enumeration.values.iter().filter(|v| {
                    v.value.as_str().is_some_and(|s| suggest::fold_eq(s, text))
                        || v.aliases.iter().any(|a| suggest::fold_eq(a, text))
                });
                let first = matches.next()?;
                matches
                    .next()
                    .is_none()
                    .then(|| (Rule::EnumCase, first.value.clone()))
            }
            Value::Number(_) | Value::Bool(_) if self.allows(Rule::ScalarToString) => {
                let text = value.to_string();
                let found = enumeration
                    .values
                    .iter()
                    .find(|v| v.value.as_str() == Some(text.as_str()))?;
                Some((Rule::ScalarToString, found.value.clone()))
            }
            _ => None,
        }
    }
}

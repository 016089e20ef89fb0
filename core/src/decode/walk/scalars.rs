//! Scalars: numbers, booleans, strings and enum values, each taken as sent, repaired where a
//! rule allows (`string_to_number`, `float_to_integer`, `string_to_bool`, `number_to_bool`,
//! `scalar_to_string`, `enum_case`...) or refused with its issue.

use serde_json::Value;

use super::Decoder;
use crate::check::Checker;
use crate::decode::Rule;
use crate::model::{enum_contains_in, EnumSchema, Json, Kind, Schema};
use crate::num::Num;
use crate::plan::{EnumTable, FoldedMatch, Node};
use crate::{suggest, Constraint};

/// Largest integer a float holds exactly: a float beyond it written as a string would
/// invent digits.
const EXACT_FLOAT_INTEGER: f64 = 9_007_199_254_740_992.0;

/// A string read as a number (for a `number` schema): trimmed, an optional `+`, then JSON
/// number syntax, as its nearest float.
fn parse_number(text: &str) -> Option<Num> {
    let number: serde_json::Number = super::integers::string_digits(text).parse().ok()?;
    let value = Num::from_json(&number);
    value.is_finite().then_some(value)
}

/// The number a string sent for an enum value means, to compare with the allowed numbers:
/// an integer exactly as its digits say (`"9007199254740993.0"`); another number as its
/// nearest float, unless that float is an integer its digits are not
/// (`"1.0000000000000001"`), which means no allowed value.
fn enum_number(text: &str) -> Option<Num> {
    let digits = super::integers::string_digits(text);
    match crate::num::decimal_integer(digits)? {
        crate::num::DecimalInteger::Fraction => {
            parse_number(digits).filter(|number| !number.is_integral())
        }
        read => read.to_i128().map(Num::Int),
    }
}

/// An enum's values as an issue's `expected` lists them.
fn allowed_list(enumeration: &EnumSchema) -> Value {
    crate::values::shorten_list(
        enumeration.values.iter().map(|v| v.value.clone()),
        enumeration.values.len(),
    )
}

fn parse_bool(text: &str) -> Option<bool> {
    const TRUE: [&str; 6] = ["true", "yes", "on", "1", "t", "y"];
    const FALSE: [&str; 6] = ["false", "no", "off", "0", "f", "n"];
    let text = text.trim();
    let spelled = |words: [&str; 6]| words.iter().any(|w| w.eq_ignore_ascii_case(text));
    if spelled(TRUE) {
        Some(true)
    } else if spelled(FALSE) {
        Some(false)
    } else {
        None
    }
}

fn number_value(number: Num) -> Value {
    number.to_json().map_or(Value::Null, Value::Number)
}

impl<'m> Decoder<'m> {
    pub(super) fn repair_if_accepted(
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
        if matches!(schema.kind, Kind::Integer(_)) {
            return self.integer(json, schema);
        }
        let (number, original, rule) = match json {
            Json::Number(number) | Json::SpelledNumber(number, _) | Json::RoundedNumber(number) => {
                (Num::from_json(&number), Value::Number(number), None)
            }
            Json::String(text) if self.allows(Rule::StringToNumber) => {
                // Its digits an integer no `Value` carries: a float would round it.
                let digits = super::integers::string_digits(&text);
                if super::integers::is_uncarried_integer(digits) {
                    let digits = digits.to_owned();
                    self.refuse_uncarried(&digits, Value::String(text));
                    return None;
                }
                match parse_number(&text) {
                    Some(number) => (number, Value::String(text), Some(Rule::StringToNumber)),
                    None => return self.type_issue(schema, Value::String(text)),
                }
            }
            other => return self.type_issue(schema, other.into_value()),
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
    pub(super) fn rounded_into_integer(&mut self, got: Value) -> Option<Value> {
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

    pub(super) fn enumeration(
        &mut self,
        json: Json,
        node: Node<'m>,
        enumeration: &'m EnumSchema,
    ) -> Option<Value> {
        if let Json::RoundedNumber(number) = json {
            let message = format!(
                "{number} is not exactly one of the allowed values: its digits have a fraction that a 64-bit float rounds away"
            );
            let expected = allowed_list(enumeration);
            self.checker.issue(
                Constraint::Enum,
                message,
                Some(expected),
                Some(Value::Number(number)),
            );
            return None;
        }
        // A float-spelled integer is compared as its digits say (never as its float).
        let exact = super::integers::float_spelled_integer(&json);
        let value = json.into_value();
        let index = node.enum_table(self.model);
        match exact {
            Some(integer) => {
                if let Some(allowed) = self.enum_integer(integer, enumeration) {
                    return self.enum_integer_sent_as_float(value, allowed, enumeration);
                }
            }
            None if enum_contains_in(index, enumeration, &value) => return Some(value),
            None => {}
        }
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
        if let Some((rule, canonical)) = self.enum_repair(&value, enumeration, index) {
            self.repair(rule, value, canonical.clone());
            return Some(canonical);
        }
        match exact {
            Some(integer) => self.enum_integer_refused(value, integer, enumeration, index),
            None => self.checker.check_enum_in(&value, enumeration, index),
        }
        None
    }

    /// The allowed value equal to the integer `integer` (never to its float).
    fn enum_integer(&self, integer: i128, enumeration: &'m EnumSchema) -> Option<&'m Value> {
        let exact = Num::Int(integer);
        enumeration
            .values
            .iter()
            .map(|allowed| &allowed.value)
            .find(|allowed| {
                allowed
                    .as_number()
                    .is_some_and(|n| Num::from_json(n) == exact)
            })
    }

    /// A number sent with a fraction or an exponent whose digits are the `allowed` value:
    /// an allowed integer is normalised and logged `float_to_integer`, as for a plain
    /// integer (issue 11 §4: an integer field whose schema also has an integer `enum` took
    /// `1.0` unchanged and unlogged); with the rule off, refused as the integer would be. An
    /// allowed float (`5.0`) is taken as sent.
    fn enum_integer_sent_as_float(
        &mut self,
        value: Value,
        allowed: &'m Value,
        enumeration: &EnumSchema,
    ) -> Option<Value> {
        let is_integer = allowed
            .as_number()
            .is_some_and(|n| n.is_i64() || n.is_u64());
        if !is_integer {
            return Some(value);
        }
        if !self.allows(Rule::FloatToInteger) {
            let message = format!(
                "{value} is not one of the allowed values as sent: the integer {allowed} is written without a fraction"
            );
            let expected = allowed_list(enumeration);
            self.checker
                .issue(Constraint::Enum, message, Some(expected), Some(value));
            return None;
        }
        self.repair(Rule::FloatToInteger, value, allowed.clone());
        Some(allowed.clone())
    }

    /// The enum's issue for a float-spelled integer equal to no allowed value, with the
    /// integer its digits say as `got` where a `Value` carries it.
    fn enum_integer_refused(
        &mut self,
        value: Value,
        integer: i128,
        enumeration: &EnumSchema,
        index: Option<&EnumTable>,
    ) {
        let before = self.checker.issue_count();
        let got = super::integers::carried(integer).unwrap_or(value);
        self.checker.check_enum_in(&got, enumeration, index);
        if self.checker.issue_count() == before && !self.checker.skip_when_full(Constraint::Enum) {
            // Beyond what a `Value` carries, and its float is allowed: its digits are not.
            let message = format!(
                "{integer} is not one of the allowed values: a 64-bit float rounds it to one, its digits are not"
            );
            let expected = allowed_list(enumeration);
            self.checker
                .issue(Constraint::Enum, message, Some(expected), Some(got));
        }
    }

    /// The one allowed value `value` means, and by which rule.
    fn enum_repair(
        &self,
        value: &Value,
        enumeration: &EnumSchema,
        index: Option<&EnumTable>,
    ) -> Option<(Rule, Value)> {
        match value {
            Value::String(text) => {
                let number = enum_number(text).filter(|_| self.allows(Rule::StringToNumber));
                if let Some(number) = number {
                    let found = enumeration.values.iter().find(|v| {
                        v.value
                            .as_number()
                            .is_some_and(|n| Num::from_json(n) == number)
                    });
                    if let Some(found) = found {
                        return Some((Rule::StringToNumber, found.value.clone()));
                    }
                }
                if !self.allows(Rule::EnumCase) {
                    return None;
                }
                if let Some(index) = index {
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
            // A float this large was rounded when it was read: its text would invent digits.
            Value::Number(number)
                if number
                    .as_f64()
                    .is_some_and(|f| number.is_f64() && f.abs() >= EXACT_FLOAT_INTEGER) =>
            {
                None
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

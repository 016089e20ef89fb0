//! A value's tokens built into a [`Json`] tree, each number kept as its digits say.

use serde_json::Number;

use super::cursor::Cursor;
use super::tokens::{Leniency, Token};
#[cfg(test)]
use super::tokens::{Stop, Tokens};
use crate::decode::TextError;
use crate::model::Json;

/// A value read from text.
#[derive(Debug)]
pub(crate) struct TreeRead {
    /// The value.
    pub(crate) json: Json,
    /// The byte after its last character.
    pub(crate) end: usize,
    /// What in it was not strict JSON.
    pub(crate) leniency: Leniency,
}

/// A container being built.
#[cfg(test)]
enum Open {
    Array(Vec<Json>),
    /// An object's members, and the key whose value comes next.
    Object(Vec<(String, Json)>, Option<String>),
}

/// Reads the value that starts at byte `start` of `text` (white space and comments before
/// it skipped), strict or lenient, with at most `max_depth` nested containers. The text is
/// all there is: one that ends inside the value is [`TextError::Truncated`].
pub(crate) fn read_tree(text: &str, start: usize, max_depth: usize) -> Result<TreeRead, TextError> {
    read_tree_noting(text, start, max_depth, &mut Leniency::default())
}

/// [`read_tree`], noting in `leniency` what was not strict JSON in the text read, also when
/// it is refused (a fault after lenient text is not one a strict reader would meet).
pub(crate) fn read_tree_noting(
    text: &str,
    start: usize,
    max_depth: usize,
    leniency: &mut Leniency,
) -> Result<TreeRead, TextError> {
    let mut cursor = Cursor::new(text, start);
    let read = cursor.tree(max_depth);
    *leniency = cursor.leniency();
    Ok(TreeRead {
        json: read?,
        end: cursor.position(),
        leniency: cursor.leniency(),
    })
}

/// [`read_tree_noting`] by the resumable tokenizer, token by token: the cursor's oracle.
#[cfg(test)]
pub(crate) fn read_tree_by_tokens(
    text: &str,
    start: usize,
    max_depth: usize,
    leniency: &mut Leniency,
) -> Result<TreeRead, TextError> {
    let mut tokens = Tokens::at(start, max_depth);
    let read = read_tokens(text, &mut tokens);
    *leniency = tokens.leniency();
    read
}

#[cfg(test)]
fn read_tokens(text: &str, tokens: &mut Tokens) -> Result<TreeRead, TextError> {
    tokens.end_of_text();
    let mut open: Vec<Open> = Vec::new();
    loop {
        let token = match tokens.next(text) {
            Ok(Some(token)) => token,
            Ok(None) => unreachable!("a value is complete when its last token is taken"),
            Err(Stop::Error(error)) => return Err(*error),
            Err(Stop::More) => unreachable!("the text is all there is"),
        };
        let value = match token {
            Token::ObjectStart => {
                open.push(Open::Object(Vec::new(), None));
                continue;
            }
            Token::ArrayStart => {
                open.push(Open::Array(Vec::new()));
                continue;
            }
            Token::Key(key) => {
                if let Some(Open::Object(_, pending)) = open.last_mut() {
                    *pending = Some(key.into_owned());
                }
                continue;
            }
            Token::ObjectEnd | Token::ArrayEnd => match open.pop() {
                Some(Open::Array(items)) => Json::Array(items),
                Some(Open::Object(members, _)) => Json::Object(members),
                None => unreachable!("a container ends after it starts"),
            },
            scalar => match self::scalar(scalar, tokens.token_start()) {
                Some(json) => json?,
                None => unreachable!("every other token is handled above"),
            },
        };
        match open.last_mut() {
            None => {
                return Ok(TreeRead {
                    json: value,
                    end: tokens.position(),
                    leniency: tokens.leniency(),
                })
            }
            Some(Open::Array(items)) => items.push(value),
            Some(Open::Object(members, pending)) => {
                let key = pending.take().unwrap_or_default();
                members.push((key, value));
            }
        }
    }
}

/// The value of a scalar token in a tree (`offset`: where it starts, for a number out of
/// range); `None` for the tokens of containers and keys. What every reader of tokens makes of
/// a scalar.
pub(crate) fn scalar(token: Token<'_>, offset: usize) -> Option<Result<Json, TextError>> {
    Some(Ok(match token {
        Token::String(text) => Json::String(text.into_owned()),
        Token::Number(digits) => return Some(number(offset, digits)),
        Token::Bool(flag) => Json::Bool(flag),
        Token::Null => Json::Null,
        _ => return None,
    }))
}

/// The value of a number's text (checked against JSON's grammar) in a tree: an integer as
/// itself when a value carries it ([`carried_integer`]); any other number, an integer past 64
/// bits too (as every JSON reader without arbitrary precision reads one), as its nearest
/// `f64` ([`nearest_float`]).
pub(crate) fn number(offset: usize, digits: &str) -> Result<Json, TextError> {
    if let Some(integer) = carried_integer(digits) {
        let number = match i64::try_from(integer) {
            Ok(signed) => Number::from(signed),
            Err(_) => Number::from(u64::try_from(integer).expect("a carried integer fits u64")),
        };
        return Ok(Json::Number(number));
    }
    let number = Number::from_f64(nearest_float(digits, offset)?)
        .ok_or(TextError::NumberOutOfRange { offset })?;
    Ok(Json::from_number_text(number, digits))
}

/// Whether a number's text spells an integer: no fraction and no exponent.
pub(crate) fn is_integer_text(digits: &str) -> bool {
    !digits.contains(['.', 'e', 'E'])
}

/// The integer a number's text spells, when a value carries it as one: no fraction or
/// exponent, within `i64::MIN..=u64::MAX`, and not `-0` (which readers give as `-0.0`).
pub(crate) fn carried_integer(digits: &str) -> Option<i128> {
    if !is_integer_text(digits) || digits == "-0" {
        return None;
    }
    digits
        .parse::<i64>()
        .map(i128::from)
        .or_else(|_| digits.parse::<u64>().map(i128::from))
        .ok()
}

/// The `f64` nearest a number's text, correctly rounded as serde_json's `float_roundtrip`
/// rounds; out of range (at `offset`) past every `f64`.
pub(crate) fn nearest_float(digits: &str, offset: usize) -> Result<f64, TextError> {
    digits
        .parse::<f64>()
        .ok()
        .filter(|float| float.is_finite())
        .ok_or(TextError::NumberOutOfRange { offset })
}

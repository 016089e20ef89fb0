//! A value's tokens built into a [`Json`] tree, each number kept as its digits say.

use serde_json::Number;

use super::cursor::Cursor;
use super::tokens::Leniency;
#[cfg(test)]
use super::tokens::{Stop, Token, Tokens};
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
            Token::String(text) => Json::String(text.into_owned()),
            Token::Number(digits) => number(text, tokens.token_start(), digits)?,
            Token::Bool(flag) => Json::Bool(flag),
            Token::Null => Json::Null,
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

/// The number of `digits` (JSON's grammar, checked by the tokenizer; at byte `offset` of
/// `text`) as the tree holds it: an integer as itself, a float as [`Json::from_number_text`]
/// says.
pub(crate) fn number(text: &str, offset: usize, digits: &str) -> Result<Json, TextError> {
    let bytes = digits.as_bytes();
    // An integer as itself: only `-0` is not the integer its digits spell (a reader gives
    // `-0.0`).
    if !bytes.iter().any(|b| matches!(b, b'.' | b'e' | b'E')) && !bytes.starts_with(b"-0") {
        if let Ok(integer) = digits.parse::<i64>() {
            return Ok(Json::Number(integer.into()));
        }
        if let Ok(integer) = digits.parse::<u64>() {
            return Ok(Json::Number(integer.into()));
        }
    }
    // A float, or an integer past 64 bits (as every JSON reader without arbitrary precision
    // reads one): the nearest `f64`, as serde_json's `float_roundtrip` rounds it.
    let float = digits.parse::<f64>().map_err(|_| TextError::Invalid {
        offset,
        message: "not a number",
        found: super::tokens::found_at(text, offset),
    })?;
    let number = Number::from_f64(float).ok_or(TextError::NumberOutOfRange { offset })?;
    Ok(Json::from_number_text(number, digits))
}

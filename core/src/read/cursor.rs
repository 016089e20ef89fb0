//! [`Cursor`]: argument text read in one pass over a whole text, strict JSON on the fast path,
//! and the tree the run-time road walks built from it ([`Cursor::tree`]).
//!
//! Strict JSON is read here directly: white space skipped, a plain string found in one scan
//! eight bytes at a time ([`tokens::first_special`]), an integer's digits accumulated once as
//! they are checked. Everything else — a string with an escape, a float, a number past 19
//! digits, a word, every lenient form (comments, single quotes, bare keys, Python words,
//! trailing commas) and every error — is handed, at the byte where it starts, to the same
//! code of [`Tokens`] that reads it in a text arriving in pieces, as a cold branch: the two
//! readers cannot differ in what they accept, note or report.

use std::borrow::Cow;

use super::tokens::{self, Leniency, Stop, Token, Tokens};
use super::tree;
use crate::decode::TextError;
use crate::model::Json;
use crate::num::Num;

/// A reader of one whole text from a byte on.
pub(crate) struct Cursor<'t> {
    text: &'t str,
    at: usize,
    leniency: Leniency,
}

/// An integer read on the fast path.
enum Integer {
    Positive(u64),
    Negative(i64),
}

/// A container being built by [`Cursor::tree`].
enum Open {
    Array(Vec<Json>),
    /// An object's members, and the key whose value is being read.
    Object(Vec<(String, Json)>, String),
}

impl Open {
    fn closing(&self) -> u8 {
        match self {
            Open::Array(_) => b']',
            Open::Object(..) => b'}',
        }
    }

    fn push(&mut self, value: Json) {
        match self {
            Open::Array(items) => items.push(value),
            Open::Object(members, key) => members.push((std::mem::take(key), value)),
        }
    }

    fn into_json(self) -> Json {
        match self {
            Open::Array(items) => Json::Array(items),
            Open::Object(members, _) => Json::Object(members),
        }
    }
}

/// What [`Tokens`] stopped with on a whole text: its error (it never waits for more text
/// there; a wait is taken as the end of the text).
fn error(stop: Stop) -> TextError {
    match stop {
        Stop::Error(error) => *error,
        Stop::More => TextError::Truncated,
    }
}

impl<'t> Cursor<'t> {
    /// A reader of `text` from byte `at` on.
    pub(crate) fn new(text: &'t str, at: usize) -> Self {
        Cursor {
            text,
            at,
            leniency: Leniency::default(),
        }
    }

    /// The byte after the last one read.
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    /// What was not strict JSON in the text read so far.
    pub(crate) fn leniency(&self) -> Leniency {
        self.leniency
    }

    /// The tokenizer of a whole text at the position, for what is read off the fast path;
    /// [`Cursor::resume`] takes back where it stopped and what it noted.
    #[cold]
    fn tokens(&self) -> Tokens {
        let mut tokens = Tokens::at(self.at, 0);
        tokens.end_of_text();
        tokens
    }

    fn resume(&mut self, tokens: &Tokens) {
        self.at = tokens.position();
        self.leniency.add(tokens.leniency());
    }

    /// Skips white space and comments; the byte after them, `None` at the end of the text.
    #[inline]
    pub(crate) fn next_byte(&mut self) -> Result<Option<u8>, TextError> {
        let bytes = self.text.as_bytes();
        loop {
            match bytes.get(self.at) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/' | b'#') => return self.after_comments(),
                byte => return Ok(byte.copied()),
            }
        }
    }

    #[cold]
    fn after_comments(&mut self) -> Result<Option<u8>, TextError> {
        let mut tokens = self.tokens();
        let skipped = tokens.skip_space(self.text.as_bytes());
        self.resume(&tokens);
        skipped.map_err(error)?;
        Ok(self.text.as_bytes().get(self.at).copied())
    }

    /// Steps over the byte [`Cursor::next_byte`] gave.
    #[inline]
    pub(crate) fn advance(&mut self) {
        self.at += 1;
    }

    /// The scalar at the position (after [`Cursor::next_byte`]): a number, a boolean, `null` or
    /// a string; `in_container` says whether a container is open around it.
    pub(crate) fn scalar(&mut self, in_container: bool) -> Result<Json, TextError> {
        match self.text.as_bytes().get(self.at) {
            Some(b'"' | b'\'') => Ok(Json::String(self.string()?.into_owned())),
            Some(b'-' | b'0'..=b'9') => self.number(in_container),
            Some(byte) if byte.is_ascii_alphabetic() => self.word(),
            Some(_) => Err(error(
                self.tokens().invalid(self.text, "unexpected character"),
            )),
            None => Err(TextError::Truncated),
        }
    }

    /// Goes back to `at`, a position this cursor was at, to read from there again (what was
    /// noted as not strict stays noted).
    pub(crate) fn rewind(&mut self, at: usize) {
        self.at = at;
    }

    /// Skips white space and comments.
    pub(crate) fn skip_space(&mut self) -> Result<(), TextError> {
        self.next_byte().map(|_| ())
    }

    /// The byte after white space and comments, where the text must go on.
    #[inline]
    fn next_byte_before_end(&mut self) -> Result<u8, TextError> {
        self.next_byte()?.ok_or(TextError::Truncated)
    }

    /// The string whose opening quote is at the position (after [`Cursor::next_byte`]),
    /// escapes undone.
    #[inline]
    pub(crate) fn string(&mut self) -> Result<Cow<'t, str>, TextError> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if bytes[start] == b'"' {
            if let Some(end) = tokens::first_special(bytes, start + 1, b'"') {
                if bytes[end] == b'"' {
                    self.at = end + 1;
                    return Ok(Cow::Borrowed(&self.text[start + 1..end]));
                }
            }
        }
        self.string_slowly()
    }

    #[cold]
    fn string_slowly(&mut self) -> Result<Cow<'t, str>, TextError> {
        let mut tokens = self.tokens();
        let quote = self.text.as_bytes()[self.at];
        let string = tokens.string(self.text, quote);
        self.resume(&tokens);
        string.map_err(error)
    }

    /// A key in double quotes without escapes at the position (after [`Cursor::next_byte`]), and
    /// the `:` after it; `None`, the position unchanged, for any other key.
    #[inline]
    pub(crate) fn plain_key(&mut self) -> Option<&'t str> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if bytes.get(start) != Some(&b'"') {
            return None;
        }
        let end = tokens::first_special(bytes, start + 1, b'"')?;
        if bytes[end] != b'"' {
            return None;
        }
        let mut colon = end + 1;
        while matches!(bytes.get(colon), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            colon += 1;
        }
        if bytes.get(colon) != Some(&b':') {
            return None;
        }
        self.at = colon + 1;
        Some(&self.text[start + 1..end])
    }

    /// An object's key at the position (not a closing bracket), and the `:` after it.
    fn key(&mut self) -> Result<String, TextError> {
        let key = if self.text.as_bytes()[self.at] == b'"' {
            self.string()?
        } else {
            self.key_slowly()?
        };
        match self.next_byte_before_end()? {
            b':' => {
                self.at += 1;
                Ok(key.into_owned())
            }
            _ => Err(error(
                self.tokens().invalid(self.text, "expected `:` after a key"),
            )),
        }
    }

    #[cold]
    fn key_slowly(&mut self) -> Result<Cow<'t, str>, TextError> {
        let mut tokens = self.tokens();
        let key = tokens.key(self.text);
        self.resume(&tokens);
        match key.map_err(error)? {
            Token::Key(key) => Ok(key),
            _ => unreachable!("a key is read as a key"),
        }
    }

    /// The number at the position: an integer of at most 19 digits read as it is checked,
    /// any other by [`Tokens`]' rules and [`tree::number`].
    #[inline]
    fn number(&mut self, in_container: bool) -> Result<Json, TextError> {
        match self.integer(in_container) {
            Some(Integer::Positive(integer)) => Ok(Json::Number(integer.into())),
            Some(Integer::Negative(integer)) => Ok(Json::Number(integer.into())),
            None => self.number_slowly(in_container),
        }
    }

    /// The integer of at most 19 digits at the position, read as it is checked; `None`,
    /// the position unchanged, for any other number (or no number).
    #[inline]
    fn integer(&mut self, in_container: bool) -> Option<Integer> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        let negative = bytes[start] == b'-';
        let first_digit = start + usize::from(negative);
        let mut at = first_digit;
        let mut magnitude: u64 = 0;
        // A leading 0 is a whole integer part; 19 digits cannot overflow.
        while let Some(&digit @ b'0'..=b'9') = bytes.get(at) {
            if at - start >= 19 || (magnitude == 0 && at > first_digit) {
                return None;
            }
            magnitude = magnitude * 10 + u64::from(digit - b'0');
            at += 1;
        }
        let ends_number = match bytes.get(at) {
            Some(b'.' | b'e' | b'E' | b'+' | b'-') => false,
            Some(_) => true,
            // At the end of the text a number may have lost digits, unless it is the value.
            None => !in_container,
        };
        // `-0` is not the integer its digits spell (a reader gives `-0.0`).
        if !ends_number || at == first_digit || (negative && magnitude == 0) {
            return None;
        }
        let integer = if negative {
            Integer::Negative(0i64.checked_sub_unsigned(magnitude)?)
        } else {
            Integer::Positive(magnitude)
        };
        self.at = at;
        Some(integer)
    }

    #[cold]
    fn number_slowly(&mut self, in_container: bool) -> Result<Json, TextError> {
        let (digits, start) = self.number_text(in_container)?;
        tree::number(start, digits)
    }

    /// The text of the number at the position, checked against JSON's grammar, and where it
    /// starts.
    fn number_text(&mut self, in_container: bool) -> Result<(&'t str, usize), TextError> {
        let mut tokens = self.tokens();
        let start = self.at;
        let digits = tokens.number_in(self.text, in_container);
        self.resume(&tokens);
        Ok((digits.map_err(error)?, start))
    }

    /// The number at the position as a value where any number is wanted: an integer as
    /// itself, any other number as its nearest `f64`; `None` for an integer beyond what a
    /// value carries, and `-0`, whose digits decide (the tree walk's rules).
    #[inline]
    pub(crate) fn number_value(&mut self, in_container: bool) -> Result<Option<Num>, TextError> {
        match self.integer(in_container) {
            Some(Integer::Positive(integer)) => Ok(Some(Num::Int(integer.into()))),
            Some(Integer::Negative(integer)) => Ok(Some(Num::Int(integer.into()))),
            None => self.number_value_slowly(in_container),
        }
    }

    #[cold]
    fn number_value_slowly(&mut self, in_container: bool) -> Result<Option<Num>, TextError> {
        let (digits, start) = self.number_text(in_container)?;
        if tree::is_integer_text(digits) {
            return Ok(tree::carried_integer(digits).map(Num::Int));
        }
        Ok(Some(Num::Float(tree::nearest_float(digits, start)?)))
    }

    /// `true`, `false`, `null`, or a word only the lenient rules read.
    fn word(&mut self) -> Result<Json, TextError> {
        let bytes = self.text.as_bytes();
        let rest = &bytes[self.at..];
        let (json, length) = if rest.starts_with(b"true") {
            (Json::Bool(true), 4)
        } else if rest.starts_with(b"false") {
            (Json::Bool(false), 5)
        } else if rest.starts_with(b"null") {
            (Json::Null, 4)
        } else {
            return self.word_slowly();
        };
        match rest.get(length) {
            Some(byte) if byte.is_ascii_alphanumeric() || *byte == b'_' => self.word_slowly(),
            _ => {
                self.at += length;
                Ok(json)
            }
        }
    }

    #[cold]
    fn word_slowly(&mut self) -> Result<Json, TextError> {
        let mut tokens = self.tokens();
        let word = tokens.word(self.text);
        self.resume(&tokens);
        match word.map_err(error)? {
            Token::Bool(flag) => Ok(Json::Bool(flag)),
            Token::Null => Ok(Json::Null),
            _ => unreachable!("a word is a boolean or null"),
        }
    }

    /// Reads one value, with at most `max_depth` nested containers, into a tree; the position
    /// is then after its last character.
    pub(crate) fn tree(&mut self, max_depth: usize) -> Result<Json, TextError> {
        let mut open: Vec<Open> = Vec::new();
        'value: loop {
            let mut value = match self.next_byte_before_end()? {
                byte @ (b'{' | b'[') => {
                    if open.len() >= max_depth {
                        return Err(TextError::TooDeep);
                    }
                    self.at += 1;
                    let container = if byte == b'{' {
                        Open::Object(Vec::new(), String::new())
                    } else {
                        Open::Array(Vec::new())
                    };
                    if self.next_byte_before_end()? == container.closing() {
                        self.at += 1;
                        container.into_json()
                    } else {
                        open.push(self.first_member(container)?);
                        continue 'value;
                    }
                }
                _ => self.scalar(!open.is_empty())?,
            };
            // After a value: the containers it closes, then the next member, or the end.
            loop {
                let Some(container) = open.last_mut() else {
                    return Ok(value);
                };
                container.push(value);
                let closing = container.closing();
                match self.next_byte_before_end()? {
                    b',' => {
                        self.at += 1;
                        if self.next_byte_before_end()? != closing {
                            if let Open::Object(_, key) = container {
                                *key = self.key()?;
                            }
                            continue 'value;
                        }
                        self.leniency.add(Leniency::TRAILING_COMMA);
                    }
                    byte if byte == closing => {}
                    _ => {
                        let message = if closing == b'}' {
                            "expected `,` or `}`"
                        } else {
                            "expected `,` or `]`"
                        };
                        return Err(error(self.tokens().expected_separator(self.text, message)));
                    }
                }
                self.at += 1;
                value = open.pop().expect("a container is open").into_json();
            }
        }
    }

    /// A container just opened, its first member's key read if it is an object.
    fn first_member(&mut self, mut container: Open) -> Result<Open, TextError> {
        if let Open::Object(_, key) = &mut container {
            *key = self.key()?;
        }
        Ok(container)
    }
}

//! [`Tokens`]: the pull tokenizer of argument text, strict and lenient JSON alike, that keeps
//! each number's text and can stop where its text ends and go on when more arrives.

use std::borrow::Cow;

use crate::decode::TextError;

mod strings;
pub(super) use strings::first_special;
use strings::CutString;
pub(crate) use strings::StringSoFar;

/// One piece of JSON text, as read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Token<'t> {
    /// `{`.
    ObjectStart,
    /// `}`.
    ObjectEnd,
    /// `[`.
    ArrayStart,
    /// `]`.
    ArrayEnd,
    /// An object's key, quoted or bare, its escapes undone.
    Key(Cow<'t, str>),
    /// A string, its escapes undone.
    String(Cow<'t, str>),
    /// A number, as its text (`-1.50e3`): every digit sent is kept; what it is worth is for
    /// the reader of the token to say.
    Number(&'t str),
    /// `true`, `false` (or Python's `True`, `False`).
    Bool(bool),
    /// `null` (or Python's `None`).
    Null,
}

/// Why [`Tokens::next`] gave no token.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stop {
    /// The text given ends inside a token, or before the value does, and it was not said to
    /// be all of the text ([`Tokens::end_of_text`]): more text continues it.
    More,
    /// The text is not JSON, even leniently (or it ends before its value, when it is all).
    Error(Box<TextError>),
}

impl Stop {
    fn error(error: TextError) -> Self {
        Stop::Error(Box::new(error))
    }
}

/// What in a text was not strict JSON: the reasons for a `json_text` repair.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub(crate) struct Leniency(u8);

impl Leniency {
    /// A comment (`//`, `/* */`, `#`).
    pub(crate) const COMMENT: Leniency = Leniency(1);
    /// A comma before a closing bracket.
    pub(crate) const TRAILING_COMMA: Leniency = Leniency(1 << 1);
    /// A string in single quotes.
    pub(crate) const SINGLE_QUOTES: Leniency = Leniency(1 << 2);
    /// A key without quotes.
    pub(crate) const BARE_KEY: Leniency = Leniency(1 << 3);
    /// `True`, `False` or `None`.
    pub(crate) const PYTHON_WORD: Leniency = Leniency(1 << 4);
    /// An escape JSON does not have (`\'`, `\x41`, `\U0001F600`).
    pub(crate) const PYTHON_ESCAPE: Leniency = Leniency(1 << 5);
    /// A control character (a line break, a tab) written as it is inside a string.
    pub(crate) const RAW_CONTROL: Leniency = Leniency(1 << 6);

    /// Whether the text was strict JSON.
    pub(crate) fn is_strict(self) -> bool {
        self.0 == 0
    }

    pub(super) fn add(&mut self, what: Leniency) {
        self.0 |= what.0;
    }
}

/// What the tokenizer reads next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// A value (the first, or one after an object's `:`).
    Value,
    /// A member of the innermost open container (a key in an object, an item in an array),
    /// or its closing bracket (`first`: right after the opening one; else after a `,`,
    /// where the bracket is a trailing comma).
    MemberOrEnd { first: bool },
    /// The `:` after a key, then a value.
    Colon,
    /// A `,` or the closing bracket after a container's member.
    CommaOrEnd,
    /// Nothing: the value is complete.
    Done,
}

/// The closing bracket of an object or an array.
fn closing(object: bool) -> u8 {
    if object {
        b'}'
    } else {
        b']'
    }
}

/// Most characters of the text quoted in an error.
pub(crate) const FOUND_CHARS: usize = 24;

/// The text at `offset`, shortened for an error message.
pub(crate) fn found_at(text: &str, offset: usize) -> String {
    let Some(rest) = text.get(offset..) else {
        return String::new();
    };
    match rest.char_indices().nth(FOUND_CHARS) {
        Some((end, _)) => format!("{}…", &rest[..end]),
        None => rest.to_owned(),
    }
}

/// A pull tokenizer over one JSON value, strict or lenient: trailing commas, single quotes,
/// Python's `True`, `False` and `None` and escapes (`\x41`, `\U0001F600`, `\'`), bare keys,
/// comments (`//`, `/* */`, `#`) and control characters inside strings are read, and noted
/// in [`Tokens::leniency`]. Numbers are handed on as their text.
///
/// It holds no text: each call is given the text read so far, which must begin with the
/// text given before (a longer text, as more of it arrives, or the same). Where the text
/// ends inside a token, [`Stop::More`] says so and nothing of the token is taken; the next
/// call, given more text, takes the token from its start but scans on from where the last
/// scan stopped (a string's escapes are undone once, `CutString`; a number, a bare key or a
/// comment resumes at [`Tokens::resume`]), so a token arriving in many pieces is scanned
/// once, and reading is linear in the text however it is cut ([`Tokens::work`] counts the
/// bytes looked at). Once
/// [`Tokens::end_of_text`] says the text is all there is, an end inside the value is
/// [`TextError::Truncated`].
///
/// The text is a `&str`: a caller holding bytes gives the longest prefix that is UTF-8
/// (`Utf8Error::valid_up_to`), so a character split between two pieces waits for its end.
/// Every token's bounds are ASCII bytes, so its slice is never cut inside a character.
///
/// Each byte is looked at a bounded number of times, so reading is linear in the text; the
/// nesting is limited by the `max_depth` it is made with.
#[derive(Clone, Debug)]
pub(crate) struct Tokens {
    at: usize,
    expect: Expect,
    /// Open containers, innermost last: `true` for an object.
    open: Vec<bool>,
    max_depth: usize,
    complete: bool,
    leniency: Leniency,
    /// A string cut off by the end of the text, to resume.
    string: Option<CutString>,
    /// Where the last token started.
    token_start: usize,
    /// Where the scan of a number, bare key or comment cut off by the end of the text goes
    /// on: the bytes before it were looked at and hold none of the token's ends. Only ever
    /// at or before the position once a token is taken, so a later token's scan (which
    /// starts at the larger of the two) is not moved by it.
    resume: usize,
    /// Bytes looked at so far, rescans included: what the linearity tests count.
    work: u64,
}

impl Tokens {
    /// A tokenizer of the value that starts at byte `start` of the text, with at most
    /// `max_depth` nested containers.
    pub(crate) fn at(start: usize, max_depth: usize) -> Self {
        Tokens {
            at: start,
            expect: Expect::Value,
            open: Vec::new(),
            max_depth,
            complete: false,
            leniency: Leniency::default(),
            string: None,
            token_start: start,
            resume: start,
            work: 0,
        }
    }

    /// Says that the text given is all there is: an end inside the value is then
    /// [`TextError::Truncated`], and a number at the end of the text is complete.
    pub(crate) fn end_of_text(&mut self) {
        self.complete = true;
    }

    /// What was not strict JSON in the text read so far.
    pub(crate) fn leniency(&self) -> Leniency {
        self.leniency
    }

    /// The byte after the last one read: after the value's last character once it is done.
    pub(crate) fn position(&self) -> usize {
        self.at
    }

    /// Where the last token given started.
    pub(crate) fn token_start(&self) -> usize {
        self.token_start
    }

    /// Whether the text given last ended inside a string: until a quote, a backslash or a
    /// control character comes, more text only continues it.
    pub(crate) fn inside_string(&self) -> bool {
        self.string.is_some()
    }

    /// The bytes looked at so far, each scan counted (a byte scanned again counts again):
    /// at most a few times the text's length, however the text was cut
    /// (`read::tests::reading_is_linear_however_the_text_is_cut`).
    pub(crate) fn work(&self) -> u64 {
        self.work
    }

    /// Takes `byte`, just added at `at`, the end of a text read to its end (nothing of it
    /// pending), where it makes no token: white space between tokens, the `:` after a key,
    /// the `,` after a member, a string's opening `"`. Leaves the tokenizer as [`Tokens::next`]
    /// would, given the text with it, and answers `true`; any other byte, or a tokenizer
    /// inside a token, is left to `next` (`false`). What a stream fed a byte at a time uses
    /// to skip the calls of `next` that could only take a byte and stop.
    #[inline]
    pub(crate) fn step(&mut self, byte: u8, at: usize) -> bool {
        if self.at != at || self.string.is_some() || self.complete {
            return false;
        }
        match (self.expect, byte) {
            (Expect::Done, _) => return false,
            (_, b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
            (Expect::Colon, b':') => {
                self.at += 1;
                self.expect = Expect::Value;
            }
            (Expect::CommaOrEnd, b',') => {
                self.at += 1;
                self.expect = Expect::MemberOrEnd { first: false };
            }
            (Expect::Value | Expect::MemberOrEnd { .. }, b'"') => {
                self.string = Some(CutString::opened(at));
            }
            _ => return false,
        }
        self.work += 1;
        true
    }

    /// Whether [`Tokens::next`], given a text of `end` bytes, can only answer
    /// [`Stop::More`]: everything before `end` was read, nothing is pending, and the value
    /// is not complete.
    #[inline]
    pub(crate) fn waits_at(&self, end: usize) -> bool {
        self.at == end
            && self.string.is_none()
            && !self.complete
            && !matches!(self.expect, Expect::Done)
    }

    /// The first byte at or after `from` for which `ends` holds, the scan going on from
    /// [`Tokens::resume`] when an earlier scan of the same token was cut there; where the
    /// text ends first, the next scan resumes at its end.
    fn scan_to(&mut self, bytes: &[u8], from: usize, ends: impl Fn(u8) -> bool) -> Option<usize> {
        let from = from.max(self.resume).min(bytes.len());
        let found = bytes[from..].iter().position(|&byte| ends(byte));
        self.work += found.map_or(bytes.len() - from, |length| length + 1) as u64;
        match found {
            Some(length) => Some(from + length),
            None => {
                self.resume = bytes.len();
                None
            }
        }
    }

    /// The end of the text: more may come, or the text was cut off.
    fn ended(&self) -> Stop {
        if self.complete {
            Stop::error(TextError::Truncated)
        } else {
            Stop::More
        }
    }

    /// The next token; `Ok(None)` once the value is complete.
    pub(crate) fn next<'t>(&mut self, text: &'t str) -> Result<Option<Token<'t>>, Stop> {
        let bytes = text.as_bytes();
        loop {
            match self.expect {
                Expect::Done => return Ok(None),
                Expect::Value => {
                    self.skip_space(bytes)?;
                    return self.value(text).map(Some);
                }
                Expect::Colon => {
                    self.skip_space(bytes)?;
                    match bytes.get(self.at) {
                        None => return Err(self.ended()),
                        Some(b':') => {
                            self.at += 1;
                            self.expect = Expect::Value;
                        }
                        Some(_) => return Err(self.invalid(text, "expected `:` after a key")),
                    }
                }
                Expect::CommaOrEnd => {
                    self.skip_space(bytes)?;
                    let object = self.in_object();
                    match bytes.get(self.at) {
                        None => return Err(self.ended()),
                        Some(b',') => {
                            self.at += 1;
                            self.expect = Expect::MemberOrEnd { first: false };
                        }
                        Some(&byte) if byte == closing(object) => return Ok(Some(self.close())),
                        Some(_) => {
                            let message = if object {
                                "expected `,` or `}`"
                            } else {
                                "expected `,` or `]`"
                            };
                            return Err(self.expected_separator(text, message));
                        }
                    }
                }
                Expect::MemberOrEnd { first } => {
                    self.skip_space(bytes)?;
                    let object = self.in_object();
                    match bytes.get(self.at) {
                        None => return Err(self.ended()),
                        Some(&byte) if byte == closing(object) => {
                            if !first {
                                self.leniency.add(Leniency::TRAILING_COMMA);
                            }
                            return Ok(Some(self.close()));
                        }
                        Some(_) if object => return self.key(text).map(Some),
                        Some(_) => return self.value(text).map(Some),
                    }
                }
            }
        }
    }

    /// Skips white space and comments up to the next token, or the end of the text.
    #[inline]
    pub(crate) fn skip_space(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        match bytes.get(self.at) {
            Some(&byte) if byte > b' ' && byte != b'/' && byte != b'#' => Ok(()),
            _ => self.skip_space_slowly(bytes),
        }
    }

    /// [`Tokens::skip_space`] where there is something to skip, or the text ends.
    fn skip_space_slowly(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        loop {
            match bytes.get(self.at) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => {
                    self.at += 1;
                    self.work += 1;
                }
                Some(b'#') => self.skip_line(bytes)?,
                Some(b'/') => match bytes.get(self.at + 1) {
                    Some(b'/') => self.skip_line(bytes)?,
                    Some(b'*') => {
                        let mut from = self.at + 2;
                        let end = loop {
                            let Some(star) = self.scan_to(bytes, from, |byte| byte == b'*') else {
                                return Err(self.ended());
                            };
                            match bytes.get(star + 1) {
                                Some(b'/') => break star + 2,
                                Some(_) => from = star + 1,
                                // A `*/` the end of the text may split: its `*` is
                                // scanned again.
                                None => {
                                    self.resume = star;
                                    return Err(self.ended());
                                }
                            }
                        };
                        self.leniency.add(Leniency::COMMENT);
                        self.at = end;
                    }
                    None if !self.complete => return Err(Stop::More),
                    _ => return Ok(()),
                },
                _ => return Ok(()),
            }
        }
    }

    /// A line comment, up to and with its line break.
    fn skip_line(&mut self, bytes: &[u8]) -> Result<(), Stop> {
        let end = match self.scan_to(bytes, self.at, |byte| byte == b'\n') {
            Some(newline) => newline + 1,
            // A comment that runs to the end of the text may go on.
            None if !self.complete => return Err(Stop::More),
            None => bytes.len(),
        };
        self.leniency.add(Leniency::COMMENT);
        self.at = end;
        Ok(())
    }

    /// After a container's end or a scalar: what comes next.
    fn after_value(&mut self) {
        self.expect = if self.open.is_empty() {
            Expect::Done
        } else {
            Expect::CommaOrEnd
        };
    }

    /// Whether the next token is an object's key (or its closing bracket).
    fn expects_key(&self) -> bool {
        matches!(self.expect, Expect::MemberOrEnd { .. }) && self.in_object()
    }

    /// Whether the innermost open container is an object.
    fn in_object(&self) -> bool {
        self.open.last().copied().unwrap_or(false)
    }

    /// The innermost open container's closing bracket, at the position.
    fn close<'t>(&mut self) -> Token<'t> {
        self.token_start = self.at;
        self.at += 1;
        let object = self.open.pop().unwrap_or(false);
        self.after_value();
        if object {
            Token::ObjectEnd
        } else {
            Token::ArrayEnd
        }
    }

    fn open<'t>(&mut self, object: bool) -> Result<Token<'t>, Stop> {
        if self.open.len() >= self.max_depth {
            return Err(Stop::error(TextError::TooDeep));
        }
        self.token_start = self.at;
        self.at += 1;
        self.open.push(object);
        self.expect = Expect::MemberOrEnd { first: true };
        Ok(if object {
            Token::ObjectStart
        } else {
            Token::ArrayStart
        })
    }

    /// The value at the position (white space skipped).
    fn value<'t>(&mut self, text: &'t str) -> Result<Token<'t>, Stop> {
        let bytes = text.as_bytes();
        let token = match bytes.get(self.at) {
            None => return Err(self.ended()),
            Some(b'{') => return self.open(true),
            Some(b'[') => return self.open(false),
            Some(&quote @ (b'"' | b'\'')) => Token::String(self.string(text, quote)?),
            Some(b'-' | b'0'..=b'9') => Token::Number(self.number(text)?),
            Some(byte) if byte.is_ascii_alphabetic() => self.word(text)?,
            Some(_) => return Err(self.invalid(text, "unexpected character")),
        };
        self.after_value();
        Ok(token)
    }

    /// A key, quoted or bare.
    pub(super) fn key<'t>(&mut self, text: &'t str) -> Result<Token<'t>, Stop> {
        let bytes = text.as_bytes();
        let key = match bytes[self.at] {
            quote @ (b'"' | b'\'') => self.string(text, quote)?,
            byte if byte.is_ascii_alphabetic() || byte == b'_' || byte == b'$' => {
                let start = self.at;
                let end = self.scan_to(bytes, start, |b| {
                    !(b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'-')
                });
                let Some(end) = end.or(self.complete.then_some(bytes.len())) else {
                    return Err(Stop::More);
                };
                self.leniency.add(Leniency::BARE_KEY);
                self.token_start = start;
                self.at = end;
                Cow::Borrowed(&text[start..self.at])
            }
            _ => return Err(self.invalid(text, "expected a key")),
        };
        self.expect = Expect::Colon;
        Ok(Token::Key(key))
    }

    /// `true`, `false`, `null`, or Python's `True`, `False`, `None`.
    pub(super) fn word<'t>(&mut self, text: &'t str) -> Result<Token<'t>, Stop> {
        let bytes = text.as_bytes();
        let start = self.at;
        let length = bytes[start..]
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'));
        let at_end = length.is_none();
        let end = start + length.unwrap_or(bytes.len() - start);
        let (token, python) = match &bytes[start..end] {
            b"true" => (Token::Bool(true), false),
            b"false" => (Token::Bool(false), false),
            b"null" => (Token::Null, false),
            b"True" => (Token::Bool(true), true),
            b"False" => (Token::Bool(false), true),
            b"None" => (Token::Null, true),
            word if at_end
                && [&b"true"[..], b"True", b"false", b"False", b"null", b"None"]
                    .iter()
                    .any(|w| w.starts_with(word)) =>
            {
                return Err(self.ended());
            }
            _ => {
                let called = bytes.get(end) == Some(&b'(');
                return Err(self.invalid(
                    text,
                    if called {
                        "a function or call (send the value it gives, as JSON)"
                    } else {
                        "an unquoted word (strings need quotes)"
                    },
                ));
            }
        };
        // A literal at the end of a text that goes on may be the start of a longer word.
        if at_end && !self.complete {
            return Err(Stop::More);
        }
        if python {
            self.leniency.add(Leniency::PYTHON_WORD);
        }
        self.token_start = start;
        self.at = end;
        Ok(token)
    }

    /// A number's text, checked against JSON's grammar.
    fn number<'t>(&mut self, text: &'t str) -> Result<&'t str, Stop> {
        self.number_in(text, !self.open.is_empty())
    }

    /// [`Tokens::number`], `in_container` saying whether a container is open around it (a
    /// number at the end of a whole text is complete only where none is).
    pub(super) fn number_in<'t>(
        &mut self,
        text: &'t str,
        in_container: bool,
    ) -> Result<&'t str, Stop> {
        let bytes = text.as_bytes();
        let start = self.at;
        let end = self.scan_to(bytes, start, |b| {
            !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        });
        let Some(end) = end else {
            // A number at the end of the text may have lost digits, or more may come; at the
            // end of a whole text that is one number, it is that number.
            return if self.complete && !in_container {
                self.take_number(text, start, bytes.len())
            } else {
                Err(self.ended())
            };
        };
        self.take_number(text, start, end)
    }

    fn take_number<'t>(
        &mut self,
        text: &'t str,
        start: usize,
        end: usize,
    ) -> Result<&'t str, Stop> {
        let number = &text[start..end];
        if !is_json_number(number.as_bytes()) {
            return Err(self.invalid(text, "not a number"));
        }
        self.token_start = start;
        self.at = end;
        Ok(number)
    }

    pub(super) fn invalid(&self, text: &str, message: &'static str) -> Stop {
        self.invalid_at(text, self.at, message)
    }

    fn invalid_at(&self, text: &str, offset: usize, message: &'static str) -> Stop {
        // What an error quotes is the text after it: until that is all there, or the text
        // is, more text is awaited, so the error is the same however the text arrives.
        let quoted_whole = text
            .get(offset..)
            .is_some_and(|rest| rest.chars().nth(FOUND_CHARS).is_some());
        if !self.complete && !quoted_whole {
            return Stop::More;
        }
        Stop::error(TextError::Invalid {
            offset,
            message,
            found: found_at(text, offset),
        })
    }

    /// Where a `,` or a closing bracket was expected: what came instead, named when it is a
    /// kind of text models write (an expression to compute).
    pub(super) fn expected_separator(&self, text: &str, message: &'static str) -> Stop {
        match text.as_bytes().get(self.at) {
            Some(b'*' | b'/' | b'+' | b'-' | b'%') => {
                self.invalid(text, "an expression (send its value, not the formula)")
            }
            Some(b'"' | b'\'') => self.invalid(
                text,
                "a quote where `,` or a closing bracket belongs (a string closed early?)",
            ),
            _ => self.invalid(text, message),
        }
    }
}

/// Whether `text` is a number as JSON writes one: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`,
/// whatever its size.
///
/// ```
/// use toolgate_core::decode::is_json_number;
///
/// assert!(is_json_number(b"-1.5e400"));
/// assert!(!is_json_number(b"01") && !is_json_number(b"1.") && !is_json_number(b"+1"));
/// ```
pub fn is_json_number(text: &[u8]) -> bool {
    fn digits(text: &[u8], at: &mut usize) -> usize {
        let start = *at;
        while text.get(*at).is_some_and(u8::is_ascii_digit) {
            *at += 1;
        }
        *at - start
    }
    let mut at = usize::from(text.first() == Some(&b'-'));
    match text.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => {
            digits(text, &mut at);
        }
        _ => return false,
    }
    if text.get(at) == Some(&b'.') {
        at += 1;
        if digits(text, &mut at) == 0 {
            return false;
        }
    }
    if matches!(text.get(at), Some(b'e' | b'E')) {
        at += 1;
        if matches!(text.get(at), Some(b'+' | b'-')) {
            at += 1;
        }
        if digits(text, &mut at) == 0 {
            return false;
        }
    }
    at == text.len()
}

//! The `json_text` repair: reading argument text that is not strict JSON but means exactly
//! one JSON value — markdown fences, prose around one value, trailing commas, single quotes,
//! Python literals (`True`, `False`, `None`), unquoted keys, comments.
//!
//! It runs only when strict parsing has failed, so valid input pays nothing for it. Text
//! that ends before its value does (cut off) is refused: closing it would invent the end.
//!
//! Which value is taken, and when text is refused instead (DESIGN.md, `json_text`):
//! - **A value that starts the text** (its first `{` or `[`, after white space) is read
//!   from there; if it fails, the text is refused with the byte offset and what was found
//!   there (an unquoted word, a function, an expression...). A smaller value found inside
//!   the failed one is never taken: that would drop everything around it.
//! - **Prose around one object**: only objects are taken out of prose (arguments are
//!   objects; a `[1]` in prose is a citation), only a non-empty one (`{}` in a page of prose
//!   is not a call), and only when the prose holds no other JSON punctuation (`{`, `}`, `[`,
//!   `]`) before or after it.
//! - **One markdown fence**: its body is read as above; prose outside the fence must hold no
//!   JSON punctuation either.
//! - **Two candidates** (two fences, a fence and an object outside it, two objects in
//!   prose) are ambiguous; a second candidate cut off means the text was cut off. Both are
//!   refused.
//!
//! Every step reads the text a bounded number of times (at most twice), so the stage is
//! linear in the text.

use crate::model::Json;

/// Why text could not be read even leniently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// The text ends before the value does: it was cut off.
    Truncated,
    /// There is no JSON value in the text (or only an empty object or an array in prose).
    NoValue,
    /// More than one value could be meant.
    Ambiguous,
    /// JSON punctuation in the text around the value: it is not prose around one value.
    NotProse {
        /// Where, in bytes from the start of the text.
        offset: usize,
        /// The text there, shortened.
        found: String,
    },
    /// Something that is not JSON, even leniently.
    Invalid {
        /// Where, in bytes from the start of the text read.
        offset: usize,
        /// What was wrong there.
        message: &'static str,
        /// The text there, shortened.
        found: String,
    },
    /// A number beyond the range of a 64-bit float (`1e400`).
    NumberOutOfRange {
        /// Where, in bytes from the start of the text read.
        offset: usize,
    },
    /// Nested deeper than the limit.
    TooDeep,
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextError::Truncated => {
                f.write_str("the text ends before the JSON value does (cut off?)")
            }
            TextError::NoValue => f.write_str("the text holds no JSON object"),
            TextError::Ambiguous => f.write_str("the text holds more than one JSON value"),
            TextError::NotProse { offset, found } => write!(
                f,
                "the text around the JSON value holds JSON punctuation at byte {offset} ({found:?}): send the arguments alone"
            ),
            TextError::Invalid {
                offset,
                message,
                found,
            } => {
                write!(f, "not JSON at byte {offset}: {message}")?;
                if !found.is_empty() {
                    write!(f, ", found {found:?}")?;
                }
                Ok(())
            }
            TextError::NumberOutOfRange { offset } => write!(
                f,
                "the number at byte {offset} is beyond the range of a 64-bit float"
            ),
            TextError::TooDeep => f.write_str("the value is nested too deeply"),
        }
    }
}

/// Most characters of the text quoted in an error.
const FOUND_CHARS: usize = 24;

/// The text at `offset`, shortened for an error message.
fn found_at(text: &str, offset: usize) -> String {
    let Some(rest) = text.get(offset..) else {
        return String::new();
    };
    let mut found: String = rest.chars().take(FOUND_CHARS).collect();
    if rest.chars().nth(FOUND_CHARS).is_some() {
        found.push('…');
    }
    found
}

/// Characters that make the text around a value something other than prose.
const JSON_PUNCTUATION: [char; 4] = ['{', '}', '[', ']'];

/// The markdown fences of the text: each block's body, as a byte range of `text`. A fence
/// left open runs to the end of the text.
fn fenced_blocks(text: &str) -> Vec<(usize, usize, usize, usize)> {
    let mut blocks = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find("```") {
        let open = from + found;
        let after = open + 3;
        // Skip the info string (`json`) up to the end of the fence line.
        let body = match text[after..].find('\n') {
            Some(newline) => after + newline + 1,
            None => text.len(),
        };
        match text[body..].find("```") {
            Some(end) => {
                blocks.push((open, body, body + end, body + end + 3));
                from = body + end + 3;
            }
            None => {
                blocks.push((open, body, text.len(), text.len()));
                break;
            }
        }
    }
    blocks
}

/// Reads the one JSON value of lenient text (see the module's rules).
pub fn read_lenient(text: &str, max_depth: usize) -> Result<Json, TextError> {
    let blocks = fenced_blocks(text);
    match blocks.as_slice() {
        [] => read_unfenced(text, 0, text.len(), max_depth),
        [(open, body, end, close)] => {
            // Outside the fence: the prose before it, the rest of its opening line (after
            // the info string's first word nothing belongs there), and the prose after it.
            let info_end = text[open + 3..*body]
                .find(char::is_whitespace)
                .map_or(*body, |at| open + 3 + at);
            let outside = [(0, *open), (info_end, *body), (*close, text.len())];
            for (from, to) in outside {
                if let Some(at) = text[from..to].find(JSON_PUNCTUATION) {
                    // Another value outside the fence makes two candidates.
                    return Err(match parse_at(text, from + at, max_depth) {
                        Ok(_) => TextError::Ambiguous,
                        Err(TextError::Truncated) if to == text.len() => TextError::Truncated,
                        Err(_) => TextError::NotProse {
                            offset: from + at,
                            found: found_at(text, from + at),
                        },
                    });
                }
            }
            // A body that is strict JSON is that value, whatever it is (a JSON string of
            // the arguments included, which the walk then reads as `double_encoded`): the
            // fence says nothing more than its body alone would.
            let inner = text[*body..*end].trim();
            if let Ok(json) = crate::decode::parse_strict(inner, max_depth) {
                return Ok(json);
            }
            read_unfenced(text, *body, *end, max_depth)
        }
        _ => Err(TextError::Ambiguous),
    }
}

/// Reads the value of `text[from..to]`, a text without fences.
fn read_unfenced(text: &str, from: usize, to: usize, max_depth: usize) -> Result<Json, TextError> {
    let region = &text[..to];
    let start = from + (text[from..to].len() - text[from..to].trim_start().len());
    // What follows a value is looked at from its last character: a comment after it is
    // surroundings too, and a value hidden in one (`{..} // or {..}`) is a second candidate.
    if text[start..to].starts_with(['{', '[']) {
        let (value, end, _) = parse_value_at(region, start, max_depth)?;
        refuse_other_values(region, end, max_depth)?;
        return Ok(value);
    }
    // Prose: the first `{` starts the one object it may hold.
    let Some(found) = text[start..to].find('{') else {
        return Err(TextError::NoValue);
    };
    let open = start + found;
    if let Some(at) = text[start..open].find(JSON_PUNCTUATION) {
        return Err(TextError::NotProse {
            offset: start + at,
            found: found_at(text, start + at),
        });
    }
    let (value, end, _) = parse_value_at(region, open, max_depth)?;
    if matches!(&value, Json::Object(members) if members.is_empty()) {
        return Err(TextError::NoValue);
    }
    refuse_other_values(region, end, max_depth)?;
    Ok(value)
}

/// After a value that ends at `end`: the rest of the text must be prose. A second value is
/// ambiguous; a second value cut off means the text was cut off; other JSON punctuation is
/// not prose.
fn refuse_other_values(region: &str, end: usize, max_depth: usize) -> Result<(), TextError> {
    let Some(found) = region[end..].find(JSON_PUNCTUATION) else {
        return Ok(());
    };
    let at = end + found;
    Err(match parse_at(region, at, max_depth) {
        Ok(_) => TextError::Ambiguous,
        Err(TextError::Truncated) => TextError::Truncated,
        Err(_) => TextError::NotProse {
            offset: at,
            found: found_at(region, at),
        },
    })
}

/// Reads lenient text that is one JSON value from its first character to its last (a
/// string that holds JSON): no fences, no prose.
pub fn read_lenient_value(text: &str, max_depth: usize) -> Result<Json, TextError> {
    let start = text.len() - text.trim_start().len();
    let (value, end) = parse_at(text, start, max_depth)?;
    if text[end..].trim().is_empty() {
        Ok(value)
    } else {
        Err(TextError::Invalid {
            offset: end,
            message: "more text after the value",
            found: found_at(text, end),
        })
    }
}

/// The value starting at `start`, and where it ends (after trailing space and comments).
fn parse_at(body: &str, start: usize, max_depth: usize) -> Result<(Json, usize), TextError> {
    let (value, _, end) = parse_value_at(body, start, max_depth)?;
    Ok((value, end))
}

/// The value starting at `start`, where it ends (its last character), and where the white
/// space and comments after it end.
fn parse_value_at(
    body: &str,
    start: usize,
    max_depth: usize,
) -> Result<(Json, usize, usize), TextError> {
    let mut parser = Parser {
        bytes: body.as_bytes(),
        position: start,
        depth: 0,
        max_depth,
    };
    let value = parser.value()?;
    let value_end = parser.position;
    parser.skip_space()?;
    Ok((value, value_end, parser.position))
}

struct Parser<'t> {
    bytes: &'t [u8],
    position: usize,
    depth: usize,
    max_depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.position).copied()
    }

    fn invalid(&self, message: &'static str) -> TextError {
        self.invalid_at(self.position, message)
    }

    fn invalid_at(&self, offset: usize, message: &'static str) -> TextError {
        let end = self.bytes.len().min(offset.saturating_add(4 * FOUND_CHARS));
        let near = String::from_utf8_lossy(self.bytes.get(offset..end).unwrap_or_default());
        TextError::Invalid {
            offset,
            message,
            found: found_at(&near, 0),
        }
    }

    /// Where a `,` or a closing bracket was expected: what came instead, named when it is a
    /// kind of text models write (an expression to compute).
    fn expected_separator(&self, message: &'static str) -> TextError {
        match self.peek() {
            Some(b'*' | b'/' | b'+' | b'-' | b'%') => {
                self.invalid("an expression (send its value, not the formula)")
            }
            Some(b'"' | b'\'') => self
                .invalid("a quote where `,` or a closing bracket belongs (a string closed early?)"),
            _ => self.invalid(message),
        }
    }

    /// Skips white space and comments (`//`, `/* */`, `#`).
    fn skip_space(&mut self) -> Result<(), TextError> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.position += 1,
                Some(b'/') if self.bytes.get(self.position + 1) == Some(&b'/') => self.skip_line(),
                Some(b'#') => self.skip_line(),
                Some(b'/') if self.bytes.get(self.position + 1) == Some(&b'*') => {
                    let rest = &self.bytes[self.position + 2..];
                    let end = rest
                        .windows(2)
                        .position(|w| w == b"*/")
                        .ok_or(TextError::Truncated)?;
                    self.position += 2 + end + 2;
                }
                _ => return Ok(()),
            }
        }
    }

    fn skip_line(&mut self) {
        while let Some(byte) = self.peek() {
            self.position += 1;
            if byte == b'\n' {
                break;
            }
        }
    }

    fn value(&mut self) -> Result<Json, TextError> {
        self.skip_space()?;
        match self.peek() {
            None => Err(TextError::Truncated),
            Some(b'{') => self.nested(Self::object),
            Some(b'[') => self.nested(Self::array),
            Some(b'"' | b'\'') => self.string().map(Json::String),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(byte) if byte.is_ascii_alphabetic() => self.word(),
            Some(_) => Err(self.invalid("unexpected character")),
        }
    }

    fn nested(
        &mut self,
        read: fn(&mut Self) -> Result<Json, TextError>,
    ) -> Result<Json, TextError> {
        self.depth += 1;
        if self.depth > self.max_depth {
            return Err(TextError::TooDeep);
        }
        let value = read(self);
        self.depth -= 1;
        value
    }

    fn object(&mut self) -> Result<Json, TextError> {
        self.position += 1;
        let mut members = Vec::new();
        loop {
            self.skip_space()?;
            match self.peek() {
                None => return Err(TextError::Truncated),
                Some(b'}') => {
                    self.position += 1;
                    return Ok(Json::Object(members));
                }
                _ => {}
            }
            let key = match self.peek() {
                Some(b'"' | b'\'') => self.string()?,
                Some(byte) if byte.is_ascii_alphabetic() || byte == b'_' || byte == b'$' => {
                    self.bare_key()
                }
                _ => return Err(self.invalid("expected a key")),
            };
            self.skip_space()?;
            match self.peek() {
                None => return Err(TextError::Truncated),
                Some(b':') => self.position += 1,
                Some(_) => return Err(self.invalid("expected `:` after a key")),
            }
            let value = self.value()?;
            members.push((key, value));
            self.skip_space()?;
            match self.peek() {
                None => return Err(TextError::Truncated),
                Some(b',') => self.position += 1,
                Some(b'}') => {}
                Some(_) => return Err(self.expected_separator("expected `,` or `}`")),
            }
        }
    }

    fn array(&mut self) -> Result<Json, TextError> {
        self.position += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space()?;
            match self.peek() {
                None => return Err(TextError::Truncated),
                Some(b']') => {
                    self.position += 1;
                    return Ok(Json::Array(items));
                }
                _ => {}
            }
            items.push(self.value()?);
            self.skip_space()?;
            match self.peek() {
                None => return Err(TextError::Truncated),
                Some(b',') => self.position += 1,
                Some(b']') => {}
                Some(_) => return Err(self.expected_separator("expected `,` or `]`")),
            }
        }
    }

    fn bare_key(&mut self) -> String {
        let start = self.position;
        while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'-')
        {
            self.position += 1;
        }
        String::from_utf8_lossy(&self.bytes[start..self.position]).into_owned()
    }

    fn word(&mut self) -> Result<Json, TextError> {
        let start = self.position;
        while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || b == b'_') {
            self.position += 1;
        }
        match &self.bytes[start..self.position] {
            b"true" | b"True" => Ok(Json::Bool(true)),
            b"false" | b"False" => Ok(Json::Bool(false)),
            b"null" | b"None" => Ok(Json::Null),
            word if self.position == self.bytes.len()
                && [&b"true"[..], b"True", b"false", b"False", b"null", b"None"]
                    .iter()
                    .any(|w| w.starts_with(word)) =>
            {
                Err(TextError::Truncated)
            }
            _ => {
                let called = self.peek() == Some(b'(');
                self.position = start;
                Err(self.invalid(if called {
                    "a function or call (send the value it gives, as JSON)"
                } else {
                    "an unquoted word (strings need quotes)"
                }))
            }
        }
    }

    fn number(&mut self) -> Result<Json, TextError> {
        let start = self.position;
        while matches!(
            self.peek(),
            Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        ) {
            self.position += 1;
        }
        if self.position == self.bytes.len() {
            // A number at the very end may have lost digits.
            return Err(TextError::Truncated);
        }
        let text = std::str::from_utf8(&self.bytes[start..self.position])
            .map_err(|_| self.invalid_at(start, "not a number"))?;
        let number = text.parse::<serde_json::Number>().map_err(|error| {
            if super::message_starts_with(&error, "number out of range") {
                TextError::NumberOutOfRange { offset: start }
            } else {
                self.invalid_at(start, "not a number")
            }
        })?;
        // As the strict reader does: the digits, not the float, say whether it is an integer,
        // and the text is kept where it is not serde_json's spelling of the number.
        Ok(Json::from_number_text(number, text))
    }

    /// A string in double or single quotes, with JSON and Python escapes.
    fn string(&mut self) -> Result<String, TextError> {
        let quote = self.bytes[self.position];
        self.position += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let Some(byte) = self.peek() else {
                return Err(TextError::Truncated);
            };
            self.position += 1;
            match byte {
                b if b == quote => break,
                b'\\' => {
                    let Some(escape) = self.peek() else {
                        return Err(TextError::Truncated);
                    };
                    self.position += 1;
                    match escape {
                        b'"' | b'\'' | b'\\' | b'/' => out.push(escape),
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'b' => out.push(0x08),
                        b'f' => out.push(0x0c),
                        b'x' => self.code_point(2, &mut out)?,
                        b'u' => self.code_point(4, &mut out)?,
                        b'U' => self.code_point(8, &mut out)?,
                        _ => return Err(self.invalid("unknown escape")),
                    }
                }
                other => out.push(other),
            }
        }
        String::from_utf8(out).map_err(|_| self.invalid("not UTF-8"))
    }

    /// `\xNN`, `\uNNNN` (with surrogate pairs), `\UNNNNNNNN`.
    fn code_point(&mut self, digits: usize, out: &mut Vec<u8>) -> Result<(), TextError> {
        let mut value = self.hex(digits)?;
        if digits == 4 && (0xD800..0xDC00).contains(&value) {
            if self.bytes.get(self.position..self.position + 2) == Some(b"\\u") {
                self.position += 2;
                let low = self.hex(4)?;
                if !(0xDC00..0xE000).contains(&low) {
                    return Err(self.invalid("unpaired surrogate"));
                }
                value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00);
            } else {
                return Err(self.invalid("unpaired surrogate"));
            }
        }
        let character = char::from_u32(value).ok_or_else(|| self.invalid("not a character"))?;
        let mut buffer = [0; 4];
        out.extend_from_slice(character.encode_utf8(&mut buffer).as_bytes());
        Ok(())
    }

    fn hex(&mut self, digits: usize) -> Result<u32, TextError> {
        let end = self.position + digits;
        let Some(text) = self.bytes.get(self.position..end) else {
            return Err(TextError::Truncated);
        };
        let text = std::str::from_utf8(text).map_err(|_| self.invalid("bad escape"))?;
        let value = u32::from_str_radix(text, 16).map_err(|_| self.invalid("bad escape"))?;
        self.position = end;
        Ok(value)
    }
}

#[cfg(test)]
mod tests;

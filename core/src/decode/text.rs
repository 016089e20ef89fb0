//! The `json_text` repair: reading argument text that is not strict JSON but means exactly
//! one JSON value — markdown fences, prose around one value, trailing commas, single quotes,
//! Python literals (`True`, `False`, `None`), unquoted keys, comments.
//!
//! It runs only when strict parsing has failed, so valid input pays nothing for it. Text
//! that ends before its value does (cut off) is refused: closing it would invent the end.

use crate::model::Json;

/// Why text could not be read even leniently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// The text ends before the value does: it was cut off.
    Truncated,
    /// There is no JSON value in the text.
    NoValue,
    /// More than one value could be meant.
    Ambiguous,
    /// Something that is not JSON, even leniently.
    Invalid {
        /// Where, in bytes from the start of the text read.
        offset: usize,
        /// What was wrong there.
        message: &'static str,
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
            TextError::NoValue => f.write_str("the text holds no JSON object or array"),
            TextError::Ambiguous => f.write_str("the text holds more than one JSON value"),
            TextError::Invalid { offset, message } => {
                write!(f, "not JSON at byte {offset}: {message}")
            }
            TextError::TooDeep => f.write_str("the value is nested too deeply"),
        }
    }
}

/// The text between the first markdown fence and the next, if there is a fence, and where
/// it starts in `text`.
fn unfence(text: &str) -> (&str, usize) {
    let Some(start) = text.find("```") else {
        return (text, 0);
    };
    let after = start + 3;
    // Skip the info string (`json`) up to the end of the fence line.
    let body = match text[after..].find('\n') {
        Some(newline) => after + newline + 1,
        None => after,
    };
    match text[body..].find("```") {
        Some(end) => (&text[body..body + end], body),
        None => (&text[body..], body),
    }
}

/// Most places a value is looked for in prose (each is one parse attempt).
pub const MAX_STARTS: usize = 16;

/// Reads the one JSON value of lenient text: inside the first markdown fence if there is
/// one, else in prose. Objects are looked for first (tool arguments are objects), then
/// arrays; each `{` (then `[`) is tried in turn, up to [`MAX_STARTS`] of them, skipping any
/// that lies inside an attempt that failed (an inner value is never taken for the outer one).
/// An attempt cut off by the end of the text means the text was cut off. A second complete
/// value of the same kind after the one found makes the text ambiguous.
pub fn read_lenient(text: &str, max_depth: usize) -> Result<Json, TextError> {
    let (body, offset) = unfence(text);
    let mut first_error: Option<TextError> = None;
    for opener in ['{', '['] {
        let mut skip_until = 0;
        let mut tried = 0;
        for start in body.match_indices(opener).map(|(at, _)| at) {
            if start < skip_until {
                continue;
            }
            if tried == MAX_STARTS {
                break;
            }
            tried += 1;
            match parse_at(body, start, max_depth) {
                Ok((value, end)) => {
                    let rest = &body[end..];
                    let another = rest
                        .match_indices(opener)
                        .take(MAX_STARTS)
                        .any(|(at, _)| parse_at(rest, at, max_depth).is_ok());
                    return if another {
                        Err(TextError::Ambiguous)
                    } else {
                        Ok(value)
                    };
                }
                Err(error @ (TextError::TooDeep | TextError::Truncated)) => return Err(error),
                Err(TextError::Invalid {
                    offset: at,
                    message,
                }) => {
                    skip_until = at.max(start + 1);
                    first_error.get_or_insert(TextError::Invalid {
                        offset: at + offset,
                        message,
                    });
                }
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
    }
    Err(first_error.unwrap_or(TextError::NoValue))
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
        })
    }
}

/// The value starting at `start`, and where it ends (after trailing space and comments).
fn parse_at(body: &str, start: usize, max_depth: usize) -> Result<(Json, usize), TextError> {
    let mut parser = Parser {
        bytes: body.as_bytes(),
        position: start,
        depth: 0,
        max_depth,
    };
    let value = parser.value()?;
    parser.skip_space()?;
    Ok((value, parser.position))
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
        TextError::Invalid {
            offset: self.position,
            message,
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
                Some(_) => return Err(self.invalid("expected `,` or `}`")),
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
                Some(_) => return Err(self.invalid("expected `,` or `]`")),
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
                self.position = start;
                Err(self.invalid("unknown word (strings need quotes)"))
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
            .map_err(|_| self.invalid("not a number"))?;
        text.parse::<serde_json::Number>()
            .map(Json::Number)
            .map_err(|_| TextError::Invalid {
                offset: start,
                message: "not a number",
            })
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
mod tests {
    use super::*;

    fn read(text: &str) -> Result<serde_json::Value, TextError> {
        read_lenient(text, 128).map(|json| json.to_value())
    }

    #[test]
    fn reads_what_models_write() {
        let expected = serde_json::json!({"a": 1, "b": [true, null], "c": "it's"});
        for text in [
            "```json\n{\"a\": 1, \"b\": [true, null], \"c\": \"it's\"}\n```",
            "Here you go: {\"a\": 1, \"b\": [true, null], \"c\": \"it's\"} Hope it helps.",
            "{\"a\": 1, \"b\": [true, null,], \"c\": \"it's\",}",
            "{'a': 1, 'b': [True, None], 'c': \"it's\"}",
            "{'a': 1, 'b': [True, None], 'c': 'it\\'s'}",
            "{a: 1, b: [true, null], c: \"it's\"}",
            "{\n  // the count\n  \"a\": 1, /* flags */ \"b\": [true, null], \"c\": \"it\\x27s\"\n}",
        ] {
            assert_eq!(read(text), Ok(expected.clone()), "{text}");
        }
    }

    #[test]
    fn refuses_cut_off_and_ambiguous_text() {
        for text in [
            "{\"a\": 1, \"b\": [tr",
            "{\"a\": \"unfinished",
            "{\"a\": 12",
            "```json\n{\"a\": 1,",
            "{'a': Tru",
        ] {
            assert_eq!(read(text), Err(TextError::Truncated), "{text}");
        }
        assert_eq!(
            read("{\"a\": 1} and also {\"b\": 2}"),
            Err(TextError::Ambiguous)
        );
        assert_eq!(read("no json here"), Err(TextError::NoValue));
        assert!(matches!(
            read("{\"a\": nope}"),
            Err(TextError::Invalid { .. })
        ));
        assert_eq!(read_lenient(&"[".repeat(200), 128), Err(TextError::TooDeep));
    }

    #[test]
    fn decodes_unicode_escapes() {
        assert_eq!(
            read(r#"{"e": "\u00e9\ud83d\ude00\U0001F600"}"#),
            Ok(serde_json::json!({"e": "é😀😀"}))
        );
    }
}

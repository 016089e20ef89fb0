//! The lenient parser the tokenizer replaced, kept as the oracle of its property tests until
//! issue 29 closes.

use crate::decode::TextError;
use crate::model::Json;
use crate::read::tokens::{found_at, FOUND_CHARS};

/// The value starting at `start`, where it ends (its last character), and where the white
/// space and comments after it end.
pub(crate) fn parse_value_at(
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
            if crate::decode::message_starts_with(&error, "number out of range") {
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
                        _ => {
                            // Fixed here: the offset is after the whole character.
                            while self.peek().is_some_and(|b| (b & 0xC0) == 0x80) {
                                self.position += 1;
                            }
                            return Err(self.invalid("unknown escape"));
                        }
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
        // Fixed here: `from_str_radix` also took a sign (`\\u+041`).
        if !text.iter().all(u8::is_ascii_hexdigit) {
            return Err(self.invalid("bad escape"));
        }
        let text = std::str::from_utf8(text).map_err(|_| self.invalid("bad escape"))?;
        let value = u32::from_str_radix(text, 16).map_err(|_| self.invalid("bad escape"))?;
        self.position = end;
        Ok(value)
    }
}

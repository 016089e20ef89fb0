//! Strings for [`Tokens`]: a plain string read in one scan (eight bytes at a time), escapes
//! undone in reading order, and a string cut off by the end of the text resumed where its
//! scan stopped.

use std::borrow::Cow;

use super::{Leniency, Stop, Tokens};

/// How far a string cut off by the end of the text was read.
#[derive(Clone, Debug)]
pub(super) struct CutString {
    /// Where it starts (its opening quote).
    start: usize,
    /// Where its scan resumes.
    scanned: usize,
    /// The end of what `unescaped` holds of it.
    copied: usize,
    /// Its text up to `copied`, escapes undone, once it has an escape.
    unescaped: Option<String>,
}

impl CutString {
    /// A string whose opening quote, at `start`, is the last byte of the text.
    pub(super) fn opened(start: usize) -> Self {
        CutString {
            start,
            scanned: start + 1,
            copied: start + 1,
            unescaped: None,
        }
    }
}

/// Eight copies of a byte in a word.
const fn splat(byte: u8) -> u64 {
    u64::from_ne_bytes([byte; 8])
}

/// The high bit of each byte of `word` that is zero (and perhaps of later bytes: only the
/// lowest is exact, which is the one used).
fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(splat(1)) & !word & splat(0x80)
}

/// Where the first byte of `bytes` from `from` on is `quote`, a backslash or a control
/// character, eight bytes at a time.
#[inline]
pub(in crate::read) fn first_special(bytes: &[u8], from: usize, quote: u8) -> Option<usize> {
    let mut at = from;
    while let Some(chunk) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let special = zero_bytes(word ^ splat(quote))
            | zero_bytes(word ^ splat(b'\\'))
            | (word.wrapping_sub(splat(0x20)) & !word & splat(0x80));
        if special != 0 {
            return Some(at + (special.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes[at.min(bytes.len())..]
        .iter()
        .position(|&byte| byte == quote || byte == b'\\' || byte < 0x20)
        .map(|found| at + found)
}

/// The string the text given last ended inside, as far as it was read: its characters so far,
/// escapes undone (never half an escape), in two parts so nothing is copied.
pub(crate) struct StringSoFar<'t> {
    /// Where it starts (its opening quote): the same string while this stays.
    pub(crate) start: usize,
    /// Whether it is an object's key.
    pub(crate) key: bool,
    /// Its characters up to the last escape undone (empty where it has none).
    pub(crate) unescaped: &'t str,
    /// Its characters after them, as in the text.
    pub(crate) plain: &'t str,
}

impl StringSoFar<'_> {
    /// Its characters after the first `from` bytes of them.
    pub(crate) fn after(&self, from: usize) -> String {
        match self.unescaped.get(from..) {
            Some(rest) => [rest, self.plain].concat(),
            None => from
                .checked_sub(self.unescaped.len())
                .and_then(|from| self.plain.get(from..))
                .unwrap_or_default()
                .to_owned(),
        }
    }

    /// How many bytes its characters so far take.
    pub(crate) fn len(&self) -> usize {
        self.unescaped.len() + self.plain.len()
    }
}

impl Tokens {
    /// The string `text` (the text given last) ended inside, as far as it was read; `None`
    /// where it did not end inside one.
    pub(crate) fn string_so_far<'t>(&'t self, text: &'t str) -> Option<StringSoFar<'t>> {
        let cut = self.string.as_ref()?;
        Some(StringSoFar {
            start: cut.start,
            key: self.expects_key(),
            unescaped: cut.unescaped.as_deref().unwrap_or_default(),
            plain: text.get(cut.copied..cut.scanned)?,
        })
    }

    /// [`first_special`], the bytes it looks at counted in [`Tokens::work`].
    #[inline]
    fn special(&mut self, bytes: &[u8], from: usize, quote: u8) -> Option<usize> {
        let found = first_special(bytes, from, quote);
        self.work += (found.map_or(bytes.len(), |at| at + 1) - from.min(bytes.len())) as u64;
        found
    }

    /// A string in double or single quotes (the position at its opening quote), its escapes
    /// undone in reading order (the first fault met is the one reported).
    #[inline]
    pub(in crate::read) fn string<'t>(
        &mut self,
        text: &'t str,
        quote: u8,
    ) -> Result<Cow<'t, str>, Stop> {
        // Most strings: plain text up to the closing quote, read in one scan.
        if self.string.is_none() {
            let bytes = text.as_bytes();
            let start = self.at;
            if let Some(end) = self.special(bytes, start + 1, quote) {
                if bytes[end] == quote {
                    if quote == b'\'' {
                        self.leniency.add(Leniency::SINGLE_QUOTES);
                    }
                    self.token_start = start;
                    self.at = end + 1;
                    return Ok(Cow::Borrowed(&text[start + 1..end]));
                }
            }
        }
        self.string_with_escapes(text, quote)
    }

    /// [`Tokens::string`] where the string holds an escape or a control character, or is cut
    /// off by the end of the text.
    fn string_with_escapes<'t>(&mut self, text: &'t str, quote: u8) -> Result<Cow<'t, str>, Stop> {
        let bytes = text.as_bytes();
        let start = self.at;
        // A string cut off by the end of the text earlier resumes where its scan stopped,
        // with what it had unescaped so far.
        let resumed = match &self.string {
            Some(cut) if cut.start == start => self.string.take(),
            _ => None,
        };
        let (mut at, mut copied, mut out) = match resumed {
            Some(cut) => (cut.scanned, cut.copied, cut.unescaped),
            None => (start + 1, start + 1, None),
        };
        if quote == b'\'' {
            self.leniency.add(Leniency::SINGLE_QUOTES);
        }
        let end = loop {
            let Some(found) = self.special(bytes, at, quote) else {
                return Err(self.cut_string(start, bytes.len(), copied, out));
            };
            match bytes[found] {
                byte if byte == quote => break found,
                b'\\' => {
                    let mut after = found + 1;
                    let plain = match self.escape(text, &mut after) {
                        Ok(plain) => plain,
                        Err(Stop::More) => return Err(self.cut_string(start, found, copied, out)),
                        Err(error) => return Err(error),
                    };
                    let unescaped = out.get_or_insert_with(String::new);
                    unescaped.push_str(&text[copied..found]);
                    unescaped.push(plain);
                    at = after;
                    copied = after;
                }
                _ => {
                    self.leniency.add(Leniency::RAW_CONTROL);
                    at = found + 1;
                }
            }
        };
        self.token_start = start;
        self.at = end + 1;
        Ok(match out {
            Some(mut unescaped) => {
                unescaped.push_str(&text[copied..end]);
                Cow::Owned(unescaped)
            }
            None => Cow::Borrowed(&text[start + 1..end]),
        })
    }

    /// Where the end of the text cut the string starting at `start`: its scan resumes at
    /// `scanned` (never inside an escape) when more text comes.
    fn cut_string(
        &mut self,
        start: usize,
        scanned: usize,
        copied: usize,
        unescaped: Option<String>,
    ) -> Stop {
        if !self.complete {
            self.string = Some(CutString {
                start,
                scanned,
                copied,
                unescaped,
            });
        }
        self.ended()
    }

    /// The character an escape stands for; `at` is after its backslash, and moves past it.
    fn escape(&mut self, text: &str, at: &mut usize) -> Result<char, Stop> {
        let Some(&letter) = text.as_bytes().get(*at) else {
            return Err(self.ended());
        };
        *at += 1;
        Ok(match letter {
            b'"' | b'\\' | b'/' => letter as char,
            b'n' => '\n',
            b't' => '\t',
            b'r' => '\r',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'u' => self.code_point(text, at, 4)?,
            b'\'' | b'x' | b'U' => {
                self.leniency.add(Leniency::PYTHON_ESCAPE);
                match letter {
                    b'x' => self.code_point(text, at, 2)?,
                    b'U' => self.code_point(text, at, 8)?,
                    _ => '\'',
                }
            }
            _ => {
                // The offset is after the whole character.
                let width = text[*at - 1..].chars().next().map_or(1, char::len_utf8);
                *at += width - 1;
                return Err(self.invalid_at(text, *at, "unknown escape"));
            }
        })
    }

    /// `\xNN`, `\uNNNN` (with surrogate pairs), `\UNNNNNNNN`: `at` is after the escape's
    /// letter, and moves past its digits.
    fn code_point(&mut self, text: &str, at: &mut usize, digits: usize) -> Result<char, Stop> {
        let mut value = self.hex(text, at, digits)?;
        if digits == 4 && (0xD800..0xDC00).contains(&value) {
            match text.as_bytes().get(*at..*at + 2) {
                Some(b"\\u") => {}
                None if !self.complete => return Err(Stop::More),
                _ => return Err(self.invalid_at(text, *at, "unpaired surrogate")),
            }
            *at += 2;
            let low = self.hex(text, at, 4)?;
            if !(0xDC00..0xE000).contains(&low) {
                return Err(self.invalid_at(text, *at, "unpaired surrogate"));
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00);
        }
        char::from_u32(value).ok_or_else(|| self.invalid_at(text, *at, "not a character"))
    }

    fn hex(&mut self, text: &str, at: &mut usize, digits: usize) -> Result<u32, Stop> {
        let Some(hex) = text.as_bytes().get(*at..*at + digits) else {
            return Err(self.ended());
        };
        let mut value = 0u32;
        for &digit in hex {
            let Some(nibble) = (digit as char).to_digit(16) else {
                return Err(self.invalid_at(text, *at, "bad escape"));
            };
            value = value << 4 | nibble;
        }
        *at += digits;
        Ok(value)
    }
}

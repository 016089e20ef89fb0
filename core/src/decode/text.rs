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
//!   the failed one is never taken: that would drop everything around it; nor, for an
//!   object, one found after it (in a fence, say): whether a text that starts with an object
//!   is refused is known from that object alone.
//! - **Prose around one object**: each `{` or `[` in prose starts a candidate. A candidate
//!   that reads as a value (leniently) is one; a group that does not (`{name}`, `{the
//!   city}`: no JSON value, even leniently) is prose, up to its closing bracket, as long as
//!   no other candidate starts inside it (a value inside a failed one is never taken: that
//!   would drop everything around it; the failed one is refused). A value is taken out of
//!   prose when it is the only candidate that reads; it must be a non-empty object
//!   (arguments are objects; `{}` in a page of prose is not a call). A closing bracket
//!   outside every group is not prose.
//! - **One markdown fence**: its body is read as above; prose outside the fence must hold no
//!   candidate that reads either.
//! - **Two candidates that read** (two fences, a fence and a value outside it, two values in
//!   prose, a citation `[1]` beside the object) are ambiguous; a second candidate cut off
//!   means the text was cut off. Both are refused.
//!
//! A candidate that does not read stops within its own group, and the scan goes on after the
//! group, so every byte is read a bounded number of times: the stage is linear in the text.

use std::ops::Range;

use crate::model::Json;
use crate::read::tokens::found_at;
use crate::read::TreeRead;

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
    read_lenient_from(text, max_depth, None).map(|(json, _)| json)
}

/// [`read_lenient`], and where in the text the value is (its first character to its last).
pub(crate) fn read_lenient_spanned(
    text: &str,
    max_depth: usize,
) -> Result<(Json, Range<usize>), TextError> {
    read_lenient_from(text, max_depth, None)
}

/// What a read of a whole text from its first character made of it: where that is, and
/// the value read there or why none was.
pub(crate) type FirstRead = (usize, Result<Box<TreeRead>, TextError>);

/// [`read_lenient_spanned`], given what a read from the text's first character made of it
/// (the strict attempt's, [`crate::decode::read_whole`]): a text that starts with its
/// value is then not read again.
pub(crate) fn read_lenient_from(
    text: &str,
    max_depth: usize,
    first: Option<FirstRead>,
) -> Result<(Json, Range<usize>), TextError> {
    // An object that starts the text is read from there, fences or not: where it fails, the
    // text is refused (never a value found after or inside it), so whether such a text is
    // refused is known from the object alone (what the streaming decoder's early issues
    // stand on: `streaming`).
    if text.trim_start().starts_with('{') {
        return read_unfenced(text, 0, text.len(), max_depth, first);
    }
    let blocks = fenced_blocks(text);
    match blocks.as_slice() {
        [] => read_unfenced(text, 0, text.len(), max_depth, first),
        [(open, body, end, close)] => {
            // Outside the fence: the prose before it, the rest of its opening line (after
            // the info string's first word nothing belongs there), and the prose after it.
            let info_end = text[open + 3..*body]
                .find(char::is_whitespace)
                .map_or(*body, |at| open + 3 + at);
            let outside = [(0, *open), (info_end, *body), (*close, text.len())];
            for (from, to) in outside {
                // Another value outside the fence makes two candidates.
                if !Prose::scan(text, from, to, max_depth)?.values.is_empty() {
                    return Err(TextError::Ambiguous);
                }
            }
            // A body that is strict JSON is that value, whatever it is (a JSON string of
            // the arguments included, which the walk then reads as `double_encoded`): the
            // fence says nothing more than its body alone would.
            let inner = text[*body..*end].trim();
            if let Ok(json) = crate::decode::read_whole(inner, max_depth) {
                let start =
                    *body + (text[*body..*end].len() - text[*body..*end].trim_start().len());
                return Ok((json, start..start + inner.len()));
            }
            read_unfenced(text, *body, *end, max_depth, None)
        }
        _ => Err(TextError::Ambiguous),
    }
}

/// Reads the value of `text[from..to]`, a text without fences (`first`: a read of the whole
/// text from its first character, used where the value starts there), and where it is.
fn read_unfenced(
    text: &str,
    from: usize,
    to: usize,
    max_depth: usize,
    first: Option<FirstRead>,
) -> Result<(Json, Range<usize>), TextError> {
    let region = &text[..to];
    let start = from + (text[from..to].len() - text[from..to].trim_start().len());
    // What follows a value is looked at from its last character: a comment after it is
    // surroundings too, and a value hidden in one (`{..} // or {..}`) is a second candidate.
    if text[start..to].starts_with(['{', '[']) {
        let (value, end) = match first {
            Some((first_start, read)) if first_start == start && to == text.len() => {
                let read = read?;
                (read.json, read.end)
            }
            _ => {
                let (value, end, _) = parse_value_at(region, start, max_depth)?;
                (value, end)
            }
        };
        refuse_other_values(region, end, max_depth)?;
        return Ok((value, start..end));
    }
    // Prose: the one candidate that reads as a value.
    let mut prose = Prose::scan(text, start, to, max_depth)?;
    match prose.values.len() {
        0 => Err(prose.first_fault.unwrap_or(TextError::NoValue)),
        1 => {
            let (value, span) = prose.values.remove(0);
            match &value {
                Json::Object(members) if !members.is_empty() => Ok((value, span)),
                _ => Err(TextError::NoValue),
            }
        }
        _ => Err(TextError::Ambiguous),
    }
}

/// After a value that ends at `end`: the rest of the text must be prose. A second value is
/// ambiguous; a second value cut off means the text was cut off.
fn refuse_other_values(region: &str, end: usize, max_depth: usize) -> Result<(), TextError> {
    match Prose::scan(region, end, region.len(), max_depth)?
        .values
        .len()
    {
        0 => Ok(()),
        _ => Err(TextError::Ambiguous),
    }
}

/// What a stretch of prose holds: the candidates that read as values, and why the first
/// group that did not read failed.
struct Prose {
    values: Vec<(Json, Range<usize>)>,
    first_fault: Option<TextError>,
}

impl Prose {
    /// Scans `text[from..to]` for candidates (see the module's rules). `Err` where it is not
    /// prose: a candidate cut off by the end of the text ([`TextError::Truncated`]), one nested
    /// too deep or with a number out of range, a failed group with a candidate inside it (its
    /// own fault), or a closing bracket outside every group ([`TextError::NotProse`]).
    fn scan(text: &str, from: usize, to: usize, max_depth: usize) -> Result<Prose, TextError> {
        let region = &text[..to];
        let mut prose = Prose {
            values: Vec::new(),
            first_fault: None,
        };
        let mut at = from;
        while let Some(found) = region[at..].find(JSON_PUNCTUATION) {
            let open = at + found;
            let closer = match region.as_bytes()[open] {
                b'{' => '}',
                b'[' => ']',
                _ => {
                    return Err(TextError::NotProse {
                        offset: open,
                        found: found_at(text, open),
                    })
                }
            };
            match parse_value_at(region, open, max_depth) {
                Ok((value, end, _)) => {
                    prose.values.push((value, open..end));
                    at = end;
                }
                Err(fault @ TextError::Invalid { .. }) => {
                    // Not a value: prose up to its closing bracket, unless another candidate
                    // starts inside it.
                    let group = &region[open + 1..];
                    let Some(close) = group.find(closer) else {
                        return Err(fault);
                    };
                    if group[..close].contains(['{', '[']) {
                        return Err(fault);
                    }
                    prose.first_fault.get_or_insert(fault);
                    at = open + 1 + close + 1;
                }
                Err(fault) => return Err(fault),
            }
        }
        Ok(prose)
    }
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
    let read = crate::read::read_tree(body, start, max_depth)?;
    let after = crate::read::space_after(body, read.end)?;
    Ok((read.json, read.end, after))
}

#[cfg(test)]
mod tests;

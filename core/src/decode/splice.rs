//! The arguments as sent, with only what the gate repaired written again: the text a
//! middleman hands on for a call it accepted (`toolgate mcp-proxy` forwards it).
//!
//! Writing a repaired call's value whole would sort its keys, drop its spacing and write each
//! number as a float holds it: a 30-digit integer beside a repaired field would reach the
//! server rounded. Instead each repair's member is found in the text sent, and only it is
//! written again; every other byte is kept:
//! - `string_to_number`, `float_to_integer`, `string_to_bool`, `number_to_bool`,
//!   `scalar_to_string`, `enum_case`: the member's value is the repaired value (a number sent
//!   as a string keeps the digits sent, `"1e3"` is `1e3`, unless the integer it became is
//!   shorter to say: `"5.0"` for an integer is `5`);
//! - `key_case`: the member's key is the declared one;
//! - `null_as_absent` (and a typed tool's `drop_unknown_key`): the member is left out;
//! - `wrap_in_array`: the member, itself spliced, between `[` and `]`;
//! - `json_string`, `double_encoded`: the JSON text the string holds, itself spliced, in the
//!   string's place;
//! - `json_text`: the one value of the text, without the fence or prose around it; text that
//!   is not strict JSON is written as strict JSON token by token, each number as its digits
//!   were sent;
//! - `default` writes nothing: the schema's `default` is an annotation the receiver applies,
//!   and a call whose log holds only defaults is valid as sent, so its text is handed on as
//!   it came.
//!
//! [`crate::DynamicTool::repaired_text`] checks what this writes before it hands it on.

use std::borrow::Cow;
use std::ops::Range;

use serde_json::Value;

use super::{Repair, Rule, MAX_DEPTH};
use crate::path::{Path, Segment};
use crate::read::tokens::{is_json_number, Token, Tokens};

/// The text `sent` with each of `repairs` (a decoding's log, complete) written into it;
/// `value` is the value the decoding gave. `None` where a repair cannot be found in the text.
pub(crate) fn splice(sent: &str, repairs: &[Repair], value: &Value) -> Option<String> {
    let repairs: Vec<&Repair> = repairs.iter().filter(|r| r.rule.is_repair()).collect();
    if repairs.is_empty() {
        return Some(sent.to_owned());
    }
    Splicer { repairs, value }.value_text(sent, &Path::root())
}

struct Splicer<'a> {
    /// The repairs, in the log's order (a string's own reading after the string).
    repairs: Vec<&'a Repair>,
    value: &'a Value,
}

impl Splicer<'_> {
    /// The rules applied at `path`, in the log's order.
    fn rules_at<'p>(&'p self, path: &'p Path) -> impl Iterator<Item = Rule> + 'p {
        self.repairs
            .iter()
            .filter(move |repair| &repair.path == path)
            .map(|repair| repair.rule)
    }

    /// Whether a repair was made below `path` (not at it).
    fn any_below(&self, path: &Path) -> bool {
        let depth = path.segments().len();
        self.repairs.iter().any(|repair| {
            let segments = repair.path.segments();
            segments.len() > depth && segments[..depth] == *path.segments()
        })
    }

    /// The text of the value at `path`, whose text as sent is `text`.
    fn value_text(&self, text: &str, path: &Path) -> Option<String> {
        let mut text = Cow::Borrowed(text);
        let rules: Vec<Rule> = self.rules_at(path).collect();
        for rule in rules {
            match rule {
                Rule::JsonText => text = Cow::Owned(one_value(&text)?),
                Rule::DoubleEncoded | Rule::JsonString => {
                    text = Cow::Owned(serde_json::from_str::<String>(text.trim()).ok()?);
                }
                Rule::WrapInArray => {
                    let item = self.value_text(&text, &path.clone().index(0))?;
                    return Some(format!("[{item}]"));
                }
                Rule::StringToNumber => return self.number_from_string(&text, path),
                Rule::FloatToInteger
                | Rule::StringToBool
                | Rule::NumberToBool
                | Rule::ScalarToString
                | Rule::EnumCase => return serde_json::to_string(self.value_at(path)?).ok(),
                // The member's own: its parent writes them.
                Rule::KeyCase | Rule::NullAsAbsent | Rule::DropUnknownKey | Rule::Default => {}
            }
        }
        if self.any_below(path) {
            self.container(&text, path)
        } else {
            Some(text.into_owned())
        }
    }

    /// A number sent as a string: the digits sent where the value is not an integer (a
    /// float cannot hold them all), else the integer.
    fn number_from_string(&self, text: &str, path: &Path) -> Option<String> {
        let value = self.value_at(path)?;
        if value.is_f64() {
            let sent = serde_json::from_str::<String>(text.trim()).ok()?;
            let digits = sent.trim();
            if is_json_number(digits.as_bytes()) {
                return Some(digits.to_owned());
            }
        }
        serde_json::to_string(value).ok()
    }

    /// The value the decoding gave at `path`.
    fn value_at(&self, path: &Path) -> Option<&Value> {
        let mut value = self.value;
        for segment in path.segments() {
            value = match segment {
                Segment::Key(key) => value.get(key.as_str())?,
                Segment::Index(index) => value.get(*index)?,
            };
        }
        Some(value)
    }

    /// An object or array with repairs inside: each member written again where a repair is
    /// at or below it, left out where the repair drops it, its key renamed by `key_case`;
    /// the rest of the text kept.
    fn container(&self, text: &str, path: &Path) -> Option<String> {
        let read = children(text)?;
        let mut out = String::with_capacity(text.len());
        // The opening bracket, and the spacing before the first member.
        out.push_str(&text[..read.members.first().map_or(read.open, |first| first.start)]);
        let mut previous: Option<usize> = None;
        for (index, member) in read.members.iter().enumerate() {
            let (child, key) = match &member.key {
                Some((range, sent)) => {
                    let (child, renamed) = self.member_path(path, sent);
                    let key = match renamed {
                        Some(declared) => Cow::Owned(serde_json::to_string(declared).ok()?),
                        None => Cow::Borrowed(&text[range.clone()]),
                    };
                    // The key, and what is between it and the value (`:` and spacing).
                    (child, Some((key, &text[range.end..member.value.start])))
                }
                None => (path.clone().index(index), None),
            };
            let left_out = self
                .rules_at(&child)
                .any(|rule| matches!(rule, Rule::NullAsAbsent | Rule::DropUnknownKey));
            if left_out {
                continue;
            }
            if let Some(previous) = previous {
                // The separator that followed the member kept before.
                match read.members.get(previous + 1) {
                    Some(next) => out.push_str(&text[read.members[previous].value.end..next.start]),
                    None => out.push(','),
                }
            }
            if let Some((key, between)) = key {
                out.push_str(&key);
                out.push_str(between);
            }
            let sent = &text[member.value.clone()];
            let repaired = self.rules_at(&child).next().is_some() || self.any_below(&child);
            if repaired {
                out.push_str(&self.value_text(sent, &child)?);
            } else {
                out.push_str(sent);
            }
            previous = Some(index);
        }
        let rest = read.members.last().map_or(read.open, |last| last.value.end);
        // Where the last member was left out, what follows the last one kept is its closing.
        let rest = match previous {
            Some(previous) if previous + 1 < read.members.len() => read.close,
            None if !read.members.is_empty() => read.close,
            _ => rest,
        };
        out.push_str(&text[rest..]);
        Some(out)
    }

    /// The path of the member sent as `key` in the object at `path`, and the declared key
    /// when `key_case` renamed it.
    fn member_path(&self, path: &Path, key: &str) -> (Path, Option<&str>) {
        let renamed = self.repairs.iter().find_map(|repair| {
            let renames = repair.rule == Rule::KeyCase
                && repair.from.as_str() == Some(key)
                && repair.path.parent().as_ref() == Some(path);
            match (renames, repair.path.last()) {
                (true, Some(Segment::Key(declared))) => Some(declared.as_str()),
                _ => None,
            }
        });
        match renamed {
            Some(declared) => (path.clone().key(declared), Some(declared)),
            None => (path.clone().key(key), None),
        }
    }
}

/// One member of an object or an array, by where it is in the container's text.
struct Member {
    /// Where the member starts: its key, or the item.
    start: usize,
    /// An object member's key: where it is, and the key it says.
    key: Option<(Range<usize>, String)>,
    value: Range<usize>,
}

/// The members of the container that `text` (strict JSON) is.
struct Children {
    /// The byte after the opening bracket.
    open: usize,
    /// The closing bracket.
    close: usize,
    members: Vec<Member>,
}

fn children(text: &str) -> Option<Children> {
    let mut tokens = Tokens::at(0, MAX_DEPTH + 1);
    tokens.end_of_text();
    match tokens.next(text).ok()?? {
        Token::ObjectStart | Token::ArrayStart => {}
        _ => return None,
    }
    let open = tokens.position();
    let mut members = Vec::new();
    let mut key: Option<(Range<usize>, String)> = None;
    let mut depth = 0usize;
    let mut start = 0;
    loop {
        let token = tokens.next(text).ok()??;
        let at = tokens.token_start();
        match token {
            Token::Key(sent) if depth == 0 => {
                key = Some((at..tokens.position(), sent.into_owned()));
                continue;
            }
            Token::ObjectEnd | Token::ArrayEnd if depth == 0 => {
                return Some(Children {
                    open,
                    close: at,
                    members,
                });
            }
            Token::ObjectStart | Token::ArrayStart => {
                if depth == 0 {
                    start = at;
                }
                depth += 1;
                continue;
            }
            Token::ObjectEnd | Token::ArrayEnd => {
                depth -= 1;
                if depth > 0 {
                    continue;
                }
            }
            _ if depth > 0 => continue,
            _ => start = at,
        }
        let key = key.take();
        members.push(Member {
            start: key.as_ref().map_or(start, |(range, _)| range.start),
            key,
            value: start..tokens.position(),
        });
    }
}

/// The one value of a text read as `json_text` reads it (a fence or prose around it, or
/// lenient JSON), as strict JSON: the value's own text where that is strict, else written
/// token by token.
fn one_value(text: &str) -> Option<String> {
    let (_, span) = super::text::read_lenient_spanned(text, MAX_DEPTH).ok()?;
    let value = &text[span];
    if super::read_whole(value, MAX_DEPTH).is_ok() {
        return Some(value.to_owned());
    }
    strict_text(value)
}

/// Lenient JSON text written as strict JSON: strings quoted again, numbers as sent, comments
/// and trailing commas left out.
fn strict_text(text: &str) -> Option<String> {
    let mut tokens = Tokens::at(0, MAX_DEPTH + 1);
    tokens.end_of_text();
    let mut out = String::with_capacity(text.len());
    // For each open container: whether a member was written in it.
    let mut open: Vec<bool> = Vec::new();
    while let Some(token) = tokens.next(text).ok()? {
        let is_end = matches!(token, Token::ObjectEnd | Token::ArrayEnd);
        let is_key = matches!(token, Token::Key(_));
        // A value after a key follows its `:`; any other member after the first, a `,`.
        if !is_end && !out.ends_with(':') {
            if let Some(written) = open.last_mut() {
                if *written {
                    out.push(',');
                }
                *written = true;
            }
        }
        match token {
            Token::ObjectStart => {
                out.push('{');
                open.push(false);
            }
            Token::ArrayStart => {
                out.push('[');
                open.push(false);
            }
            Token::ObjectEnd => {
                out.push('}');
                open.pop();
            }
            Token::ArrayEnd => {
                out.push(']');
                open.pop();
            }
            Token::Key(key) | Token::String(key) => {
                out.push_str(&serde_json::to_string(&key).ok()?);
                if is_key {
                    out.push(':');
                }
            }
            Token::Number(digits) => out.push_str(digits),
            Token::Bool(flag) => out.push_str(if flag { "true" } else { "false" }),
            Token::Null => out.push_str("null"),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests;

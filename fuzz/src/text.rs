//! Argument texts made of pieces, for `text_stage`: objects (strict or in the lenient forms
//! the `json_text` repair reads), a second object, `{}`, markdown fences, prose with
//! citations, comments and URLs, junk, bare words, expressions, a JSON string holding an
//! object (double-encoded), white space; the whole text maybe cut off. The builder records
//! where each piece is, so the target knows what the text holds.

use arbitrary::Unstructured;
use serde_json::{json, Map, Value};

use crate::refs::pick;

fn coin(u: &mut Unstructured<'_>) -> bool {
    u.arbitrary::<bool>().unwrap_or(false)
}

/// What a piece of the text is.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// A complete JSON object (the value it means; `{}` too).
    Object(Value),
    /// A fence line: "```json\n" and the like.
    FenceOpen,
    /// "\n```" or "```".
    FenceClose,
    /// Words, citations `[1]`, comments-looking marks (`#`, `//`), URLs.
    Prose,
    /// Bytes from the input: anything.
    Junk,
    /// `True`, `None`, `yes`, `undefined`...
    Bare,
    /// `1 + 2`, `f(x)`, `7 // 2`...
    Expression,
    /// A JSON string that holds an object.
    DoubleEncoded,
    /// White space (and a byte order mark).
    Space,
}

#[derive(Clone, Debug)]
pub struct Piece {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// A built text and its pieces; `cut` is where the text was cut off, if it was.
#[derive(Clone, Debug)]
pub struct Text {
    pub text: String,
    pub pieces: Vec<Piece>,
    pub cut: Option<usize>,
}

const KEYS: [&str; 16] = [
    "a",
    "b",
    "query",
    "flag",
    "n",
    "city",
    "$ref",
    "_id",
    "key-dash",
    "with space",
    "",
    "ünï",
    "True",
    "{",
    "```",
    "a\"b",
];

const STRINGS: [&str; 16] = [
    "x",
    "",
    "it's",
    "say \"hi\"",
    "{\"b\": 2}",
    "```json\n{}\n```",
    "[1]",
    "back\\slash",
    "line\nbreak",
    "tab\there",
    "é",
    "\u{202e}rtl",
    "# not a comment",
    "// nor this",
    "/* nor */",
    "None",
];

const FENCES: [&str; 8] = [
    "```json\n",
    "```\n",
    "```JSON\n",
    "```javascript\n",
    "```python\n",
    "```json\r\n",
    "``` json\n",
    "```jsonc\n",
];

const PROSE: [&str; 20] = [
    "Here are the arguments:",
    "Sure! I'll call the tool.",
    "According to the docs [1], the call is",
    "See [2] and [3].",
    "# Answer\n",
    "// note:",
    "#",
    "Option #2 is",
    "https://example.com/a?b=c#frag",
    "It's done.",
    "Done.\n",
    "/* draft */",
    "(see above)",
    "a: b, c",
    "Let me know if you need anything else!",
    "\u{ff5b}fullwidth\u{ff5d}",
    "1. first\n2. second\n",
    "> quoted\n",
    "**bold**",
    "then",
];

const BARE: [&str; 10] = [
    "True",
    "None",
    "yes",
    "undefined",
    "null",
    "NaN",
    "Infinity",
    "function_call",
    "json",
    "tru",
];

const EXPRESSIONS: [&str; 10] = [
    "1 + 2",
    "f(x)",
    "3*4",
    "7 // 2",
    "2 ** 8",
    "-x",
    "a = 1",
    "len(items)",
    "10 / 5",
    "x % 2",
];

const SPACES: [&str; 7] = [" ", "\n", "\r\n", "\t", "\n\n", "\u{feff}", "\r"];

/// A JSON value for an object member.
fn member_value(u: &mut Unstructured<'_>, depth: usize) -> Value {
    match pick(u, if depth >= 2 { 8 } else { 10 }) {
        0 => [
            json!(0),
            json!(1),
            json!(-7),
            json!(42),
            json!(u64::MAX),
            json!(i64::MIN),
        ][pick(u, 6)]
        .clone(),
        1 => json!([0.5, -2.25, 1e-7, 1.5e300, 100.0, -0.0][pick(u, 6)]),
        2..=4 => json!(STRINGS[pick(u, STRINGS.len())]),
        5 => json!(coin(u)),
        6 => Value::Null,
        7 => json!([]),
        8 => Value::Array(
            (0..pick(u, 3))
                .map(|_| member_value(u, depth + 1))
                .collect(),
        ),
        _ => object_value(u, depth + 1),
    }
}

/// An object with unique keys.
pub fn object_value(u: &mut Unstructured<'_>, depth: usize) -> Value {
    let mut object = Map::new();
    for _ in 0..pick(u, 5) {
        let key = KEYS[pick(u, KEYS.len())];
        if !object.contains_key(key) {
            let value = member_value(u, depth);
            object.insert(key.to_owned(), value);
        }
    }
    Value::Object(object)
}

/// How an object is written.
#[derive(Clone, Copy, Debug, Default)]
struct Style {
    single_quotes: bool,
    python: bool,
    bare_keys: bool,
    trailing_commas: bool,
    /// 0: none; 1 `/* */`; 2 `//`; 3 `#`.
    comments: u8,
    pretty: bool,
}

fn write_string(text: &str, quote: char, out: &mut String) {
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push(quote);
}

fn is_bare_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '-')
}

fn write_comment(style: Style, out: &mut String) {
    match style.comments {
        1 => out.push_str(" /* c */ "),
        2 => out.push_str(" // c\n"),
        3 => out.push_str(" # c\n"),
        _ => {}
    }
}

fn write_value(value: &Value, style: Style, out: &mut String) {
    let quote = if style.single_quotes { '\'' } else { '"' };
    match value {
        Value::Null => out.push_str(if style.python { "None" } else { "null" }),
        Value::Bool(true) => out.push_str(if style.python { "True" } else { "true" }),
        Value::Bool(false) => out.push_str(if style.python { "False" } else { "false" }),
        Value::Number(number) => out.push_str(&number.to_string()),
        Value::String(text) => write_string(text, quote, out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                write_value(item, style, out);
            }
            if style.trailing_commas && !items.is_empty() {
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (index, (key, value)) in members.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                if style.pretty {
                    out.push_str("\n  ");
                }
                write_comment(style, out);
                if style.bare_keys && is_bare_key(key) {
                    out.push_str(key);
                } else {
                    write_string(key, quote, out);
                }
                out.push_str(": ");
                write_value(value, style, out);
            }
            if style.trailing_commas && !members.is_empty() {
                out.push(',');
            }
            if style.pretty {
                out.push('\n');
            }
            out.push('}');
        }
    }
}

/// The text of `value`: strict JSON or one of the lenient forms.
fn render(u: &mut Unstructured<'_>, value: &Value) -> String {
    match pick(u, 4) {
        0 => value.to_string(),
        1 => serde_json::to_string_pretty(value).expect("serialize"),
        _ => {
            let style = Style {
                single_quotes: coin(u),
                python: coin(u),
                bare_keys: coin(u),
                trailing_commas: coin(u),
                comments: pick(u, 4) as u8,
                pretty: coin(u),
            };
            let mut out = String::new();
            write_value(value, style, &mut out);
            out
        }
    }
}

/// Characters that may open or close a value, a string, or a fence: junk holding none of
/// them cannot put an object inside another value or a string.
pub const STRUCTURAL: [char; 8] = ['{', '}', '[', ']', '"', '\'', '`', '\\'];

impl Text {
    pub fn build(u: &mut Unstructured<'_>) -> Text {
        let mut text = String::new();
        let mut pieces = Vec::new();
        let count = 1 + pick(u, 10);
        for _ in 0..count {
            let start = text.len();
            let kind = match pick(u, 16) {
                0..=3 => {
                    let value = object_value(u, 0);
                    text.push_str(&render(u, &value));
                    Kind::Object(value)
                }
                4 => {
                    text.push_str("{}");
                    Kind::Object(json!({}))
                }
                5 => {
                    text.push_str(FENCES[pick(u, FENCES.len())]);
                    Kind::FenceOpen
                }
                6 => {
                    text.push_str(if coin(u) { "\n```" } else { "```" });
                    Kind::FenceClose
                }
                7 | 8 => {
                    text.push_str(PROSE[pick(u, PROSE.len())]);
                    Kind::Prose
                }
                9 => {
                    text.push_str(&format!("[{}]", pick(u, 12)));
                    Kind::Prose
                }
                10 => {
                    let length = pick(u, 24);
                    let bytes = u.bytes(length).unwrap_or_default();
                    text.push_str(&String::from_utf8_lossy(bytes));
                    Kind::Junk
                }
                11 => {
                    text.push_str(BARE[pick(u, BARE.len())]);
                    Kind::Bare
                }
                12 => {
                    text.push_str(EXPRESSIONS[pick(u, EXPRESSIONS.len())]);
                    Kind::Expression
                }
                13 => {
                    let value = object_value(u, 0);
                    text.push_str(&Value::String(value.to_string()).to_string());
                    Kind::DoubleEncoded
                }
                _ => {
                    text.push_str(SPACES[pick(u, SPACES.len())]);
                    Kind::Space
                }
            };
            pieces.push(Piece {
                kind,
                start,
                end: text.len(),
            });
        }
        let mut cut = None;
        if pick(u, 6) == 0 && !text.is_empty() {
            let mut at = pick(u, text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.truncate(at);
            cut = Some(at);
            pieces.retain(|piece| piece.start < at || (piece.start == at && at == 0));
        }
        Text { text, pieces, cut }
    }

    /// A text taken as it is: one junk piece (so no invariant that needs the pieces applies).
    pub fn raw(text: &str) -> Text {
        Text {
            text: text.to_owned(),
            pieces: vec![Piece {
                kind: Kind::Junk,
                start: 0,
                end: text.len(),
            }],
            cut: None,
        }
    }

    /// Whether a piece is whole (not cut off).
    pub fn complete(&self, piece: &Piece) -> bool {
        piece.end <= self.text.len()
    }

    /// Whether nothing in the text can put one piece inside another value or a string:
    /// no junk with structural characters, nothing double-encoded, nothing cut off.
    pub fn inert(&self) -> bool {
        self.pieces.iter().all(|piece| match piece.kind {
            Kind::Junk => {
                !self.text[piece.start..piece.end.min(self.text.len())].contains(STRUCTURAL)
            }
            Kind::DoubleEncoded => false,
            _ => self.complete(piece),
        })
    }

    /// Whether the first word after a fence marker (up to white space or the line's end)
    /// holds JSON punctuation or a backtick (finding T3b: that word is skipped as the info
    /// string, a value in it included, and "```{...}```" on one line opens a fence).
    pub fn value_in_fence_info_word(&self) -> bool {
        let mut from = 0;
        while let Some(found) = self.text[from..].find("```") {
            let after = from + found + 3;
            let word_end = self.text[after..]
                .find(char::is_whitespace)
                .map_or(self.text.len(), |n| after + n);
            if self.text[after..word_end].contains(['{', '}', '[', ']', '`']) {
                return true;
            }
            from = after;
        }
        false
    }

    /// The complete objects (their values), in text order.
    pub fn objects(&self) -> Vec<&Value> {
        self.pieces
            .iter()
            .filter(|piece| self.complete(piece))
            .filter_map(|piece| match &piece.kind {
                Kind::Object(value) => Some(value),
                _ => None,
            })
            .collect()
    }

    /// When the text is exactly one fence (white space around it allowed) whose body holds
    /// no fence marker: the body.
    pub fn only_fence_body(&self) -> Option<&str> {
        if self.cut.is_some() {
            return None;
        }
        let solid: Vec<&Piece> = self
            .pieces
            .iter()
            .filter(|piece| piece.kind != Kind::Space)
            .collect();
        let (first, last) = (solid.first()?, solid.last()?);
        if first.kind != Kind::FenceOpen || last.kind != Kind::FenceClose || solid.len() < 2 {
            return None;
        }
        // White space pieces before the fence and after it only.
        let outside_ok = self.pieces.iter().all(|piece| {
            piece.kind != Kind::Space
                || piece.end <= first.start
                || piece.start >= last.end
                || (piece.start >= first.end && piece.end <= last.start)
        });
        if !outside_ok {
            return None;
        }
        // The opening line ends at its first newline: the body starts after it.
        let open = &self.text[first.start..first.end];
        let body_start = first.start + open.find('\n')? + 1;
        let close = &self.text[last.start..last.end];
        let body_end = last.start + close.find("```")?;
        let body = self.text.get(body_start..body_end)?;
        // No marker inside the body, nor one that starts in it and ends in the close.
        let closed = format!("{body}```");
        (closed.find("```") == Some(body.len())).then_some(body)
    }
}

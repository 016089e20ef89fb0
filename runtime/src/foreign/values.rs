//! Values and paths as other libraries write them: Python literals (`'ten'`, `True`, `[]`),
//! dotted and bracketed paths (`items[1].qty`, `items.1.qty`), JSON Pointers (`/items/1/qty`),
//! Python subscripts (`['items'][1]['qty']`) and location arrays (`["body", "items", 1]`).

use serde_json::{Number, Value};
use toolgate_core::Path;

/// Deepest literal read (a Python repr nested deeper is left unread).
const MAX_LITERAL_DEPTH: usize = 16;

/// A number as JSON, keeping its digits: an integer when it is one a JSON value holds
/// (`i64`, `u64`), a float when the float keeps the digits (`0.1`, `2.5e3`); any other
/// number (`18446744073709551617`, `9007199254740993.5`) stays its text, a string, since
/// a float would change it. `None` when not a number.
pub(crate) fn number(text: &str) -> Option<Value> {
    let text = text.trim();
    if let Ok(integer) = text.parse::<i64>() {
        return Some(Value::from(integer));
    }
    if let Ok(integer) = text.parse::<u64>() {
        return Some(Value::from(integer));
    }
    let float: f64 = text.parse().ok().filter(|f: &f64| f.is_finite())?;
    match toolgate_core::num::float_keeping_digits(text) {
        Some(_) => Number::from_f64(float).map(Value::Number),
        None => Some(Value::String(text.to_owned())),
    }
}

/// A literal as Python's `repr` or JavaScript writes it: strings in single or double quotes,
/// numbers, `True`/`False`/`None` (and `true`/`false`/`null`/`undefined`), lists and dicts.
/// `None` when the text is not one literal.
pub(crate) fn literal(text: &str) -> Option<Value> {
    let mut reader = Literal {
        text: text.trim().as_bytes(),
        at: 0,
    };
    let value = reader.value(0)?;
    reader.skip_space();
    (reader.at == reader.text.len()).then_some(value)
}

struct Literal<'t> {
    text: &'t [u8],
    at: usize,
}

impl Literal<'_> {
    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_space();
        if self.text.get(self.at) == Some(&byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_LITERAL_DEPTH {
            return None;
        }
        self.skip_space();
        match *self.text.get(self.at)? {
            quote @ (b'\'' | b'"') => self.string(quote).map(Value::String),
            b'[' | b'(' => {
                let close = if self.text[self.at] == b'[' {
                    b']'
                } else {
                    b')'
                };
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(close) {
                    return Some(Value::Array(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    if self.eat(close) {
                        return Some(Value::Array(items));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                    if self.eat(close) {
                        return Some(Value::Array(items));
                    }
                }
            }
            b'{' => {
                self.at += 1;
                let mut members = serde_json::Map::new();
                if self.eat(b'}') {
                    return Some(Value::Object(members));
                }
                loop {
                    let key = match self.value(depth + 1)? {
                        Value::String(key) => key,
                        other => other.to_string(),
                    };
                    if !self.eat(b':') {
                        return None;
                    }
                    members.insert(key, self.value(depth + 1)?);
                    if self.eat(b'}') {
                        return Some(Value::Object(members));
                    }
                    if !self.eat(b',') {
                        return None;
                    }
                }
            }
            _ => {
                let start = self.at;
                while self.text.get(self.at).is_some_and(|b| {
                    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.' | b'_')
                }) {
                    self.at += 1;
                }
                let word = std::str::from_utf8(&self.text[start..self.at]).ok()?;
                match word {
                    "True" | "true" => Some(Value::Bool(true)),
                    "False" | "false" => Some(Value::Bool(false)),
                    "None" | "null" | "undefined" => Some(Value::Null),
                    _ => number(word),
                }
            }
        }
    }

    fn string(&mut self, quote: u8) -> Option<String> {
        self.at += 1;
        let mut bytes = Vec::new();
        loop {
            let byte = *self.text.get(self.at)?;
            self.at += 1;
            match byte {
                b'\\' => {
                    let escaped = *self.text.get(self.at)?;
                    self.at += 1;
                    bytes.push(match escaped {
                        b'n' => b'\n',
                        b't' => b'\t',
                        b'r' => b'\r',
                        other => other,
                    });
                }
                byte if byte == quote => return String::from_utf8(bytes).ok(),
                byte => bytes.push(byte),
            }
        }
    }
}

/// A path written with dots and brackets (`items[1].qty`, `items.1.qty`, `contact.phone`),
/// as a JSON Pointer (`/items/1/qty`, `#/items/1/qty`), or with slashes (`items/1/qty`).
/// An all-digit member is an index.
pub(crate) fn path(text: &str) -> Path {
    let text = text.trim();
    let text = text.strip_prefix('#').unwrap_or(text);
    let mut path = Path::root();
    if text.is_empty() || text == "." || text == "/" {
        return path;
    }
    if text.starts_with('/') || (text.contains('/') && !text.contains('.')) {
        for token in text.trim_start_matches('/').split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            path = member(path, &token);
        }
        return path;
    }
    for part in text.split('.') {
        let (name, indices) = match part.find('[') {
            Some(bracket) => part.split_at(bracket),
            None => (part, ""),
        };
        if !name.is_empty() {
            path = member(path, name);
        }
        for index in indices.split('[').filter(|i| !i.is_empty()) {
            let index = index.trim_end_matches(']');
            let unquoted = index.trim_matches(|c| c == '\'' || c == '"');
            path = member(path, unquoted);
        }
    }
    path
}

/// A Python subscript chain: `['items'][1]['qty']` (what python-jsonschema writes after
/// `instance`).
pub(crate) fn subscripts(text: &str) -> Path {
    let mut path = Path::root();
    for part in text.split('[').skip(1) {
        let part = part.trim_end().trim_end_matches(']');
        path = match literal(part) {
            Some(Value::String(key)) => path.key(key),
            Some(Value::Number(n)) => match n.as_u64().and_then(|i| usize::try_from(i).ok()) {
                Some(index) => path.index(index),
                None => path.key(n.to_string()),
            },
            _ => path.key(part),
        };
    }
    path
}

/// A location array: strings are keys, integers indices.
pub(crate) fn location(items: &[Value]) -> Path {
    items.iter().fold(Path::root(), |path, item| match item {
        Value::Number(n) => match n.as_u64().and_then(|i| usize::try_from(i).ok()) {
            Some(index) => path.index(index),
            None => path.key(n.to_string()),
        },
        Value::String(key) => path.key(key.clone()),
        other => path.key(other.to_string()),
    })
}

fn member(path: Path, token: &str) -> Path {
    match token.parse::<usize>() {
        Ok(index) if !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit()) => {
            path.index(index)
        }
        _ => path.key(token.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn python_literals_read_as_json() {
        assert_eq!(literal("'ten'"), Some(json!("ten")));
        assert_eq!(literal("\"it's\""), Some(json!("it's")));
        assert_eq!(literal("[]"), Some(json!([])));
        assert_eq!(
            literal("{'a': [1, 2.5, True, None]}"),
            Some(json!({"a": [1, 2.5, true, null]}))
        );
        assert_eq!(literal("-3"), Some(json!(-3)));
        assert_eq!(literal("'a' b"), None);
        assert_eq!(literal(&"[".repeat(1_000)), None);
    }

    #[test]
    fn paths_read_in_every_spelling() {
        for text in [
            "items[1].qty",
            "items.1.qty",
            "/items/1/qty",
            "#/items/1/qty",
            "items/1/qty",
        ] {
            assert_eq!(path(text).to_string(), "items[1].qty", "{text}");
        }
        assert_eq!(
            subscripts("['items'][1]['qty']").to_string(),
            "items[1].qty"
        );
        assert_eq!(
            location(&[json!("items"), json!(1), json!("qty")]).to_string(),
            "items[1].qty"
        );
        assert!(path("").is_root());
    }
}

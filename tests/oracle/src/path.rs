//! Where a value sits inside the arguments: [`Path`] and its [`Segment`]s.
//!
//! A path displays the way a developer would write it in code: identifier-like keys joined
//! by `.`, array indices in brackets, any other key as a bracketed JSON string —
//! `contact.email`, `options[1].label`, `headers["Content-Type"]`. The root displays as the
//! empty string. [`Path::to_json_pointer`] gives the RFC 6901 form.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One step from a value into one of its children.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Segment {
    /// A member of an object, by its key (the wire name).
    Key(String),
    /// An element of an array, by its index.
    Index(usize),
}

/// The location of a value from the arguments' root.
///
/// ```
/// use toolgate_core::Path;
///
/// let path = Path::root().key("options").index(1).key("label");
/// assert_eq!(path.to_string(), "options[1].label");
/// assert_eq!(path.to_json_pointer(), "/options/1/label");
/// assert_eq!(Path::root().key("headers").key("Content-Type").to_string(), r#"headers["Content-Type"]"#);
/// assert_eq!("options[1].label".parse::<Path>().unwrap(), path);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Path {
    segments: Vec<Segment>,
}

impl Path {
    /// The root of the arguments (displays as `""`).
    pub fn root() -> Self {
        Self::default()
    }

    /// This path extended by an object key.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.segments.push(Segment::Key(key.into()));
        self
    }

    /// This path extended by an array index.
    pub fn index(mut self, index: usize) -> Self {
        self.segments.push(Segment::Index(index));
        self
    }

    /// Appends a segment in place.
    pub fn push(&mut self, segment: Segment) {
        self.segments.push(segment);
    }

    /// Removes and returns the last segment.
    pub fn pop(&mut self) -> Option<Segment> {
        self.segments.pop()
    }

    /// The segments, from the root outwards.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Whether this is the root.
    pub fn is_root(&self) -> bool {
        self.segments.is_empty()
    }

    /// The path of the parent value, or `None` at the root.
    pub fn parent(&self) -> Option<Path> {
        let (_, rest) = self.segments.split_last()?;
        Some(Path {
            segments: rest.to_vec(),
        })
    }

    /// The last segment, if any.
    pub fn last(&self) -> Option<&Segment> {
        self.segments.last()
    }

    /// The RFC 6901 JSON Pointer of this path (`""` for the root, `/contact/email` otherwise).
    pub fn to_json_pointer(&self) -> String {
        let mut pointer = String::new();
        for segment in &self.segments {
            pointer.push('/');
            match segment {
                Segment::Key(key) => pointer.push_str(&escape_pointer_token(key)),
                Segment::Index(index) => pointer.push_str(&index.to_string()),
            }
        }
        pointer
    }
}

/// Most segments a path shows in an answer (an issue, a repair, a hint): a deeper path shows
/// its first [`SHOWN_SEGMENTS`]` / 2` segments, one `"…"` key standing for those left out,
/// and its last segments, [`SHOWN_SEGMENTS`] in all. The path itself is kept whole; only
/// what is written is shortened.
pub const SHOWN_SEGMENTS: usize = 16;

impl Path {
    /// This path with every key longer than [`crate::issue::GOT_MAX_CHARS`] characters cut
    /// there, ending in `…` ([`crate::issue::shorten_name`]): how the path of an issue or a
    /// repair is kept, so that a key of a megabyte is not copied into every issue below it.
    pub fn with_short_keys(mut self) -> Path {
        for segment in &mut self.segments {
            if let Segment::Key(key) = segment {
                if crate::issue::is_long_name(key) {
                    *key = crate::issue::shorten_name(key);
                }
            }
        }
        self
    }

    /// The path as an answer shows it: itself when it has at most [`SHOWN_SEGMENTS`]
    /// segments, else its first and last segments around one `"…"` key.
    ///
    /// ```
    /// use toolgate_core::Path;
    ///
    /// let deep: Path = (0..40).map(toolgate_core::Segment::Index).collect();
    /// let shown = deep.shown();
    /// assert_eq!(shown.segments().len(), toolgate_core::path::SHOWN_SEGMENTS);
    /// assert_eq!(shown.to_string(), "[0][1][2][3][4][5][6][7][\"…\"][33][34][35][36][37][38][39]");
    /// ```
    pub fn shown(&self) -> std::borrow::Cow<'_, Path> {
        if self.segments.len() <= SHOWN_SEGMENTS {
            return std::borrow::Cow::Borrowed(self);
        }
        let head = SHOWN_SEGMENTS / 2;
        let tail = SHOWN_SEGMENTS - head - 1;
        let mut segments = Vec::with_capacity(SHOWN_SEGMENTS);
        segments.extend_from_slice(&self.segments[..head]);
        segments.push(Segment::Key("…".to_owned()));
        segments.extend_from_slice(&self.segments[self.segments.len() - tail..]);
        std::borrow::Cow::Owned(Path { segments })
    }
}

/// Serialises a path as [`Path::shown`] writes it: the `path` of an issue, a repair and a
/// hint's field.
pub(crate) fn serialize_shown<S: Serializer>(
    path: &Path,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    path.shown().serialize(serializer)
}

impl From<Vec<Segment>> for Path {
    fn from(segments: Vec<Segment>) -> Self {
        Path { segments }
    }
}

impl FromIterator<Segment> for Path {
    fn from_iter<I: IntoIterator<Item = Segment>>(iter: I) -> Self {
        Path {
            segments: iter.into_iter().collect(),
        }
    }
}

/// Whether `key` can be written after a `.` (an identifier: `[A-Za-z_][A-Za-z0-9_]*`).
pub(crate) fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, segment) in self.segments.iter().enumerate() {
            match segment {
                Segment::Key(key) if is_identifier(key) => {
                    if position > 0 {
                        f.write_str(".")?;
                    }
                    f.write_str(key)?;
                }
                Segment::Key(key) => {
                    let quoted = serde_json::to_string(key).map_err(|_| fmt::Error)?;
                    write!(f, "[{quoted}]")?;
                }
                Segment::Index(index) => write!(f, "[{index}]")?,
            }
        }
        Ok(())
    }
}

/// The text is not a path as [`Path`]'s `Display` writes it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a path: {text:?} ({reason})")]
pub struct PathParseError {
    text: String,
    reason: &'static str,
}

impl FromStr for Path {
    type Err = PathParseError;

    /// Reads the display form back: `contact.email`, `options[1].label`, `a["b c"]`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = |reason| PathParseError {
            text: text.to_owned(),
            reason,
        };
        let mut segments = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('[') {
                if after.starts_with('"') {
                    // A JSON string: find its end by letting serde_json read one value.
                    let mut stream =
                        serde_json::Deserializer::from_str(after).into_iter::<String>();
                    let key = match stream.next() {
                        Some(Ok(key)) => key,
                        _ => return Err(error("unterminated quoted key")),
                    };
                    let consumed = stream.byte_offset();
                    rest = after[consumed..]
                        .strip_prefix(']')
                        .ok_or_else(|| error("expected `]` after a quoted key"))?;
                    segments.push(Segment::Key(key));
                } else {
                    let end = after.find(']').ok_or_else(|| error("expected `]`"))?;
                    let index = after[..end]
                        .parse::<usize>()
                        .map_err(|_| error("expected an index or a quoted key in brackets"))?;
                    segments.push(Segment::Index(index));
                    rest = &after[end + 1..];
                }
            } else {
                let body = if segments.is_empty() {
                    rest
                } else {
                    rest.strip_prefix('.')
                        .ok_or_else(|| error("expected `.` or `[` between segments"))?
                };
                let end = body.find(['.', '[']).unwrap_or(body.len());
                let key = &body[..end];
                if !is_identifier(key) {
                    return Err(error("a key after `.` must be an identifier"));
                }
                segments.push(Segment::Key(key.to_owned()));
                rest = &body[end..];
            }
        }
        Ok(Path { segments })
    }
}

impl Serialize for Path {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Path {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A key as one RFC 6901 JSON Pointer token: `~` becomes `~0`, `/` becomes `~1`.
///
/// ```
/// assert_eq!(toolgate_core::path::escape_pointer_token("a/b~c"), "a~1b~0c");
/// ```
pub fn escape_pointer_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_as_code_would_write_it() {
        assert_eq!(Path::root().to_string(), "");
        assert_eq!(
            Path::root().key("contact").key("email").to_string(),
            "contact.email"
        );
        assert_eq!(Path::root().index(2).to_string(), "[2]");
        assert_eq!(
            Path::root().key("a").index(0).index(1).to_string(),
            "a[0][1]"
        );
        assert_eq!(Path::root().key("año").to_string(), r#"["año"]"#);
        assert_eq!(Path::root().key("").to_string(), r#"[""]"#);
        assert_eq!(Path::root().key("x").key("2nd").to_string(), r#"x["2nd"]"#);
        assert_eq!(Path::root().key("q\"").to_string(), r#"["q\""]"#);
    }

    #[test]
    fn json_pointer_escapes() {
        assert_eq!(Path::root().to_json_pointer(), "");
        assert_eq!(
            Path::root()
                .key("a/b")
                .key("m~n")
                .index(3)
                .to_json_pointer(),
            "/a~1b/m~0n/3"
        );
    }

    #[test]
    fn parses_what_it_displays() {
        let paths = [
            Path::root(),
            Path::root().key("contact").key("email"),
            Path::root().key("options").index(1).key("label"),
            Path::root().key("headers").key("Content-Type"),
            Path::root().index(0).key("a]b").key("\"").index(7),
            Path::root().key("").key("x.y"),
        ];
        for path in paths {
            let text = path.to_string();
            assert_eq!(text.parse::<Path>().unwrap(), path, "{text}");
            let json = serde_json::to_string(&path).unwrap();
            assert_eq!(serde_json::from_str::<Path>(&json).unwrap(), path);
        }
    }

    #[test]
    fn rejects_malformed_text() {
        for text in [
            "a..b", ".a", "a[", "a[x]", "a[\"b]", "a b", "a.[0]", "a[0]b",
        ] {
            assert!(text.parse::<Path>().is_err(), "{text}");
        }
    }

    #[test]
    fn parent_and_last() {
        let path = Path::root().key("a").index(1);
        assert_eq!(path.parent(), Some(Path::root().key("a")));
        assert_eq!(path.last(), Some(&Segment::Index(1)));
        assert_eq!(Path::root().parent(), None);
    }
}

//! Refusals as data: [`Issue`], the [`Constraint`] it broke, and the [`Report`] that holds
//! every issue of one value.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Path;

/// The rule an [`Issue`] broke, named by its JSON Schema keyword.
///
/// Besides the JSON Schema keywords there are three of toolgate's own: `syntax` (the text is
/// not JSON, even after repair, or it is cut off), `schema` (the tool's own schema cannot be
/// used) and `limit` (a limit of toolgate's was reached: the issue cap, nesting depth or
/// argument size; DESIGN.md does not name this one, so it is documented here).
///
/// ```
/// use toolgate_core::Constraint;
///
/// assert_eq!(Constraint::ExclusiveMinimum.as_str(), "exclusiveMinimum");
/// assert_eq!("uniqueItems".parse::<Constraint>(), Ok(Constraint::UniqueItems));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Constraint {
    /// A required field is absent.
    Required,
    /// The value has the wrong JSON type.
    Type,
    /// The value is not one of the allowed values.
    Enum,
    /// The value is not the one allowed value.
    Const,
    /// A number is below `minimum`.
    Minimum,
    /// A number is above `maximum`.
    Maximum,
    /// A number is not above `exclusiveMinimum`.
    ExclusiveMinimum,
    /// A number is not below `exclusiveMaximum`.
    ExclusiveMaximum,
    /// A number is not a multiple of `multipleOf`.
    MultipleOf,
    /// A string is shorter than `minLength` characters.
    MinLength,
    /// A string is longer than `maxLength` characters.
    MaxLength,
    /// A string does not match `pattern`.
    Pattern,
    /// A string is not of the `format`.
    Format,
    /// An array has fewer than `minItems` elements.
    MinItems,
    /// An array has more than `maxItems` elements.
    MaxItems,
    /// An array holds equal elements.
    UniqueItems,
    /// An object holds a key its schema does not allow.
    AdditionalProperties,
    /// An object holds a key that does not meet `propertyNames` (the issue is at the key's
    /// path; `expected` is what the key schema's failing keyword wanted, `got` the key).
    PropertyNames,
    /// A value matches none, or more than one, of the `oneOf` alternatives.
    OneOf,
    /// A value matches none of the `anyOf` alternatives.
    AnyOf,
    /// The text is not JSON, even after repair, or it is cut off.
    Syntax,
    /// The tool's own schema cannot be used.
    Schema,
    /// A limit of toolgate's was reached (issue count, nesting depth, argument size).
    Limit,
    /// A rule of the tool's own that names no JSON Schema keyword, known by its message only:
    /// what a tool's error text says when the foreign-error parsers cannot map it to a
    /// keyword ("insufficient funds").
    Custom,
}

impl Constraint {
    /// Every constraint, in declaration order.
    pub const ALL: [Constraint; 24] = [
        Self::Required,
        Self::Type,
        Self::Enum,
        Self::Const,
        Self::Minimum,
        Self::Maximum,
        Self::ExclusiveMinimum,
        Self::ExclusiveMaximum,
        Self::MultipleOf,
        Self::MinLength,
        Self::MaxLength,
        Self::Pattern,
        Self::Format,
        Self::MinItems,
        Self::MaxItems,
        Self::UniqueItems,
        Self::AdditionalProperties,
        Self::PropertyNames,
        Self::OneOf,
        Self::AnyOf,
        Self::Syntax,
        Self::Schema,
        Self::Limit,
        Self::Custom,
    ];

    /// The keyword as JSON Schema spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Required => "required",
            Self::Type => "type",
            Self::Enum => "enum",
            Self::Const => "const",
            Self::Minimum => "minimum",
            Self::Maximum => "maximum",
            Self::ExclusiveMinimum => "exclusiveMinimum",
            Self::ExclusiveMaximum => "exclusiveMaximum",
            Self::MultipleOf => "multipleOf",
            Self::MinLength => "minLength",
            Self::MaxLength => "maxLength",
            Self::Pattern => "pattern",
            Self::Format => "format",
            Self::MinItems => "minItems",
            Self::MaxItems => "maxItems",
            Self::UniqueItems => "uniqueItems",
            Self::AdditionalProperties => "additionalProperties",
            Self::PropertyNames => "propertyNames",
            Self::OneOf => "oneOf",
            Self::AnyOf => "anyOf",
            Self::Syntax => "syntax",
            Self::Schema => "schema",
            Self::Limit => "limit",
            Self::Custom => "custom",
        }
    }
}

impl fmt::Display for Constraint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Constraint {
    type Err = UnknownConstraint;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|constraint| constraint.as_str() == text)
            .ok_or_else(|| UnknownConstraint(text.to_owned()))
    }
}

/// The text names no [`Constraint`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown constraint {0:?}")]
pub struct UnknownConstraint(pub String);

/// One thing wrong with a value: where, which rule, what was wanted and what came.
///
/// Displays as `path: message` (just the message at the root); serialises as
/// `{"path", "constraint", "expected", "got", "message"}`, leaving out `expected` and `got`
/// when they do not apply (`got` is absent for `required`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Issue {
    /// Where the offending value is (for `required`, where the missing one should be).
    pub path: Path,
    /// The rule that failed.
    pub constraint: Constraint,
    /// What the rule wanted: a type name, the list of allowed values, a bound, a pattern, a
    /// format name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Value>,
    /// The offending value, shortened when long (see [`shorten`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub got: Option<Value>,
    /// A short sentence saying what is wrong, without the path.
    pub message: String,
    /// The "did you mean" the check found while it wrote the message (`Some(None)`: it looked
    /// and found none; `None`: it did not look), so the retry hint does not search again.
    /// Not part of the issue's JSON, nor of its equality: it is what the message says.
    #[serde(skip)]
    pub(crate) did_you_mean: Option<Option<String>>,
}

/// Issues are equal when everything they say is: the "did you mean" kept for the hint is
/// what the message already says.
impl PartialEq for Issue {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
            && self.constraint == other.constraint
            && self.expected == other.expected
            && self.got == other.got
            && self.message == other.message
    }
}

impl Issue {
    /// An issue with neither `expected` nor `got`; add them with the `with_` methods.
    pub fn new(path: Path, constraint: Constraint, message: impl Into<String>) -> Self {
        Issue {
            path,
            constraint,
            expected: None,
            got: None,
            message: message.into(),
            did_you_mean: None,
        }
    }

    /// Keeps the "did you mean" the check found (or that it found none) for the hint.
    pub(crate) fn with_did_you_mean(mut self, near: Option<&str>) -> Self {
        self.did_you_mean = Some(near.map(str::to_owned));
        self
    }

    /// Sets what the rule wanted.
    pub fn with_expected(mut self, expected: Value) -> Self {
        self.expected = Some(expected);
        self
    }

    /// Sets the offending value, shortened when long.
    pub fn with_got(mut self, got: Value) -> Self {
        self.got = Some(shorten(got));
        self
    }
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_root() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// Longest compact JSON text of a `got` value kept as it is.
pub const GOT_MAX_CHARS: usize = 80;

/// Shortens a value for [`Issue::got`]: a string longer than [`GOT_MAX_CHARS`] characters is
/// cut there and ends in `…`; an array or object whose JSON text is longer becomes that text,
/// cut the same way, as a string. Everything else is kept.
///
/// ```
/// use serde_json::json;
/// use toolgate_core::issue::shorten;
///
/// assert_eq!(shorten(json!("short")), json!("short"));
/// let long = shorten(json!("x".repeat(200)));
/// assert_eq!(long.as_str().unwrap().chars().count(), 81);
/// ```
pub fn shorten(value: Value) -> Value {
    match &value {
        Value::String(text) => cut(text).map(Value::String).unwrap_or(value),
        Value::Array(_) | Value::Object(_) => match capped_json_text(&value) {
            Some(long) => Value::String(long),
            None => value,
        },
        _ => value,
    }
}

/// Appends `value` as JSON text to `out`, as `Value`'s `Display` writes it; a string with
/// nothing to escape (nearly every name and enum value) is copied between its quotes
/// without going through the serializer.
pub(crate) fn push_json(out: &mut String, value: &Value) {
    match value {
        Value::String(text) if !text.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) => {
            out.reserve(text.len() + 2);
            out.push('"');
            out.push_str(text);
            out.push('"');
        }
        _ => {
            use std::fmt::Write as _;
            let _ = write!(out, "{value}");
        }
    }
}

/// [`shorten`] of a string, without copying more of it than is kept.
pub(crate) fn shorten_str(text: &str) -> Value {
    Value::String(cut(text).unwrap_or_else(|| text.to_owned()))
}

/// [`shorten`] of an order-keeping tree, without writing more of it than is kept: the tree
/// as a value when its text is short, else that text cut.
pub(crate) fn shorten_json(json: &crate::model::Json) -> Value {
    match json {
        crate::model::Json::Array(_) | crate::model::Json::Object(_) => {
            match capped_json_text(json) {
                Some(long) => Value::String(long),
                None => json.to_value(),
            }
        }
        crate::model::Json::String(text) => shorten_str(text),
        scalar => scalar.to_value(),
    }
}

/// The compact JSON text of `value`, longer than [`GOT_MAX_CHARS`], cut there and ending in
/// `…`; `None` when the text is that short. At most a few hundred bytes are written, however
/// large the value (a repair of a megabyte array does not print the megabyte to log it).
pub(crate) fn capped_json_text(value: &impl serde::Serialize) -> Option<String> {
    cut(CappedText::of(value).text())
}

/// The compact JSON text of `value`, cut as [`capped_json_text`] cuts it when it is long,
/// whole when it is short: written once either way.
pub(crate) fn compact_json_text(value: &impl serde::Serialize) -> String {
    let written = CappedText::of(value);
    let text = written.text();
    cut(text).unwrap_or_else(|| text.to_owned())
}

/// The start of a value's compact JSON text: bytes until there are enough for
/// `GOT_MAX_CHARS + 1` characters, then the writing stops. Shorter, it is the whole text.
struct CappedText(Vec<u8>);

impl CappedText {
    const CAP: usize = (GOT_MAX_CHARS + 1) * 4;

    fn of(value: &impl serde::Serialize) -> Self {
        let mut capped = CappedText(Vec::with_capacity(GOT_MAX_CHARS + 1));
        // An error only says the cap was reached: what was written is the start of the text.
        let _ = serde_json::to_writer(&mut capped, value);
        capped
    }

    fn text(&self) -> &str {
        match std::str::from_utf8(&self.0) {
            Ok(text) => text,
            // Cut inside a character at the cap: its start is whole.
            Err(error) => std::str::from_utf8(&self.0[..error.valid_up_to()]).unwrap_or_default(),
        }
    }
}

impl std::io::Write for CappedText {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let room = Self::CAP - self.0.len();
        if room == 0 {
            return Err(std::io::Error::other("long enough"));
        }
        let taken = room.min(bytes.len());
        self.0.extend_from_slice(&bytes[..taken]);
        Ok(taken)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `text` cut after [`GOT_MAX_CHARS`] characters, ending in `…`; `None` when it is that short.
/// `text` cut at `max` characters, ending in `…` when cut: how a message, a name or an error
/// text is kept within a bound.
///
/// ```
/// use toolgate_core::issue::shorten_text;
///
/// assert_eq!(shorten_text("abc", 3), "abc");
/// assert_eq!(shorten_text("abcd", 3), "abc…");
/// ```
pub fn shorten_text(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

fn cut(text: &str) -> Option<String> {
    // No more bytes than the characters kept: no more characters either.
    if text.len() <= GOT_MAX_CHARS {
        return None;
    }
    let (end, _) = text.char_indices().nth(GOT_MAX_CHARS)?;
    Some(format!("{}…", &text[..end]))
}

/// Every issue of one value, in document order, up to a cap.
///
/// When more issues come than the cap allows, the report keeps the first `cap` and ends with
/// one more issue (constraint `limit`, at the root) saying how many were left out, so a report
/// never holds more than `cap + 1` issues. The default cap is [`Report::DEFAULT_CAP`].
///
/// ```
/// use toolgate_core::{Constraint, Issue, Path, Report};
///
/// let mut report = Report::with_cap(2);
/// for index in 0..5 {
///     report.push(Issue::new(Path::root().index(index), Constraint::Type, "expected a string"));
/// }
/// assert_eq!(report.len(), 3);
/// assert_eq!(report.issues()[2].constraint, Constraint::Limit);
/// assert_eq!(report.issues()[2].message, "3 more issues not shown");
/// assert_eq!(report.to_string().lines().count(), 3);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    issues: Vec<Issue>,
    cap: usize,
    left_out: usize,
}

impl Default for Report {
    fn default() -> Self {
        Self::with_cap(Self::DEFAULT_CAP)
    }
}

impl Report {
    /// The default number of issues kept.
    pub const DEFAULT_CAP: usize = 100;

    /// An empty report with the default cap.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty report keeping at most `cap` issues (at least one).
    pub fn with_cap(cap: usize) -> Self {
        Report {
            issues: Vec::new(),
            cap: cap.max(1),
            left_out: 0,
        }
    }

    /// Adds an issue, or counts it in the closing `limit` issue once the cap is reached.
    pub fn push(&mut self, issue: Issue) {
        if self.issues.len() < self.cap {
            self.issues.push(issue);
            return;
        }
        self.left_out += 1;
        let summary = Issue::new(
            Path::root(),
            Constraint::Limit,
            format!(
                "{} more issue{} not shown",
                self.left_out,
                if self.left_out == 1 { "" } else { "s" }
            ),
        )
        .with_expected(Value::from(self.cap))
        .with_got(Value::from(self.cap + self.left_out));
        if self.left_out == 1 {
            self.issues.push(summary);
        } else if let Some(last) = self.issues.last_mut() {
            *last = summary;
        }
    }

    /// Whether the report holds all the issues it keeps: a further one is only counted.
    pub fn is_full(&self) -> bool {
        self.issues.len() >= self.cap
    }

    /// The issues, in document order (the `limit` summary last, if any).
    pub fn issues(&self) -> &[Issue] {
        &self.issues
    }

    /// The issues, in document order.
    pub fn iter(&self) -> std::slice::Iter<'_, Issue> {
        self.issues.iter()
    }

    /// Number of issues held (including a `limit` summary).
    pub fn len(&self) -> usize {
        self.issues.len()
    }

    /// Whether nothing is wrong.
    pub fn is_empty(&self) -> bool {
        self.issues.is_empty()
    }

    /// The most issues kept.
    pub fn cap(&self) -> usize {
        self.cap
    }

    /// How many issues the cap left out.
    pub fn left_out(&self) -> usize {
        self.left_out
    }

    /// `Ok(())` when empty, the report otherwise.
    pub fn into_result(self) -> Result<(), Report> {
        if self.is_empty() {
            Ok(())
        } else {
            Err(self)
        }
    }

    /// Takes the issues out.
    pub fn into_issues(self) -> Vec<Issue> {
        self.issues
    }

    /// Adds the issues of `other` (a report of a part of the value, kept apart while it was
    /// tried), counting those its cap left out as left out here too.
    pub(crate) fn append(&mut self, other: Report) {
        let left_out = other.left_out;
        let mut issues = other.issues;
        if left_out > 0 {
            // The closing `limit` summary: this report writes its own.
            issues.pop();
        }
        let last = issues.last().cloned();
        for issue in issues {
            self.push(issue);
        }
        if let Some(last) = last {
            for _ in 0..left_out {
                self.push(last.clone());
            }
        }
    }
}

impl fmt::Display for Report {
    /// One issue per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (position, issue) in self.issues.iter().enumerate() {
            if position > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{issue}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Report {}

impl Serialize for Report {
    /// A report serialises as the array of its issues.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.issues.serialize(serializer)
    }
}

impl<'a> IntoIterator for &'a Report {
    type Item = &'a Issue;
    type IntoIter = std::slice::Iter<'a, Issue>;

    fn into_iter(self) -> Self::IntoIter {
        self.issues.iter()
    }
}

#[cfg(test)]
mod tests;

//! Refusals as data: [`Issue`], the [`Constraint`] it broke, and the [`Report`] that holds
//! every issue of one value.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::Path;

mod shorten;

pub(crate) use shorten::{
    compact_json_text, is_long_name, needs_escape, push_json, push_json_shortened,
    shorten_borrowed, shorten_expected_borrowed, shorten_json, shorten_str,
};
pub use shorten::{
    report_max_bytes, shorten, shorten_expected, shorten_name, shorten_ref, shorten_text,
    EXPECTED_MAX_BYTES, GOT_MAX_CHARS, ISSUE_MAX_BYTES, MESSAGE_MAX_CHARS, PATH_MAX_BYTES,
    REPAIR_MAX_BYTES, VALUE_MAX_BYTES,
};

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
    /// Written as [`Path::shown`] writes it (a path deeper than
    /// [`crate::path::SHOWN_SEGMENTS`] shows its ends).
    #[serde(serialize_with = "crate::path::serialize_shown")]
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

    /// Sets what the rule wanted, shortened when long (see [`shorten_expected`]).
    pub fn with_expected(mut self, expected: Value) -> Self {
        self.expected = Some(shorten_expected(expected));
        self
    }

    /// This issue with everything it echoes kept short, whoever made it: every key of its
    /// path ([`Path::with_short_keys`]), `expected` ([`shorten_expected`]), `got`
    /// ([`shorten`]), the message (at most [`MESSAGE_MAX_CHARS`] characters) and the "did
    /// you mean" ([`shorten_name`]). [`Report::push`] keeps every issue so: an issue's JSON is
    /// then at most [`ISSUE_MAX_BYTES`], whatever the schema and the value.
    pub fn bounded(mut self) -> Self {
        if self
            .path
            .segments()
            .iter()
            .any(|segment| matches!(segment, crate::path::Segment::Key(key) if is_long_name(key)))
        {
            self.path = self.path.with_short_keys();
        }
        self.expected = self.expected.map(shorten_expected);
        self.got = self.got.map(shorten);
        if self.message.len() > MESSAGE_MAX_CHARS {
            self.message = shorten_text(&self.message, MESSAGE_MAX_CHARS);
        }
        if let Some(Some(near)) = &mut self.did_you_mean {
            if is_long_name(near) {
                *near = shorten_name(near);
            }
        }
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
            write!(f, "{}: {}", self.path.shown(), self.message)
        }
    }
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

    /// Adds an issue, [`Issue::bounded`], or counts it in the closing `limit` issue once the
    /// cap is reached.
    pub fn push(&mut self, issue: Issue) {
        if self.issues.len() < self.cap {
            self.issues.push(issue.bounded());
            return;
        }
        self.count_left_out();
    }

    /// [`Report::push`] of an issue made short as it was made: every key of its path,
    /// `expected`, `got` and the "did you mean" shortened already (the checks' issues, made
    /// from [`crate::Checker::path`], `with_expected` and `with_got`); only its message is
    /// still cut here. The same issue as `push` keeps, without shortening its parts twice.
    pub(crate) fn push_shortened(&mut self, mut issue: Issue) {
        if self.issues.len() < self.cap {
            if issue.message.len() > MESSAGE_MAX_CHARS {
                issue.message = shorten_text(&issue.message, MESSAGE_MAX_CHARS);
            }
            debug_assert_eq!(issue, issue.clone().bounded());
            self.issues.push(issue);
            return;
        }
        self.count_left_out();
    }

    /// One more issue past the cap: counted in the closing `limit` issue.
    fn count_left_out(&mut self) {
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

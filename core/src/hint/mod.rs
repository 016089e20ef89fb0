//! [`RetryHint`]: the issues of a refusal, capped and phrased so a model can fix its call at
//! a glance.
//!
//! Caps: at most 3 `missing_fields`, at most 3 `fields` (one per path: the first issue at a
//! path is shown, later ones at the same path are counted as omitted), at most 5
//! `allowed_values` and at most 5 union `alternatives` (then `"…"`). `omitted` counts the issues the caps left out, including
//! those a capped [`Report`] itself left out.
//!
//! Everything a hint echoes of the schema or the arguments is shortened as an issue's `got`
//! is (`crate::issue`): the tool's name, each path's keys (a deep path shown by its ends),
//! values, patterns, formats and "did you mean" (80 characters), descriptions, the message,
//! the question and the example's placeholders (300). A hint's JSON is so at most
//! [`HINT_MAX_BYTES`], whatever the schema.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{Json, ToolModel};
use crate::num::Num;
use crate::values::{list_value_refs, list_values};
use crate::{Constraint, Issue, Path, Report};

mod bounds;
mod expected;
mod json;
mod parts;
mod subject;

pub use bounds::HINT_MAX_BYTES;
use parts::{description_of, schema_pair, FieldParts, HintParts};
use subject::{phrase, subject_described};

/// Most missing fields listed.
pub const MAX_MISSING_FIELDS: usize = 3;
/// Most fields described.
pub const MAX_FIELDS: usize = 3;
/// Most allowed values listed per field (a sixth entry `"…"` says there are more).
pub const MAX_ALLOWED_VALUES: usize = 5;
/// Longest clarifying question, in characters.
pub const MAX_QUESTION_CHARS: usize = 300;
/// Longest field `description`, in characters (then cut, ending in `…`): the schema's text,
/// which may be of any length.
pub const MAX_DESCRIPTION_CHARS: usize = 300;

/// Why the hint was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HintReason {
    /// The arguments of a call were refused.
    InvalidArguments,
    /// A tool's result was refused.
    MalformedResponse,
    /// The tool ran and refused the arguments itself: the issues were read from its error
    /// text (`toolgate::foreign`).
    ToolError,
}

impl HintReason {
    /// The reason as the hint's JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            HintReason::InvalidArguments => "invalid_arguments",
            HintReason::MalformedResponse => "malformed_response",
            HintReason::ToolError => "tool_error",
        }
    }
}

/// What to fix at one path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldHint {
    /// Where (written as [`Path::shown`] writes it).
    #[serde(serialize_with = "crate::path::serialize_shown")]
    pub path: Path,
    /// The rule that failed.
    pub constraint: Constraint,
    /// The field's description from the schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// For a `type` issue: the JSON type wanted (`"integer"`), or the list of them where
    /// several are allowed (`["string", "number"]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_type: Option<Value>,
    /// The allowed values (at most 5, then `"…"`), when the field is an enum.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_values: Vec<Value>,
    /// The lower bound, for bound and size constraints (an exclusive bound is given as is;
    /// the message says it is exclusive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<Num>,
    /// The upper bound, for bound and size constraints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<Num>,
    /// For a union no alternative of which takes the value: what the alternatives want (their
    /// types, tag values or constants; at most 5, then `"…"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alternatives: Vec<Value>,
    /// The pattern the string must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
    /// The string's format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// For `additionalProperties` (a key the object does not declare), when no key is close
    /// enough for [`FieldHint::did_you_mean`]: the keys the object declares (at most 5, then
    /// `"…"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_keys: Vec<String>,
    /// For `enum` and `additionalProperties`: the nearest allowed value or key, when one is
    /// close; for a string refused where an array is wanted because it reads as a separated
    /// list (`"a, b"`), the array it may mean (`["a","b"]`). Absent otherwise: a hint never
    /// says `null` here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did_you_mean: Option<String>,
}

/// A short, capped description of what to fix, built from the issues and the tool model.
///
/// Renders as compact JSON ([`RetryHint::to_json`], for a tool-result message) and as a few
/// lines of text (`Display`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RetryHint {
    /// The tool's name.
    pub tool: String,
    /// Why the hint was made.
    pub reason: HintReason,
    /// What is wrong, in a line: the missing fields first, as the hint lists them, then the
    /// first other issue in the schema's order (at most 300 characters).
    pub message: String,
    /// Paths of absent required fields (at most 3).
    pub missing_fields: Vec<String>,
    /// What to fix, field by field (at most 3), in the order of the schema's fields,
    /// whatever order the issues came in.
    pub fields: Vec<FieldHint>,
    /// How many issues the caps left out.
    pub omitted: usize,
    /// One question, built from the schema's descriptions (at most 300 characters).
    pub clarifying_question: Option<String>,
    /// Placeholders for the missing fields, nested as the arguments nest, members in the
    /// order of the schema's fields (a [`Json`] keeps that order when written).
    pub example_input: Option<Json>,
}

impl RetryHint {
    /// The hint for `report`, with the given reason: the one way to make a hint. A refusal
    /// carries its own ([`Rejected::hint`](crate::Rejected::hint),
    /// [`Rejected::hint_json`](crate::Rejected::hint_json)); this is for a report from
    /// elsewhere, such as `validate()`'s ([`HintReason::InvalidArguments`]) or a tool's own
    /// error ([`HintReason::ToolError`]).
    pub fn build(model: &ToolModel, report: &Report, reason: HintReason) -> Self {
        HintParts::build(model, report, reason).into_hint()
    }

    /// Compact JSON: what `serde_json::to_string` writes of the hint, written faster (see
    /// `hint/json.rs`).
    pub fn to_json(&self) -> String {
        json::hint_json(&HintParts::of_hint(self))
    }

    /// The compact JSON of the hint [`RetryHint::build`] would build, written straight from
    /// the report and the model: equal to `RetryHint::build(model, report, reason).to_json()`,
    /// without making the hint's owned parts first (what `Rejected::hint_json` answers, the
    /// way to it outside toolgate's own crates).
    #[doc(hidden)]
    pub fn build_json(model: &ToolModel, report: &Report, reason: HintReason) -> String {
        json::hint_json(&HintParts::build(model, report, reason))
    }
}

fn description_at<'m>(model: &'m ToolModel, path: &Path) -> Option<&'m str> {
    description_of(schema_pair(model, path))
}

/// Longest `message`, in characters: a path or value of a megabyte stays in the issue (the
/// path exactly, the value shortened), not in the hint's message too.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// "the departure airport", or the field's name when it has no description.
fn subject(model: &ToolModel, path: &Path) -> String {
    subject_described(description_at(model, path), path)
}

fn join_words(items: &[String], last: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., tail] => format!("{} {last} {tail}", init.join(", ")),
    }
}

fn requirement(issue: &Issue, field: &FieldParts<'_>) -> Option<String> {
    let expected = issue.expected.as_ref();
    let bound = || expected.map(|v| v.to_string()).unwrap_or_default();
    let count =
        |noun: &str| crate::values::count_of(expected.and_then(Value::as_u64).unwrap_or(0), noun);
    Some(match issue.constraint {
        Constraint::Minimum => format!("at least {}", bound()),
        Constraint::Maximum => format!("at most {}", bound()),
        Constraint::ExclusiveMinimum => format!("above {}", bound()),
        Constraint::ExclusiveMaximum => format!("below {}", bound()),
        Constraint::MultipleOf => format!("a multiple of {}", bound()),
        Constraint::MinLength => format!("at least {}", count("character")),
        Constraint::MaxLength => format!("at most {}", count("character")),
        Constraint::MinItems => format!("at least {}", count("item")),
        Constraint::MaxItems => format!("at most {}", count("item")),
        Constraint::UniqueItems => "without repeated items".to_owned(),
        Constraint::Pattern => match &field.pattern {
            Some(pattern) => format!("matching {pattern}"),
            None => format!("matching {}", bound()),
        },
        Constraint::Format => {
            let name = expected.and_then(Value::as_str).unwrap_or("");
            crate::format::Format::from_name(name).map_or_else(
                || format!("in the format {name}"),
                |f| f.describe().to_owned(),
            )
        }
        Constraint::Type => expected.map_or_else(|| "another type".to_owned(), type_list),
        Constraint::OneOf | Constraint::AnyOf if !field.alternatives.is_empty() => {
            format!(
                "one of {}",
                list_value_refs(field.alternatives.iter().map(|v| &**v))
            )
        }
        Constraint::Const => format!("exactly {}", bound()),
        _ => return None,
    })
}

fn cap_question(question: String) -> String {
    if question.len() <= MAX_QUESTION_CHARS || question.chars().count() <= MAX_QUESTION_CHARS {
        return question;
    }
    let cut: String = question.chars().take(MAX_QUESTION_CHARS - 2).collect();
    format!("{}…?", cut.trim_end())
}

/// One question for the model, always: built from the missing fields' descriptions, else
/// from the first issue.
fn question(
    model: &ToolModel,
    missing: &[&Issue],
    first: Option<&Issue>,
    field: Option<&FieldParts<'_>>,
) -> Option<String> {
    let question = match (missing, first, field) {
        // "What should ... be?" reads right whatever the subject's number.
        ([only], _, _) => format!("What should {} be?", subject(model, &only.path)),
        ([_, ..], _, _) => {
            let subjects: Vec<String> = missing.iter().map(|i| subject(model, &i.path)).collect();
            format!("What should {} be?", join_words(&subjects, "and"))
        }
        ([], Some(issue), Some(field)) => issue_question(issue, field),
        ([], _, _) => {
            "Could you send the arguments again as one JSON object that fits the tool's schema?"
                .to_owned()
        }
    };
    Some(cap_question(question))
}

fn issue_question(issue: &Issue, field: &FieldParts<'_>) -> String {
    match issue.constraint {
        Constraint::Syntax => "Could you send the complete arguments again, as one JSON object?".to_owned(),
        Constraint::Limit => "Could you send the arguments again, shorter and less deeply nested?".to_owned(),
        Constraint::Schema => "This tool's schema cannot be used as it is; could you use another tool or ask the user?".to_owned(),
        Constraint::Enum if !field.allowed_values.is_empty() => {
            let values: Vec<String> = field.allowed_values.iter().map(|v| list_value_refs(std::iter::once(&**v))).collect();
            format!("Which of {} should {} be?", join_words(&values, "or"), subject_described(field.description.as_deref(), &issue.path))
        }
        Constraint::AdditionalProperties => match field.did_you_mean.as_deref() {
            Some(near) => format!("Did you mean `{near}` instead of `{}`?", issue.path),
            None => {
                let names: Vec<String> = field
                    .allowed_keys
                    .iter()
                    .filter(|key| **key != "…")
                    .map(|key| format!("`{key}`"))
                    .collect();
                if names.is_empty() {
                    format!("`{}` is not a field here; could you leave it out?", issue.path)
                } else {
                    format!("`{}` is not a field here; could you leave it out, or did you mean {}?", issue.path, join_words(&names, "or"))
                }
            }
        },
        _ => {
            let subject = subject_described(field.description.as_deref(), &issue.path);
            match requirement(issue, field) {
                Some(requirement) => format!("What should {subject} be ({requirement})?"),
                None => format!("What should {subject} be?"),
            }
        }
    }
}

impl fmt::Display for RetryHint {
    /// A few lines: what is wrong, what is missing, what to fix per field, a question and an
    /// example.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = match self.reason {
            HintReason::InvalidArguments => "invalid arguments",
            HintReason::MalformedResponse => "malformed response",
            HintReason::ToolError => "tool error",
        };
        write!(f, "{} ({reason}): {}", self.tool, self.message)?;
        if !self.missing_fields.is_empty() {
            write!(f, "\nmissing: {}", self.missing_fields.join(", "))?;
        }
        for field in &self.fields {
            write!(f, "\n- {} ({})", field.path.shown(), field.constraint)?;
            let mut parts = Vec::new();
            if let Some(expected) = &field.expected_type {
                parts.push(format!("expected {}", type_list(expected)));
            }
            if let Some(description) = &field.description {
                parts.push(description.clone());
            }
            if !field.allowed_values.is_empty() {
                parts.push(format!("allowed: {}", list_values(&field.allowed_values)));
            }
            if !field.alternatives.is_empty() {
                parts.push(format!("one of: {}", list_values(&field.alternatives)));
            }
            if !field.allowed_keys.is_empty() {
                parts.push(format!("allowed keys: {}", field.allowed_keys.join(", ")));
            }
            if let Some(near) = &field.did_you_mean {
                parts.push(format!("did you mean {near:?}?"));
            }
            if let Some(min) = field.min {
                parts.push(format!("min {min}"));
            }
            if let Some(max) = field.max {
                parts.push(format!("max {max}"));
            }
            if let Some(pattern) = &field.pattern {
                parts.push(format!("pattern {pattern}"));
            }
            if let Some(format) = &field.format {
                parts.push(format!("format {format}"));
            }
            if !parts.is_empty() {
                write!(f, ": {}", parts.join("; "))?;
            }
        }
        if self.omitted > 0 {
            write!(
                f,
                "\n({} more issue{} not shown)",
                self.omitted,
                if self.omitted == 1 { "" } else { "s" }
            )?;
        }
        if let Some(question) = &self.clarifying_question {
            write!(f, "\n{question}")?;
        }
        if let Some(example) = &self.example_input {
            write!(f, "\nexample: {example}")?;
        }
        Ok(())
    }
}

/// `integer`, or `string or number` for a list of types.
fn type_list(expected: &Value) -> String {
    match expected {
        Value::Array(names) => {
            let names: Vec<String> = names
                .iter()
                .map(|n| n.as_str().map_or_else(|| n.to_string(), str::to_owned))
                .collect();
            join_words(&names, "or")
        }
        Value::String(name) => name.clone(),
        other => other.to_string(),
    }
}

mod example;

#[cfg(test)]
mod tests;

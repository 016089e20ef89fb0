//! Error texts of other libraries and services, read as toolgate [`Issue`]s (feature
//! `foreign`, on with `boundary`): a tool's own refusal becomes the same structured issues,
//! and so a capped retry hint, as the gate's.
//!
//! ```
//! use toolgate::foreign::{parse, ForeignFormat};
//!
//! let parsed = parse(r#"{"detail": [{"type": "greater_than", "loc": ["body", "amount"],
//!     "msg": "Input should be greater than 0", "input": 0, "ctx": {"gt": 0}}]}"#).unwrap();
//! assert_eq!(parsed.format, ForeignFormat::FastApi);
//! let issue = &parsed.issues[0];
//! assert_eq!(issue.path.to_string(), "amount");
//! assert_eq!(issue.constraint.as_str(), "exclusiveMinimum");
//! assert_eq!(issue.expected, Some(serde_json::json!(0)));
//! assert_eq!(issue.got, Some(serde_json::json!(0)));
//!
//! let parsed = parse("amount must be greater than 0").unwrap();
//! assert_eq!(parsed.format, ForeignFormat::PlainText);
//! assert_eq!(parsed.issues[0].path.to_string(), "amount");
//! ```
//!
//! What is read, from what (the fixtures in `tests/fixtures/foreign/` were produced by the
//! libraries named, except where "documented" says the text comes from the library's source or
//! docs; `tests/tests/foreign.rs` prints the same table from them):
//!
//! | format | from | path | constraint | expected | got |
//! | --- | --- | --- | --- | --- | --- |
//! | [`ForeignFormat::PydanticErrors`] | pydantic 2 `.errors()` / `.json()` | yes | yes | yes | yes |
//! | [`ForeignFormat::PydanticText`] | `str(ValidationError)` | yes | yes | from the message | yes |
//! | [`ForeignFormat::FastApi`] | a 422 body `{"detail": [...]}` | yes | yes | yes | yes |
//! | [`ForeignFormat::PythonJsonschema`] | `str(ValidationError)` of python-jsonschema | yes | yes | from the message | yes |
//! | [`ForeignFormat::Zod`] | zod 3 and 4 issues (JSON; zod 3's `error.message`) | yes | yes | yes | enums |
//! | [`ForeignFormat::ZodText`] | zod 4 `prettifyError` | yes | yes | from the message | no |
//! | [`ForeignFormat::Ajv`] | AJV `errors` (JSON) | yes | yes | yes | no |
//! | [`ForeignFormat::AjvText`] | AJV `errorsText` | yes | yes | from the message | no |
//! | [`ForeignFormat::SerdeJson`] | serde_json's error (the first only: serde stops there) | key names | yes | types, integer ranges | yes |
//! | [`ForeignFormat::SerdePathToError`] | `serde_path_to_error` | yes | yes | types, integer ranges | yes |
//! | [`ForeignFormat::GoJson`] | Go `encoding/json` (documented) | yes | `type`, unknown field | yes | numbers |
//! | [`ForeignFormat::GoValidator`] | go-playground/validator (documented) | Go field names | by tag | formats | no |
//! | [`ForeignFormat::ProblemJson`] | RFC 9457 `errors`, RFC 7807 `invalid-params` (documented) | yes | from the sentence | from the sentence | no |
//! | [`ForeignFormat::PlainText`] | sentences: Joi, jsonschema(-rs) messages, Spring, Laravel, Rails | when named | from the sentence | from the sentence | when quoted first |
//!
//! A sentence whose rule is not known still gives an issue when it names its field: constraint
//! `custom`, with the sentence as its message. A text in no known form gives `None`.
//!
//! Paths are as the text gives them; [`parse_for`] aligns them to a tool model: a key that is
//! not a field's wire name or alias but folds to exactly one field (`Amount`, `max price`)
//! becomes that name (by the model's one key lookup, `ToolModel::key_match`: a key folding
//! to several fields stays as it is), and a
//! bound on a string or an array becomes a length or item bound (go-playground's `min`).
//!
//! Limits: the first [`MAX_FOREIGN_TEXT_BYTES`] of a text are read, a JSON body whole up to
//! [`MAX_FOREIGN_JSON_BYTES`] (a longer one is not read: cut, it would read as text), at most
//! [`MAX_FOREIGN_ISSUES`] issues are made, each with a message of at most
//! [`MAX_FOREIGN_MESSAGE_CHARS`] characters, a path of at most [`MAX_FOREIGN_PATH_SEGMENTS`]
//! segments and values shortened as the gate's own are; every pattern is the `regex` crate's
//! (linear time). `parse_for` also leaves out a `custom` issue whose subject is no field of
//! the model ("Token has expired" is about no argument).

/// Compiles one of this module's patterns. They are constants of its files, and a unit test
/// of each file compiles every one, so this does not fail on any input.
pub(crate) fn regex(pattern: &str) -> regex::Regex {
    regex::Regex::new(pattern).unwrap_or_else(|error| panic!("pattern {pattern}: {error}"))
}

/// Declares patterns compiled on first use, and `every_pattern()` for the unit tests.
macro_rules! patterns {
    ($($name:ident = $pattern:expr;)*) => {
        $(static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| super::regex($pattern));)*
        #[cfg(test)]
        pub(crate) fn every_pattern() -> Vec<&'static regex::Regex> {
            vec![$(&*$name),*]
        }
    };
}

mod sentence;
mod structured;
mod texts;
mod values;

use serde_json::Value;
use toolgate_core::model::{Kind, Schema, ToolModel};
use toolgate_core::plan::Step;
use toolgate_core::{Constraint, Issue, Path, Segment};

/// Most bytes of an error text read (its first ones).
pub const MAX_FOREIGN_TEXT_BYTES: usize = 64 * 1024;
/// Longest JSON error body read: a longer one is not read (a cut one is not JSON).
pub const MAX_FOREIGN_JSON_BYTES: usize = 1024 * 1024;
/// Longest message an issue read from a foreign text keeps, in characters.
pub const MAX_FOREIGN_MESSAGE_CHARS: usize = 1_000;
/// Deepest path an issue read from a foreign text keeps (a deeper one is cut there).
pub const MAX_FOREIGN_PATH_SEGMENTS: usize = 32;
/// Most issues read from one text.
pub const MAX_FOREIGN_ISSUES: usize = 100;

/// The form an error text was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ForeignFormat {
    /// pydantic v2's `.errors()` list, as JSON.
    PydanticErrors,
    /// pydantic v2's exception text (`2 validation errors for Model ...`).
    PydanticText,
    /// FastAPI's 422 body: `{"detail": [pydantic errors]}`.
    FastApi,
    /// python-jsonschema's error text (`Failed validating 'type' in schema...`).
    PythonJsonschema,
    /// zod's issues, as JSON (zod 3 and 4; zod 3's `error.message` is that JSON).
    Zod,
    /// zod 4's `prettifyError` text.
    ZodText,
    /// AJV's `errors`, as JSON.
    Ajv,
    /// AJV's `errorsText` (`data/amount must be > 0, ...`).
    AjvText,
    /// serde_json's error text (`invalid type: string "x", expected u8 at line 1 column 9`).
    SerdeJson,
    /// serde_path_to_error's text: serde's, after the path (`items[1].qty: invalid type: ...`).
    SerdePathToError,
    /// Go's `encoding/json` errors (`json: cannot unmarshal string into Go struct field ...`).
    GoJson,
    /// go-playground/validator (`Key: 'T.Amount' Error:Field validation for 'Amount' ...`).
    GoValidator,
    /// RFC 9457 / RFC 7807 problem details with `errors` or `invalid-params`.
    ProblemJson,
    /// Sentences: "amount must be greater than 0", `"kind" must be one of [buy, sell]`.
    PlainText,
}

/// The issues read from an error text, and the form it was in.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The form the text was read in.
    pub format: ForeignFormat,
    /// Every issue read (at most [`MAX_FOREIGN_ISSUES`]).
    pub issues: Vec<Issue>,
}

/// Reads an error text (or body) into issues, if it is in a known form.
pub fn parse(text: &str) -> Option<Parsed> {
    read(text).map(normalize)
}

fn read(text: &str) -> Option<Parsed> {
    let text = text.trim();
    if text.starts_with('{') || text.starts_with('[') {
        // A JSON body is read whole or not at all: cut, it would be read as text and give
        // issues it does not hold. serde_json is linear and stops at 128 levels of nesting.
        if text.len() > MAX_FOREIGN_JSON_BYTES {
            return None;
        }
        // Numbers keep their digits: a bound of 30 digits is not read through a float.
        if let Ok(value) = toolgate_core::model::Json::value_keeping_digits(text) {
            if let Some((format, issues)) = structured::read(&value) {
                return Some(Parsed { format, issues });
            }
            // A JSON body with a message in it: read the message.
            let message = ["message", "error", "detail", "title"]
                .iter()
                .find_map(|key| value.get(*key).and_then(Value::as_str).map(str::to_owned))
                .or_else(|| value.pointer("/error/message")?.as_str().map(str::to_owned))?;
            return read_text(&message);
        }
    }
    read_text(text)
}

fn read_text(text: &str) -> Option<Parsed> {
    let mut end = text.len().min(MAX_FOREIGN_TEXT_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    texts::read(&text[..end]).map(|(format, issues)| Parsed { format, issues })
}

/// Every issue within the limits (message, path, values), and what an issue of two rules holds,
/// as the gate's own do: a missing field has no `got`; an unknown key's `got` is the key.
fn normalize(mut parsed: Parsed) -> Parsed {
    for issue in &mut parsed.issues {
        if issue.path.segments().len() > MAX_FOREIGN_PATH_SEGMENTS {
            let mut cut = Path::root();
            for segment in &issue.path.segments()[..MAX_FOREIGN_PATH_SEGMENTS] {
                cut.push(segment.clone());
            }
            issue.path = cut;
        }
        issue.message =
            toolgate_core::issue::shorten_text(&issue.message, MAX_FOREIGN_MESSAGE_CHARS);
        issue.got = issue.got.take().map(toolgate_core::issue::shorten);
        issue.expected = issue.expected.take().map(toolgate_core::issue::shorten);
        match issue.constraint {
            Constraint::Required => issue.got = None,
            Constraint::AdditionalProperties => {
                issue.got = match issue.path.segments().last() {
                    Some(Segment::Key(key)) => Some(Value::from(key.clone())),
                    _ => None,
                };
            }
            _ => {}
        }
    }
    parsed
}

/// [`parse`], with every path aligned to `model` (see the module's notes).
pub fn parse_for(model: &ToolModel, text: &str) -> Option<Parsed> {
    let mut parsed = read(text)?;
    for issue in &mut parsed.issues {
        align(model, issue);
    }
    // A sentence of no known rule whose subject is no field ("Token has expired", "Error:
    // connection refused") is not about the arguments: it stays in the tool's message only.
    parsed.issues.retain(|issue| {
        issue.constraint != Constraint::Custom
            || issue.path.is_root()
            || model.schema_at(&issue.path).is_some()
    });
    (!parsed.issues.is_empty()).then(|| normalize(parsed))
}

/// Renames the keys of `issue`'s path that fold to a field of `model`, and turns a bound on a
/// string or array into its length or item bound.
pub fn align(model: &ToolModel, issue: &mut Issue) {
    let mut aligned = Path::root();
    let mut schema: Option<&Schema> = Some(model.input());
    for segment in issue.path.segments() {
        // The model's one step: a key by name or alias, else the one field that folds to it
        // (a key folding to several fields names none: no guess).
        let step = schema.map_or(Step::Undeclared, |s| model.step(s, segment, true));
        match (step, segment) {
            (Step::Field(_, field), _) => {
                aligned = aligned.key(field.name.clone());
                schema = Some(&field.schema);
            }
            (Step::MapValue(values), Segment::Key(key)) => {
                aligned = aligned.key(key.clone());
                schema = Some(values);
            }
            (Step::Item(item), Segment::Index(index)) => {
                aligned = aligned.index(*index);
                schema = Some(item);
            }
            // Keys are aligned to fields only: below an undeclared key nothing is renamed.
            (_, Segment::Key(key)) => {
                aligned = aligned.key(key.clone());
                schema = None;
            }
            (_, Segment::Index(index)) => {
                aligned = aligned.index(*index);
                schema = None;
            }
        }
    }
    issue.path = aligned;
    let kind = schema.and_then(|s| model.resolve(s)).map(|s| &s.kind);
    issue.constraint = match (kind, issue.constraint) {
        (Some(Kind::String(_)), Constraint::Minimum) => Constraint::MinLength,
        (Some(Kind::String(_)), Constraint::Maximum) => Constraint::MaxLength,
        (Some(Kind::Array(_)), Constraint::Minimum) => Constraint::MinItems,
        (Some(Kind::Array(_)), Constraint::Maximum) => Constraint::MaxItems,
        (_, constraint) => constraint,
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use toolgate_core::model::{Field, Schema};
    use toolgate_core::plan::work::steps_in;

    fn wide(count: usize) -> ToolModel {
        let mut fields: Vec<Field> = (0..count)
            .map(|i| Field::optional(format!("field_{i}"), Schema::string()))
            .collect();
        fields.push(Field::optional("user_id", Schema::string()));
        fields.push(Field::optional("UserId", Schema::string()).alias("uid"));
        ToolModel::new("t", None, Schema::object(fields), Default::default())
    }

    fn aligned(model: &ToolModel, key: &str) -> String {
        let mut issue = Issue::new(Path::root().key(key), Constraint::Custom, "bad");
        align(model, &mut issue);
        issue.path.to_string()
    }

    proptest! {
        /// Issue 43 §4: a foreign text's number is never read through a float. Integers
        /// across and beyond every width, and decimals longer than a float keeps, as a
        /// pydantic JSON body's bound, a FastAPI body's and a sentence's: the issue's
        /// `expected` is that number exactly (a JSON number whose text is the same decimal,
        /// or its text).
        #[test]
        fn a_foreign_bound_keeps_its_digits(
            number in prop_oneof![
                any::<i128>().prop_map(|n| n.to_string()),
                any::<u64>().prop_map(|n| n.to_string()),
                "[1-9][0-9]{19,40}",
                "[1-9][0-9]{0,3}\\.[0-9]{15,25}",
            ],
        ) {
            let bodies = [
                format!(r#"[{{"type": "greater_than", "loc": ["amount"], "msg": "Input should be greater than {number}", "input": 0, "ctx": {{"gt": {number}}}}}]"#),
                format!(r#"{{"detail": [{{"type": "less_than", "loc": ["body", "amount"], "msg": "Input should be less than {number}", "input": 0, "ctx": {{"lt": {number}}}}}]}}"#),
                format!("amount must be greater than {number}"),
            ];
            for body in bodies {
                let parsed = parse(&body).expect("read");
                let expected = parsed.issues[0].expected.clone().expect("a bound");
                let same = match &expected {
                    Value::String(text) => *text == number,
                    Value::Number(read) => toolgate_core::num::float_keeping_digits(&number)
                        .is_some_and(|kept| read.as_f64() == Some(kept))
                        || read.to_string() == number,
                    _ => false,
                };
                prop_assert!(same, "{number} read as {expected} from {body}");
            }
        }
    }

    #[test]
    fn paths_are_aligned_by_the_models_key_lookup() {
        for count in [2, 40] {
            let model = wide(count);
            assert_eq!(aligned(&model, "FIELD-1"), "field_1");
            assert_eq!(aligned(&model, "uid"), "UserId");
            assert_eq!(aligned(&model, "UID"), "UserId");
            // Folds to two fields: no guess, the key stays.
            assert_eq!(aligned(&model, "USER-ID"), r#"["USER-ID"]"#);
        }
    }

    #[test]
    fn aligning_paths_takes_linear_work() {
        let steps = |count: usize| {
            let model = wide(count);
            let (_, steps) = steps_in(|| {
                for i in 0..count {
                    assert_eq!(aligned(&model, &format!("Field{i}")), format!("field_{i}"));
                }
            });
            steps
        };
        let (small, large) = (steps(2_000), steps(20_000));
        assert!(large <= 12 * small, "{small} then {large} steps");
    }
}

//! Error lists given as JSON: pydantic's `.errors()`, FastAPI's 422 `detail`, zod's issues,
//! AJV's errors, RFC 9457 problem details (`errors`, and RFC 7807's `invalid-params`).

use serde_json::{Map, Value};
use toolgate_core::{Constraint, Issue, Path};

use super::sentence::{classify, json_type, listed_values, Classified};
use super::values::{location, number, path};
use super::{ForeignFormat, MAX_FOREIGN_ISSUES};

/// An issue from its parts; the message as the library wrote it.
pub(crate) fn issue(path: Path, found: Classified, message: &str) -> Issue {
    let mut issue = Issue::new(path, found.constraint, message.trim().to_owned());
    issue.expected = found.expected;
    issue.got = found.got;
    issue
}

/// A message whose rule is not known: a `custom` issue.
pub(crate) fn custom(path: Path, message: &str) -> Issue {
    Issue::new(path, Constraint::Custom, message.trim().to_owned())
}

/// Reads a JSON error body, if it is one of the known shapes.
pub(crate) fn read(value: &Value) -> Option<(ForeignFormat, Vec<Issue>)> {
    match value {
        Value::Array(items) => list(items),
        Value::Object(members) => object(members),
        _ => None,
    }
}

fn object(members: &Map<String, Value>) -> Option<(ForeignFormat, Vec<Issue>)> {
    if let Some(Value::Array(detail)) = members.get("detail") {
        if let Some((ForeignFormat::PydanticErrors, mut issues)) = list(detail) {
            // FastAPI's `loc` starts with where the value was: the body, the query, ...
            for issue in &mut issues {
                let from_request = matches!(
                    issue.path.segments().first(),
                    Some(toolgate_core::Segment::Key(first))
                        if matches!(first.as_str(), "body" | "query" | "path" | "header" | "cookie")
                );
                if from_request {
                    let mut within = Path::root();
                    for segment in &issue.path.segments()[1..] {
                        within.push(segment.clone());
                    }
                    issue.path = within;
                }
            }
            return Some((ForeignFormat::FastApi, issues));
        }
    }
    if let Some(Value::Array(issues)) = members.get("issues") {
        if let Some(found) = list(issues) {
            return Some(found);
        }
    }
    let problem = ["type", "title", "status", "detail", "instance"]
        .iter()
        .any(|key| members.contains_key(*key));
    if problem {
        let mut issues = Vec::new();
        if let Some(Value::Array(errors)) = members.get("errors") {
            for error in errors.iter().take(MAX_FOREIGN_ISSUES) {
                let text = error
                    .get("detail")
                    .or_else(|| error.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let at = error
                    .get("pointer")
                    .or_else(|| error.get("field"))
                    .or_else(|| error.get("name"))
                    .and_then(Value::as_str)
                    .map_or_else(Path::root, path);
                issues.push(sentence_issue(at, text));
            }
        }
        if let Some(Value::Array(params)) = members.get("invalid-params") {
            for param in params.iter().take(MAX_FOREIGN_ISSUES) {
                let at = param
                    .get("name")
                    .and_then(Value::as_str)
                    .map_or_else(Path::root, path);
                let reason = param
                    .get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                issues.push(sentence_issue(at, reason));
            }
        }
        if !issues.is_empty() {
            return Some((ForeignFormat::ProblemJson, issues));
        }
    }
    None
}

/// The issue a sentence about the value at `at` states (`custom` when its rule is unknown).
pub(crate) fn sentence_issue(at: Path, text: &str) -> Issue {
    match classify(text) {
        Some(found) => issue(at, found, text),
        None => custom(at, text),
    }
}

/// Reads one entry of an error list.
type ReadEntry = fn(&Map<String, Value>) -> Issue;

fn list(items: &[Value]) -> Option<(ForeignFormat, Vec<Issue>)> {
    let first = items.first()?.as_object()?;
    let (format, read): (ForeignFormat, ReadEntry) =
        if first.contains_key("loc") && first.contains_key("msg") {
            (ForeignFormat::PydanticErrors, pydantic_entry)
        } else if first.contains_key("instancePath") || first.contains_key("dataPath") {
            (ForeignFormat::Ajv, ajv)
        } else if first.contains_key("code") && first.contains_key("path") {
            (ForeignFormat::Zod, zod)
        } else {
            return None;
        };
    let mut issues: Vec<Issue> = Vec::new();
    for entry in items.iter().filter_map(Value::as_object) {
        if issues.len() >= MAX_FOREIGN_ISSUES {
            break;
        }
        let issue = read(entry);
        // zod names every unknown key of an object in one issue: one issue each here.
        let more_keys = match entry.get("keys") {
            Some(Value::Array(keys)) if format == ForeignFormat::Zod && keys.len() > 1 => {
                &keys[1..]
            }
            _ => &[],
        };
        let parent = issue.path.parent().unwrap_or_else(Path::root);
        issues.push(issue.clone());
        for key in more_keys.iter().filter_map(Value::as_str) {
            if issues.len() >= MAX_FOREIGN_ISSUES {
                break;
            }
            let mut other = issue.clone();
            other.path = parent.clone().key(key.to_owned());
            issues.push(other);
        }
    }
    Some((format, issues))
}

fn text<'v>(members: &'v Map<String, Value>, key: &str) -> &'v str {
    members.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// One entry of pydantic v2's `.errors()` (FastAPI's `detail` entries are the same, their
/// `loc` led by `body`, `query`, `path`, `header` or `cookie`).
pub(crate) fn pydantic_entry(error: &Map<String, Value>) -> Issue {
    let message = text(error, "msg");
    let loc: &[Value] = error
        .get("loc")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let at = location(loc);
    let context = error.get("ctx").and_then(Value::as_object);
    // The text form has no `ctx`: the bound is then read from the message.
    let said = || classify(message).and_then(|found| found.expected);
    let bound = |key: &str| context.and_then(|ctx| ctx.get(key)).cloned().or_else(said);
    let kind = text(error, "type");
    let (constraint, expected) = match kind {
        "missing" => (Constraint::Required, None),
        "extra_forbidden" => (Constraint::AdditionalProperties, None),
        "greater_than" => (Constraint::ExclusiveMinimum, bound("gt")),
        "greater_than_equal" => (Constraint::Minimum, bound("ge")),
        "less_than" => (Constraint::ExclusiveMaximum, bound("lt")),
        "less_than_equal" => (Constraint::Maximum, bound("le")),
        "multiple_of" => (Constraint::MultipleOf, bound("multiple_of")),
        "string_too_short" => (Constraint::MinLength, bound("min_length")),
        "string_too_long" => (Constraint::MaxLength, bound("max_length")),
        "too_short" => (Constraint::MinItems, bound("min_length")),
        "too_long" => (Constraint::MaxItems, bound("max_length")),
        "string_pattern_mismatch" => (Constraint::Pattern, bound("pattern")),
        "literal_error" | "enum" => (
            Constraint::Enum,
            match context.and_then(|ctx| ctx.get("expected")) {
                Some(Value::String(listed)) => listed_values(listed).map(Value::Array),
                _ => said(),
            },
        ),
        _ => match pydantic_type(kind) {
            Some(json) => (Constraint::Type, Some(Value::from(json))),
            None => match classify(message) {
                Some(found) => (found.constraint, found.expected),
                None => (Constraint::Custom, None),
            },
        },
    };
    let mut issue = Issue::new(at, constraint, message.to_owned());
    issue.expected = expected;
    if constraint != Constraint::Required {
        issue.got = error.get("input").cloned();
    }
    issue
}

/// The JSON type a pydantic error type says was wanted (`int_parsing` → `integer`).
fn pydantic_type(kind: &str) -> Option<&'static str> {
    let name = kind
        .strip_suffix("_parsing")
        .or_else(|| kind.strip_suffix("_type"))?;
    match name {
        "int" => Some("integer"),
        "float" | "decimal" => Some("number"),
        "bool" => Some("boolean"),
        "string" => Some("string"),
        "list" | "tuple" | "set" => Some("array"),
        "dict" | "model" | "model_attributes" => Some("object"),
        _ => None,
    }
}

/// One of AJV's errors: the keyword is JSON Schema's, the bound in `params`.
fn ajv(error: &Map<String, Value>) -> Issue {
    let pointer = error
        .get("instancePath")
        .or_else(|| error.get("dataPath"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut at = path(pointer);
    let message = text(error, "message");
    let params = error.get("params").and_then(Value::as_object);
    let param = |key: &str| params.and_then(|p| p.get(key)).cloned();
    let keyword = text(error, "keyword");
    let expected = match keyword {
        "required" => {
            if let Some(Value::String(missing)) = param("missingProperty") {
                at = at.key(missing);
            }
            None
        }
        "additionalProperties" => {
            if let Some(Value::String(extra)) = param("additionalProperty") {
                at = at.key(extra);
            }
            None
        }
        "type" => param("type"),
        "enum" => param("allowedValues"),
        "const" => param("allowedValue"),
        "pattern" => param("pattern"),
        "format" => param("format"),
        "multipleOf" => param("multipleOf"),
        _ => param("limit"),
    };
    match keyword.parse::<Constraint>() {
        Ok(constraint) => {
            let mut issue = Issue::new(at, constraint, message.to_owned());
            issue.expected = expected;
            issue
        }
        Err(_) => sentence_issue(at, message),
    }
}

/// One of zod's issues (zod 3 and zod 4).
fn zod(error: &Map<String, Value>) -> Issue {
    let mut at = location(
        error
            .get("path")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice),
    );
    let message = text(error, "message");
    let member = |key: &str| error.get(key).cloned();
    let origin = error
        .get("origin")
        .or_else(|| error.get("type"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let inclusive = error
        .get("inclusive")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let (constraint, expected) = match text(error, "code") {
        "invalid_type"
            if text(error, "received") == "undefined"
                || message.ends_with("received undefined") =>
        {
            (Constraint::Required, None)
        }
        "invalid_type" => (
            Constraint::Type,
            error
                .get("expected")
                .and_then(Value::as_str)
                .and_then(json_type)
                .map(Value::from),
        ),
        "too_small" => {
            let constraint = match (origin, inclusive) {
                ("string", _) => Constraint::MinLength,
                ("array" | "set", _) => Constraint::MinItems,
                (_, true) => Constraint::Minimum,
                (_, false) => Constraint::ExclusiveMinimum,
            };
            (constraint, member("minimum"))
        }
        "too_big" => {
            let constraint = match (origin, inclusive) {
                ("string", _) => Constraint::MaxLength,
                ("array" | "set", _) => Constraint::MaxItems,
                (_, true) => Constraint::Maximum,
                (_, false) => Constraint::ExclusiveMaximum,
            };
            (constraint, member("maximum"))
        }
        "invalid_enum_value" => (Constraint::Enum, member("options")),
        "invalid_value" => (Constraint::Enum, member("values")),
        "invalid_literal" => (Constraint::Const, member("expected")),
        "not_multiple_of" => (
            Constraint::MultipleOf,
            member("multipleOf").or_else(|| member("divisor")),
        ),
        "unrecognized_keys" => {
            if let Some(Value::String(key)) = error.get("keys").and_then(|k| k.get(0)) {
                at = at.key(key.clone());
            }
            (Constraint::AdditionalProperties, None)
        }
        "invalid_string" | "invalid_format" => {
            let format = text(error, "validation").to_owned() + text(error, "format");
            if format == "regex" {
                let pattern = error
                    .get("pattern")
                    .and_then(Value::as_str)
                    .map(|p| Value::from(p.trim_start_matches('/').trim_end_matches('/')));
                (Constraint::Pattern, pattern)
            } else {
                (Constraint::Format, Some(Value::from(format)))
            }
        }
        _ => match classify(message) {
            Some(found) => (found.constraint, found.expected),
            None => (Constraint::Custom, None),
        },
    };
    let bounded = matches!(
        text(error, "code"),
        "too_small" | "too_big" | "not_multiple_of"
    );
    let mut issue = Issue::new(at, constraint, message.to_owned());
    issue.expected = expected.map(|value| match value {
        // A bigint bound comes as text; other expected values are what they are.
        Value::String(text) if bounded => number(&text).unwrap_or(Value::String(text)),
        other => other,
    });
    if let Some(received) = error.get("received").filter(|r| !r.is_null()) {
        if constraint == Constraint::Enum {
            issue.got = Some(received.clone());
        }
    }
    issue
}

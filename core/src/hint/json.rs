//! [`RetryHint::to_json`] and [`RetryHint::build_json`]: the hint's compact JSON, written
//! field by field from its parts ([`HintParts`]), borrowed from a built hint or straight from
//! the report and the model.
//!
//! The text is what `serde_json::to_string(&hint)` writes (the derived `Serialize`, keys in
//! the structs' order, `None`s and empty lists skipped where the derive skips them), and a
//! property test holds the two equal on any hint (`hint::tests::json_writer`). Writing it
//! by hand saves most of the time a refusal spends on its hint's text: every key is a
//! literal, and a string with nothing to escape (nearly every name, description, value and
//! message) is copied between its quotes at once, where serde_json escapes every key and
//! string byte by byte.

use serde::Serialize;
use serde_json::Value;

use super::parts::{FieldParts, HintParts};
#[cfg(doc)]
use super::RetryHint;

/// The compact JSON text of the hint of `hint`'s parts.
pub(super) fn hint_json(hint: &HintParts<'_>) -> String {
    // Room for a usual hint at once: one allocation instead of a run of regrowths.
    let mut out = Vec::with_capacity(1024);
    out.extend_from_slice(b"{\"tool\":");
    string(&mut out, &hint.tool);
    out.extend_from_slice(b",\"reason\":\"");
    out.extend_from_slice(hint.reason.as_str().as_bytes());
    out.extend_from_slice(b"\",\"message\":");
    string(&mut out, &hint.message);
    out.extend_from_slice(b",\"missing_fields\":");
    list(&mut out, &hint.missing_fields, |out, path| {
        string(out, path)
    });
    out.extend_from_slice(b",\"fields\":");
    list(&mut out, &hint.fields, field);
    out.extend_from_slice(b",\"omitted\":");
    serialized(&mut out, &hint.omitted);
    out.extend_from_slice(b",\"clarifying_question\":");
    match &hint.clarifying_question {
        Some(question) => string(&mut out, question),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"example_input\":");
    serialized(&mut out, &hint.example_input);
    out.push(b'}');
    // Only JSON text was written: UTF-8 throughout.
    String::from_utf8(out).unwrap_or_default()
}

/// One field's entry: `path` and `constraint`, then each part the field has.
fn field(out: &mut Vec<u8>, field: &FieldParts<'_>) {
    out.extend_from_slice(b"{\"path\":");
    string(out, &field.path.shown().to_string());
    out.extend_from_slice(b",\"constraint\":\"");
    out.extend_from_slice(field.constraint.as_str().as_bytes());
    out.push(b'"');
    if let Some(description) = &field.description {
        out.extend_from_slice(b",\"description\":");
        string(out, description);
    }
    if let Some(expected) = &field.expected_type {
        out.extend_from_slice(b",\"expected_type\":");
        value(out, expected);
    }
    if !field.allowed_values.is_empty() {
        out.extend_from_slice(b",\"allowed_values\":");
        list(out, &field.allowed_values, |out, item| value(out, item));
    }
    if let Some(min) = &field.min {
        out.extend_from_slice(b",\"min\":");
        serialized(out, min);
    }
    if let Some(max) = &field.max {
        out.extend_from_slice(b",\"max\":");
        serialized(out, max);
    }
    if !field.alternatives.is_empty() {
        out.extend_from_slice(b",\"alternatives\":");
        list(out, &field.alternatives, |out, item| value(out, item));
    }
    if let Some(pattern) = &field.pattern {
        out.extend_from_slice(b",\"pattern\":");
        string(out, pattern);
    }
    if let Some(format) = &field.format {
        out.extend_from_slice(b",\"format\":");
        string(out, format);
    }
    if !field.allowed_keys.is_empty() {
        out.extend_from_slice(b",\"allowed_keys\":");
        list(out, &field.allowed_keys, |out, key| string(out, key));
    }
    if let Some(near) = &field.did_you_mean {
        out.extend_from_slice(b",\"did_you_mean\":");
        string(out, near);
    }
    out.push(b'}');
}

/// `[a,b,…]`, each item written by `write`.
fn list<T>(out: &mut Vec<u8>, items: &[T], write: impl Fn(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (at, item) in items.iter().enumerate() {
        if at > 0 {
            out.push(b',');
        }
        write(out, item);
    }
    out.push(b']');
}

/// A JSON value: a string by [`string`], anything else by serde_json.
fn value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::String(text) => string(out, text),
        other => serialized(out, other),
    }
}

/// A string: copied between quotes when nothing in it needs escaping, else escaped by
/// serde_json.
fn string(out: &mut Vec<u8>, text: &str) {
    if crate::issue::needs_escape(text) {
        serialized(out, text);
        return;
    }
    out.reserve(text.len() + 2);
    out.push(b'"');
    out.extend_from_slice(text.as_bytes());
    out.push(b'"');
}

/// What serde_json writes for `part` (numbers, `null`, values other than strings, the
/// example input).
fn serialized<T: Serialize + ?Sized>(out: &mut Vec<u8>, part: &T) {
    // Writing into a `Vec` fails only where `Serialize` does, which these types never do;
    // a map with keys that are not strings cannot be among them.
    let _ = serde_json::to_writer(out, part);
}

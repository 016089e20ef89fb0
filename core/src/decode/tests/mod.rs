//! Unit tests of the coercing decoder, rule by rule, against the table in DESIGN.md
//! ('Repairs: lossless or refuse'): every listed repair (the value and its log entry) and
//! every listed refusal (an issue at the right path with the right constraint, and no repair
//! logged for it); then unknown keys, switching rules off, limits and one-pass reporting.

use serde_json::{json, Value};

use super::*;
use crate::model::{EnumValue, Field, IntWidth, Schema, ToolModel};
use crate::{Constraint, Path};

mod containers;
mod hostile;
mod integers;
mod keys;
mod limits;
mod objects;
mod scalars;
mod switches;
mod text;
mod unions;
mod valid_as_sent;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// A tool whose arguments are an object with these fields (other keys allowed).
fn tool(fields: Vec<Field>) -> ToolModel {
    ToolModel::new("t", None, Schema::object(fields), Default::default())
}

/// A tool whose arguments are an object with these fields and no other keys.
fn strict_tool(fields: Vec<Field>) -> ToolModel {
    ToolModel::new(
        "t",
        None,
        Schema::object(fields).deny_unknown_fields(),
        Default::default(),
    )
}

/// A tool with one required field `x` of this schema.
fn tool_x(schema: Schema) -> ToolModel {
    tool(vec![Field::required("x", schema)])
}

fn u8_schema() -> Schema {
    Schema::integer_of(IntWidth {
        bits: 8,
        signed: false,
    })
}

fn i8_schema() -> Schema {
    Schema::integer_of(IntWidth {
        bits: 8,
        signed: true,
    })
}

fn cabins() -> Schema {
    Schema::enumeration(vec![
        EnumValue::new("economy"),
        EnumValue::new("premium_economy"),
        EnumValue::new("business").alias("biz"),
        EnumValue::new("first"),
    ])
}

fn path(text: &str) -> Path {
    text.parse()
        .unwrap_or_else(|error| panic!("bad path {text:?}: {error}"))
}

fn repair(at: &str, rule: Rule, from: Value, to: Value) -> Repair {
    Repair {
        path: path(at),
        rule,
        from,
        to,
    }
}

/// Decodes a value that must be accepted.
fn accept_with(model: &ToolModel, input: Value, options: &Options) -> Decoded<Value> {
    decode_value(model, &input, options)
        .unwrap_or_else(|rejected| panic!("{input} was refused:\n{}", rejected.report))
}

fn accept(model: &ToolModel, input: Value) -> Decoded<Value> {
    accept_with(model, input, &Options::default())
}

/// Decodes a value that must be refused.
fn refuse_with(model: &ToolModel, input: Value, options: &Options) -> Rejected {
    match decode_value(model, &input, options) {
        Ok(decoded) => panic!(
            "{input} was accepted as {} with repairs {:?}",
            decoded.value, decoded.repairs
        ),
        Err(rejected) => rejected,
    }
}

fn refuse(model: &ToolModel, input: Value) -> Rejected {
    refuse_with(model, input, &Options::default())
}

/// Decodes text that must be accepted.
fn accept_text_with(model: &ToolModel, text: &str, options: &Options) -> Decoded<Value> {
    decode_text(model, text.as_bytes(), options)
        .unwrap_or_else(|rejected| panic!("{text:?} was refused:\n{}", rejected.report))
}

fn accept_text(model: &ToolModel, text: &str) -> Decoded<Value> {
    accept_text_with(model, text, &Options::default())
}

/// Decodes text that must be refused.
fn refuse_text_with(model: &ToolModel, text: &[u8], options: &Options) -> Rejected {
    match decode_text(model, text, options) {
        Ok(decoded) => panic!(
            "{:?} was accepted as {} with repairs {:?}",
            String::from_utf8_lossy(text),
            decoded.value,
            decoded.repairs
        ),
        Err(rejected) => rejected,
    }
}

fn refuse_text(model: &ToolModel, text: &str) -> Rejected {
    refuse_text_with(model, text.as_bytes(), &Options::default())
}

/// The issues as (path, constraint), in report order.
fn issues(rejected: &Rejected) -> Vec<(String, Constraint)> {
    rejected
        .report
        .issues()
        .iter()
        .map(|issue| (issue.path.to_string(), issue.constraint))
        .collect()
}

/// The issues as (path, constraint) pairs for the expected list.
fn expect(list: &[(&str, Constraint)]) -> Vec<(String, Constraint)> {
    list.iter()
        .map(|(at, constraint)| (at.to_string(), *constraint))
        .collect()
}

/// The rules of the repairs logged.
fn rules(repairs: &[Repair]) -> Vec<Rule> {
    repairs.iter().map(|repair| repair.rule).collect()
}

/// A tool for whole-text cases.
fn text_model() -> ToolModel {
    tool(vec![
        Field::required("a", Schema::integer()),
        Field::optional("b", Schema::array(Schema::any())),
        Field::optional("c", Schema::string()),
    ])
}

#[test]
fn a_refusal_builds_its_hint_only_when_asked() {
    let model = text_model();
    let text = br#"{"a": "many"}"#;
    let eager = decode_text(&model, text, &Options::default()).unwrap_err();
    assert!(
        eager.hint.get().is_some(),
        "a borrowed model's hint is built at once"
    );
    let shared = std::sync::Arc::new(model.clone());
    let lazy = decode_text_refused(&shared, text, &Options::default())
        .unwrap_err()
        .with_model(HintModel::Shared(shared.clone()));
    assert!(
        lazy.hint.get().is_none(),
        "nothing built before it is asked for"
    );
    assert_eq!(lazy.clone().hint(), eager.hint());
    assert_eq!(lazy.hint(), eager.hint());
    assert!(lazy.hint.get().is_some());
    assert_eq!(lazy, eager);
}

//! Values held as JSON and checked against a schema given as text: `#[tool(schema = "...")]`.
//!
//! - On a field of type `serde_json::Value` (or `Option` of one): the field's schema is the
//!   JSON Schema text (draft 2020-12, with its own `$defs` if it needs them), read by the
//!   same reader as the run-time road. Decoding repairs and checks the value against it,
//!   `validate()` checks it with the run-time value checker. The text holds every
//!   constraint, `null`, the default, the examples and the description: no other
//!   constraint key goes beside it, and the doc comment is for readers only (a
//!   `description = "..."` key still overrides the text's).
//! - On `struct Name(serde_json::Value);` with `name`: a tool whose arguments are that JSON
//!   value (a union of object shapes, say, that serde cannot read as a Rust type).
//!
//! The schema compiler writes both where serde cannot express a shape; the text is read here,
//! at compile time, so a schema the model cannot read is an error at the literal.

use syn::{Fields, LitStr};
use toolgate_core::model::read::read_value_schema;
use toolgate_core::model::Json;

use super::attrs::{error_at, RawField};
use super::constraints::Setter;
use super::plan::CheckedTool;

/// The schema text of a field, once read; `None` after an error.
pub(super) fn plan_field(
    text: &LitStr,
    setters: &[Setter],
    raw: &RawField,
    errors: &mut darling::error::Accumulator,
) -> Option<String> {
    if !setters.is_empty() || !raw.example.is_empty() || raw.nullable.is_present() {
        errors.push(error_at(text, "`schema` gives the field's whole schema: write its constraints, `null`, default and examples in the schema text, not beside it"));
        return None;
    }
    read(text, errors)
}

/// The tool of `struct Name(serde_json::Value);` with `#[tool(schema = "...")]`.
pub(super) fn plan_tool(
    data: &syn::DataStruct,
    text: &LitStr,
    tool_name: String,
    errors: &mut darling::error::Accumulator,
) -> Option<CheckedTool> {
    let field = match &data.fields {
        Fields::Unnamed(fields) if fields.unnamed.len() == 1 => &fields.unnamed[0],
        fields => {
            errors.push(error_at(
                fields,
                "`schema` on a struct gives the whole arguments as one JSON value: write `struct Name(serde_json::Value);`",
            ));
            return None;
        }
    };
    if let Some(tool) = field.attrs.iter().find(|a| a.path().is_ident("tool")) {
        errors.push(error_at(
            &tool.meta,
            "the struct's `schema` says everything about its value",
        ));
    }
    let text = read(text, errors)?;
    Some(CheckedTool {
        tool_name,
        text,
        ty: field.ty.clone(),
    })
}

/// The text, when the schema reader takes it as the schema of a value.
fn read(text: &LitStr, errors: &mut darling::error::Accumulator) -> Option<String> {
    let value = text.value();
    // Read as every road reads schema text (integers by their digits, one beyond what a
    // JSON value carries refused).
    let json = match Json::from_schema_text(&value) {
        Ok(json) => json,
        Err(schema_errors) => {
            errors.push(error_at(
                text,
                format!("the schema cannot be read: {schema_errors}"),
            ));
            return None;
        }
    };
    match read_value_schema(&json) {
        Ok(_) => Some(value),
        Err(schema_errors) => {
            errors.push(error_at(
                text,
                format!("the schema cannot be read: {schema_errors}"),
            ));
            None
        }
    }
}

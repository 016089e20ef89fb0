//! Why a schema cannot be read: each reason at its JSON pointer into the schema document.

use std::fmt;

/// One reason a schema cannot be read, at a JSON pointer into the schema document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    /// Where in the schema: `/properties/origin/pattern`.
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_at_pointer(f, &self.pointer, &self.message)
    }
}

/// `<pointer>: <message>`, the empty pointer (the whole document) shown as `(root)`: how
/// schema errors and warnings are written.
pub(crate) fn write_at_pointer(
    f: &mut fmt::Formatter<'_>,
    pointer: &str,
    message: &str,
) -> fmt::Result {
    let pointer = if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    };
    write!(f, "{pointer}: {message}")
}

/// Every reason a schema cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", display_lines(.0))]
pub struct SchemaErrors(pub Vec<SchemaError>);

fn display_lines(errors: &[SchemaError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl SchemaErrors {
    pub(crate) fn syntax(error: serde_json::Error) -> Self {
        let text = error.to_string();
        let message = if text.starts_with("recursion limit exceeded") {
            // serde_json's own recursion limit, which toolgate keeps on.
            format!(
                "the schema nests more than {} objects and arrays ({text})",
                crate::limits::MAX_DEPTH
            )
        } else {
            format!("not JSON: {text}")
        };
        SchemaErrors(vec![SchemaError {
            pointer: String::new(),
            message,
        }])
    }
}

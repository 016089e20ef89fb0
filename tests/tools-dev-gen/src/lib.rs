//! Every tool of the tools-dev corpus copy that the schema compiler takes, compiled from
//! `build.rs` (see there), with a table from corpus lines to the generated types.

#![allow(missing_docs)]
// The doc comments are real schemas' descriptions, Markdown as their authors wrote it (lists
// whose continuation lines are not indented); the generated items allow clippy's list lints
// themselves.

use serde::de::DeserializeOwned;
use toolgate::{Decoded, Rejected, Tool};

include!(concat!(env!("OUT_DIR"), "/tools_dev.rs"));

mod index {
    use super::*;

    include!(concat!(env!("OUT_DIR"), "/tools_dev_index.rs"));
}

pub use index::{decode, model, LINE_TOOLS, REFUSED, TOOLS};

/// Decodes with `T` and gives the value back as JSON, so every tool answers alike.
fn typed<T: Tool + DeserializeOwned>(
    arguments: &str,
) -> Result<Decoded<serde_json::Value>, Rejected> {
    T::decode(arguments).map(|decoded| Decoded {
        value: decoded.value.to_json_value(),
        repairs: decoded.repairs,
        repairs_left_out: decoded.repairs_left_out,
    })
}

//! Every tool of the BFCL corpus copy, compiled by the schema compiler from `build.rs`
//! (see `build.rs`), with a table from corpus lines to the generated types.

#![allow(missing_docs)]
// The golden `shared_fan_out` nests 40 structs, each holding the next in a box: proving
// `Send` for the outermost (rustdoc does it for every type) takes about 4 steps per level,
// more than the default limit of 128.
#![recursion_limit = "256"]

use serde::de::DeserializeOwned;
use toolgate::{Decoded, Rejected, Tool};

include!(concat!(env!("OUT_DIR"), "/bfcl_tools.rs"));

mod index {
    use super::*;

    include!(concat!(env!("OUT_DIR"), "/bfcl_index.rs"));
}

/// The types of the schema goldens (`tests/schemas/`, `goldens/gen__*.snap`): they compile
/// without warnings.
#[deny(warnings)]
pub mod goldens {
    include!(concat!(env!("OUT_DIR"), "/golden_tools.rs"));
    include!(concat!(env!("OUT_DIR"), "/golden_index.rs"));
}

pub use index::{decode, model, LINE_TYPES, TOOLS};

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

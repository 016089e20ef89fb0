//! The core of [toolgate](https://docs.rs/toolgate): the tool model, issues, checks and retry
//! hints. Use it through the `toolgate` crate, which re-exports what a user needs of it next
//! to `#[derive(Tool)]`; this crate exists apart so that the code generator can share the
//! model without a dependency cycle (`toolgate` → `toolgate-macros` → `toolgate-codegen` →
//! `toolgate-core`).
//!
//! Its API beyond what `toolgate` re-exports serves toolgate's own crates (the code
//! generator, the CLI, the tests and benches) and changes with them: it is not a stable API.
//!
//! - [`model`]: the [`ToolModel`](model::ToolModel), one description of a tool's arguments,
//!   with its JSON Schema writer and reader.
//! - [`Issue`], [`Path`], [`Constraint`], [`Report`]: refusals as data.
//! - [`ToolArg`] and [`Tool`]: what `#[derive(Tool)]` implements.
//! - [`plan`]: a model compiled once for walking (key tables, references followed).
//! - [`Checker`]: one pass over a value, every issue collected.
//! - [`RetryHint`]: the capped hint a model reads.
//!
//! Numbers are never changed on the way through: toolgate turns on serde_json's
//! `float_roundtrip` feature, so a float read from JSON text is exactly the float that text
//! was written from (serde_json's default parser may be one unit in the last place off).
//! It takes that feature because the round trip cannot be had otherwise without reading every
//! number twice; the feature only makes other parses in the user's build more exact. It does
//! **not** take `unbounded_depth`: Cargo unifies features across a build, and that one would
//! lift serde_json's recursion limit for every parse in the user's program. Depth is counted
//! by toolgate's own reader, below serde_json's limit ([`decode::MAX_DEPTH`]).
//!
//! The gate is a trust boundary (DESIGN.md, 'Trust boundary'): no input makes it panic,
//! overflow its stack, run for seconds or grow memory past its documented limits (the
//! 'Limits and guarantees', `runtime/docs/limits.md`); it never loses or invents a value.

#![warn(missing_docs)]
// docs.rs builds with `--cfg docsrs`: each feature-gated item is labelled with its feature.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod arg;
pub mod check;
pub mod decode;
mod dynamic;
pub mod flavour;
pub mod format;
pub mod hint;
pub mod issue;
mod lenient;
mod limits;
pub mod model;
mod nullable;
pub mod num;
pub mod path;
pub mod plan;
pub mod provider;
mod read;
pub mod streaming;
pub mod suggest;
#[cfg(test)]
mod test_support;
pub mod values;

pub use arg::{Never, ObjectWriter, Tool, ToolArg, ToolOutput};
pub use check::Checker;
pub use decode::{Decoded, Rejected, Repair, Rule};
pub use dynamic::{schema_refusal, DynamicTool, ToolCache};
pub use hint::{FieldHint, HintReason, RetryHint};
pub use issue::{Constraint, Issue, Report};
pub use lenient::Lenient;
pub use nullable::Nullable;
pub use path::{Path, Segment};

/// The typed reader: what generated code calls; not a public API.
#[doc(hidden)]
pub mod __typed {
    pub use crate::read::typed::{
        read_decided, read_valid, ArrayRead, ObjectRead, Read, ReadFn, Reader, Unread,
    };
}

/// The readers of argument text, for the benchmarks that compare them with serde_json's
/// (`benches/examples/instructions.rs`); not a public API.
#[doc(hidden)]
pub mod __bench {
    /// Reads a whole text, strict or lenient, into a tree as the run-time road does; whether
    /// it was strict JSON.
    pub fn read_text(text: &str) -> bool {
        crate::decode::read_whole(text, crate::decode::MAX_DEPTH).is_ok()
    }

    /// Reads strict JSON text into the same tree by serde_json's reader.
    pub fn read_text_by_serde_json(text: &str) -> bool {
        crate::decode::parse_strict(text, crate::decode::MAX_DEPTH).is_ok()
    }
}

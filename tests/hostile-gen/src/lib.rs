//! Hostile tool schemas (`schemas/`), compiled by the schema compiler from `build.rs` into
//! the public items of this edition-2024 library, with warnings denied.
//!
//! Schemas come from other people's servers. The build guards what the generated code must
//! do with them:
//! - `cargo build` (warnings denied): property `gen`, names that tripped rustc's lints,
//!   carriage returns and bidirectional controls in descriptions, wide integer bounds and
//!   `multipleOf: 0.5` on integers all compile;
//! - `cargo test`: no description became a doctest (each code block the schemas hold would
//!   fail the run: `compile_error!` or a panic);
//! - `RUSTDOCFLAGS=-Dwarnings cargo doc`: no description trips a rustdoc lint (bare URLs,
//!   HTML, broken links);
//! - `tests/roundtrip.rs`: every generated type reports its schema's descriptions and
//!   constraints exactly.

#![deny(warnings)]

include!(concat!(env!("OUT_DIR"), "/toolgate_tools.rs"));

/// The generated types, for the round trip.
pub mod index {
    include!(concat!(env!("OUT_DIR"), "/tool_index.rs"));
}

//! Checking values against the model: [`Checker`] walks a value with its schema, keeps the
//! path, and collects every [`Issue`](crate::Issue) in one pass. A hand-written
//! [`ToolArg::check`](crate::ToolArg::check) calls it; `validate()` and the decoders run it.

#[doc(inline)]
pub use toolgate_core::check::Checker;

//! Provider schema flavours: a tool's JSON Schema as one provider accepts it
//! ([`ToolModel::schema_for`](crate::model::ToolModel::schema_for)), with a report of every
//! keyword the flavour removed, moved into a description or rewrote, and the definitions of
//! one request ([`request_definitions`]); the providers that take each flavour
//! ([`Flavour::providers`], [`Provider::flavours`]) and their envelopes
//! ([`Provider::definition`]).

#[doc(inline)]
pub use toolgate_core::flavour::{
    request_definitions, Action, Dropped, Flavour, FlavourError, FlavouredSchema, Lint, Loss,
    SchemaSize, MAX_DESCRIBED_CHARS, MAX_FLAVOURED_BYTES, MAX_INLINED_DEPTH, MAX_INLINED_NODES,
};

/// A provider's API (its definition envelope and its message shapes) and the flavours it
/// takes: see `toolgate_core::provider` for where each provider lives.
#[doc(inline)]
pub use toolgate_core::provider::Provider;

use crate::Tool;

/// Panics, listing each one, when `flavour` loses something of `T`'s schema: a constraint it
/// takes out of the schema the provider sees (the gate still enforces it), or the reason it
/// cannot express the tool. For a unit test of a derived tool, as
/// `toolgate_codegen::Builder::flavour(flavour, Lint::Deny)` is for compiled schemas.
///
/// ```
/// use toolgate::flavour::{assert_flavour, Flavour};
///
/// #[derive(toolgate::Tool)]
/// struct Note {
///     #[tool(length(max = 500))]
///     text: String,
/// }
///
/// assert_flavour::<Note>(Flavour::Anthropic);
/// let strict = std::panic::catch_unwind(|| assert_flavour::<Note>(Flavour::OpenAiStrict));
/// assert!(strict.is_err());
/// ```
#[track_caller]
pub fn assert_flavour<T: Tool>(flavour: Flavour) {
    let losses = T::model().flavour_losses(flavour);
    if !losses.is_empty() {
        let lines: Vec<String> = losses.iter().map(|loss| format!("  {loss}")).collect();
        panic!(
            "{} in {flavour} loses {} constraint(s) or cannot be sent:\n{}",
            T::model().name(),
            losses.len(),
            lines.join("\n")
        );
    }
}

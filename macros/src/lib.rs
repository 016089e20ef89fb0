//! `#[derive(Tool)]` for [toolgate](https://docs.rs/toolgate). Use it through
//! `toolgate::Tool`; the expansion lives in `toolgate-codegen`.

use proc_macro::TokenStream;

/// Derives the tool model, JSON Schema, checks and retry hints of a struct (the arguments of
/// a tool) or a unit enum (a value inside them). See the `toolgate` crate for the attributes.
///
/// `serde` is a helper attribute too (as for schemars), so `#[serde(rename_all = ...)]` and
/// friends are read even on types that do not derive serde's traits.
#[proc_macro_derive(Tool, attributes(tool, serde))]
pub fn derive_tool(input: TokenStream) -> TokenStream {
    toolgate_codegen::derive_tool(input.into()).into()
}

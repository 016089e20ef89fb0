//! The code generator behind [toolgate](https://docs.rs/toolgate): Rust items → the tool
//! model → checked → Rust tokens. `toolgate-macros` is a thin shim over [`derive_tool`].
//!
//! Stages are named after what they do: the derive input is parsed (darling for
//! `#[tool(...)]`, syn for `#[serde(...)]`), checked (types, constraint fit, bounds, patterns,
//! with every error collected at its span), then emitted as small code calling the
//! `toolgate` runtime.

#![warn(missing_docs)]

mod derive;
pub mod rename;
pub mod schema;

pub use derive::derive_tool;
pub use schema::{Builder, Error, Generated, GeneratedTool};
pub use toolgate_core::flavour::{Flavour, Lint};

/// Expands `#[derive(Tool)]` on the item in `source` and formats the result with
/// prettyplease, for goldens and for reading what the derive writes.
///
/// ```
/// let code = toolgate_codegen::expand_derive_to_string("struct Ping { count: u8 }").unwrap();
/// assert!(code.contains("impl ::toolgate::Tool for Ping"));
/// ```
pub fn expand_derive_to_string(source: &str) -> Result<String, String> {
    let tokens: proc_macro2::TokenStream = source.parse().map_err(|error| format!("{error}"))?;
    let expanded = derive_tool(tokens);
    let file: syn::File =
        syn::parse2(expanded.clone()).map_err(|error| format!("{error}: {expanded}"))?;
    Ok(prettyplease::unparse(&file))
}

//! Gemini: the function declaration, and the rewrites for its two schema fields
//! ([`Flavour::Gemini`]'s `parameters`, an OpenAPI 3.0
//! `Schema`, and [`Flavour::GeminiJson`]'s
//! `parametersJsonSchema`; rules in [`crate::flavour`]'s notes). The message shapes are in
//! `toolgate::boundary::messages` (`gemini.rs`).

use crate::flavour::Flavour;
use crate::model::Json;

pub(crate) mod schema;

pub use schema::{MAX_INLINED_DEPTH, MAX_INLINED_NODES};

/// The key of a JSON Schema arguments schema (`parameters` holds the OpenAPI one).
pub(crate) const PARAMETERS_JSON_SCHEMA: &str = "parametersJsonSchema";

/// A function declaration: `{name, description, parameters}` or `{name, description,
/// parametersJsonSchema}`.
pub(crate) fn declaration(mut named: Vec<(String, Json)>, schema: Json, flavour: Flavour) -> Json {
    let key = match flavour {
        Flavour::GeminiJson => PARAMETERS_JSON_SCHEMA,
        _ => super::openai::PARAMETERS,
    };
    named.push((key.to_owned(), schema));
    Json::Object(named)
}

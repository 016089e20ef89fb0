//! Anthropic: the tool's envelope (Messages API) and strict tool use's rewrite and request
//! limits ([`Flavour::AnthropicStrict`](crate::flavour::Flavour::AnthropicStrict), rules in
//! [`crate::flavour`]'s notes). The message shapes are in `toolgate::boundary::messages`
//! (`anthropic.rs`).

use crate::model::Json;

pub(crate) mod strict;

/// The key of the arguments schema.
pub(crate) const INPUT_SCHEMA: &str = "input_schema";

/// `{name, description, input_schema}`, with `"strict": true` for strict tool use.
pub(crate) fn definition(mut named: Vec<(String, Json)>, schema: Json, strict: bool) -> Json {
    named.push((INPUT_SCHEMA.to_owned(), schema));
    if strict {
        named.push(super::strict_member());
    }
    Json::Object(named)
}

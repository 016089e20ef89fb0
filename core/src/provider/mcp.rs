//! MCP: a tool as `tools/list` gives it ([`Flavour::Mcp`](crate::flavour::Flavour::Mcp),
//! specification 2025-11-25). The server and the proxy are `toolgate::mcp`.

use crate::model::Json;

/// The key of the arguments schema.
pub(crate) const INPUT_SCHEMA: &str = "inputSchema";

/// The key of the result's schema.
pub(crate) const OUTPUT_SCHEMA: &str = "outputSchema";

/// `{name, description, inputSchema}`.
pub(crate) fn definition(mut named: Vec<(String, Json)>, schema: Json) -> Json {
    named.push((INPUT_SCHEMA.to_owned(), schema));
    Json::Object(named)
}

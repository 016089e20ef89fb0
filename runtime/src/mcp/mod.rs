//! A [`Toolbox`] served as an MCP server (feature `mcp`, rmcp 3).
//!
//! [`McpServer`] implements rmcp's `ServerHandler`:
//! - `tools/list` gives each tool's `inputSchema`, and its `outputSchema` when it declares one,
//!   in the MCP flavour (see [`crate::flavour::Flavour::Mcp`]: `type: object` at the root, the
//!   tool's name and description said once);
//! - `tools/call` goes through the gate. A refused call, an unknown tool, a spent budget, a
//!   denial or a tool's failure comes back as a tool result with `isError: true` whose first
//!   text content is the [`Envelope`]'s JSON — never a JSON-RPC protocol error. The
//!   2025-11-25 specification asks for input-validation errors as tool results, so the model
//!   reads them and can correct the call; it lists an unknown tool among protocol errors, but
//!   toolgate answers it as a tool result too, so the model reads the "did you mean" (a choice
//!   of toolgate's, made for the model's sake).
//! - A success carries the tool's result as `structuredContent` and a text copy of it (the
//!   JSON); a result that is not an object (MCP's `structuredContent` is one) is sent as the
//!   text alone.
//!   The repairs made to the arguments are in the result's `_meta`, under
//!   `io.toolgate/repairs` (and `io.toolgate/output_repairs` for the result's own); the
//!   defaults filled in for fields the call left out, which are no repairs, under
//!   `io.toolgate/defaults`.
//! - One server is one run of its toolbox: budgets count across the session (rmcp serves one
//!   handler per connection; make a server per connection with [`McpServer::new`]).
//!
//! ```no_run
//! use rmcp::ServiceExt;
//! use toolgate::boundary::Toolbox;
//! use toolgate::mcp::McpServer;
//!
//! /// Add two numbers.
//! #[derive(toolgate::Tool, serde::Deserialize)]
//! struct Add { a: i64, b: i64 }
//!
//! # async fn serve() -> Result<(), Box<dyn std::error::Error>> {
//! let mut toolbox = Toolbox::new();
//! toolbox.add_tool(|args: Add| async move { Ok::<_, String>(args.a + args.b) })?;
//! McpServer::new(toolbox, "calculator").serve(toolgate::mcp::stdio()).await?.waiting().await?;
//! # Ok(())
//! # }
//! ```
//!
//! What the gate sees: serve the server with toolgate's [`TextTransport`] ([`stdio`] for
//! stdin and stdout), and the gate reads each call's `arguments` byte for byte as the client
//! sent them: a key sent twice is refused, `2.0000000000000001` is not rounded to `2`, the
//! size limit counts the bytes sent, arguments sent as a JSON string holding an object are
//! decoded (`double_encoded`), and every request is answered. Served with another transport
//! (rmcp's own for `(stdin, stdout)`), the arguments reach `call_tool` parsed by rmcp, and
//! the gate reads them written again: keys sorted, repeated keys collapsed, numbers as
//! `serde_json` holds them.
//!
//! The other way, with rmcp's own `#[tool]` macros: `Parameters<Lenient<T>>` gives a tool
//! toolgate's repairs, and `T`'s schema (`Lenient<T>` implements `schemars::JsonSchema` with
//! this feature). A refusal is then rmcp's: a tool result with `isError: true` whose text is
//! the full report. `examples/servers/mcp_rmcp_macros.rs` shows it.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool as McpTool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::boundary::{Call, Envelope, Toolbox};
#[cfg(test)]
use crate::boundary::{Failure, Reason};

mod batch;
#[cfg(feature = "axum")]
mod http;
mod ids;
mod incoming;
use incoming::ArgumentsText;
mod lines;
mod listing;
mod message;
#[cfg(feature = "mcp-proxy")]
mod proxy;
mod transport;

#[cfg(feature = "axum")]
pub use http::streamable_http;
pub use ids::MAX_IN_FLIGHT;
#[cfg(feature = "mcp-proxy")]
pub use proxy::{Proxy, LISTING_WAIT, MAX_LISTED_TOOLS, MAX_LISTING_BYTES, MAX_LISTING_PAGES};
pub use transport::{stdio, TextTransport, MAX_LINE_BYTES};

/// A [`Toolbox`] as an MCP server: see the module's notes.
#[derive(Clone, Debug)]
pub struct McpServer {
    toolbox: Arc<Toolbox>,
    /// The tools as `tools/list` gives them, written once (see [`listing::listing`]).
    listing: Arc<[McpTool]>,
    name: String,
    version: String,
    instructions: Option<String>,
}

impl McpServer {
    /// A server named `name` (version: toolgate's) serving `toolbox`.
    pub fn new(toolbox: Toolbox, name: impl Into<String>) -> Self {
        McpServer {
            listing: listing::listing(&toolbox).into(),
            toolbox: Arc::new(toolbox),
            name: name.into(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            instructions: None,
        }
    }

    /// The same server reporting this version.
    pub fn with_version(mut self, version: impl Into<String>) -> Self {
        self.version = version.into();
        self
    }

    /// The same server with instructions for the client (sent at `initialize`).
    pub fn with_instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// The toolbox served.
    pub fn toolbox(&self) -> &Toolbox {
        &self.toolbox
    }

    /// The MCP result of an envelope (see the module's notes).
    ///
    /// A value nested past [`MAX_RESULT_DEPTH`](crate::boundary::MAX_RESULT_DEPTH) (an envelope the toolbox made never holds
    /// one; one built by hand may) is not copied or written: the result is a
    /// `malformed_response` with a `limit` issue instead.
    pub fn result_of(envelope: &Envelope) -> CallToolResult {
        // One writer of MCP results: the messages' (`Provider::Mcp`), read into rmcp's type.
        let written = crate::boundary::messages::mcp_tool_result(envelope);
        let mut result: CallToolResult = serde_json::from_value(written).unwrap_or_else(|error| {
            let text = format!("the tool's result cannot be written as an MCP result: {error}");
            CallToolResult::error(vec![ContentBlock::text(text)])
        });
        // MCP 2026-07-28 requires it of every result; rmcp leaves it out for a client of the
        // handshake era.
        result.result_type = Some(rmcp::model::ResultType::COMPLETE);
        result
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        let config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(self.name.clone(), self.version.clone()));
        match &self.instructions {
            Some(instructions) => config.with_instructions(instructions.clone()),
            None => config,
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.listing.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<McpTool> {
        let found = self.listing.iter().find(|tool| tool.name == name);
        found.cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        mut context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // The text as sent, when toolgate's transport kept it; else the parsed arguments
        // written again (see the module's notes).
        let arguments = match (kept_arguments(&mut context), request.arguments) {
            (Some(ArgumentsText(text)), _) => text,
            (None, arguments) => {
                warn_once_without_text();
                arguments.map_or_else(|| "{}".to_owned(), |a| Value::Object(a).to_string())
            }
        };
        let envelope = self
            .toolbox
            .call_with(Call::new(request.name.into_owned(), arguments))
            .await;
        Ok(McpServer::result_of(&envelope).into())
    }
}

/// Says once per process, as a `tracing` warning, that calls arrive without the text the
/// client sent: the server is served with a transport other than toolgate's (rmcp's own
/// stdio transport parses each message first), so repeated keys are collapsed and numbers
/// read through a float before the gate sees them.
fn warn_once_without_text() {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        tracing::warn!(
            "a tools/call arrived without the text the client sent: serve the McpServer with \
             toolgate::mcp::stdio() or streamable_http(), or the gate reads the arguments as \
             rmcp wrote them again (repeated keys collapsed, numbers read through a float)"
        );
    });
}

/// The arguments' text toolgate's transport kept for a call: in the request's extensions
/// (stdio), or in its HTTP request's (Streamable HTTP, whose parts rmcp passes on).
fn kept_arguments(context: &mut RequestContext<RoleServer>) -> Option<ArgumentsText> {
    if let Some(kept) = context.extensions.remove::<ArgumentsText>() {
        return Some(kept);
    }
    #[cfg(feature = "axum")]
    if let Some(parts) = context.extensions.get_mut::<axum::http::request::Parts>() {
        return parts.extensions.remove::<ArgumentsText>();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_that_is_not_an_object_is_sent_as_text() {
        let result = McpServer::result_of(&Envelope::success("add", Value::from(5), Vec::new()));
        assert_eq!(result.structured_content, None);
        assert_eq!(result.is_error, Some(false));
        assert_eq!(
            result.content[0].as_text().map(|t| t.text.as_str()),
            Some("5")
        );
        let object = serde_json::json!({"sum": 5});
        let result = McpServer::result_of(&Envelope::success("add", object.clone(), Vec::new()));
        assert_eq!(result.structured_content, Some(object));
    }

    /// The server's results are the messages' MCP results (`Provider::Mcp`, JSON without
    /// rmcp) read into rmcp's type: nothing is lost on the way, for every kind of envelope.
    #[test]
    fn the_server_sends_the_results_the_messages_write() {
        let tool = toolgate_core::DynamicTool::from_definition(&serde_json::json!({"name": "n",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}))
        .unwrap();
        let decoded = tool.decode(r#"{"n": "2"}"#).unwrap();
        let rejected = tool.decode(r#"{"n": "two"}"#).unwrap_err();
        let envelopes = [
            Envelope::success("n", decoded.value.clone(), decoded.repairs.clone()),
            Envelope::success("n", Value::from(5), decoded.repairs),
            Envelope::success("n", Value::Null, Vec::new()),
            Envelope::failure(
                "n",
                Failure::new(Reason::InvalidArguments, "refused")
                    .with_issues(rejected.report.issues().to_vec()),
                Some(rejected.hint().clone()),
            ),
        ];
        for envelope in &envelopes {
            let mut server = serde_json::to_value(McpServer::result_of(envelope)).unwrap();
            // rmcp's own marker of a result that is not a task's.
            server.as_object_mut().unwrap().remove("resultType");
            let written = crate::boundary::messages::mcp_tool_result(envelope);
            assert_eq!(server, written, "{}", envelope.to_json());
        }
    }

    #[test]
    fn a_hand_built_result_nested_too_deep_is_malformed_not_copied() {
        let mut deep = Value::Null;
        for _ in 0..20_000 {
            deep = Value::Array(vec![deep]);
        }
        let envelope = Envelope::success("add", deep, Vec::new());
        let result = McpServer::result_of(&envelope);
        assert_eq!(result.is_error, Some(true));
        let text = result.content[0].as_text().map(|t| t.text.clone()).unwrap();
        assert!(text.contains("malformed_response"), "{text}");
        // Dropped without recursion (a 20,000-level value overflows the test's stack).
        let Envelope { value, .. } = envelope;
        std::mem::forget(value);
    }

    #[test]
    fn a_failure_is_a_tool_error_carrying_the_envelope() {
        let envelope = Envelope::failure("add", Failure::new(Reason::Timeout, "slow"), None);
        let result = McpServer::result_of(&envelope);
        assert_eq!(result.is_error, Some(true));
        let text = result.content[0].as_text().map(|t| t.text.clone());
        assert_eq!(text, Some(envelope.to_json()));
    }
}

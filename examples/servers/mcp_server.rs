//! An MCP server on stdio serving `book_flight` and `get_weather` through toolgate's gate.
//!
//! `cargo run -q --example mcp_server`, then speak MCP on its stdin and stdout (a client such
//! as the MCP Inspector, Claude Desktop, or `python_client.py` beside this file starts it).
//! A refused call comes back as a tool result with `isError: true` and the envelope's JSON.

use rmcp::ServiceExt;
use toolgate::mcp::{stdio, McpServer};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = McpServer::new(toolgate_example_servers::toolbox(), "toolgate-example")
        .with_instructions("Flights and weather. Arguments are checked; refusals say what to fix.");
    // Only the protocol goes to stdout. toolgate's transport hands the gate each call's
    // arguments as the client sent them, and answers every request line.
    let running = server.serve(stdio()).await?;
    running.waiting().await?;
    Ok(())
}

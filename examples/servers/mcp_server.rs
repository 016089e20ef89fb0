//! An MCP server serving `book_flight` and `get_weather` through toolgate's gate, over stdio
//! or over Streamable HTTP.
//!
//! `cargo run -q --example mcp_server`, then speak MCP on its stdin and stdout (a client such
//! as the MCP Inspector, Claude Desktop, or `python_client.py` beside this file starts it).
//! `cargo run -q --example mcp_server -- --http 127.0.0.1:8080` serves Streamable HTTP at
//! `http://127.0.0.1:8080/mcp` instead (it prints the address; port 0 picks a free one;
//! `http_client.py` beside this file calls it).
//! A refused call comes back as a tool result with `isError: true` and the envelope's JSON.

use rmcp::ServiceExt;
use toolgate::mcp::{stdio, streamable_http, McpServer};

fn server() -> McpServer {
    McpServer::new(toolgate_example_servers::toolbox(), "toolgate-example")
        .with_instructions("Flights and weather. Arguments are checked; refusals say what to fix.")
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, address] = arguments.as_slice() {
        if flag == "--http" {
            // Each session is one run of its own toolbox.
            let app = streamable_http("/mcp", server, Default::default());
            let listener = tokio::net::TcpListener::bind(address.as_str()).await?;
            println!("listening on http://{}/mcp", listener.local_addr()?);
            axum::serve(listener, app).await?;
            return Ok(());
        }
    }
    // Only the protocol goes to stdout. toolgate's transport hands the gate each call's
    // arguments as the client sent them, and answers every request line.
    let running = server().serve(stdio()).await?;
    running.waiting().await?;
    Ok(())
}

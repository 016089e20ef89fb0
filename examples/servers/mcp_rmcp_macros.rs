//! The other way to serve a toolgate type over MCP: rmcp's own `#[tool]` macros, with
//! `Parameters<Lenient<BookFlight>>`. The tool gets toolgate's repairs and advertises
//! `BookFlight`'s schema (`Lenient<T>` implements `schemars::JsonSchema` with the `mcp`
//! feature); a refusal is rmcp's tool error, whose text is the full report.
//!
//! `cargo run -q --example mcp_rmcp_macros` serves it on stdio. For the envelope, budgets and
//! middleware, serve a `Toolbox` instead (`mcp_server`).

use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_handler, tool_router, ServerHandler, ServiceExt};
use toolgate::Lenient;
use toolgate_example_servers::{book, BookFlight};

#[derive(Debug, Clone)]
struct Flights;

#[tool_router]
impl Flights {
    /// Book a flight for one or more passengers.
    #[tool(name = "book_flight")]
    async fn book_flight(
        &self,
        Parameters(flight): Parameters<Lenient<BookFlight>>,
    ) -> Result<String, String> {
        let answer = serde_json::json!({"value": book(&flight), "repairs": flight.repairs});
        Ok(answer.to_string())
    }
}

#[tool_handler(name = "toolgate-rmcp-macros", version = "0.1.0")]
impl ServerHandler for Flights {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let running = Flights
        .serve((tokio::io::stdin(), tokio::io::stdout()))
        .await?;
    running.waiting().await?;
    Ok(())
}

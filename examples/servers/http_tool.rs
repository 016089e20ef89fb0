//! `book_flight` as an HTTP endpoint gated by toolgate, and the whole toolbox under `/tools`.
//!
//! `cargo run -q --example http_tool` serves on `127.0.0.1:$PORT` (default 3000) and prints
//! `listening on http://ADDRESS` first:
//! - `POST /book_flight` takes the arguments as the body (the `Gated<BookFlight>` extractor):
//!   `200` with the booking and the repairs, or `422` with an `application/problem+json` body;
//! - `GET /tools` lists the tools; `POST /tools/{name}` answers the call's envelope.

use std::sync::Arc;

use axum::routing::post;
use axum::{Json, Router};
use serde_json::{json, Value};
use toolgate::http::{router, Gated};
use toolgate_example_servers::{book, toolbox, BookFlight};

async fn book_flight(flight: Gated<BookFlight>) -> Json<Value> {
    Json(json!({"value": book(&flight.value), "repairs": flight.repairs}))
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port: u16 = match std::env::var("PORT") {
        Ok(port) => port.parse()?,
        Err(_) => 3000,
    };
    let app = Router::new()
        .route("/book_flight", post(book_flight))
        .merge(router(Arc::new(toolbox())));
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    println!("listening on http://{}", listener.local_addr()?);
    axum::serve(listener, app).await?;
    Ok(())
}

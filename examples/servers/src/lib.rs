//! The tools the example servers serve: `book_flight` (the quickstart's type, a typed tool)
//! and `get_weather` (a run-time tool read from `tools/get_weather.json`, an MCP definition
//! with an `outputSchema`).
//!
//! - `cargo run -q --example mcp_server`: an MCP server on stdio.
//! - `cargo run -q --example http_tool`: an HTTP server on `127.0.0.1:$PORT` (default 3000).
//! - `cargo run -q --example boundary_tracing`: the boundary's `tracing` events of a few calls.
//! - `cargo run -q --example agent_loop`: the repair loop's layers at work, offline with a
//!   scripted model, or one agent turn against `OPENAI_BASE_URL` when it is set.
//! - `cargo run -q --example mcp_rmcp_macros`: the same `book_flight` with rmcp's own
//!   `#[tool]` macros and `Parameters<Lenient<BookFlight>>`.

pub mod agent;
pub mod raw_client;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use toolgate::boundary::{Budgets, Toolbox};
use toolgate::Tool;

/// Book a flight for one or more passengers.
#[derive(Tool, Deserialize, Serialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct BookFlight {
    /// Airport the flight leaves from (3-letter IATA code)
    #[tool(pattern = "^[A-Z]{3}$")]
    pub origin: String,
    /// Airport the flight arrives at (3-letter IATA code)
    #[tool(pattern = "^[A-Z]{3}$")]
    pub destination: String,
    /// Day of departure
    #[tool(format = "date")]
    pub date: String,
    /// Number of travellers
    #[tool(range(min = 1, max = 9))]
    pub passengers: u8,
    /// Cabin class
    pub cabin: Cabin,
}

/// Cabin class
#[derive(Tool, Deserialize, Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Cabin {
    /// The back of the plane.
    Economy,
    /// A little more room.
    PremiumEconomy,
    /// The front.
    Business,
    /// The very front.
    First,
}

/// The booking reference of a flight (made up from its arguments).
pub fn book(flight: &BookFlight) -> Value {
    json!({
        "booking": format!("{}-{}-{}", flight.origin, flight.destination, flight.date),
        "passengers": flight.passengers,
        "cabin": flight.cabin,
    })
}

/// The binary of one of this package's examples, as `cargo test` builds it beside the
/// running test (`target/<profile>/examples/<name>`): the tests start the servers with it.
pub fn built_example(name: &str) -> std::path::PathBuf {
    let test = std::env::current_exe().expect("the test's own path");
    let profile = test
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>");
    profile.join("examples").join(name)
}

/// An example server started by a test, stopped when dropped.
pub struct Started(std::process::Child);

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the example `name` with `arguments` and `PORT=0` (a free port); its first line
/// says `listening on ADDRESS`, and the address is returned beside the running server.
pub fn start_listening(name: &str, arguments: &[&str]) -> (Started, String) {
    use std::io::BufRead;
    let mut child = std::process::Command::new(built_example(name))
        .args(arguments)
        .env("PORT", "0")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the example server starts");
    let stdout = child.stdout.take().expect("its stdout");
    let server = Started(child);
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .expect("its first line");
    let address = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    (server, address)
}

/// The definition of `get_weather`, as an MCP server would publish it.
pub const GET_WEATHER: &str = include_str!("../tools/get_weather.json");

/// The toolbox both servers serve: at most 20 calls of each tool per run.
pub fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new().with_budgets(Budgets::new().calls_per_tool(20));
    toolbox
        .add_tool(|flight: BookFlight| async move { Ok::<_, String>(book(&flight)) })
        .expect("book_flight is registered once");
    let definition: Value = serde_json::from_str(GET_WEATHER).expect("get_weather.json is JSON");
    toolbox
        .add_runtime_tool(&definition, |args: Value| async move {
            let units = args
                .get("units")
                .and_then(Value::as_str)
                .unwrap_or("metric");
            let celsius = 15.0 - args["lat"].as_f64().unwrap_or(0.0).abs() / 6.0;
            let temperature = if units == "imperial" {
                celsius * 9.0 / 5.0 + 32.0
            } else {
                celsius
            };
            Ok::<_, String>(
                json!({"temperature": (temperature * 10.0).round() / 10.0, "units": units}),
            )
        })
        .expect("get_weather.json is a usable definition");
    toolbox
}

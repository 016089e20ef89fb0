//! The boundary's telemetry, printed by `tracing-subscriber`: one span per call with the
//! OpenTelemetry GenAI fields, and an event per repair, refusal, budget stop and denial.
//!
//! `cargo run -q --example boundary_tracing` prints the events of four calls to stderr:
//! a repaired call, a refused one, an unknown tool and a call past its budget.

use toolgate::boundary::{Budgets, Call};

#[tokio::main(flavor = "current_thread")]
async fn main() {
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::DEBUG)
        .with_span_events(tracing_subscriber::fmt::format::FmtSpan::CLOSE)
        .with_writer(std::io::stderr)
        .init();
    let toolbox = toolgate_example_servers::toolbox()
        .with_budgets(Budgets::new().calls_for("get_weather", 1));
    let calls = [
        Call::new("book_flight", r#"{"origin": "CDG", "destination": "JFK", "date": "2026-12-01", "passengers": "2", "cabin": "Business"}"#).with_id("call_1"),
        Call::new("book_flight", r#"{"origin": "Paris", "destination": "JFK", "date": "2026-12-01", "passengers": 12, "cabin": "business"}"#).with_id("call_2"),
        Call::new("get_wether", r#"{"lat": 48.85, "lon": 2.35}"#).with_id("call_3"),
        Call::new("get_weather", r#"{"lat": 48.85, "lon": 2.35}"#).with_id("call_4"),
        Call::new("get_weather", r#"{"lat": 51.5, "lon": -0.12}"#).with_id("call_5"),
    ];
    for call in calls {
        let envelope = toolbox.call_with(call).await;
        println!("{}", envelope.to_json());
    }
    println!("{}", toolbox.state_fragment());
}

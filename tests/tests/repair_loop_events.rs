//! The repair loop's tracing events, in a test binary of its own: `tracing` caches whether
//! a callsite is wanted, and tests running at once on other threads without a subscriber
//! would race the one that listens.

#[allow(unused_macros)]
mod boundary_common;

use boundary_common::block_on;
use serde_json::json;
use toolgate::boundary::{
    async_trait, Correction, CorrectionRequest, Corrector, RepairLoop, Toolbox,
};

/// Convert an amount of money from one currency to another.
#[derive(toolgate::Tool, serde::Deserialize)]
struct ConvertCurrency {
    amount: f64,
    #[tool(pattern = "^[A-Z]{3}$")]
    from: String,
    #[tool(pattern = "^[A-Z]{3}$")]
    to: String,
}

/// Knows that "dollars" is USD.
struct Dollars;

#[async_trait]
impl Corrector for Dollars {
    async fn correct(&self, request: CorrectionRequest<'_>) -> Correction {
        Correction::Arguments(request.arguments.replace("dollars", "USD"))
    }
}

#[test]
fn each_attempt_is_a_tracing_event() {
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(|args: ConvertCurrency| async move {
            Ok::<_, String>(
                json!({"converted": args.amount * 0.92, "from": args.from, "to": args.to}),
            )
        })
        .unwrap();
    let repair = RepairLoop::new(&toolbox, Dollars);
    let text = boundary_common::captured_events(|| {
        let looped = block_on(repair.call(
            "convert_currency",
            r#"{"amount": 100, "from": "dollars", "to": "EUR"}"#,
        ));
        assert!(looped.envelope.ok);
    });
    let event = text
        .lines()
        .find(|line| line.contains("toolgate.repair_attempt"))
        .unwrap_or_else(|| panic!("no attempt event in:\n{text}"));
    for field in [
        "tool=\"convert_currency\"",
        "attempt=1",
        "layer=Feedback",
        "issues_before=1",
        "fields_changed=[\"from\"]",
        "issues_after=0",
    ] {
        assert!(event.contains(field), "{field} not in {event}");
    }
}

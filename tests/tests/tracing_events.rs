//! The tracing events of the boundary and of the repair loop, in a test binary of their own
//! where every test listens: `tracing` caches whether a callsite is wanted, and a test
//! running at once on another thread without a subscriber would race the one that listens
//! (a callsite first met there is cached as unwanted).

#[allow(unused_macros)]
mod boundary_common;

use boundary_common::block_on;
use boundary_common::flights::{flights, REFUSED, REPAIRABLE};
use serde_json::json;
use toolgate::boundary::correction::{Correction, CorrectionLoop, CorrectionRequest, Corrector};
use toolgate::boundary::{async_trait, Call, Toolbox};

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
    let repair = CorrectionLoop::new(&toolbox, Dollars);
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

#[test]
fn every_call_is_a_span_with_events_for_repairs_and_refusals() {
    let (toolbox, _) = flights();
    let text = boundary_common::captured_events(|| {
        block_on(toolbox.call_with(Call::new("book_flight", REPAIRABLE).with_id("call_1")));
        block_on(toolbox.call("book_flight", REFUSED));
    });
    for expected in [
        "gen_ai.tool.name=book_flight",
        "gen_ai.tool.call.id=\"call_1\"",
        "gen_ai.operation.name=\"execute_tool\"",
        "toolgate.repair rule=\"string_to_number\" path=passengers",
        "toolgate.refusal reason=\"invalid_arguments\" count=3 constraints=pattern,maximum,required",
        "toolgate.outcome=\"ok\"",
        "toolgate.outcome=\"invalid_arguments\"",
        "toolgate.budget_state calls=1 refused=1 failed=0",
    ] {
        assert!(text.contains(expected), "{expected:?} not in:\n{text}");
    }
    // One event per repair: the repaired call had four.
    assert_eq!(text.matches("toolgate.repair ").count(), 4, "{text}");
}

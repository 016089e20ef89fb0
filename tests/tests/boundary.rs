//! The tool boundary (`toolgate::boundary`): the registry, the envelope of every outcome
//! (goldens in `goldens/envelope__*.snap`), output checks and middleware. Budgets and
//! concurrency are in `boundary_budgets.rs`, the tracing events in `tracing_events.rs`.

#[macro_use]
mod boundary_common;

use std::sync::atomic::Ordering;
use std::sync::Mutex;

use boundary_common::block_on;
use boundary_common::flights::{flights, REFUSED, REPAIRABLE, VALID};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use toolgate::boundary::middleware::{Decision, GatedCall, Middleware, RawCall};
use toolgate::boundary::{async_trait, Call, Envelope, Reason, RegistryError, Toolbox};
use toolgate::hint::HintReason;
use toolgate::Tool;
use toolgate_tests::fixtures::flight::BookFlight;

#[test]
fn a_valid_call_reaches_the_tool_and_a_repaired_one_says_what_was_repaired() {
    let (toolbox, reached) = flights();
    let envelope = block_on(toolbox.call("book_flight", VALID));
    assert!(envelope.ok);
    assert_eq!(
        envelope.value,
        Some(json!({"booking": "BK-1", "passengers": 2}))
    );
    assert!(envelope.repairs.is_empty());

    let envelope =
        block_on(toolbox.call_with(Call::new("book_flight", REPAIRABLE).with_id("call_7")));
    assert!(envelope.ok);
    let rules: Vec<&str> = envelope.repairs.iter().map(|r| r.rule.as_str()).collect();
    assert_eq!(
        rules,
        [
            "string_to_number",
            "enum_case",
            "string_to_bool",
            "json_string"
        ]
    );
    assert_eq!(reached.load(Ordering::SeqCst), 2);
    golden!("envelope__ok", envelope);
}

#[test]
fn a_refused_call_never_reaches_the_tool() {
    let (toolbox, reached) = flights();
    let envelope = block_on(toolbox.call("book_flight", REFUSED));
    assert_eq!(reached.load(Ordering::SeqCst), 0);
    assert_eq!(envelope.reason(), Some(Reason::InvalidArguments));
    let error = envelope.error.as_ref().unwrap();
    let constraints: Vec<&str> = error.issues.iter().map(|i| i.constraint.as_str()).collect();
    assert_eq!(constraints, ["pattern", "maximum", "required"]);
    assert_eq!(
        error.message,
        "missing required field contact; origin: \"Paris\" does not match the pattern ^[A-Z]{3}$ (and 2 more issues)"
    );
    let hint = envelope.hint.as_ref().unwrap();
    assert_eq!(hint.reason, HintReason::InvalidArguments);
    assert_eq!(hint.missing_fields, ["contact"]);
    assert_eq!(toolbox.usage("book_flight").invalid_arguments, 1);
    assert_eq!(toolbox.usage("book_flight").calls, 0);
    golden!("envelope__invalid_arguments", envelope);
}

#[test]
fn an_unknown_tool_is_named_with_the_nearest_one_and_a_capped_list() {
    let (mut toolbox, _) = flights();
    for number in 0..25 {
        let definition =
            json!({"name": format!("tool_{number:02}"), "parameters": {"type": "object"}});
        toolbox
            .add_runtime_tool(&definition, |_: Value| async {
                Ok::<_, String>(Value::Null)
            })
            .unwrap();
    }
    let envelope = block_on(toolbox.call("Book_Flights", "{}"));
    let error = envelope.error.as_ref().unwrap();
    assert_eq!(error.reason, Reason::UnknownTool);
    assert_eq!(error.did_you_mean.as_deref(), Some("book_flight"));
    assert_eq!(error.tools.len(), 20);
    assert_eq!(error.tools[0], "book_flight");
    assert_eq!(error.tools_omitted, 6);
    assert!(envelope.hint.is_none());

    // A long name is not echoed whole, and nothing is counted for it.
    let long = "x".repeat(10_000);
    let envelope = block_on(toolbox.call(&long, "{}"));
    assert_eq!(envelope.tool.chars().count(), 129);
    assert!(envelope.to_json().len() < 2_000);
    assert!(toolbox
        .state_fragment()
        .starts_with("Tool calls so far: 0; refused: 0; failed: 0."));

    let mut small = Toolbox::new();
    small
        .add_tool(|_: BookFlight| async { Ok::<_, String>(1) })
        .unwrap();
    golden!(
        "envelope__unknown_tool",
        block_on(small.call("bok_flight", "{}"))
    );
}

#[test]
fn a_tool_that_fails_or_panics_gives_a_tool_error() {
    let (mut toolbox, _) = flights();
    let failed = block_on(toolbox.call("book_flight", &VALID.replace("JFK", "XXX")));
    assert_eq!(failed.reason(), Some(Reason::ToolError));
    assert_eq!(
        failed.error.as_ref().unwrap().message,
        "no flights to XXX this winter"
    );
    golden!("envelope__tool_error", failed);

    let definition = json!({"name": "explode", "parameters": {"type": "object"}});
    toolbox
        .add_runtime_tool(&definition, |_: Value| async {
            if true {
                panic!("boom");
            }
            Ok::<_, String>(Value::Null)
        })
        .unwrap();
    let panicked = block_on(toolbox.call("explode", "{}"));
    assert_eq!(panicked.reason(), Some(Reason::ToolError));
    assert_eq!(panicked.error.unwrap().message, "the tool panicked: boom");
    assert_eq!(toolbox.usage("explode").tool_errors, 1);
    // An error text of any length is cut.
    toolbox
        .add_runtime_tool(
            &json!({"name": "verbose", "parameters": {"type": "object"}}),
            |_: Value| async { Err::<Value, _>("e".repeat(100_000)) },
        )
        .unwrap();
    let verbose = block_on(toolbox.call("verbose", "{}"));
    assert_eq!(verbose.error.unwrap().message.chars().count(), 1_001);
}

#[test]
fn a_tools_own_refusal_is_read_as_issues_with_a_hint() {
    let mut toolbox = Toolbox::new();
    let definition = json!({"name": "pay", "parameters": {"type": "object",
        "properties": {"amount": {"type": "number"}, "currency": {"type": "string"}}}});
    toolbox
        .add_runtime_tool(&definition, |_: Value| async {
            // What a payment API answers with a 422 (FastAPI's body).
            Err::<Value, _>(
                r#"{"detail": [{"type": "greater_than", "loc": ["body", "amount"], "msg": "Input should be greater than 0", "input": 0, "ctx": {"gt": 0}}]}"#,
            )
        })
        .unwrap();
    let envelope = block_on(toolbox.call("pay", r#"{"amount": 0, "currency": "USD"}"#));
    assert_eq!(envelope.reason(), Some(Reason::ToolError));
    let error = envelope.error.as_ref().unwrap();
    assert_eq!(error.issues.len(), 1);
    assert_eq!(error.issues[0].path.to_string(), "amount");
    assert_eq!(error.issues[0].constraint.as_str(), "exclusiveMinimum");
    let hint = envelope.hint.as_ref().unwrap();
    assert_eq!(hint.reason, HintReason::ToolError);
    assert_eq!(hint.fields[0].min, Some(toolgate_core::num::Num::from(0)));
}

#[test]
fn a_call_never_awaited_does_nothing() {
    let (toolbox, reached) = flights();
    let unpolled = toolbox.call("book_flight", VALID);
    drop(unpolled);
    assert_eq!(reached.load(Ordering::SeqCst), 0);
    assert_eq!(
        toolbox.usage("book_flight"),
        toolgate::boundary::ToolUsage::default()
    );
}

#[test]
fn on_the_road_with_hooks_a_panic_and_a_timeout_are_envelopes_too() {
    struct Pass;
    #[async_trait]
    impl Middleware for Pass {}
    let mut toolbox = Toolbox::new().with_budgets(
        toolgate::boundary::Budgets::new().timeout(std::time::Duration::from_millis(20)),
    );
    toolbox.add_middleware(Pass);
    let explode = json!({"name": "explode", "parameters": {"type": "object"}});
    toolbox
        .add_runtime_tool(&explode, |_: Value| async {
            if true {
                panic!("boom");
            }
            Ok::<_, String>(Value::Null)
        })
        .unwrap();
    let slow = json!({"name": "slow", "parameters": {"type": "object"}});
    toolbox
        .add_runtime_tool(&slow, |_: Value| async {
            tokio::time::sleep(std::time::Duration::from_secs(60)).await;
            Ok::<_, String>(Value::Null)
        })
        .unwrap();
    let panicked = block_on(toolbox.call("explode", "{}"));
    assert_eq!(panicked.error.unwrap().message, "the tool panicked: boom");
    let timed_out = block_on(toolbox.call("slow", "{}"));
    assert_eq!(timed_out.reason(), Some(Reason::Timeout));
    assert_eq!(toolbox.usage("slow").tool_errors, 1);
}

#[test]
fn registering_a_name_twice_or_a_nameless_schema_is_an_error() {
    let (mut toolbox, _) = flights();
    let again = toolbox.add_tool(|_: BookFlight| async { Ok::<_, String>(0) });
    assert!(matches!(again, Err(RegistryError::Duplicate(name)) if name == "book_flight"));
    let nameless = toolbox.add_runtime_tool(&json!({"type": "object"}), |_: Value| async {
        Ok::<_, String>(Value::Null)
    });
    assert!(matches!(nameless, Err(RegistryError::Unnamed)));
    let broken = toolbox.add_runtime_tool(
        &json!({"name": "broken", "parameters": {"type": "object", "properties": {"a": {"type": "wat"}}}}),
        |_: Value| async { Ok::<_, String>(Value::Null) },
    );
    assert!(matches!(broken, Err(RegistryError::Schema(_))));
}

/// Quote a price for some seats.
#[derive(Tool, Deserialize)]
struct QuotePrice {
    #[tool(range(min = 1, max = 9))]
    seats: u8,
}

/// A price quote.
#[derive(Tool, Serialize, Deserialize)]
struct Quote {
    /// Total price
    #[tool(exclusive_range(min = 0))]
    price: f64,
    /// ISO 4217 code
    #[tool(pattern = "^[A-Z]{3}$")]
    currency: String,
}

impl toolgate::ToolOutput for QuotePrice {
    type Output = Quote;
}

#[test]
fn a_result_that_breaks_its_output_type_is_a_malformed_response() {
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool_with_output(|quote: QuotePrice| async move {
            let price = if quote.seats == 9 {
                -1.0
            } else {
                120.0 * f64::from(quote.seats)
            };
            Ok::<_, String>(Quote {
                price,
                currency: "EUR".into(),
            })
        })
        .unwrap();
    let definition = &toolbox.definitions()[0];
    assert_eq!(definition.output_schema.as_ref().unwrap()["title"], "quote");
    let fits = block_on(toolbox.call("quote_price", r#"{"seats": 2}"#));
    assert_eq!(fits.value, Some(json!({"price": 240.0, "currency": "EUR"})));
    let malformed = block_on(toolbox.call("quote_price", r#"{"seats": 9}"#));
    assert_eq!(malformed.reason(), Some(Reason::MalformedResponse));
    assert_eq!(
        malformed.hint.as_ref().unwrap().reason,
        HintReason::MalformedResponse
    );
    assert_eq!(
        malformed.value,
        Some(json!({"price": -1.0, "currency": "EUR"}))
    );
    assert_eq!(toolbox.usage("quote_price").tool_errors, 1);
    golden!("envelope__malformed_response", malformed);
}

#[test]
fn a_runtime_tools_result_is_repaired_or_refused_by_its_output_schema() {
    let mut toolbox = Toolbox::new();
    let definition = json!({
        "name": "count_rows",
        "description": "Count the rows of a table.",
        "inputSchema": {"type": "object", "properties": {"table": {"type": "string"}}, "required": ["table"]},
        "outputSchema": {"type": "object", "properties": {"count": {"type": "integer", "minimum": 0}}, "required": ["count"]}
    });
    toolbox
        .add_runtime_tool(&definition, |args: Value| async move {
            Ok::<_, String>(match args["table"].as_str() {
                Some("users") => json!({"count": "3"}),
                _ => json!({"count": "many"}),
            })
        })
        .unwrap();
    let listed = serde_json::to_value(toolbox.definitions()).unwrap();
    assert_eq!(listed[0]["outputSchema"]["required"], json!(["count"]));
    assert_eq!(listed[0]["inputSchema"]["required"], json!(["table"]));
    // The name and description are sent once, beside the schema (issue 43 §8).
    let text = listed.to_string();
    assert_eq!(
        text.matches("Count the rows of a table.").count(),
        1,
        "{text}"
    );
    assert_eq!(listed[0]["inputSchema"].get("title"), None, "{text}");

    let repaired = block_on(toolbox.call("count_rows", r#"{"table": "users"}"#));
    assert_eq!(repaired.value, Some(json!({"count": 3})));
    assert_eq!(repaired.output_repairs.len(), 1);
    assert_eq!(repaired.output_repairs[0].rule.as_str(), "string_to_number");
    let malformed = block_on(toolbox.call("count_rows", r#"{"table": "orders"}"#));
    assert_eq!(malformed.reason(), Some(Reason::MalformedResponse));
    assert_eq!(malformed.error.unwrap().issues[0].path.to_string(), "count");
}

/// Denies the tools not on its list.
struct AllowList(Vec<&'static str>);

#[async_trait]
impl Middleware for AllowList {
    fn name(&self) -> &str {
        "allow_list"
    }

    async fn before_gate(&self, call: &mut RawCall) -> Decision {
        if self.0.contains(&call.tool.as_str()) {
            Decision::Pass
        } else {
            Decision::Deny(format!("{} is not allowed in this run", call.tool))
        }
    }
}

/// Renames a tool the model keeps calling by an old name, and caps the passengers.
struct Rewrite {
    seen: Mutex<Vec<String>>,
}

#[async_trait]
impl Middleware for Rewrite {
    async fn before_gate(&self, call: &mut RawCall) -> Decision {
        if call.tool == "flight" {
            call.tool = "book_flight".into();
        }
        Decision::Pass
    }

    async fn after_gate(&self, call: &mut GatedCall) -> Decision {
        let mut shown = call.arguments.to_json();
        shown["contact"]["email"] = "[redacted]".into();
        self.seen.lock().unwrap().push(shown.to_string());
        if let Some(flight) = call.arguments.downcast_mut::<BookFlight>() {
            flight.passengers = flight.passengers.min(4);
        }
        Decision::Pass
    }

    async fn after_handler(&self, _tool: &str, envelope: &mut Envelope) -> Decision {
        if let Some(value) = &mut envelope.value {
            value["checked"] = true.into();
        }
        Decision::Pass
    }
}

/// Denies every result.
struct NoResults;

#[async_trait]
impl Middleware for NoResults {
    fn name(&self) -> &str {
        "no_results"
    }

    async fn after_handler(&self, _tool: &str, _envelope: &mut Envelope) -> Decision {
        Decision::Deny("results are withheld".into())
    }
}

#[test]
fn middleware_passes_changes_or_denies_at_each_stage() {
    let (mut toolbox, reached) = flights();
    toolbox.add_middleware(AllowList(vec!["book_flight"]));
    let rewrite = Rewrite {
        seen: Mutex::new(Vec::new()),
    };
    toolbox.add_middleware(rewrite);

    // Denied before the gate: the rename comes after the allow-list, so `flight` is denied.
    let denied = block_on(toolbox.call("flight", VALID));
    assert_eq!(denied.reason(), Some(Reason::Denied));
    assert_eq!(
        denied.error.as_ref().unwrap().denied_by.as_deref(),
        Some("allow_list")
    );
    assert_eq!(reached.load(Ordering::SeqCst), 0);
    golden!("envelope__denied", denied);

    // Changed after the gate and after the tool.
    let changed = block_on(toolbox.call(
        "book_flight",
        &VALID.replace("\"passengers\": 2", "\"passengers\": 8"),
    ));
    assert_eq!(
        changed.value,
        Some(json!({"booking": "BK-1", "passengers": 4, "checked": true}))
    );

    toolbox.add_middleware(NoResults);
    let withheld = block_on(toolbox.call("book_flight", REPAIRABLE));
    assert_eq!(
        withheld.error.as_ref().unwrap().denied_by.as_deref(),
        Some("no_results")
    );
    // The tool ran (and is counted); the repairs made to its arguments are still told.
    assert_eq!(reached.load(Ordering::SeqCst), 2);
    assert_eq!(toolbox.usage("book_flight").calls, 2);
    assert_eq!(withheld.repairs.len(), 4);
}

#[test]
fn a_runtime_tools_arguments_can_be_changed_as_json() {
    struct Lowercase;
    #[async_trait]
    impl Middleware for Lowercase {
        async fn after_gate(&self, call: &mut GatedCall) -> Decision {
            assert!(call.arguments.downcast_ref::<BookFlight>().is_none());
            if let Some(Value::String(text)) =
                call.arguments.json_mut().and_then(|v| v.get_mut("text"))
            {
                *text = text.to_lowercase();
            }
            Decision::Pass
        }
    }
    let mut toolbox = Toolbox::new();
    let definition = json!({"name": "echo", "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}});
    toolbox
        .add_runtime_tool(&definition, |args: Value| async move {
            Ok::<_, String>(args["text"].clone())
        })
        .unwrap();
    toolbox.add_middleware(Lowercase);
    let echoed = block_on(toolbox.call("echo", r#"{"text": "LOUD"}"#));
    assert_eq!(echoed.value, Some(json!("loud")));
}

/// A list of boxes, any length: its `Serialize` recurses once per level, as a typed tool's
/// own result type may.
#[derive(serde::Serialize)]
struct Chain {
    next: Option<Box<Chain>>,
}

impl Drop for Chain {
    /// Without recursion: a long chain would overflow the stack dropping itself.
    fn drop(&mut self) {
        let mut next = self.next.take();
        while let Some(mut link) = next {
            next = link.next.take();
        }
    }
}

/// Issue 43 §7: a typed tool whose own result nests 10,000 and 100,000 levels is a
/// `malformed_response` with a `limit` issue, never a crash: its result is written within
/// `MAX_RESULT_DEPTH` levels (`serde_json::to_value` recursed deeper than the type's own
/// `Serialize` and aborted the process).
#[test]
fn a_typed_result_built_too_deep_is_malformed_not_a_crash() {
    use toolgate::boundary::MAX_RESULT_DEPTH;
    /// Builds a chain as deep as asked.
    #[derive(toolgate::Tool, serde::Deserialize)]
    struct Build {
        levels: usize,
    }
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(|args: Build| async move {
            let mut chain = Chain { next: None };
            for _ in 1..args.levels {
                chain = Chain {
                    next: Some(Box::new(chain)),
                };
            }
            Ok::<_, String>(chain)
        })
        .unwrap();
    for levels in [MAX_RESULT_DEPTH, MAX_RESULT_DEPTH + 1, 10_000, 100_000] {
        let envelope = block_on(toolbox.call("build", &format!(r#"{{"levels": {levels}}}"#)));
        assert_eq!(
            envelope.ok,
            levels <= MAX_RESULT_DEPTH,
            "{levels} levels: {}",
            envelope.to_json()
        );
        if levels > MAX_RESULT_DEPTH {
            let error = envelope.error.as_ref().unwrap();
            assert_eq!(error.reason, Reason::MalformedResponse);
            assert_eq!(error.issues[0].constraint, toolgate::Constraint::Limit);
        }
    }
}

/// Issue 28 §3: a tool's result nested past `MAX_RESULT_DEPTH` is a `malformed_response`
/// with a `limit` issue; nothing after the tool recurses into it (100,000 levels overflowed
/// the stack), and every server writes the envelope it makes.
#[test]
fn a_result_nested_too_deep_is_malformed_not_a_crash() {
    use toolgate::boundary::MAX_RESULT_DEPTH;
    fn nested(levels: usize) -> Value {
        // Built by moving each level in (`json!` would copy the inner value by recursion).
        let mut value = json!(1);
        for level in 0..levels {
            value = if level % 2 == 0 {
                Value::Array(vec![value])
            } else {
                Value::Object(serde_json::Map::from_iter([("a".to_owned(), value)]))
            };
        }
        value
    }
    for levels in [
        MAX_RESULT_DEPTH - 1,
        MAX_RESULT_DEPTH,
        MAX_RESULT_DEPTH + 1,
        100_000,
    ] {
        let mut toolbox = Toolbox::new();
        let definition = json!({"name": "deep", "parameters": {"type": "object"}});
        toolbox
            .add_runtime_tool(&definition, move |_: Value| async move {
                Ok::<_, String>(nested(levels))
            })
            .unwrap();
        let envelope = block_on(toolbox.call("deep", "{}"));
        let fits = levels <= MAX_RESULT_DEPTH;
        assert_eq!(envelope.ok, fits, "{levels} levels");
        if !fits {
            let error = envelope.error.as_ref().unwrap();
            assert_eq!(error.reason, Reason::MalformedResponse);
            assert_eq!(error.issues[0].constraint, toolgate::Constraint::Limit);
            assert!(envelope.to_json().len() < 10_000);
        }
    }
}

/// Issue 43 §5: a call replayed in a history carries the arguments its tool ran with where
/// the gate repaired them, and is as sent otherwise (an unknown tool's too).
#[test]
fn a_call_is_replayed_as_it_ran() {
    use toolgate::boundary::Call;
    /// Adds.
    #[derive(toolgate::Tool, serde::Deserialize)]
    struct Add {
        a: i64,
        b: i64,
    }
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(|args: Add| async move { Ok::<_, String>(args.a + args.b) })
        .unwrap();
    let repaired = toolbox.replayed(&Call::new("add", r#"{"a": "2", "b": 3}"#).with_id("c1"));
    assert_eq!(
        serde_json::from_str::<Value>(&repaired.arguments).unwrap(),
        json!({"a": 2, "b": 3})
    );
    assert_eq!(repaired.call_id.as_deref(), Some("c1"));
    for call in [
        Call::new("add", r#"{"a": 2, "b": 3}"#),
        Call::new("add", r#"{"a": 2, "b""#),
        Call::new("adds", r#"{"a": "2"}"#),
    ] {
        assert_eq!(toolbox.replayed(&call), call);
    }
}

//! The tool boundary (feature `boundary`): every call of every tool of an agent goes through
//! one gate, and every result comes back in one shape.
//!
//! - [`Toolbox`] holds the tools — typed ones (`#[derive(Tool, Deserialize)]` with an async
//!   handler) and run-time ones (a JSON Schema definition with a handler on
//!   `serde_json::Value`) — and lists their [`ToolDefinition`]s.
//! - [`Toolbox::call`] runs the gate before the tool: refused arguments never reach it. The
//!   result is an [`Envelope`], whose JSON is the tool-result message for the model: the
//!   value and the repairs made, or the failure's [`Reason`], message and issues with the
//!   capped [`RetryHint`](crate::RetryHint).
//! - [`Budgets`] bound runaway loops: call caps, refusal and failure budgets, a per-call
//!   timeout, and a stall detector; once one is spent, calls get `budget_exceeded` without
//!   their tool running. [`Toolbox::state_fragment`] says what is left.
//! - [`Middleware`](middleware::Middleware) hooks run before the gate, after it, and after the tool: each may pass,
//!   change what it is given, or deny.
//! - [`Finalizer`] checks a model's final structured answer the same way, and gives the
//!   retry prompt while a budget of retries lasts.
//! - Every call is a `tracing` span with an event per repair, refusal, budget stop and denial
//!   (see the `telemetry` notes below).
//!
//! The order of one call, once its future is first polled: the hooks' `before_gate`; the tool
//! looked up (`unknown_tool`); the gate (`invalid_arguments`) and the budgets
//! (`budget_exceeded`; with hooks, checked before the gate too); the hooks' `after_gate`; the
//! call counted against its caps; the tool, within the timeout (`tool_error`, `timeout`),
//! and its result checked against the output schema (`malformed_response`); the hooks'
//! `after_handler`.
//!
//! ```
//! use toolgate::boundary::{Budgets, Call, Reason, Toolbox};
//!
//! /// Book a flight.
//! #[derive(toolgate::Tool, serde::Deserialize)]
//! struct BookFlight {
//!     /// IATA code of the departure airport
//!     #[tool(pattern = "^[A-Z]{3}$")]
//!     origin: String,
//!     #[tool(range(min = 1, max = 9))]
//!     passengers: u8,
//! }
//!
//! let mut toolbox = Toolbox::new().with_budgets(Budgets::new().calls_per_tool(1));
//! toolbox
//!     .add_tool(|flight: BookFlight| async move {
//!         Ok::<_, String>(serde_json::json!({"booking": format!("{}-{}", flight.origin, flight.passengers)}))
//!     })
//!     .unwrap();
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let envelopes = toolbox
//!     .call_all([
//!         Call::new("book_flight", r#"{"origin": "CDG", "passengers": 12}"#).with_id("call_1"),
//!         Call::new("book_flight", r#"{"origin": "CDG", "passengers": "2"}"#).with_id("call_2"),
//!         Call::new("book_flight", r#"{"origin": "LHR", "passengers": 1}"#).with_id("call_3"),
//!     ])
//!     .await;
//! assert_eq!(envelopes[0].reason(), Some(Reason::InvalidArguments));
//! assert_eq!(envelopes[1].value, Some(serde_json::json!({"booking": "CDG-2"})));
//! assert_eq!(envelopes[2].reason(), Some(Reason::BudgetExceeded));
//! assert_eq!(
//!     envelopes[0].to_json(),
//!     concat!(
//!         r#"{"tool":"book_flight","call_id":"call_1","ok":false,"error":{"reason":"invalid_arguments","#,
//!         r#""message":"passengers: 12 is greater than the maximum 9","issues":[{"path":"passengers","#,
//!         r#""constraint":"maximum","expected":9,"got":12,"message":"12 is greater than the maximum 9"}]},"#,
//!         r#""hint":{"tool":"book_flight","reason":"invalid_arguments","#,
//!         r#""message":"passengers: 12 is greater than the maximum 9","missing_fields":[],"#,
//!         r#""fields":[{"path":"passengers","constraint":"maximum","min":1,"max":9}],"omitted":0,"#,
//!         r#""clarifying_question":"What should `passengers` be (at most 9)?","example_input":null}}"#,
//!     )
//! );
//! # });
//! ```
//!
//! Async: handlers are futures, and [`Toolbox::call`] is run by any executor; only the
//! per-call timeout needs Tokio (its timer).
//!
//! Limits: the usage of a run holds one entry per registered tool, whatever names the model
//! sends; an envelope repeats at most 128 characters of an unknown tool's name, 1,000 of a
//! tool's error text as its message, [`MAX_LISTED_TOOLS`] tool names, and the issues the
//! gate's report holds (capped by the decoder), or those read from the tool's error text
//! (capped by [`crate::foreign`]: 100 issues, each message 1,000 characters, paths 32 deep,
//! values shortened). A handler that panics gives a `tool_error`, not a panic of the
//! caller.
//!
//! # Telemetry
//!
//! One span per call, `toolgate.call`, with the OpenTelemetry GenAI fields where one exists
//! (`gen_ai.operation.name` = `execute_tool`, `gen_ai.tool.name`, `gen_ai.tool.call.id`) and
//! toolgate's own, recorded when the call ends: `toolgate.outcome` (`ok` or the failure's
//! reason) and `toolgate.duration_us`. Inside it, events with target `toolgate::boundary`:
//! - `toolgate.repair` (DEBUG), one per repair of the arguments or the result: `rule`, `path`;
//! - `toolgate.default` (DEBUG), one per default filled in for a field left out (no repair):
//!   `path`;
//! - `toolgate.refusal` (INFO): `reason`, `count`, `constraints` (the failed keywords, in order);
//! - `toolgate.budget_exceeded` (WARN): `budget`, `limit`;
//! - `toolgate.denied` (INFO): `middleware`, `detail` (the denial's message);
//! - `toolgate.tool_failed` (INFO): `reason`, `detail` (unknown tool, tool error, timeout);
//! - `toolgate.budget_state` (DEBUG), after each call: `calls`, `refused`, `failed` so far.
//!
//! Field values are computed only when a subscriber listens to the event.

mod budget;
mod call;
pub mod correction;
mod envelope;
mod finalizer;
pub mod messages;
pub mod middleware;
mod registry;
mod replay;
mod result_json;
mod run;
mod stopped;
mod streaming_turn;
mod telemetry;
mod toolbox;

// The boundary's own names: the registry and its calls, the result envelope, the budgets
// of a run, the final-answer check. The repair loop ([`correction`]), middleware
// ([`middleware`]) and provider messages ([`messages`]) are one module down (issue 30 §5).
pub use async_trait::async_trait;
pub use budget::{Budgets, ToolUsage};
pub use call::CallFuture;
pub use envelope::{Envelope, Failure, Limit, Reason, MAX_LISTED_TOOLS};
pub use finalizer::{Finalized, Finalizer, DEFAULT_FINAL_RETRIES};
pub(crate) use registry::result_too_deep;
pub use registry::{BoxFuture, RegistryError, ToolDefinition, MAX_RESULT_DEPTH};
#[cfg(any(feature = "mcp", feature = "axum"))]
pub(crate) use stopped::echoed;
pub use streaming_turn::{EarlyIssue, OnEarlyIssue, StartCalls, StreamingTurn};
pub use toolbox::{Call, Toolbox};

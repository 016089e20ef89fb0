//! `tracing` spans and events of the boundary: see the module's "Telemetry" notes.

use std::time::Duration;

use toolgate_core::{Issue, Repair};
use tracing::field::Empty;
use tracing::Span;

use super::budget::ToolUsage;
use super::envelope::{Envelope, Failure};

/// The span of one call.
pub(crate) fn call_span(tool: &str, call_id: Option<&str>) -> Span {
    tracing::info_span!(
        target: "toolgate::boundary",
        "toolgate.call",
        gen_ai.operation.name = "execute_tool",
        gen_ai.tool.name = %super::stopped::echoed(tool),
        gen_ai.tool.call.id = call_id.map(super::stopped::echoed).as_deref(),
        toolgate.outcome = Empty,
        toolgate.duration_us = Empty,
    )
}

/// Records how the call ended on its span (with how long it took, when the span is
/// recorded), and the events its envelope tells of.
pub(crate) fn ended(span: &Span, envelope: &Envelope, took: Option<Duration>) {
    if let Some(took) = took {
        let outcome = envelope.reason().map_or("ok", |reason| reason.as_str());
        span.record("toolgate.outcome", outcome);
        span.record(
            "toolgate.duration_us",
            u64::try_from(took.as_micros()).unwrap_or(u64::MAX),
        );
    }
    repairs(&envelope.repairs);
    repairs(&envelope.output_repairs);
    if let Some(error) = &envelope.error {
        failed(error);
    }
}

/// One event per log entry: `toolgate.repair` for a repair, `toolgate.default` for a
/// default filled in (no repair: `Rule::is_repair`).
fn repairs(repairs: &[Repair]) {
    for repair in repairs {
        if repair.rule.is_repair() {
            tracing::debug!(
                target: "toolgate::boundary",
                rule = repair.rule.as_str(),
                path = %repair.path,
                "toolgate.repair"
            );
        } else {
            tracing::debug!(
                target: "toolgate::boundary",
                path = %repair.path,
                "toolgate.default"
            );
        }
    }
}

fn constraints(issues: &[Issue]) -> String {
    let names: Vec<&str> = issues.iter().map(|i| i.constraint.as_str()).collect();
    names.join(",")
}

fn failed(error: &Failure) {
    use super::envelope::Reason;
    match error.reason {
        Reason::InvalidArguments | Reason::MalformedResponse => tracing::info!(
            target: "toolgate::boundary",
            reason = error.reason.as_str(),
            count = error.issues.len(),
            constraints = %constraints(&error.issues),
            "toolgate.refusal"
        ),
        Reason::BudgetExceeded => tracing::warn!(
            target: "toolgate::boundary",
            budget = error.budget.map_or("", |b| b.as_str()),
            limit = error.limit,
            "toolgate.budget_exceeded"
        ),
        Reason::Denied => tracing::info!(
            target: "toolgate::boundary",
            middleware = error.denied_by.as_deref(),
            detail = %error.message,
            "toolgate.denied"
        ),
        Reason::UnknownTool | Reason::ToolError | Reason::Timeout => tracing::info!(
            target: "toolgate::boundary",
            reason = error.reason.as_str(),
            detail = %error.message,
            "toolgate.tool_failed"
        ),
    }
}

/// Whether a subscriber listens to the run's usage (so it is read only then).
pub(crate) fn budget_state_wanted() -> bool {
    tracing::enabled!(target: "toolgate::boundary", tracing::Level::DEBUG)
}

/// The run's usage after a call.
pub(crate) fn budget_state(total: ToolUsage) {
    tracing::debug!(
        target: "toolgate::boundary",
        calls = total.calls,
        refused = total.invalid_arguments,
        failed = total.tool_errors,
        "toolgate.budget_state"
    );
}

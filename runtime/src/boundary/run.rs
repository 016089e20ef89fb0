//! Running a tool: its future within the timeout, a panic caught, its result made an
//! [`Envelope`].

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;
use toolgate_core::{HintReason, Repair, Report, RetryHint};

use super::envelope::{Envelope, Failure, Reason};
use super::registry::{panicked, Output, Registered, Running};
use super::stopped::MAX_TOOL_ERROR_CHARS;
use toolgate_core::issue::shorten_text;

/// How a tool's run ended.
pub(crate) enum Ran {
    /// It finished: its result (checked against its output schema), or its error's text.
    Done(Result<Output, String>),
    /// It panicked: the panic's text.
    Panicked(String),
    /// It did not finish within the timeout.
    TimedOut(Duration),
}

/// Awaits a started run, within `timeout`. The handler's future is boxed, and the timer only
/// where there is one, so this future is small.
pub(crate) async fn ran(running: Running, timeout: Option<Duration>) -> Ran {
    let running = match running {
        Ok(running) => AssertUnwindSafe(running).catch_unwind(),
        Err(panic) => return Ran::Panicked(panic),
    };
    let finished = match timeout {
        Some(timeout) => match Box::pin(tokio::time::timeout(timeout, running)).await {
            Ok(finished) => finished,
            Err(_) => return Ran::TimedOut(timeout),
        },
        None => running.await,
    };
    match finished {
        Ok(done) => Ran::Done(done),
        Err(panic) => Ran::Panicked(panicked(&*panic)),
    }
}

/// The envelope of a run of `tool`, with the repairs the gate made.
pub(crate) fn envelope_of(tool: &dyn Registered, ran: Ran, repairs: Vec<Repair>) -> Envelope {
    let name = tool.definition().name.as_str();
    let mut envelope = match ran {
        Ran::Done(Ok(Output::Fits(value, output_repairs))) => {
            let mut envelope = Envelope::success(Arc::clone(tool.name()), value, repairs);
            envelope.output_repairs = output_repairs;
            return envelope;
        }
        Ran::Done(Ok(Output::Malformed(value, report, mut hint))) => {
            // The hint is built from the output type's model; it is this tool's result.
            hint.tool = name.to_owned();
            let failure = Failure::new(
                Reason::MalformedResponse,
                format!(
                    "{name} returned a result that breaks its output schema: {}",
                    hint.message
                ),
            )
            .with_issues(report.into_issues());
            let mut envelope = Envelope::failure(name, failure, None);
            envelope.hint = Some(hint);
            envelope.value = Some(value);
            envelope
        }
        Ran::Done(Err(message)) => tool_error(tool, &message),
        Ran::Panicked(message) => Envelope::failure(
            name,
            Failure::new(
                Reason::ToolError,
                shorten_text(&message, MAX_TOOL_ERROR_CHARS),
            ),
            None,
        ),
        Ran::TimedOut(timeout) => {
            let mut failure = Failure::new(
                Reason::Timeout,
                format!("{name} did not finish within {timeout:?}"),
            );
            failure.timeout_ms = Some(u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX));
            Envelope::failure(name, failure, None)
        }
    };
    envelope.repairs = repairs;
    envelope
}

/// The envelope of a tool's error: its text, and, where the text is in a form
/// [`crate::foreign`] reads, its issues and a hint (reason `tool_error`).
fn tool_error(tool: &dyn Registered, message: &str) -> Envelope {
    let name = tool.definition().name.as_str();
    let mut failure = Failure::new(
        Reason::ToolError,
        shorten_text(message, MAX_TOOL_ERROR_CHARS),
    );
    // What the whole text states, before the message is cut (issue 28 §5).
    let stated = super::correction::stated(message);
    failure.http_status = stated.status;
    failure.retry_after_ms = stated
        .retry_after
        .map(|wait| u64::try_from(wait.as_millis()).unwrap_or(u64::MAX));
    let mut envelope = Envelope::failure(name, failure, None);
    if let Some(parsed) = crate::foreign::parse_for(tool.model(), message) {
        let mut report = Report::new();
        for issue in parsed.issues {
            report.push(issue);
        }
        let hint = RetryHint::build(tool.model(), &report, HintReason::ToolError);
        if let Some(error) = &mut envelope.error {
            error.issues = report.into_issues();
        }
        envelope.hint = Some(Box::new(hint));
    }
    envelope
}

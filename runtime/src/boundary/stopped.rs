//! The envelopes of calls stopped before or around their tool: refused arguments, a spent
//! budget, a denial.

use toolgate_core::issue::shorten_text;
use toolgate_core::Rejected;

use super::budget::Exceeded;
use super::envelope::{Budget, Envelope, Failure, Reason};

/// Longest tool name an envelope repeats as the model sent it, in characters.
pub(crate) const MAX_ECHOED_NAME_CHARS: usize = 128;
/// Longest failure message taken from a tool's error or panic, in characters.
pub(crate) const MAX_TOOL_ERROR_CHARS: usize = 1_000;

/// A call (or its result) a hook denied.
pub(crate) fn denied(name: &str, by: &str, message: String) -> Envelope {
    let mut failure = Failure::new(Reason::Denied, shorten_text(&message, MAX_TOOL_ERROR_CHARS));
    failure.denied_by = Some(shorten_text(by, MAX_ECHOED_NAME_CHARS));
    Envelope::failure(shorten_text(name, MAX_ECHOED_NAME_CHARS), failure, None)
}

/// Arguments the gate refused: every issue, the hint, the repairs made before.
pub(crate) fn invalid_arguments(name: &str, rejected: &Rejected) -> Envelope {
    let hint = rejected.hint().clone();
    let count = rejected.report.len();
    let message = if count > 2 {
        format!("{} (and {} more issues)", hint.message, count - 1)
    } else if count == 2 {
        format!("{} (and 1 more issue)", hint.message)
    } else {
        hint.message.clone()
    };
    let failure = Failure::new(Reason::InvalidArguments, message)
        .with_issues(rejected.report.issues().to_vec());
    let shown = shorten_text(name, MAX_ECHOED_NAME_CHARS);
    let mut envelope = Envelope::failure(shown, failure, Some(hint));
    envelope.repairs = rejected.repairs.clone();
    envelope
}

/// `1 time`, `2 times`.
fn times(count: u32) -> String {
    if count == 1 {
        "1 time".to_owned()
    } else {
        format!("{count} times")
    }
}

/// A call a spent budget stopped.
pub(crate) fn budget_exceeded(name: &str, exceeded: Exceeded) -> Envelope {
    let Exceeded { budget, limit } = exceeded;
    let name: &str = &shorten_text(name, MAX_ECHOED_NAME_CHARS);
    let message = match budget {
        Budget::CallsPerTool => {
            format!("{name} may be called at most {} in this run", times(limit))
        }
        Budget::CallsTotal => format!(
            "the tools may be called at most {} in this run",
            times(limit)
        ),
        Budget::InvalidArgumentsPerTool => {
            format!(
                "{name} refused arguments {} in this run: it takes no more calls",
                times(limit)
            )
        }
        Budget::InvalidArgumentsTotal => format!(
            "the tools refused arguments {} in this run: they take no more calls",
            times(limit)
        ),
        Budget::ToolErrorsPerTool => {
            format!(
                "{name} failed {} in this run: it takes no more calls",
                times(limit)
            )
        }
        Budget::ToolErrorsTotal => {
            format!(
                "the tools failed {} in this run: they take no more calls",
                times(limit)
            )
        }
        Budget::Stall => format!(
            "these arguments to {name} were refused on the last call; change them as its hint says"
        ),
    };
    let mut failure = Failure::new(Reason::BudgetExceeded, message);
    failure.budget = Some(budget);
    failure.limit = Some(limit);
    Envelope::failure(name, failure, None)
}

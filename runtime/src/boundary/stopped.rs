//! The envelopes of calls stopped before or around their tool: refused arguments, a spent
//! budget, a denial.

use toolgate_core::issue::shorten_text;
use toolgate_core::Rejected;

use super::budget::Exceeded;
use super::envelope::{Envelope, Failure, Limit, Reason};

/// Longest tool name an envelope repeats as the model sent it, in characters.
pub(crate) const MAX_ECHOED_NAME_CHARS: usize = 128;
/// `text` (a tool's name, a call's id) as an answer or a log echoes it: shortened past
/// [`MAX_ECHOED_NAME_CHARS`] characters, as every echoed value is (issue 28 §5). A
/// registry filled from another server's tool list, or a model, may send any length.
pub(crate) fn echoed(text: &str) -> std::borrow::Cow<'_, str> {
    if text.len() > MAX_ECHOED_NAME_CHARS {
        std::borrow::Cow::Owned(shorten_text(text, MAX_ECHOED_NAME_CHARS))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

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
    // The hint's message names one issue, or the missing fields (up to three) when nothing
    // else is wrong: the rest are counted once.
    let named = if hint.fields.is_empty() {
        hint.missing_fields.len().max(1)
    } else {
        1
    };
    let message = match rejected.report.len().saturating_sub(named) {
        0 => hint.message.clone(),
        1 => format!("{} (and 1 more issue)", hint.message),
        rest => format!("{} (and {rest} more issues)", hint.message),
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
        Limit::CallsPerTool => {
            format!("{name} may be called at most {} in this run", times(limit))
        }
        Limit::CallsTotal => format!(
            "the tools may be called at most {} in this run",
            times(limit)
        ),
        Limit::InvalidArgumentsPerTool => {
            format!(
                "{name} refused arguments {} in this run: it takes no more calls",
                times(limit)
            )
        }
        Limit::InvalidArgumentsTotal => format!(
            "the tools refused arguments {} in this run: they take no more calls",
            times(limit)
        ),
        Limit::ToolErrorsPerTool => {
            format!(
                "{name} failed {} in this run: it takes no more calls",
                times(limit)
            )
        }
        Limit::ToolErrorsTotal => {
            format!(
                "the tools failed {} in this run: they take no more calls",
                times(limit)
            )
        }
        Limit::Stall => format!(
            "these arguments to {name} were refused on the last call; change them as its hint says"
        ),
    };
    let mut failure = Failure::new(Reason::BudgetExceeded, message);
    failure.budget = Some(budget);
    failure.limit = Some(limit);
    Envelope::failure(name, failure, None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DynamicTool;

    proptest::proptest! {
        /// Issue 28 §5: the message names some issues and counts the rest, each once:
        /// `missing` absent required fields and `wrong` fields of the wrong type.
        #[test]
        fn the_message_counts_each_issue_once(missing in 0usize..6, wrong in 0usize..4) {
            proptest::prop_assume!(missing + wrong > 0);
            let names: Vec<String> = (0..missing + wrong).map(|i| format!("f{i}")).collect();
            let properties: serde_json::Map<String, serde_json::Value> = names
                .iter()
                .map(|name| (name.clone(), serde_json::json!({"type": "integer"})))
                .collect();
            let tool = DynamicTool::from_definition(&serde_json::json!({"name": "t",
                "parameters": {"type": "object", "properties": properties, "required": names}}))
            .unwrap();
            let sent: serde_json::Map<String, serde_json::Value> = names[missing..]
                .iter()
                .map(|name| (name.clone(), serde_json::json!("x")))
                .collect();
            let rejected = tool.decode(&serde_json::Value::Object(sent).to_string()).unwrap_err();
            let message = invalid_arguments("t", &rejected).error.unwrap().message;
            let named = if wrong > 0 { 1 } else { missing.min(3) };
            let rest = missing + wrong - named;
            let suffix = match rest {
                0 => String::new(),
                1 => " (and 1 more issue)".to_owned(),
                n => format!(" (and {n} more issues)"),
            };
            proptest::prop_assert!(message.ends_with(&suffix), "{message:?}, expected {suffix:?}");
            if rest == 0 {
                proptest::prop_assert!(!message.contains("more issue"), "{message:?}");
            }
        }
    }
}

//! How a model's answer ended, and whether it was cut: a call from a cut answer never runs.
//!
//! An answer cut by its output token cap may end inside a call's arguments, or after a call
//! whose arguments happen to parse but were meant to go on (a list cut short is still a
//! list). So every call of a cut answer is refused, naming the cut, whatever its text. An
//! answer is cut when its provider says so — OpenAI Chat's `finish_reason: "length"`,
//! Responses' `incomplete_details.reason: "max_output_tokens"`, Anthropic's
//! `stop_reason: "max_tokens"`, Gemini's `finishReason: "MAX_TOKENS"` — or when its usage
//! reached the cap the request set, whatever the finish reason says (some OpenAI-compatible
//! servers report a cut as `tool_calls`). Given the message alone (no finish reason, no
//! usage), nothing tells: read the whole answer to know.

use serde_json::Value;

use super::Provider;

/// The finish reasons that say the output token cap cut the answer.
const CUT_REASONS: [&str; 4] = ["length", "max_tokens", "max_output_tokens", "MAX_TOKENS"];

/// Why an answer was cut before its end, as its calls' refusals say it: the token limit a
/// whole answer reached, or, for a streamed one, the text of the
/// [`streaming::Cut`](crate::streaming::Cut) its stream was cut by (or why the caller stopped
/// it). Two types on purpose: `streaming::Cut` is what one call's decoder is told (core,
/// an enum of the provider's ways), this is what a whole answer's calls are refused with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// What says so: the finish reason as written, or the usage at the cap.
    pub because: String,
}

impl Cut {
    /// The sentence a refused call's envelope carries.
    pub fn message(&self) -> String {
        format!(
            "the model's answer was cut before its end ({}): this call may be incomplete, so it was not run; send it again whole",
            self.because
        )
    }
}

/// The finish reason of a whole answer as its provider writes it (`None` for a message
/// alone, and for MCP, which has none).
pub fn finish_reason(provider: Provider, answer: &Value) -> Option<&str> {
    let reason = match provider {
        Provider::OpenAiChat => answer.pointer("/choices/0/finish_reason"),
        Provider::OpenAiResponses => answer
            .pointer("/incomplete_details/reason")
            .or_else(|| answer.get("status")),
        Provider::Anthropic => answer.get("stop_reason"),
        Provider::Gemini => answer.pointer("/candidates/0/finishReason"),
        _ => None,
    };
    reason.and_then(Value::as_str)
}

/// The output tokens a whole answer's usage reports (Gemini's thinking tokens count
/// against the cap too).
pub(super) fn output_tokens(provider: Provider, answer: &Value) -> Option<u64> {
    let count = |pointer: &str| answer.pointer(pointer).and_then(Value::as_u64);
    match provider {
        Provider::OpenAiChat => count("/usage/completion_tokens"),
        Provider::OpenAiResponses | Provider::Anthropic => count("/usage/output_tokens"),
        Provider::Gemini => {
            let candidates = count("/usageMetadata/candidatesTokenCount")?;
            Some(candidates.saturating_add(count("/usageMetadata/thoughtsTokenCount").unwrap_or(0)))
        }
        _ => None,
    }
}

/// Whether a whole answer was cut (see the module's rules); `max_tokens`: the output token
/// cap the request set, for an answer whose finish reason does not say.
///
/// ```
/// use serde_json::json;
/// use toolgate::boundary::messages::{cut, Provider};
///
/// let answer = json!({"choices": [{"finish_reason": "length", "message": {}}]});
/// assert!(cut(Provider::OpenAiChat, &answer, None).is_some());
/// let answer = json!({"stop_reason": "tool_use", "usage": {"output_tokens": 256}});
/// assert!(cut(Provider::Anthropic, &answer, Some(256)).is_some());
/// assert!(cut(Provider::Anthropic, &answer, Some(1024)).is_none());
/// ```
pub fn cut(provider: Provider, answer: &Value, max_tokens: Option<u64>) -> Option<Cut> {
    let used = output_tokens(provider, answer);
    token_limit(finish_reason(provider, answer), used, max_tokens).map(|because| Cut { because })
}

/// What says an answer reached its token limit, if anything does: its finish reason, or its
/// output tokens at the cap the request set. The one rule of whole and streamed answers.
pub(super) fn token_limit(
    finish_reason: Option<&str>,
    used: Option<u64>,
    cap: Option<u64>,
) -> Option<String> {
    if let Some(reason) = finish_reason.filter(|reason| CUT_REASONS.contains(reason)) {
        return Some(format!("finish reason `{reason}`"));
    }
    let (cap, used) = (cap?, used?);
    (used >= cap).then(|| format!("{used} output tokens, the cap of {cap} the request set"))
}

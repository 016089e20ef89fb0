//! The one shape every call's result takes: [`Envelope`].

use std::fmt;
use std::sync::Arc;

use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use toolgate_core::{Issue, Repair, RetryHint};

/// Why a call failed: the `reason` of an envelope's `error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The gate refused the arguments; the tool did not run.
    InvalidArguments,
    /// No tool has the name called.
    UnknownTool,
    /// The tool ran and failed.
    ToolError,
    /// The tool's result breaks its output schema.
    MalformedResponse,
    /// A budget of the run is spent; the tool did not run.
    BudgetExceeded,
    /// The tool did not finish within the per-call timeout.
    Timeout,
    /// A middleware denied the call (or its result).
    Denied,
}

impl Reason {
    /// The reason as written in the envelope (`"invalid_arguments"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::InvalidArguments => "invalid_arguments",
            Reason::UnknownTool => "unknown_tool",
            Reason::ToolError => "tool_error",
            Reason::MalformedResponse => "malformed_response",
            Reason::BudgetExceeded => "budget_exceeded",
            Reason::Timeout => "timeout",
            Reason::Denied => "denied",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which budget of a run stopped a call (see [`super::Budgets`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The calls one tool may make in a run (a default for every tool, or the tool's own).
    CallsPerTool,
    /// The calls all tools together may make in a run.
    CallsTotal,
    /// The refused calls one tool may have in a run.
    InvalidArgumentsPerTool,
    /// The refused calls all tools together may have in a run.
    InvalidArgumentsTotal,
    /// The failures (errors and timeouts) one tool may have in a run.
    ToolErrorsPerTool,
    /// The failures all tools together may have in a run.
    ToolErrorsTotal,
    /// The same refused arguments sent again, right after their refusal.
    Stall,
}

impl Limit {
    /// The budget as written in the envelope (`"calls_per_tool"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Limit::CallsPerTool => "calls_per_tool",
            Limit::CallsTotal => "calls_total",
            Limit::InvalidArgumentsPerTool => "invalid_arguments_per_tool",
            Limit::InvalidArgumentsTotal => "invalid_arguments_total",
            Limit::ToolErrorsPerTool => "tool_errors_per_tool",
            Limit::ToolErrorsTotal => "tool_errors_total",
            Limit::Stall => "stall",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What went wrong: the `error` of a failed call's envelope.
///
/// `reason`, `message` and `issues` are always written; the other members only for the
/// reasons they belong to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    /// Why the call failed.
    pub reason: Reason,
    /// One short sentence for the model.
    pub message: String,
    /// Every issue found: for `invalid_arguments` and `malformed_response`, and for
    /// `tool_error` when the tool's error text is in a form [`crate::foreign`] reads; empty
    /// otherwise.
    #[serde(default)]
    pub issues: Vec<Issue>,
    /// `unknown_tool`: the nearest tool name, when one is close.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did_you_mean: Option<String>,
    /// `unknown_tool`: the tools there are, in name order (at most
    /// [`MAX_LISTED_TOOLS`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<String>,
    /// `unknown_tool`: how many tool names the list left out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub tools_omitted: usize,
    /// `budget_exceeded`: which budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Limit>,
    /// `budget_exceeded`: the budget's limit (for `stall`: 1, the one refusal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// `timeout`: the per-call timeout, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    /// `denied`: the middleware that denied the call ([`super::middleware::Middleware::name`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub denied_by: Option<String>,
    /// `tool_error`: the HTTP status the tool's whole error text states
    /// ([`super::correction::stated`]), read before `message` is cut to 1,000 characters: an RFC 9457
    /// body longer than that keeps its `"status": 403`, which the repair loop's layer 4
    /// classifies on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http_status: Option<u16>,
    /// `tool_error`: the wait the whole error text asks for, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    /// A call the repair loop corrected and that stayed refused: each correction, with its
    /// issues before and after ([`super::correction::CorrectionLoop`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<super::correction::Attempt>,
}

/// Most tool names an `unknown_tool` failure lists.
pub const MAX_LISTED_TOOLS: usize = 20;

fn is_zero(count: &usize) -> bool {
    *count == 0
}

impl Failure {
    /// A failure with a reason and a message, and nothing else.
    ///
    /// ```
    /// use toolgate::boundary::{Failure, Reason};
    ///
    /// let failure = Failure::new(Reason::Denied, "the tool is not on the allow-list");
    /// assert_eq!(
    ///     serde_json::to_string(&failure).unwrap(),
    ///     r#"{"reason":"denied","message":"the tool is not on the allow-list","issues":[]}"#
    /// );
    /// ```
    pub fn new(reason: Reason, message: impl Into<String>) -> Self {
        Failure {
            reason,
            message: message.into(),
            issues: Vec::new(),
            did_you_mean: None,
            tools: Vec::new(),
            tools_omitted: 0,
            budget: None,
            limit: None,
            timeout_ms: None,
            denied_by: None,
            http_status: None,
            retry_after_ms: None,
            attempts: Vec::new(),
        }
    }

    /// The same failure with these issues.
    pub fn with_issues(mut self, issues: Vec<Issue>) -> Self {
        self.issues = issues;
        self
    }
}

/// The result of one call, in one JSON shape for every outcome: what goes into the
/// tool-result message the model reads.
///
/// A success:
///
/// ```json
/// {"tool": "book_flight", "ok": true, "value": {"booking": "BK-1"},
///  "repairs": [{"path": "passengers", "rule": "string_to_number", "from": "2", "to": 2}]}
/// ```
///
/// A failure: `error` always has `reason`, `message` and `issues`; `hint` is the capped
/// [`RetryHint`] where there is one to give (`invalid_arguments`, `malformed_response`, and
/// `tool_error` when the tool's error text was read as issues), else `null`:
///
/// ```json
/// {"tool": "book_flight", "ok": false,
///  "error": {"reason": "invalid_arguments", "message": "passengers: 12 is greater than the maximum 9",
///            "issues": [{"path": "passengers", "constraint": "maximum", "expected": 9, "got": 12,
///                        "message": "12 is greater than the maximum 9"}]},
///  "hint": {"tool": "book_flight", "reason": "invalid_arguments", "...": "..."}}
/// ```
///
/// Members written only when they say something: `call_id` (when the call had one),
/// `repairs` on a failure (the repairs made to arguments the tool then failed on),
/// `output_repairs` (repairs of the tool's result), and `value` on a failure (for
/// `malformed_response`, the result as the tool gave it).
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Envelope {
    /// The tool called (as the model named it, for `unknown_tool`). Written (serialized)
    /// shortened past 128 characters, as every name an answer echoes.
    ///
    /// Shared (`Arc<str>`): the envelopes of a tool hold its name without a copy each.
    pub tool: Arc<str>,
    /// The call's id, when the model gave one. Written (serialized) shortened past 128
    /// characters.
    #[serde(default)]
    pub call_id: Option<String>,
    /// Whether the call succeeded.
    pub ok: bool,
    /// The tool's result; for `malformed_response`, the result as the tool gave it.
    #[serde(default)]
    pub value: Option<Value>,
    /// The repairs made to the arguments.
    #[serde(default)]
    pub repairs: Vec<Repair>,
    /// The repairs made to the tool's result (checked against its output schema).
    #[serde(default)]
    pub output_repairs: Vec<Repair>,
    /// What went wrong (`None` on a success). Boxed, as the hint: a success carries neither,
    /// and an envelope moves through several hands.
    #[serde(default)]
    pub error: Option<Box<Failure>>,
    /// What the model should change, capped (`None` where there is nothing to retry with).
    #[serde(default)]
    pub hint: Option<Box<RetryHint>>,
}

impl Envelope {
    /// A success: the tool's result and the repairs made to the arguments.
    pub fn success(tool: impl Into<Arc<str>>, value: Value, repairs: Vec<Repair>) -> Self {
        Envelope {
            tool: tool.into(),
            call_id: None,
            ok: true,
            value: Some(value),
            repairs,
            output_repairs: Vec::new(),
            error: None,
            hint: None,
        }
    }

    /// A failure, with its hint if there is one.
    ///
    /// ```
    /// use toolgate::boundary::{Envelope, Failure, Reason};
    ///
    /// let envelope = Envelope::failure("search", Failure::new(Reason::Timeout, "took too long"), None);
    /// assert_eq!(
    ///     envelope.to_json(),
    ///     r#"{"tool":"search","ok":false,"error":{"reason":"timeout","message":"took too long","issues":[]},"hint":null}"#
    /// );
    /// ```
    pub fn failure(tool: impl Into<Arc<str>>, error: Failure, hint: Option<RetryHint>) -> Self {
        Envelope {
            tool: tool.into(),
            call_id: None,
            ok: false,
            value: None,
            repairs: Vec::new(),
            output_repairs: Vec::new(),
            error: Some(Box::new(error)),
            hint: hint.map(Box::new),
        }
    }

    /// The same envelope carrying the call's id.
    pub fn with_call_id(mut self, call_id: Option<String>) -> Self {
        self.call_id = call_id;
        self
    }

    /// Why the call failed (`None` on a success).
    pub fn reason(&self) -> Option<Reason> {
        self.error.as_ref().map(|error| error.reason)
    }

    /// Compact JSON: the text of the tool-result message.
    pub fn to_json(&self) -> String {
        // An envelope holds only JSON values and strings: writing it cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl Serialize for Envelope {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        // The name and the call's id as written are shortened as every echoed value is: a
        // registry filled from another server's tool list, or a model, may send any length.
        map.serialize_entry("tool", &super::stopped::echoed(&self.tool))?;
        if let Some(call_id) = &self.call_id {
            map.serialize_entry("call_id", &super::stopped::echoed(call_id))?;
        }
        map.serialize_entry("ok", &self.ok)?;
        if self.ok {
            map.serialize_entry("value", self.value.as_ref().unwrap_or(&Value::Null))?;
            map.serialize_entry("repairs", &self.repairs)?;
            if !self.output_repairs.is_empty() {
                map.serialize_entry("output_repairs", &self.output_repairs)?;
            }
        } else {
            map.serialize_entry("error", &self.error)?;
            map.serialize_entry("hint", &self.hint)?;
            if !self.repairs.is_empty() {
                map.serialize_entry("repairs", &self.repairs)?;
            }
            if let Some(value) = &self.value {
                map.serialize_entry("value", value)?;
            }
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Whatever the name of the tool that ran and the call's id, success or failure, the
        /// envelope writes at most 128 characters of each and an ellipsis (issue 27 §2, 28
        /// §5): a registry filled from another server's tool list may hold names of any
        /// length, and a model sends any id.
        #[test]
        fn the_written_name_and_call_id_are_bounded(name in "\\PC{0,40}", repeat in 1usize..300, ok: bool) {
            let name = name.repeat(repeat);
            let envelope = if ok {
                Envelope::success(name.as_str(), Value::Null, Vec::new())
            } else {
                Envelope::failure(name.as_str(), Failure::new(Reason::ToolError, "x"), None)
            };
            let envelope = envelope.with_call_id(Some(name.clone()));
            let written: Value = serde_json::from_str(&envelope.to_json()).unwrap();
            for member in ["tool", "call_id"] {
                let echoed = written[member].as_str().unwrap();
                let count = echoed.chars().count();
                proptest::prop_assert!(count <= 129, "{member}: {count} characters");
                if name.chars().count() <= 128 {
                    proptest::prop_assert_eq!(echoed, name.as_str());
                }
            }
        }
    }

    #[test]
    fn a_success_always_writes_its_value_and_repairs() {
        let envelope = Envelope::success("ping", Value::Null, Vec::new());
        assert_eq!(
            envelope.to_json(),
            r#"{"tool":"ping","ok":true,"value":null,"repairs":[]}"#
        );
    }

    #[test]
    fn an_envelope_reads_back_what_it_wrote() {
        let mut failure = Failure::new(Reason::BudgetExceeded, "spent");
        failure.budget = Some(Limit::Stall);
        failure.limit = Some(1);
        let envelope = Envelope::failure("ping", failure, None).with_call_id(Some("call_1".into()));
        let text = envelope.to_json();
        assert_eq!(
            text,
            r#"{"tool":"ping","call_id":"call_1","ok":false,"error":{"reason":"budget_exceeded","message":"spent","issues":[],"budget":"stall","limit":1},"hint":null}"#
        );
        let read: Envelope = serde_json::from_str(&text).unwrap();
        assert_eq!(read, envelope);
    }

    #[test]
    fn reasons_and_budgets_are_written_as_their_names() {
        for reason in [
            Reason::InvalidArguments,
            Reason::UnknownTool,
            Reason::ToolError,
            Reason::MalformedResponse,
            Reason::BudgetExceeded,
            Reason::Timeout,
            Reason::Denied,
        ] {
            assert_eq!(
                serde_json::to_value(reason).unwrap(),
                Value::from(reason.as_str())
            );
        }
        for budget in [
            Limit::CallsPerTool,
            Limit::CallsTotal,
            Limit::InvalidArgumentsPerTool,
            Limit::InvalidArgumentsTotal,
            Limit::ToolErrorsPerTool,
            Limit::ToolErrorsTotal,
            Limit::Stall,
        ] {
            assert_eq!(
                serde_json::to_value(budget).unwrap(),
                Value::from(budget.as_str())
            );
        }
    }
}

//! What the repair loop records and asks: its budgets, the requests to a corrector and a
//! resolver, each attempt, and why it stopped.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolgate_core::model::ToolModel;
use toolgate_core::{Issue, RetryHint};

use super::classify::Classified;
use crate::boundary::{Envelope, Failure, ToolDefinition};

/// The budgets of a repair loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorrectionBudgets {
    /// Corrections asked for one call (default 2).
    pub attempts_per_call: u32,
    /// Corrections asked over the loop's run, all calls together (default: no limit).
    pub attempts_total: Option<u32>,
    /// The most bytes of feedback (the hint and the issues, as JSON) sent per attempt
    /// (default 4,096). The hint always goes; issues go while they fit.
    pub feedback_bytes: usize,
    /// Stop when an attempt leaves the same issues as the one before (default on).
    pub stall_detection: bool,
    /// Re-resolutions asked for one call after its tool failed (default 2).
    pub resolutions_per_call: u32,
    /// Calls made again unchanged after a transient failure, per call (default 2).
    pub retries_per_call: u32,
    /// The first wait before a retry (default 200 ms); each next one doubles, up to
    /// `max_backoff`. A wait the tool asked for (`Retry-After`) is used instead, capped too.
    pub backoff: Duration,
    /// The longest wait before a retry (default 5 s).
    pub max_backoff: Duration,
    /// The most bytes of source data (earlier results, as JSON) sent to a resolver (default
    /// 8,192): the latest results go first; older ones are left out.
    pub source_bytes: usize,
}

impl Default for CorrectionBudgets {
    fn default() -> Self {
        CorrectionBudgets {
            attempts_per_call: 2,
            attempts_total: None,
            feedback_bytes: 4096,
            stall_detection: true,
            resolutions_per_call: 2,
            retries_per_call: 2,
            backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(5),
            source_bytes: 8192,
        }
    }
}

/// What a [`Corrector`] is asked: one refused call.
#[derive(Clone, Copy, Debug)]
pub struct CorrectionRequest<'a> {
    /// The tool's definition (name, description, input schema).
    pub tool: &'a ToolDefinition,
    /// The tool's model: what a corrector writes the tool from for its provider
    /// ([`crate::flavour::request_definitions`]), as the agent sent it.
    pub model: &'a ToolModel,
    /// The argument text of the refused attempt, as sent.
    pub arguments: &'a str,
    /// The issues sent back (as many as fit the feedback budget, in order).
    pub issues: &'a [Issue],
    /// The capped retry hint.
    pub hint: &'a RetryHint,
    /// Which correction this is for the call (1 for the first).
    pub attempt: u32,
}

/// A corrector's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Correction {
    /// New argument text (the whole arguments; only what the issues name is taken).
    Arguments(String),
    /// The corrector cannot fix the call, and says why.
    CannotFix(String),
}

/// What corrects refused arguments: a model behind an API, a scripted one in tests.
///
/// ```
/// use toolgate::boundary::async_trait;
/// use toolgate::boundary::correction::{Correction, CorrectionRequest, Corrector};
///
/// /// Fills every missing field with the placeholder the hint gives.
/// struct FromExample;
///
/// #[async_trait]
/// impl Corrector for FromExample {
///     async fn correct(&self, request: CorrectionRequest<'_>) -> Correction {
///         match &request.hint.example_input {
///             Some(example) => Correction::Arguments(example.to_string()),
///             None => Correction::CannotFix("the hint has no example".into()),
///         }
///     }
/// }
/// ```
#[async_trait::async_trait]
pub trait Corrector: Send + Sync {
    /// Corrected arguments for a refused call, or why there are none.
    async fn correct(&self, request: CorrectionRequest<'_>) -> Correction;
}

/// What a [`Resolver`] is asked: a call whose tool ran and failed, with what the agent holds.
#[derive(Clone, Copy, Debug)]
pub struct ResolutionRequest<'a> {
    /// The user's request the agent is working on.
    pub user_request: &'a str,
    /// Earlier tool results, as JSON, latest last (capped: [`CorrectionBudgets::source_bytes`]).
    pub source_data: &'a [Value],
    /// The tool's definition (name, description, input schema).
    pub tool: &'a ToolDefinition,
    /// The tool's model (see [`CorrectionRequest::model`]).
    pub model: &'a ToolModel,
    /// The argument text of the failed call, as sent.
    pub arguments: &'a str,
    /// The tool's error: its message, and the issues read from it.
    pub error: &'a Failure,
    /// How the failure was classified.
    pub classified: Classified,
}

/// A resolver's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// New argument text, computed from the source data; it goes through the gate again.
    Arguments(String),
    /// The failure is transient in the model's judgment: call again unchanged. Heeded only
    /// when no HTTP status was stated (see [`super::classify`]).
    Transient,
    /// The resolver cannot fix the call, and says why.
    CannotFix(String),
}

/// What corrects a call after its tool failed, from the source data the agent holds (layer
/// 4, contextual re-resolution): a model behind an API, a scripted one in tests.
#[async_trait::async_trait]
pub trait Resolver: Send + Sync {
    /// Corrected arguments for a failed call, or a judgment.
    async fn resolve(&self, request: ResolutionRequest<'_>) -> Resolution;
}

/// No resolver: a loop without layer 4 stops when a tool fails.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoResolver;

#[async_trait::async_trait]
impl Resolver for NoResolver {
    async fn resolve(&self, _request: ResolutionRequest<'_>) -> Resolution {
        Resolution::CannotFix("no resolver".to_owned())
    }
}

/// Which layer made an attempt.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// Validation feedback: the gate refused the arguments; a corrector fixed them.
    #[default]
    Feedback,
    /// Contextual re-resolution: the tool failed; a resolver fixed the arguments.
    Resolution,
    /// The tool failed transiently; the call was made again unchanged.
    Retry,
}

/// One correction or retry of a call, as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// Which attempt of the call (1 for the first).
    pub attempt: u32,
    /// The layer that made it.
    #[serde(default)]
    pub layer: Layer,
    /// The HTTP status the tool's error stated (layers `resolution` and `retry`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// The wait before a retry, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waited_ms: Option<u64>,
    /// The issues of the refused arguments.
    pub issues_before: Vec<Issue>,
    /// The bytes of feedback sent (the hint and the issues sent, as JSON).
    pub feedback_bytes: usize,
    /// How many issues the feedback budget left out.
    #[serde(default)]
    pub issues_left_out: usize,
    /// The paths taken from the correction (`""`: the correction was taken whole).
    pub fields_changed: Vec<String>,
    /// The paths the correction changed outside the issues, and whether that was applied.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wide_changes: Vec<String>,
    /// Whether the wide changes were applied ([`super::WideChanges::AcceptAndLog`]).
    #[serde(default)]
    pub wide_applied: bool,
    /// The issues after the call was made again (empty: it passed, or it failed without
    /// issues).
    pub issues_after: Vec<Issue>,
    /// The corrector's or resolver's reason, when it could not fix the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cannot_fix: Option<String>,
}

/// Why the loop stopped correcting a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The call passed the gate (after this many corrections: see the attempts).
    Passed,
    /// The envelope is not one the loop corrects (an unknown tool, a spent budget of the
    /// toolbox, a denial, a result that breaks its schema).
    NotRefused,
    /// The corrections per call are spent.
    AttemptsPerCall,
    /// The corrections of the run are spent.
    AttemptsTotal,
    /// An attempt left the same issues as the one before.
    Stall,
    /// The corrector or resolver could not fix the call.
    CannotFix,
    /// The tool failed in a way calling again cannot help (HTTP 401, 403, 404...), or
    /// nothing said and no resolver judged it transient.
    Permanent,
    /// The re-resolutions per call are spent.
    ResolutionsPerCall,
    /// The retries per call are spent.
    RetriesPerCall,
}

/// A call through the loop: the last envelope, each attempt, and why the loop stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Looped {
    /// The envelope of the last attempt. A call still refused carries every attempt's issues
    /// (see [`Looped::into_envelope`]).
    pub envelope: Envelope,
    /// The corrections made, in order.
    pub attempts: Vec<Attempt>,
    /// Why the loop stopped.
    pub stop: Stop,
}

impl Attempt {
    /// An attempt of `layer` on a call with these issues, the rest to fill in.
    pub(crate) fn of(layer: Layer, issues_before: Vec<Issue>) -> Self {
        Attempt {
            attempt: 0,
            layer,
            status: None,
            waited_ms: None,
            issues_before,
            feedback_bytes: 0,
            issues_left_out: 0,
            fields_changed: Vec::new(),
            wide_changes: Vec::new(),
            wide_applied: false,
            issues_after: Vec::new(),
            cannot_fix: None,
        }
    }
}

impl Looped {
    /// The envelope, a failure carrying every attempt (`error.attempts`).
    pub fn into_envelope(self) -> Envelope {
        let mut envelope = self.envelope;
        if let Some(error) = &mut envelope.error {
            error.attempts = self.attempts;
        }
        envelope
    }
}

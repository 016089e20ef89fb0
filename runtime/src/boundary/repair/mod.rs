//! The repair loop around a [`Toolbox`]: validation feedback (layer 3). A refused call goes
//! to a [`Corrector`] (any model) with its issues and hint; the correction is merged
//! narrowly into the arguments as sent and gated again, a bounded number of times.
//!
//! Decisions the issue left open, written down here:
//! - Only `invalid_arguments` envelopes are corrected: the other reasons are not about the
//!   arguments' shape (layer 4 takes tool failures).
//! - A correction is read as lenient JSON, as the gate reads arguments (fences, prose). If the
//!   arguments as sent were not a JSON object, or an issue is about the whole arguments, the
//!   correction is taken whole; otherwise only the issues' paths (missing fields included)
//!   are taken from it, and what it changes elsewhere follows [`WideChanges`].
//! - What is sent back is the hint (already capped) and as many of the issues as fit in
//!   [`LoopBudgets::feedback_bytes`]; the arguments as sent travel too, as the model wrote
//!   them (they are in its conversation already). The bytes counted are those of the hint
//!   and the issues, as JSON.
//! - Each refused attempt is gated by the toolbox, so it counts against the toolbox's own
//!   refusal budgets as well; a toolbox budget that stops the call ends the loop.
//! - The loop stops at the first of: the call passes; the attempts per call or per run are
//!   spent; the issues are the same (paths and constraints) as the attempt before (a stall);
//!   the corrector cannot fix it; the envelope is not `invalid_arguments`.

mod merge;

use std::sync::atomic::{AtomicU32, Ordering};

use serde::{Deserialize, Serialize};
use toolgate_core::decode::read_lenient;
use toolgate_core::{Issue, Path, RetryHint};

pub use merge::WideChanges;

use super::envelope::{Envelope, Reason};
use super::registry::ToolDefinition;
use super::toolbox::{Call, Toolbox};
use merge::merge;

/// The budgets of a repair loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopBudgets {
    /// Corrections asked for one call (default 2).
    pub attempts_per_call: u32,
    /// Corrections asked over the loop's run, all calls together (default: no limit).
    pub attempts_total: Option<u32>,
    /// The most bytes of feedback (the hint and the issues, as JSON) sent per attempt
    /// (default 4,096). The hint always goes; issues go while they fit.
    pub feedback_bytes: usize,
    /// Stop when an attempt leaves the same issues as the one before (default on).
    pub stall_detection: bool,
}

impl Default for LoopBudgets {
    fn default() -> Self {
        LoopBudgets {
            attempts_per_call: 2,
            attempts_total: None,
            feedback_bytes: 4096,
            stall_detection: true,
        }
    }
}

/// What a [`Corrector`] is asked: one refused call.
#[derive(Clone, Copy, Debug)]
pub struct CorrectionRequest<'a> {
    /// The tool's definition (name, description, input schema).
    pub tool: &'a ToolDefinition,
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
/// use toolgate::boundary::{async_trait, Correction, CorrectionRequest, Corrector};
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

/// One correction of a call, as recorded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// Which correction of the call (1 for the first).
    pub attempt: u32,
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
    /// Whether the wide changes were applied ([`WideChanges::AcceptAndLog`]).
    #[serde(default)]
    pub wide_applied: bool,
    /// The issues after the merged arguments were gated again (empty: they passed, or the
    /// call stopped for another reason).
    pub issues_after: Vec<Issue>,
    /// The corrector's reason, when it could not fix the call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cannot_fix: Option<String>,
}

/// Why the loop stopped correcting a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// The call passed the gate (after this many corrections: see the attempts).
    Passed,
    /// The envelope was not a refusal of the arguments: nothing to correct.
    NotRefused,
    /// The corrections per call are spent.
    AttemptsPerCall,
    /// The corrections of the run are spent.
    AttemptsTotal,
    /// An attempt left the same issues as the one before.
    Stall,
    /// The corrector could not fix the call.
    CannotFix,
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

/// A toolbox with a corrector: refused calls are corrected and gated again.
///
/// ```
/// use toolgate::boundary::{async_trait, Correction, CorrectionRequest, Corrector, RepairLoop, Stop, Toolbox};
///
/// /// Convert an amount between currencies.
/// #[derive(toolgate::Tool, serde::Deserialize)]
/// struct Convert {
///     amount: f64,
///     #[tool(pattern = "^[A-Z]{3}$")]
///     currency: String,
/// }
///
/// /// A scripted model: it knows "dollars" is USD.
/// struct Scripted;
///
/// #[async_trait]
/// impl Corrector for Scripted {
///     async fn correct(&self, request: CorrectionRequest<'_>) -> Correction {
///         Correction::Arguments(request.arguments.replace("dollars", "USD"))
///     }
/// }
///
/// let mut toolbox = Toolbox::new();
/// toolbox.add_tool(|c: Convert| async move { Ok::<_, String>(c.amount) }).unwrap();
/// let repair = RepairLoop::new(&toolbox, Scripted);
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let looped = repair.call("convert", r#"{"amount": 10, "currency": "dollars"}"#).await;
/// assert_eq!(looped.stop, Stop::Passed);
/// assert!(looped.envelope.ok);
/// assert_eq!(looped.attempts[0].fields_changed, ["currency"]);
/// # });
/// ```
pub struct RepairLoop<'t, C> {
    toolbox: &'t Toolbox,
    corrector: C,
    budgets: LoopBudgets,
    wide: WideChanges,
    spent: AtomicU32,
}

impl<'t, C: Corrector> RepairLoop<'t, C> {
    /// A loop with default budgets that refuses wide changes.
    pub fn new(toolbox: &'t Toolbox, corrector: C) -> Self {
        RepairLoop {
            toolbox,
            corrector,
            budgets: LoopBudgets::default(),
            wide: WideChanges::default(),
            spent: AtomicU32::new(0),
        }
    }

    /// The same loop with these budgets.
    pub fn with_budgets(mut self, budgets: LoopBudgets) -> Self {
        self.budgets = budgets;
        self
    }

    /// The same loop with this policy for changes outside the issues.
    pub fn with_wide_changes(mut self, wide: WideChanges) -> Self {
        self.wide = wide;
        self
    }

    /// The corrector.
    pub fn corrector(&self) -> &C {
        &self.corrector
    }

    /// Corrections asked so far, all calls together.
    pub fn attempts_spent(&self) -> u32 {
        self.spent.load(Ordering::Relaxed)
    }

    /// Calls a tool through the loop.
    pub async fn call(&self, name: &str, arguments: &str) -> Looped {
        self.call_with(Call::new(name, arguments)).await
    }

    /// Calls a tool through the loop, with the model's call id.
    pub async fn call_with(&self, call: Call) -> Looped {
        let mut envelope = self.toolbox.call_with(call.clone()).await;
        let mut attempts: Vec<Attempt> = Vec::new();
        let mut arguments = call.arguments;
        let stop = loop {
            if envelope.ok {
                break Stop::Passed;
            }
            if envelope.reason() != Some(Reason::InvalidArguments) {
                break Stop::NotRefused;
            }
            if self.budgets.stall_detection && stalled(&attempts) {
                break Stop::Stall;
            }
            if attempts.len() >= self.budgets.attempts_per_call as usize {
                break Stop::AttemptsPerCall;
            }
            if !self.take_one() {
                break Stop::AttemptsTotal;
            }
            let (Some(error), Some(hint), Some(tool)) = (
                envelope.error.as_deref(),
                envelope.hint.as_deref(),
                self.toolbox.definition(&call.tool),
            ) else {
                break Stop::NotRefused;
            };
            let number = attempts.len() as u32 + 1;
            let (sent, left_out, feedback_bytes) =
                feedback(&error.issues, hint, self.budgets.feedback_bytes);
            let request = CorrectionRequest {
                tool,
                arguments: &arguments,
                issues: &error.issues[..sent],
                hint,
                attempt: number,
            };
            let mut attempt = Attempt {
                attempt: number,
                issues_before: error.issues.clone(),
                feedback_bytes,
                issues_left_out: left_out,
                fields_changed: Vec::new(),
                wide_changes: Vec::new(),
                wide_applied: false,
                issues_after: Vec::new(),
                cannot_fix: None,
            };
            let corrected = match self.corrector.correct(request).await {
                Correction::Arguments(text) => text,
                Correction::CannotFix(reason) => {
                    attempt.cannot_fix = Some(reason);
                    told(&call.tool, &attempt);
                    attempts.push(attempt);
                    break Stop::CannotFix;
                }
            };
            let named: Vec<Path> = error
                .issues
                .iter()
                .map(|issue| issue.path.clone())
                .collect();
            let merged = merged_text(&arguments, &corrected, &named, self.wide, &mut attempt);
            arguments = merged;
            let again = Call {
                tool: call.tool.clone(),
                arguments: arguments.clone(),
                call_id: call.call_id.clone(),
            };
            envelope = self.toolbox.call_with(again).await;
            if let Some(error) = envelope.error.as_deref() {
                attempt.issues_after = error.issues.clone();
            }
            told(&call.tool, &attempt);
            attempts.push(attempt);
        };
        Looped {
            envelope,
            attempts,
            stop,
        }
    }

    /// Takes one correction from the run's budget, if one is left.
    fn take_one(&self) -> bool {
        let limit = self.budgets.attempts_total.unwrap_or(u32::MAX);
        self.spent
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |spent| {
                (spent < limit).then_some(spent + 1)
            })
            .is_ok()
    }
}

/// Whether the last attempt left the same issues (paths and constraints) as it began with.
fn stalled(attempts: &[Attempt]) -> bool {
    let Some(last) = attempts.last() else {
        return false;
    };
    let key = |issues: &[Issue]| {
        let mut keys: Vec<(String, &str)> = issues
            .iter()
            .map(|issue| (issue.path.to_string(), issue.constraint.as_str()))
            .collect();
        keys.sort_unstable();
        keys
    };
    !last.issues_after.is_empty() && key(&last.issues_before) == key(&last.issues_after)
}

/// How many issues fit the feedback budget with the hint, how many are left out, and the
/// bytes sent.
fn feedback(issues: &[Issue], hint: &RetryHint, budget: usize) -> (usize, usize, usize) {
    let hint_bytes = serde_json::to_string(hint).map_or(0, |text| text.len());
    let mut bytes = hint_bytes;
    let mut sent = 0;
    for issue in issues {
        let size = serde_json::to_string(issue).map_or(0, |text| text.len()) + 1;
        if bytes + size > budget {
            break;
        }
        bytes += size;
        sent += 1;
    }
    (sent, issues.len() - sent, bytes)
}

/// The arguments to gate again: the correction merged narrowly into the arguments as sent
/// (the attempt records what was taken and what was refused).
fn merged_text(
    arguments: &str,
    corrected: &str,
    named: &[Path],
    wide: WideChanges,
    attempt: &mut Attempt,
) -> String {
    let depth = toolgate_core::decode::MAX_DEPTH;
    let Ok(corrected_value) = read_lenient(corrected, depth).map(|json| json.into_value()) else {
        // Not JSON even read leniently: the gate says so on the text as it is.
        attempt.fields_changed = vec![String::new()];
        return corrected.to_owned();
    };
    let original = read_lenient(arguments, depth)
        .ok()
        .map(|json| json.into_value());
    let merged = merge(original.as_ref(), &corrected_value, named, wide);
    attempt.fields_changed = merged.taken.iter().map(Path::to_string).collect();
    attempt.wide_changes = merged.wide.iter().map(Path::to_string).collect();
    attempt.wide_applied = wide == WideChanges::AcceptAndLog && !merged.wide.is_empty();
    merged.value.to_string()
}

/// The tracing event of an attempt.
fn told(tool: &str, attempt: &Attempt) {
    tracing::info!(
        target: "toolgate::repair_loop",
        tool = tool,
        attempt = attempt.attempt,
        issues_before = attempt.issues_before.len(),
        feedback_bytes = attempt.feedback_bytes,
        fields_changed = ?attempt.fields_changed,
        wide_changes = ?attempt.wide_changes,
        wide_applied = attempt.wide_applied,
        issues_after = attempt.issues_after.len(),
        cannot_fix = attempt.cannot_fix.as_deref(),
        "correction"
    );
}

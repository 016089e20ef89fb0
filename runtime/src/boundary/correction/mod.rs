//! The repair loop around a [`Toolbox`]: validation feedback (layer 3) and contextual
//! re-resolution (layer 4).
//!
//! - Layer 3: a refused call goes to a [`Corrector`] (any model) with its issues and hint;
//!   the correction is merged narrowly into the arguments as sent and gated again, a bounded
//!   number of times.
//! - Layer 4: a call whose tool ran and failed is classified ([`classify`]): a failure the
//!   call's own values caused (HTTP 400, 422, a validation text, issues read from the error)
//!   goes to a [`Resolver`] with the user's request and the source data the agent holds
//!   (earlier results), and its corrected call is gated again; a transient one (429 after its
//!   `Retry-After`, 5xx, a timeout) is made again unchanged, with backoff; any other status
//!   (401, 403, 404...) stops. Both are budgeted per call.
//!
//! Decisions the issue left open, written down here:
//! - Only `invalid_arguments` envelopes go to the corrector; `tool_error` and `timeout` go to
//!   layer 4; the other reasons are the boundary's own decisions and end the loop.
//! - Which wins, a stated HTTP status or the model's judgment that an error is transient:
//!   the status. It is the server's own word on whether calling again can help; a 404 or a
//!   403 the model calls transient would only spend calls (and may lock an account), and a
//!   400 made again unchanged fails the same way. The model's judgment
//!   ([`Resolution::Transient`]) decides only where no status was stated.
//! - The source data is the results of the calls that passed through the loop (latest
//!   last) and what the caller adds ([`CorrectionLoop::add_source`]); what goes to a resolver is
//!   capped at [`CorrectionBudgets::source_bytes`], the latest results first.
//! - A resolver's correction is merged narrowly by the issues read from the error; when the
//!   error named no field, it is taken whole (there is nothing narrower to go by).
//! - A correction is read as lenient JSON, as the gate reads arguments (fences, prose). If the
//!   arguments as sent were not a JSON object, or an issue is about the whole arguments, the
//!   correction is taken whole; otherwise only the issues' paths (missing fields included)
//!   are taken from it, and what it changes elsewhere follows [`WideChanges`].
//! - What is sent back is the hint (already capped) and as many of the issues as fit in
//!   [`CorrectionBudgets::feedback_bytes`]; the arguments as sent travel too, as the model wrote
//!   them (they are in its conversation already). The bytes counted are those of the hint
//!   and the issues, as JSON.
//! - Each refused attempt is gated by the toolbox, so it counts against the toolbox's own
//!   refusal budgets as well; a toolbox budget that stops the call ends the loop.
//! - The loop stops at the first of: the call passes; the attempts per call or per run are
//!   spent; the issues are the same (paths and constraints) as the attempt before (a stall);
//!   the corrector cannot fix it; the envelope is not `invalid_arguments`.

mod classify;
mod merge;
mod record;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use toolgate_core::decode::read_lenient;
use toolgate_core::model::ToolModel;
use toolgate_core::{Constraint, Issue, Path, RetryHint};

use classify::classify_failure;
pub use classify::{classify, stated, Classified, Stated};
pub use merge::WideChanges;
pub use record::{
    Attempt, Correction, CorrectionBudgets, CorrectionRequest, Corrector, Layer, Looped,
    NoResolver, Resolution, ResolutionRequest, Resolver, Stop,
};

use super::envelope::{Envelope, Reason};
use super::toolbox::{Call, Toolbox};
use merge::merge;

/// A toolbox with a corrector: refused calls are corrected and gated again.
///
/// ```
/// use toolgate::boundary::{async_trait, Toolbox};
/// use toolgate::boundary::correction::{Correction, CorrectionRequest, Corrector, CorrectionLoop, Stop};
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
/// let repair = CorrectionLoop::new(&toolbox, Scripted);
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let looped = repair.call("convert", r#"{"amount": 10, "currency": "dollars"}"#).await;
/// assert_eq!(looped.stop, Stop::Passed);
/// assert!(looped.envelope.ok);
/// assert_eq!(looped.attempts[0].fields_changed, ["currency"]);
/// # });
/// ```
pub struct CorrectionLoop<'t, C, R = NoResolver> {
    toolbox: &'t Toolbox,
    corrector: C,
    resolver: R,
    budgets: CorrectionBudgets,
    wide: WideChanges,
    spent: AtomicU32,
    context: Mutex<Context>,
}

/// What the agent holds: the user's request and the source data.
#[derive(Default)]
struct Context {
    user_request: String,
    /// The latest sources that fit in [`CorrectionBudgets::source_bytes`], oldest first, each
    /// with its size as compact JSON: only what a resolver may be sent is kept, so a long
    /// run holds at most that much (issue 28 §5: 20,000 results once held 210 MiB).
    sources: std::collections::VecDeque<(Value, usize)>,
    /// The sizes of `sources` together.
    source_bytes: usize,
}

impl Context {
    /// Adds a source and lets go of the oldest ones past `budget` bytes (one larger than
    /// the budget is not kept: it could never be sent).
    fn add_source(&mut self, value: Value, budget: usize) {
        let size = toolgate_core::values::compact_json_len(&value);
        self.sources.push_back((value, size));
        self.source_bytes = self.source_bytes.saturating_add(size);
        while self.source_bytes > budget {
            let Some((_, size)) = self.sources.pop_front() else {
                break;
            };
            self.source_bytes -= size;
        }
    }
}

/// The counts of one call's attempts, per layer.
#[derive(Default)]
struct Counts {
    feedback: u32,
    resolutions: u32,
    retries: u32,
}

impl<'t, C: Corrector> CorrectionLoop<'t, C> {
    /// A loop with default budgets that refuses wide changes, without a resolver (a tool's
    /// failure is retried when transient, and otherwise ends the loop).
    pub fn new(toolbox: &'t Toolbox, corrector: C) -> Self {
        CorrectionLoop {
            toolbox,
            corrector,
            resolver: NoResolver,
            budgets: CorrectionBudgets::default(),
            wide: WideChanges::default(),
            spent: AtomicU32::new(0),
            context: Mutex::new(Context::default()),
        }
    }

    /// The same loop with a resolver: layer 4 corrects calls whose tool failed.
    pub fn with_resolver<R: Resolver>(self, resolver: R) -> CorrectionLoop<'t, C, R> {
        CorrectionLoop {
            toolbox: self.toolbox,
            corrector: self.corrector,
            resolver,
            budgets: self.budgets,
            wide: self.wide,
            spent: self.spent,
            context: self.context,
        }
    }
}

impl<'t, C: Corrector, R: Resolver> CorrectionLoop<'t, C, R> {
    /// The same loop with these budgets.
    pub fn with_budgets(mut self, budgets: CorrectionBudgets) -> Self {
        self.budgets = budgets;
        self
    }

    /// The same loop with this policy for changes outside the issues.
    pub fn with_wide_changes(mut self, wide: WideChanges) -> Self {
        self.wide = wide;
        self
    }

    /// Sets the user's request the agent works on (sent to the resolver).
    pub fn set_user_request(&self, request: impl Into<String>) {
        self.lock().user_request = request.into();
    }

    /// Adds source data the agent holds (an earlier result from elsewhere, the user's data).
    /// The results of calls that pass through the loop are added by the loop.
    pub fn add_source(&self, value: Value) {
        self.lock().add_source(value, self.budgets.source_bytes);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Context> {
        self.context
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The corrector.
    pub fn corrector(&self) -> &C {
        &self.corrector
    }

    /// The resolver.
    pub fn resolver(&self) -> &R {
        &self.resolver
    }

    /// Corrections asked so far by layer 3, all calls together.
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
        let mut counts = Counts::default();
        let mut arguments = call.arguments.clone();
        let stop = loop {
            if envelope.ok {
                if let Some(value) = &envelope.value {
                    self.add_source(value.clone());
                }
                break Stop::Passed;
            }
            if self.budgets.stall_detection && stalled(&attempts) {
                break Stop::Stall;
            }
            let current = Current {
                tool: &call.tool,
                arguments: &arguments,
                envelope: &envelope,
            };
            let step = match envelope.reason() {
                Some(Reason::InvalidArguments) => self.feedback(current, &mut counts).await,
                Some(Reason::ToolError | Reason::Timeout) => {
                    self.after_failure(current, &mut counts).await
                }
                _ => Step::Stop(Stop::NotRefused),
            };
            let (attempt, again) = match step {
                Step::Stop(stop) => break stop,
                Step::Ended(mut attempt, stop) => {
                    attempt.attempt = attempts.len() as u32 + 1;
                    told(&call.tool, &attempt);
                    attempts.push(*attempt);
                    break stop;
                }
                Step::Again(attempt, again) => (attempt, again),
            };
            let mut attempt = *attempt;
            attempt.attempt = attempts.len() as u32 + 1;
            if let Some(text) = again {
                arguments = text;
            }
            if let Some(wait) = attempt.waited_ms {
                tokio::time::sleep(Duration::from_millis(wait)).await;
            }
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

    /// Layer 3: the corrector's arguments for a refused call.
    async fn feedback(&self, current: Current<'_>, counts: &mut Counts) -> Step {
        let Current {
            tool,
            arguments,
            envelope,
        } = current;
        if counts.feedback >= self.budgets.attempts_per_call {
            return Step::Stop(Stop::AttemptsPerCall);
        }
        if !self.take_one() {
            return Step::Stop(Stop::AttemptsTotal);
        }
        counts.feedback += 1;
        let (Some(error), Some(hint), Some(definition), Some(model)) = (
            envelope.error.as_deref(),
            envelope.hint.as_deref(),
            self.toolbox.definition(tool),
            self.toolbox.model(tool),
        ) else {
            return Step::Stop(Stop::NotRefused);
        };
        let (sent, left_out, feedback_bytes) =
            feedback(&error.issues, hint, self.budgets.feedback_bytes);
        let request = CorrectionRequest {
            tool: definition,
            model,
            arguments,
            issues: &error.issues[..sent],
            hint,
            attempt: counts.feedback,
        };
        let mut attempt = Attempt::of(Layer::Feedback, error.issues.clone());
        attempt.feedback_bytes = feedback_bytes;
        attempt.issues_left_out = left_out;
        match self.corrector.correct(request).await {
            Correction::Arguments(corrected) => {
                let named = named_paths(&error.issues);
                let merged = self.merged(tool, arguments, &corrected, &named, &mut attempt);
                Step::Again(Box::new(attempt), Some(merged))
            }
            Correction::CannotFix(reason) => {
                attempt.cannot_fix = Some(reason);
                Step::Ended(Box::new(attempt), Stop::CannotFix)
            }
        }
    }

    /// Layer 4: a failed tool's call made again, unchanged or re-resolved.
    async fn after_failure(&self, current: Current<'_>, counts: &mut Counts) -> Step {
        let Current {
            tool,
            arguments,
            envelope,
        } = current;
        let Some(error) = envelope.error.as_deref() else {
            return Step::Stop(Stop::NotRefused);
        };
        let (mut classified, stated) = classify_failure(error);
        let status = stated.status;
        let mut resolution = None;
        if matches!(classified, Classified::Correct | Classified::Unknown) {
            if counts.resolutions >= self.budgets.resolutions_per_call {
                return Step::Stop(Stop::ResolutionsPerCall);
            }
            let (Some(definition), Some(model)) =
                (self.toolbox.definition(tool), self.toolbox.model(tool))
            else {
                return Step::Stop(Stop::NotRefused);
            };
            counts.resolutions += 1;
            let (user_request, sources) = self.context();
            let request = ResolutionRequest {
                user_request: &user_request,
                source_data: &sources,
                tool: definition,
                model,
                arguments,
                error,
                classified,
            };
            let answer = self.resolver.resolve(request).await;
            if answer == Resolution::Transient && classified == Classified::Unknown {
                // The model's judgment, heeded only where no status was stated.
                classified = Classified::Retry { after: None };
            } else {
                resolution = Some(answer);
            }
        }
        let mut attempt = Attempt::of(Layer::Resolution, error.issues.clone());
        attempt.status = status;
        match (classified, resolution) {
            (Classified::Retry { after }, _) => {
                if counts.retries >= self.budgets.retries_per_call {
                    return Step::Stop(Stop::RetriesPerCall);
                }
                let backoff = self
                    .budgets
                    .backoff
                    .saturating_mul(1 << counts.retries.min(16));
                let wait = after.unwrap_or(backoff).min(self.budgets.max_backoff);
                counts.retries += 1;
                attempt.layer = Layer::Retry;
                attempt.waited_ms = Some(u64::try_from(wait.as_millis()).unwrap_or(u64::MAX));
                Step::Again(Box::new(attempt), None)
            }
            (_, Some(Resolution::Arguments(corrected))) => {
                let named = named_paths(&error.issues);
                let merged = self.merged(tool, arguments, &corrected, &named, &mut attempt);
                Step::Again(Box::new(attempt), Some(merged))
            }
            (_, Some(Resolution::CannotFix(reason))) => {
                attempt.cannot_fix = Some(reason);
                Step::Ended(Box::new(attempt), Stop::CannotFix)
            }
            _ => Step::Stop(Stop::Permanent),
        }
    }

    /// The user's request and the latest sources that fit in the loop's
    /// [`CorrectionBudgets::source_bytes`], oldest first: the ones it keeps.
    fn context(&self) -> (String, Vec<Value>) {
        let context = self.lock();
        let sources = context.sources.iter().map(|(value, _)| value.clone());
        (context.user_request.clone(), sources.collect())
    }

    /// The arguments to gate again (see [`merged_text`]), fields found by `tool`'s model.
    fn merged(
        &self,
        tool: &str,
        arguments: &str,
        corrected: &str,
        named: &[Path],
        attempt: &mut Attempt,
    ) -> String {
        let model = self.toolbox.model(tool);
        merged_text(model, arguments, corrected, named, self.wide, attempt)
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

/// The call as it stands: its tool, its latest arguments and their envelope.
#[derive(Clone, Copy)]
struct Current<'c> {
    tool: &'c str,
    arguments: &'c str,
    envelope: &'c Envelope,
}

/// What a layer made of a failed call.
enum Step {
    /// Call again (with these arguments, or the same), recording the attempt.
    Again(Box<Attempt>, Option<String>),
    /// The loop ends after this attempt.
    Ended(Box<Attempt>, Stop),
    /// The loop ends without an attempt.
    Stop(Stop),
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
    model: Option<&ToolModel>,
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
    let merged = merge(model, original.as_ref(), &corrected_value, named, wide);
    attempt.fields_changed = merged.taken.iter().map(Path::to_string).collect();
    attempt.wide_changes = merged.wide.iter().map(Path::to_string).collect();
    attempt.wide_applied = wide == WideChanges::AcceptAndLog && !merged.wide.is_empty();
    merged.value.to_string()
}

/// The tracing event of an attempt (`toolgate.repair_attempt`, target
/// `toolgate::repair_loop`).
fn told(tool: &str, attempt: &Attempt) {
    tracing::info!(
        target: "toolgate::repair_loop",
        tool = tool,
        attempt = attempt.attempt,
        layer = ?attempt.layer,
        status = attempt.status,
        issues_before = attempt.issues_before.len(),
        feedback_bytes = attempt.feedback_bytes,
        fields_changed = ?attempt.fields_changed,
        wide_changes = ?attempt.wide_changes,
        wide_applied = attempt.wide_applied,
        issues_after = attempt.issues_after.len(),
        cannot_fix = attempt.cannot_fix.as_deref(),
        "toolgate.repair_attempt"
    );
}

/// The paths a correction is taken at (both layers): those the issues name, as the gate
/// matched them. A `limit` issue at the root names no path of its own: past the issue cap it
/// counts the issues left out (the next round names them), and for text over a limit the
/// other issues (none) leave the whole. With no path named, the correction is taken whole.
fn named_paths(issues: &[Issue]) -> Vec<Path> {
    let named: Vec<Path> = issues
        .iter()
        .filter(|issue| !(issue.constraint == Constraint::Limit && issue.path.is_root()))
        .map(|issue| issue.path.clone())
        .collect();
    if named.is_empty() {
        vec![Path::root()]
    } else {
        named
    }
}

#[cfg(test)]
mod tests {
    use super::{named_paths, Context};
    use serde_json::{json, Value};
    use toolgate_core::{Constraint, Issue, Path, Report};

    /// Issue 28 §5: past the issue cap the report ends with a root `limit` issue; the merge
    /// takes the paths the other issues name, not the whole correction (a changed valid
    /// field such as `account` stays as sent).
    #[test]
    fn a_root_limit_issue_names_no_path() {
        let mut report = Report::new();
        for index in 0..150 {
            let path = Path::root().key(format!("f{index}"));
            report.push(Issue::new(path, Constraint::Type, "not an integer"));
        }
        let issues = report.issues();
        assert!(issues
            .last()
            .is_some_and(|i| i.constraint == Constraint::Limit && i.path.is_root()));
        let named = named_paths(issues);
        assert_eq!(named.len(), issues.len() - 1);
        assert!(named.iter().all(|path| !path.is_root()));
        // Alone (text over a limit), it leaves the whole correction.
        let alone = Issue::new(Path::root(), Constraint::Limit, "over max_bytes");
        assert_eq!(named_paths(&[alone]), [Path::root()]);
    }

    proptest::proptest! {
        /// Issue 28 §5: however many results pass through a run, the loop keeps exactly the
        /// latest ones that fit in the budget, the ones a resolver may be sent: what it holds
        /// does not grow with the run.
        #[test]
        fn the_loop_keeps_only_the_sources_it_may_send(
            sizes in proptest::collection::vec(0usize..3_000, 0..200),
            budget in 0usize..10_000,
        ) {
            let mut context = Context::default();
            let sources: Vec<Value> = sizes
                .iter()
                .enumerate()
                .map(|(i, size)| json!({"i": i, "pad": "x".repeat(*size)}))
                .collect();
            for source in &sources {
                context.add_source(source.clone(), budget);
            }
            // The latest sources whose texts fit together, as a resolver is sent them.
            let mut wanted = Vec::new();
            let mut bytes = 0;
            for source in sources.iter().rev() {
                let size = source.to_string().len();
                if bytes + size > budget {
                    break;
                }
                bytes += size;
                wanted.push(source.clone());
            }
            wanted.reverse();
            let kept: Vec<Value> = context.sources.iter().map(|(value, _)| value.clone()).collect();
            proptest::prop_assert_eq!(kept, wanted);
            proptest::prop_assert!(context.source_bytes <= budget);
        }
    }
}

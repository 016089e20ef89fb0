//! The budgets of a run, and what a run has spent of them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use super::envelope::Limit;

/// The limits of one run of an agent: how many calls, refusals and failures it may have, how
/// long one call may take, and whether the same refused arguments may be sent again.
///
/// Every limit is off by default except stall detection. A limit counts:
/// - *calls*: calls that reached the tool (a refused call is not a call of the tool);
/// - *invalid arguments*: calls the gate refused;
/// - *tool errors*: calls whose tool failed, timed out, or gave a malformed result.
///
/// Once a count reaches its limit, the next call it covers is stopped with a `budget_exceeded`
/// envelope naming the budget: the tool does not run. (Without hooks the gate reads the
/// arguments first, with them the budgets are checked first and again just before the tool;
/// the envelope is the same.) Calls are counted as they start and failures as they end, so
/// calls already running when a failure budget is spent still finish, and a batch of calls
/// started together may end with more failures than the budget: the budget stops the calls
/// that come after.
///
/// The stall detector compares a call with the last refused call of the same tool: two
/// identical refused calls in one batch make the second a `stall`.
///
/// ```
/// use std::time::Duration;
/// use toolgate::boundary::Budgets;
///
/// let budgets = Budgets::new()
///     .calls_per_tool(5)
///     .calls_for("book_flight", 2)
///     .invalid_arguments_per_tool(3)
///     .tool_errors_total(4)
///     .timeout(Duration::from_secs(30));
/// assert_eq!(budgets.call_limit("book_flight"), Some(2));
/// assert_eq!(budgets.call_limit("get_weather"), Some(5));
/// ```
#[derive(Clone, Debug)]
pub struct Budgets {
    calls_per_tool: Option<u32>,
    calls_for: BTreeMap<String, u32>,
    calls_total: Option<u32>,
    invalid_arguments_per_tool: Option<u32>,
    invalid_arguments_total: Option<u32>,
    tool_errors_per_tool: Option<u32>,
    tool_errors_total: Option<u32>,
    timeout: Option<Duration>,
    stall_detection: bool,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets::new()
    }
}

impl Budgets {
    /// No limits; stall detection on.
    pub fn new() -> Self {
        Budgets {
            calls_per_tool: None,
            calls_for: BTreeMap::new(),
            calls_total: None,
            invalid_arguments_per_tool: None,
            invalid_arguments_total: None,
            tool_errors_per_tool: None,
            tool_errors_total: None,
            timeout: None,
            stall_detection: true,
        }
    }

    /// At most `limit` calls of each tool (unless [`Budgets::calls_for`] names the tool).
    pub fn calls_per_tool(mut self, limit: u32) -> Self {
        self.calls_per_tool = Some(limit);
        self
    }

    /// At most `limit` calls of the tool `name`, whatever [`Budgets::calls_per_tool`] says.
    pub fn calls_for(mut self, name: impl Into<String>, limit: u32) -> Self {
        self.calls_for.insert(name.into(), limit);
        self
    }

    /// At most `limit` calls of all tools together.
    pub fn calls_total(mut self, limit: u32) -> Self {
        self.calls_total = Some(limit);
        self
    }

    /// At most `limit` refused calls of each tool.
    pub fn invalid_arguments_per_tool(mut self, limit: u32) -> Self {
        self.invalid_arguments_per_tool = Some(limit);
        self
    }

    /// At most `limit` refused calls of all tools together.
    pub fn invalid_arguments_total(mut self, limit: u32) -> Self {
        self.invalid_arguments_total = Some(limit);
        self
    }

    /// At most `limit` failures (errors, timeouts, malformed results) of each tool.
    pub fn tool_errors_per_tool(mut self, limit: u32) -> Self {
        self.tool_errors_per_tool = Some(limit);
        self
    }

    /// At most `limit` failures of all tools together.
    pub fn tool_errors_total(mut self, limit: u32) -> Self {
        self.tool_errors_total = Some(limit);
        self
    }

    /// How long one call's tool may run. The timer is Tokio's: the call must run on a Tokio
    /// runtime with its time driver (`#[tokio::main]` has it).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Whether sending the arguments just refused again, unchanged, to the same tool stops
    /// the call (`budget_exceeded`, budget `stall`). On by default.
    pub fn stall_detection(mut self, on: bool) -> Self {
        self.stall_detection = on;
        self
    }

    /// The call limit of the tool `name`, if it has one.
    pub fn call_limit(&self, name: &str) -> Option<u32> {
        if self.calls_for.is_empty() {
            return self.calls_per_tool;
        }
        self.calls_for.get(name).copied().or(self.calls_per_tool)
    }

    /// The per-call timeout, if one is set.
    pub fn call_timeout(&self) -> Option<Duration> {
        self.timeout
    }
}

/// What one tool has spent in a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolUsage {
    /// Calls that reached the tool.
    pub calls: u32,
    /// Calls the gate refused.
    pub invalid_arguments: u32,
    /// Calls whose tool failed, timed out or gave a malformed result.
    pub tool_errors: u32,
}

/// A budget spent: which, and its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exceeded {
    pub(crate) budget: Limit,
    pub(crate) limit: u32,
}

/// A registered tool, as the counts know it: its number in the toolbox, and its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counter<'a> {
    pub(crate) id: usize,
    pub(crate) name: &'a str,
}

/// What a run has spent. Tools are counted by the numbers of registered tools only, so it
/// holds at most one entry per tool of the toolbox, whatever the model sends.
#[derive(Clone, Debug, Default)]
pub(crate) struct Usage {
    per_tool: Vec<ToolUsage>,
    total: ToolUsage,
    /// The last call, if the gate refused it: its tool's number and a hash of its text.
    last_refused: Option<(usize, u64)>,
}

/// What happened to a call that reached the gate, for the counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Counted {
    /// The gate refused it.
    Refused,
    /// The tool ran and failed (an error, a timeout, a malformed result); the call itself
    /// was counted when it started ([`Usage::start`]).
    Failed,
    /// Stopped after the gate, before the tool (a middleware denied it).
    NotRun,
}

fn text_hash(arguments: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    arguments.trim().hash(&mut hasher);
    hasher.finish()
}

impl Usage {
    /// What the tool numbered `id` has spent so far.
    pub(crate) fn of(&self, id: usize) -> ToolUsage {
        self.per_tool.get(id).copied().unwrap_or_default()
    }

    /// The run's totals.
    pub(crate) fn total(&self) -> ToolUsage {
        self.total
    }

    /// The first budget a call of `tool` with `arguments` would exceed, if any.
    pub(crate) fn check(
        &self,
        budgets: &Budgets,
        tool: Counter<'_>,
        arguments: &str,
    ) -> Option<Exceeded> {
        let spent = self.of(tool.id);
        let over = |used: u32, limit: Option<u32>, budget: Limit| {
            limit
                .filter(|limit| used >= *limit)
                .map(|limit| Exceeded { budget, limit })
        };
        let stalled = budgets.stall_detection
            && self
                .last_refused
                .as_ref()
                .is_some_and(|(id, hash)| *id == tool.id && *hash == text_hash(arguments));
        if stalled {
            return Some(Exceeded {
                budget: Limit::Stall,
                limit: 1,
            });
        }
        over(
            spent.invalid_arguments,
            budgets.invalid_arguments_per_tool,
            Limit::InvalidArgumentsPerTool,
        )
        .or_else(|| {
            over(
                self.total.invalid_arguments,
                budgets.invalid_arguments_total,
                Limit::InvalidArgumentsTotal,
            )
        })
        .or_else(|| {
            over(
                spent.tool_errors,
                budgets.tool_errors_per_tool,
                Limit::ToolErrorsPerTool,
            )
        })
        .or_else(|| {
            over(
                self.total.tool_errors,
                budgets.tool_errors_total,
                Limit::ToolErrorsTotal,
            )
        })
        .or_else(|| {
            over(
                spent.calls,
                budgets.call_limit(tool.name),
                Limit::CallsPerTool,
            )
        })
        .or_else(|| over(self.total.calls, budgets.calls_total, Limit::CallsTotal))
    }

    /// Adds to what the tool numbered `id` and the run have spent.
    fn bump(&mut self, id: usize, add: impl Fn(&mut ToolUsage)) {
        if self.per_tool.len() <= id {
            self.per_tool.resize(id + 1, ToolUsage::default());
        }
        if let Some(spent) = self.per_tool.get_mut(id) {
            add(spent);
        }
        add(&mut self.total);
    }

    /// Starts a call of `tool` the gate accepted: counts it, unless a call limit is reached
    /// (checked again here, under the same lock, so calls running at once cannot pass a
    /// limit together).
    pub(crate) fn start(&mut self, budgets: &Budgets, tool: Counter<'_>) -> Result<(), Exceeded> {
        let spent = self.of(tool.id);
        if let Some(limit) = budgets
            .call_limit(tool.name)
            .filter(|limit| spent.calls >= *limit)
        {
            return Err(Exceeded {
                budget: Limit::CallsPerTool,
                limit,
            });
        }
        if let Some(limit) = budgets
            .calls_total
            .filter(|limit| self.total.calls >= *limit)
        {
            return Err(Exceeded {
                budget: Limit::CallsTotal,
                limit,
            });
        }
        self.bump(tool.id, |spent| spent.calls = spent.calls.saturating_add(1));
        self.last_refused = None;
        Ok(())
    }

    /// Counts how a call of `tool` that reached the gate ended.
    pub(crate) fn count(&mut self, tool: Counter<'_>, arguments: &str, counted: Counted) {
        self.bump(tool.id, |usage| match counted {
            Counted::Refused => usage.invalid_arguments = usage.invalid_arguments.saturating_add(1),
            Counted::Failed => usage.tool_errors = usage.tool_errors.saturating_add(1),
            Counted::NotRun => {}
        });
        match counted {
            Counted::Refused => {
                self.last_refused = Some((tool.id, text_hash(arguments)));
            }
            Counted::NotRun => self.last_refused = None,
            // A failure ends a call that cleared the last refusal when it started.
            Counted::Failed => {}
        }
    }

    /// Forgets the last refusal: a call that did not reach the gate came between.
    pub(crate) fn break_stall(&mut self) {
        self.last_refused = None;
    }

    /// Current usage and what is left, short, for a system prompt (see
    /// [`super::Toolbox::state_fragment`]).
    pub(crate) fn fragment(&self, budgets: &Budgets, tools: &[Counter<'_>]) -> String {
        /// Most tools the fragment names.
        const MAX_TOOLS: usize = 8;
        let mut text = String::new();
        let total = self.total;
        let _ = write!(text, "Tool calls so far: {}", total.calls);
        if let Some(limit) = budgets.calls_total {
            let _ = write!(text, " of {limit}");
        }
        let _ = write!(text, "; refused: {}", total.invalid_arguments);
        if let Some(limit) = budgets.invalid_arguments_total {
            let _ = write!(text, " of {limit}");
        }
        let _ = write!(text, "; failed: {}", total.tool_errors);
        if let Some(limit) = budgets.tool_errors_total {
            let _ = write!(text, " of {limit}");
        }
        text.push('.');
        // Tools worth a line: those that have spent something, or have a call limit.
        let named: Vec<(&str, ToolUsage)> = tools
            .iter()
            .map(|tool| (tool.name, self.of(tool.id)))
            .filter(|(name, spent)| {
                *spent != ToolUsage::default() || budgets.calls_for.contains_key(*name)
            })
            .collect();
        for (name, spent) in named.iter().take(MAX_TOOLS) {
            let _ = write!(text, " {name}: {} call", spent.calls);
            if spent.calls != 1 {
                text.push('s');
            }
            if let Some(limit) = budgets.call_limit(name) {
                let _ = write!(text, " ({} left)", limit.saturating_sub(spent.calls));
            }
            if spent.invalid_arguments > 0 || budgets.invalid_arguments_per_tool.is_some() {
                let _ = write!(text, ", {} refused", spent.invalid_arguments);
                if let Some(limit) = budgets.invalid_arguments_per_tool {
                    let _ = write!(text, " of {limit}");
                }
            }
            if spent.tool_errors > 0 || budgets.tool_errors_per_tool.is_some() {
                let _ = write!(text, ", {} failed", spent.tool_errors);
                if let Some(limit) = budgets.tool_errors_per_tool {
                    let _ = write!(text, " of {limit}");
                }
            }
            text.push('.');
        }
        if named.len() > MAX_TOOLS {
            let _ = write!(text, " ({} more tools used.)", named.len() - MAX_TOOLS);
        }
        let untouched_limit = budgets.calls_per_tool.filter(|_| named.len() < tools.len());
        if let Some(limit) = untouched_limit {
            let _ = write!(text, " Other tools: {limit} calls each.");
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Counter<'static> = Counter { id: 0, name: "a" };
    const B: Counter<'static> = Counter { id: 1, name: "b" };
    const C: Counter<'static> = Counter { id: 2, name: "c" };
    const FLIGHT: Counter<'static> = Counter {
        id: 0,
        name: "book_flight",
    };

    #[test]
    fn a_limit_stops_the_call_after_it_is_reached() {
        let budgets = Budgets::new().calls_per_tool(2).calls_for("b", 1);
        let mut usage = Usage::default();
        assert_eq!(usage.check(&budgets, A, "{}"), None);
        usage.start(&budgets, A).unwrap();
        usage.start(&budgets, A).unwrap();
        usage.count(A, "{}", Counted::Failed);
        assert_eq!(
            usage.start(&budgets, A).unwrap_err().budget,
            Limit::CallsPerTool
        );
        let exceeded = usage.check(&budgets, A, "{}").unwrap();
        assert_eq!(exceeded.budget, Limit::CallsPerTool);
        assert_eq!(exceeded.limit, 2);
        usage.start(&budgets, B).unwrap();
        assert_eq!(usage.check(&budgets, B, "{}").unwrap().limit, 1);
        assert_eq!(usage.total().calls, 3);
        assert_eq!(usage.total().tool_errors, 1);
    }

    #[test]
    fn refusals_and_failures_have_budgets_of_their_own() {
        let budgets = Budgets::new()
            .invalid_arguments_total(2)
            .tool_errors_per_tool(1);
        let mut usage = Usage::default();
        usage.count(A, "{\"x\": 1}", Counted::Refused);
        assert_eq!(usage.check(&budgets, B, "{}"), None);
        usage.count(B, "{\"x\": 2}", Counted::Refused);
        let exceeded = usage.check(&budgets, C, "{}").unwrap();
        assert_eq!(exceeded.budget, Limit::InvalidArgumentsTotal);
        let budgets = Budgets::new().tool_errors_per_tool(1);
        usage.start(&budgets, C).unwrap();
        usage.count(C, "{}", Counted::Failed);
        assert_eq!(
            usage.check(&budgets, C, "{}").unwrap().budget,
            Limit::ToolErrorsPerTool
        );
        assert_eq!(usage.check(&budgets, A, "{}"), None);
    }

    #[test]
    fn the_same_refused_text_again_is_a_stall_until_something_else_comes() {
        let budgets = Budgets::new();
        let mut usage = Usage::default();
        usage.count(A, "{\"x\": 1}", Counted::Refused);
        let stall = usage.check(&budgets, A, " {\"x\": 1}\n").unwrap();
        assert_eq!(stall.budget, Limit::Stall);
        // Other arguments, or the same text to another tool, are not a stall.
        assert_eq!(usage.check(&budgets, A, "{\"x\": 2}"), None);
        assert_eq!(usage.check(&budgets, B, "{\"x\": 1}"), None);
        assert_eq!(
            usage.check(&budgets.clone().stall_detection(false), A, "{\"x\": 1}"),
            None
        );
        usage.start(&budgets, A).unwrap();
        assert_eq!(usage.check(&budgets, A, "{\"x\": 1}"), None);
    }

    #[test]
    fn the_fragment_says_what_is_spent_and_what_is_left() {
        let budgets = Budgets::new()
            .calls_per_tool(5)
            .calls_for("book_flight", 2)
            .invalid_arguments_per_tool(3)
            .tool_errors_total(4);
        let mut usage = Usage::default();
        usage.start(&budgets, FLIGHT).unwrap();
        usage.count(FLIGHT, "{\"a\": 1}", Counted::Refused);
        let fragment = usage.fragment(
            &budgets,
            &[
                FLIGHT,
                Counter {
                    id: 1,
                    name: "get_weather",
                },
                Counter {
                    id: 2,
                    name: "search",
                },
            ],
        );
        assert_eq!(
            fragment,
            "Tool calls so far: 1; refused: 1; failed: 0 of 4. \
             book_flight: 1 call (1 left), 1 refused of 3. Other tools: 5 calls each."
        );
    }
}

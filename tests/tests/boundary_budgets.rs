//! The budgets of a run at the tool boundary: call caps, refusal and failure budgets, the
//! per-call timeout, stall detection, and calls run at once (`call_all`).

#[macro_use]
mod boundary_common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use boundary_common::block_on;
use serde_json::{json, Value};
use toolgate::boundary::{Budgets, Call, Envelope, Limit, Reason, Toolbox};

/// A run-time tool `name` taking `{"n": integer}`: it fails on a negative `n`, and sleeps `n`
/// milliseconds otherwise. Counts the calls that reach it.
fn add_counter(toolbox: &mut Toolbox, name: &str, reached: &Arc<AtomicUsize>) {
    let definition = json!({"name": name, "parameters": {"type": "object",
        "properties": {"n": {"type": "integer"}}, "required": ["n"]}});
    let reached = Arc::clone(reached);
    toolbox
        .add_runtime_tool(&definition, move |args: Value| {
            reached.fetch_add(1, Ordering::SeqCst);
            async move {
                let n = args["n"].as_i64().unwrap_or(0);
                if n < 0 {
                    return Err(format!("n is negative: {n}"));
                }
                tokio::time::sleep(Duration::from_millis(n.unsigned_abs())).await;
                Ok(json!(n))
            }
        })
        .unwrap();
}

fn budget_of(envelope: &Envelope) -> Option<Limit> {
    envelope.error.as_ref().and_then(|error| error.budget)
}

#[test]
fn call_caps_count_the_calls_that_reach_the_tool() {
    let reached = Arc::new(AtomicUsize::new(0));
    let mut toolbox = Toolbox::new().with_budgets(
        Budgets::new()
            .calls_per_tool(2)
            .calls_for("once", 1)
            .calls_total(4),
    );
    add_counter(&mut toolbox, "once", &reached);
    add_counter(&mut toolbox, "twice", &reached);
    add_counter(&mut toolbox, "other", &reached);
    block_on(async {
        assert!(toolbox.call("once", r#"{"n": 0}"#).await.ok);
        let second = toolbox.call("once", r#"{"n": 0}"#).await;
        assert_eq!(budget_of(&second), Some(Limit::CallsPerTool));
        assert_eq!(second.error.as_ref().unwrap().limit, Some(1));
        golden!("envelope__budget_exceeded", second);
        // A refused call is not a call of the tool.
        assert!(!toolbox.call("twice", r#"{"n": "x"}"#).await.ok);
        assert!(toolbox.call("twice", r#"{"n": 0}"#).await.ok);
        assert!(toolbox.call("twice", r#"{"n": 1}"#).await.ok);
        assert_eq!(
            budget_of(&toolbox.call("twice", r#"{"n": 2}"#).await),
            Some(Limit::CallsPerTool)
        );
        assert!(toolbox.call("other", r#"{"n": 0}"#).await.ok);
        assert_eq!(
            budget_of(&toolbox.call("other", r#"{"n": 0}"#).await),
            Some(Limit::CallsTotal)
        );
    });
    assert_eq!(reached.load(Ordering::SeqCst), 4);
    assert_eq!(
        toolbox.state_fragment(),
        "Tool calls so far: 4 of 4; refused: 1; failed: 0. once: 1 call (0 left). \
         other: 1 call (1 left). twice: 2 calls (0 left), 1 refused."
    );
    // The next run starts from nothing.
    let next = toolbox.new_run();
    assert!(block_on(next.call("once", r#"{"n": 0}"#)).ok);
}

#[test]
fn refusals_and_failures_use_up_their_own_budgets() {
    let reached = Arc::new(AtomicUsize::new(0));
    let mut toolbox = Toolbox::new().with_budgets(
        Budgets::new()
            .invalid_arguments_per_tool(2)
            .tool_errors_total(2),
    );
    add_counter(&mut toolbox, "a", &reached);
    add_counter(&mut toolbox, "b", &reached);
    block_on(async {
        assert_eq!(
            toolbox.call("a", r#"{"n": "one"}"#).await.reason(),
            Some(Reason::InvalidArguments)
        );
        assert_eq!(
            toolbox.call("a", r#"{}"#).await.reason(),
            Some(Reason::InvalidArguments)
        );
        // Spent: even valid arguments are stopped before the gate.
        let stopped = toolbox.call("a", r#"{"n": 0}"#).await;
        assert_eq!(budget_of(&stopped), Some(Limit::InvalidArgumentsPerTool));
        assert!(toolbox.call("b", r#"{"n": 0}"#).await.ok);
        assert_eq!(
            toolbox.call("b", r#"{"n": -1}"#).await.reason(),
            Some(Reason::ToolError)
        );
        assert_eq!(
            toolbox.call("b", r#"{"n": -2}"#).await.reason(),
            Some(Reason::ToolError)
        );
        assert_eq!(
            budget_of(&toolbox.call("b", r#"{"n": 0}"#).await),
            Some(Limit::ToolErrorsTotal)
        );
    });
    assert_eq!(reached.load(Ordering::SeqCst), 3);
    assert_eq!(toolbox.usage("b").tool_errors, 2);
}

#[test]
fn the_same_refused_arguments_again_are_a_stall() {
    let reached = Arc::new(AtomicUsize::new(0));
    let mut toolbox = Toolbox::new();
    add_counter(&mut toolbox, "a", &reached);
    block_on(async {
        let refused = r#"{"n": "seven"}"#;
        assert_eq!(
            toolbox.call("a", refused).await.reason(),
            Some(Reason::InvalidArguments)
        );
        let stalled = toolbox.call("a", refused).await;
        assert_eq!(budget_of(&stalled), Some(Limit::Stall));
        // Sent again unchanged: still a stall; the gate is not run for it.
        assert_eq!(
            budget_of(&toolbox.call("a", &format!("  {refused}\n")).await),
            Some(Limit::Stall)
        );
        assert_eq!(toolbox.usage("a").invalid_arguments, 1);
        // Changed arguments go through the gate.
        assert!(toolbox.call("a", r#"{"n": 7}"#).await.ok);
        assert_eq!(
            toolbox.call("a", refused).await.reason(),
            Some(Reason::InvalidArguments)
        );
    });
    let lenient = Toolbox::new().with_budgets(Budgets::new().stall_detection(false));
    let mut lenient = lenient;
    add_counter(&mut lenient, "a", &reached);
    block_on(async {
        for _ in 0..3 {
            assert_eq!(
                lenient.call("a", "{}").await.reason(),
                Some(Reason::InvalidArguments)
            );
        }
    });
}

#[test]
fn a_tool_past_its_timeout_is_stopped_and_counted_as_failed() {
    let reached = Arc::new(AtomicUsize::new(0));
    let mut toolbox =
        Toolbox::new().with_budgets(Budgets::new().timeout(Duration::from_millis(20)));
    add_counter(&mut toolbox, "slow", &reached);
    let envelope = block_on(toolbox.call("slow", r#"{"n": 60000}"#));
    assert_eq!(envelope.reason(), Some(Reason::Timeout));
    assert_eq!(envelope.error.as_ref().unwrap().timeout_ms, Some(20));
    assert_eq!(toolbox.usage("slow").tool_errors, 1);
    golden!("envelope__timeout", envelope);
}

#[test]
fn a_batch_runs_at_once_and_keeps_its_order() {
    // Two calls that each wait for the other: they finish only if they run at once.
    let barrier = Arc::new(tokio::sync::Barrier::new(2));
    let mut toolbox = Toolbox::new();
    let waiting = Arc::clone(&barrier);
    let definition = json!({"name": "meet", "parameters": {"type": "object",
        "properties": {"who": {"type": "string"}}}});
    toolbox
        .add_runtime_tool(&definition, move |args: Value| {
            let barrier = Arc::clone(&waiting);
            async move {
                barrier.wait().await;
                Ok::<_, String>(args["who"].clone())
            }
        })
        .unwrap();
    let batch = [
        Call::new("meet", r#"{"who": "first"}"#).with_id("1"),
        Call::new("meet", r#"{"who": "second"}"#).with_id("2"),
        Call::new("nobody", "{}").with_id("3"),
    ];
    let envelopes = block_on(async {
        tokio::time::timeout(Duration::from_secs(30), toolbox.call_all(batch))
            .await
            .expect("the calls of a batch run at once")
    });
    let values: Vec<Option<Value>> = envelopes.iter().map(|e| e.value.clone()).collect();
    assert_eq!(values, [Some(json!("first")), Some(json!("second")), None]);
    let ids: Vec<Option<&str>> = envelopes.iter().map(|e| e.call_id.as_deref()).collect();
    assert_eq!(ids, [Some("1"), Some("2"), Some("3")]);
}

#[test]
fn calls_of_one_batch_cannot_pass_a_cap_together() {
    let reached = Arc::new(AtomicUsize::new(0));
    let mut toolbox = Toolbox::new().with_budgets(Budgets::new().calls_for("slow", 1));
    add_counter(&mut toolbox, "slow", &reached);
    let envelopes = block_on(toolbox.call_all([
        Call::new("slow", r#"{"n": 5}"#),
        Call::new("slow", r#"{"n": 5}"#),
    ]));
    let oks = envelopes.iter().filter(|e| e.ok).count();
    assert_eq!(oks, 1);
    assert_eq!(reached.load(Ordering::SeqCst), 1);
}

/// Issue 28 §5: calls refused at once on several threads cannot pass a refusal budget
/// together, on the road without hooks and on the road with them (where the gate runs apart
/// from the budgets' lock): the check and the count are one step.
#[test]
fn refusals_at_once_cannot_pass_a_refusal_budget_together() {
    struct Pass;
    impl toolgate::boundary::middleware::Middleware for Pass {}
    const THREADS: usize = 8;
    const CALLS: usize = 125;
    for hooks in [false, true] {
        let reached = Arc::new(AtomicUsize::new(0));
        let budgets = Budgets::new()
            .invalid_arguments_total(5)
            .stall_detection(false);
        let mut toolbox = Toolbox::new().with_budgets(budgets);
        add_counter(&mut toolbox, "t", &reached);
        if hooks {
            toolbox.add_middleware(Pass);
        }
        let toolbox = Arc::new(toolbox);
        let threads: Vec<_> = (0..THREADS)
            .map(|thread| {
                let toolbox = Arc::clone(&toolbox);
                std::thread::spawn(move || {
                    (0..CALLS)
                        .filter(|call| {
                            let text = format!(r#"{{"n": "x{thread}_{call}"}}"#);
                            let envelope = block_on(toolbox.call("t", &text));
                            envelope
                                .error
                                .as_ref()
                                .is_some_and(|error| error.reason == Reason::InvalidArguments)
                        })
                        .count()
                })
            })
            .collect();
        let refused: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
        assert_eq!(refused, 5, "hooks installed: {hooks}");
        assert_eq!(reached.load(Ordering::SeqCst), 0);
    }
}

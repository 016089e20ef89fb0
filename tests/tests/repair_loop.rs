//! The repair loop, layer 3 (validation feedback): scenarios with a scripted corrector.

#[macro_use]
mod boundary_common;

use std::sync::Mutex;

use boundary_common::block_on;
use serde_json::{json, Value};
use toolgate::boundary::correction::{
    Correction, CorrectionBudgets, CorrectionLoop, CorrectionRequest, Corrector, Looped, Stop,
    WideChanges,
};
use toolgate::boundary::{async_trait, Budgets, Reason, Toolbox};
use toolgate::Constraint;

/// Convert an amount of money from one currency to another.
#[derive(toolgate::Tool, serde::Deserialize)]
struct ConvertCurrency {
    /// The amount to convert
    #[tool(exclusive_range(min = 0))]
    amount: f64,
    /// ISO 4217 code of the amount's currency
    #[tool(pattern = "^[A-Z]{3}$")]
    from: String,
    /// ISO 4217 code to convert to
    #[tool(pattern = "^[A-Z]{3}$")]
    to: String,
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(|args: ConvertCurrency| async move {
            Ok::<_, String>(json!({"converted": args.amount * 0.92, "to": args.to}))
        })
        .unwrap();
    toolbox
}

/// A corrector that answers from a script, one answer per request, and keeps what it was
/// asked.
struct Scripted {
    answers: Mutex<Vec<Correction>>,
    asked: Mutex<Vec<(String, Vec<String>, usize)>>,
}

impl Scripted {
    fn new(answers: impl IntoIterator<Item = Correction>) -> Self {
        let mut answers: Vec<Correction> = answers.into_iter().collect();
        answers.reverse();
        Scripted {
            answers: Mutex::new(answers),
            asked: Mutex::new(Vec::new()),
        }
    }

    fn arguments(text: Value) -> Correction {
        Correction::Arguments(text.to_string())
    }
}

#[async_trait]
impl Corrector for Scripted {
    async fn correct(&self, request: CorrectionRequest<'_>) -> Correction {
        let paths = request
            .issues
            .iter()
            .map(|issue| issue.path.to_string())
            .collect();
        self.asked.lock().unwrap().push((
            request.arguments.to_owned(),
            paths,
            request.hint.fields.len(),
        ));
        self.answers
            .lock()
            .unwrap()
            .pop()
            .unwrap_or(Correction::CannotFix("the script is over".into()))
    }
}

#[test]
fn a_currency_given_as_a_word_is_corrected_by_feedback() {
    let toolbox = toolbox();
    let corrector = Scripted::new([Scripted::arguments(
        json!({"amount": 100, "from": "USD", "to": "EUR"}),
    )]);
    let repair = CorrectionLoop::new(&toolbox, corrector);
    let sent = r#"{"amount": 100, "from": "dollars", "to": "EUR"}"#;
    let looped = convert(&repair, sent);
    assert_eq!(looped.stop, Stop::Passed);
    assert!(looped.envelope.ok, "{}", looped.envelope.to_json());
    assert_eq!(looped.envelope.value.as_ref().unwrap()["to"], "EUR");
    let [attempt] = looped.attempts.as_slice() else {
        panic!("one attempt: {:?}", looped.attempts)
    };
    assert_eq!(attempt.issues_before[0].path.to_string(), "from");
    assert_eq!(attempt.issues_before[0].constraint, Constraint::Pattern);
    assert_eq!(attempt.fields_changed, ["from"]);
    assert!(attempt.wide_changes.is_empty());
    assert!(attempt.issues_after.is_empty());
    assert!(attempt.feedback_bytes > 0);
    let asked = repair_asked(&repair);
    assert_eq!(asked, [(sent.to_owned(), vec!["from".to_owned()], 1)]);
    assert_eq!(repair.attempts_spent(), 1);
}

/// Calls `convert_currency` through the loop.
fn convert<C: Corrector>(repair: &CorrectionLoop<'_, C>, arguments: &str) -> Looped {
    block_on(repair.call("convert_currency", arguments))
}

fn repair_asked(repair: &CorrectionLoop<'_, Scripted>) -> Vec<(String, Vec<String>, usize)> {
    repair.corrector().asked.lock().unwrap().clone()
}

#[test]
fn a_correction_that_changes_a_valid_field_is_refused_or_accepted_and_logged() {
    let sent = r#"{"amount": 100, "from": "dollars", "to": "EUR"}"#;
    // The correction fixes `from` and also changes `to`, which was valid.
    let answer = || Scripted::arguments(json!({"amount": 100, "from": "USD", "to": "GBP"}));
    let toolbox = toolbox();

    let refusing = CorrectionLoop::new(&toolbox, Scripted::new([answer()]));
    let looped = convert(&refusing, sent);
    assert!(looped.envelope.ok);
    assert_eq!(looped.envelope.value.as_ref().unwrap()["to"], "EUR");
    assert_eq!(looped.attempts[0].wide_changes, ["to"]);
    assert!(!looped.attempts[0].wide_applied);

    let accepting = CorrectionLoop::new(&toolbox, Scripted::new([answer()]))
        .with_wide_changes(WideChanges::AcceptAndLog);
    let looped = convert(&accepting, sent);
    assert!(looped.envelope.ok);
    assert_eq!(looped.envelope.value.as_ref().unwrap()["to"], "GBP");
    assert_eq!(looped.attempts[0].wide_changes, ["to"]);
    assert!(looped.attempts[0].wide_applied);
}

#[test]
fn the_same_issues_twice_is_a_stall() {
    let toolbox = toolbox().with_budgets(Budgets::new().stall_detection(false));
    // The model keeps sending a word for the currency, a different one each time.
    let corrector = Scripted::new([
        Scripted::arguments(json!({"amount": 1, "from": "bucks", "to": "EUR"})),
        Scripted::arguments(json!({"amount": 1, "from": "greenbacks", "to": "EUR"})),
    ]);
    let repair = CorrectionLoop::new(&toolbox, corrector).with_budgets(CorrectionBudgets {
        attempts_per_call: 5,
        ..CorrectionBudgets::default()
    });
    let looped = convert(&repair, r#"{"amount": 1, "from": "dollars", "to": "EUR"}"#);
    assert_eq!(looped.stop, Stop::Stall);
    assert_eq!(looped.attempts.len(), 1);
    assert_eq!(looped.envelope.reason(), Some(Reason::InvalidArguments));
    // The envelope handed to the model carries every attempt's issues.
    let envelope = looped.into_envelope();
    let error = envelope.error.as_ref().unwrap();
    assert_eq!(error.attempts.len(), 1);
    assert_eq!(error.attempts[0].issues_after[0].path.to_string(), "from");
    assert!(envelope.to_json().contains(r#""attempts":[{"attempt":1"#));
    golden!("envelope__repair_loop_stalled", envelope);
}

#[test]
fn the_attempts_per_call_and_per_run_are_budgets() {
    let toolbox = toolbox();
    let amount =
        |amount: Value| Scripted::arguments(json!({"amount": amount, "from": "USD", "to": "EUR"}));
    // Each correction breaks the amount another way: no stall, but no end either.
    let corrector = Scripted::new([
        amount(json!("many")),
        amount(json!(-2)),
        amount(json!("lots")),
    ]);
    let repair = CorrectionLoop::new(&toolbox, corrector).with_budgets(CorrectionBudgets {
        attempts_total: Some(3),
        ..CorrectionBudgets::default()
    });
    let looped = convert(&repair, r#"{"amount": -1, "from": "USD", "to": "EUR"}"#);
    assert_eq!(looped.stop, Stop::AttemptsPerCall);
    assert_eq!(looped.attempts.len(), 2);
    assert_eq!(
        looped.attempts[1].issues_after[0].constraint,
        Constraint::ExclusiveMinimum
    );
    // One correction is left in the run: the next call gets one, then the run's budget stops it.
    let looped = convert(&repair, r#"{"amount": -1, "from": "USD", "to": "EUR"}"#);
    assert_eq!(looped.attempts.len(), 1);
    assert_eq!(looped.stop, Stop::AttemptsTotal);
    assert_eq!(repair.attempts_spent(), 3);
}

#[test]
fn feedback_past_its_byte_budget_sends_fewer_issues_and_says_how_many_were_left_out() {
    let toolbox = toolbox();
    let corrector = Scripted::new([Scripted::arguments(
        json!({"amount": 1, "from": "USD", "to": "EUR"}),
    )]);
    let repair = CorrectionLoop::new(&toolbox, corrector).with_budgets(CorrectionBudgets {
        feedback_bytes: 600,
        ..CorrectionBudgets::default()
    });
    // Three issues: the hint and one issue fit in 600 bytes.
    let looped = convert(
        &repair,
        r#"{"amount": -5, "from": "us dollars", "to": "euros"}"#,
    );
    let attempt = &looped.attempts[0];
    assert_eq!(attempt.issues_before.len(), 3);
    assert!(attempt.feedback_bytes <= 600, "{}", attempt.feedback_bytes);
    assert!(attempt.issues_left_out >= 1, "{attempt:?}");
    let asked = repair_asked(&repair);
    assert_eq!(asked[0].1.len(), 3 - attempt.issues_left_out);
    // The merge still takes every field the issues named.
    assert_eq!(attempt.fields_changed, ["amount", "from", "to"]);
    assert!(looped.envelope.ok);
}

#[test]
fn a_corrector_that_cannot_fix_ends_the_loop_and_other_failures_are_not_corrected() {
    let toolbox = toolbox();
    let repair = CorrectionLoop::new(
        &toolbox,
        Scripted::new([Correction::CannotFix("no idea".into())]),
    );
    let looped = convert(&repair, r#"{"amount": 1}"#);
    assert_eq!(looped.stop, Stop::CannotFix);
    assert_eq!(looped.attempts[0].cannot_fix.as_deref(), Some("no idea"));
    assert_eq!(looped.attempts[0].attempt, 1);

    let looped = block_on(repair.call("convert", r#"{"amount": 1}"#));
    assert_eq!(looped.stop, Stop::NotRefused);
    assert_eq!(looped.envelope.reason(), Some(Reason::UnknownTool));
    assert!(looped.attempts.is_empty());
}

#[test]
fn a_correction_in_a_markdown_fence_is_read_as_the_gate_reads_arguments() {
    let toolbox = toolbox();
    let corrector = Scripted::new([Correction::Arguments(
        "Here you go:\n```json\n{\"amount\": 100, \"from\": \"USD\", \"to\": \"EUR\"}\n```".into(),
    )]);
    let repair = CorrectionLoop::new(&toolbox, corrector);
    let looped = convert(
        &repair,
        r#"{"amount": 100, "from": "dollars", "to": "EUR"}"#,
    );
    assert!(looped.envelope.ok, "{}", looped.envelope.to_json());
    assert_eq!(looped.attempts[0].fields_changed, ["from"]);
}

/// Issue 28 §5: layer 4 classifies a tool's error on its whole text. An RFC 9457 body longer
/// than the 1,000 characters the envelope's message keeps still says `"status": 403` (stop:
/// calling again cannot help), however far into the body the status is written and however
/// many validation words its detail holds; the envelope carries the status it stated.
#[test]
fn a_long_problem_body_is_classified_on_its_whole_text() {
    use toolgate::boundary::correction::{classify, Classified};
    for (status, wanted) in [
        (403, Classified::Stop),
        (404, Classified::Stop),
        (503, Classified::Retry { after: None }),
        (422, Classified::Correct),
    ] {
        for detail_chars in [10, 990, 1_000, 1_500, 1_999, 5_000] {
            let detail = "amount must be greater than 0; ".repeat(detail_chars / 31 + 1);
            let body = json!({"type": "about:blank", "title": "Refused", "detail": detail, "status": status})
                .to_string();
            let mut toolbox = Toolbox::new();
            let text = body.clone();
            toolbox
                .add_tool(move |_: ConvertCurrency| {
                    let text = text.clone();
                    async move { Err::<Value, String>(text) }
                })
                .unwrap();
            let envelope = block_on(toolbox.call(
                "convert_currency",
                r#"{"amount": 1, "from": "EUR", "to": "USD"}"#,
            ));
            let error = envelope.error.as_ref().expect("the tool failed");
            assert_eq!(error.reason, Reason::ToolError);
            assert!(error.message.chars().count() <= 1_001);
            assert_eq!(error.http_status, Some(status), "{} characters", body.len());
            assert_eq!(
                classify(&envelope),
                wanted,
                "{status}, {} characters",
                body.len()
            );
        }
    }
}

//! The repair loop, layer 4 (contextual re-resolution and retries), in scenarios with a
//! scripted model: a tool that ran and failed is corrected from the source data the agent
//! holds, retried when the failure is transient, and left alone when it is permanent.

#[macro_use]
mod boundary_common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use boundary_common::block_on;
use serde_json::{json, Value};
use toolgate::boundary::correction::{
    Classified, Correction, CorrectionBudgets, CorrectionLoop, CorrectionRequest, Corrector, Layer,
    Resolution, ResolutionRequest, Resolver, Stop,
};
use toolgate::boundary::{async_trait, Reason, Toolbox};

/// Look up the latest price of a stock.
#[derive(toolgate::Tool, serde::Deserialize)]
struct StockPrice {
    /// Ticker symbol
    symbol: String,
}

/// Convert an amount of money from one currency to another.
#[derive(toolgate::Tool, serde::Deserialize)]
struct ConvertCurrency {
    /// The amount to convert
    amount: f64,
    /// ISO 4217 code of the amount's currency
    #[tool(pattern = "^[A-Z]{3}$")]
    from: String,
    /// ISO 4217 code to convert to
    #[tool(pattern = "^[A-Z]{3}$")]
    to: String,
}

/// A corrector that is never asked in these scenarios.
struct Unasked;

#[async_trait]
impl Corrector for Unasked {
    async fn correct(&self, _: CorrectionRequest<'_>) -> Correction {
        Correction::CannotFix("layer 3 is not part of this scenario".into())
    }
}

/// What a resolver was given: the user's request, the source data, the classification, the
/// paths of the issues.
type Seen = (String, Vec<Value>, Classified, Vec<String>);

/// A resolver that answers from a script and keeps what it was given.
#[derive(Default)]
struct Scripted {
    answers: Mutex<Vec<Resolution>>,
    seen: Mutex<Vec<Seen>>,
}

impl Scripted {
    fn new(answers: impl IntoIterator<Item = Resolution>) -> Self {
        let mut answers: Vec<Resolution> = answers.into_iter().collect();
        answers.reverse();
        Scripted {
            answers: Mutex::new(answers),
            seen: Mutex::default(),
        }
    }
}

#[async_trait]
impl Resolver for Scripted {
    async fn resolve(&self, request: ResolutionRequest<'_>) -> Resolution {
        let paths = request
            .error
            .issues
            .iter()
            .map(|issue| issue.path.to_string())
            .collect();
        self.seen.lock().unwrap().push((
            request.user_request.to_owned(),
            request.source_data.to_vec(),
            request.classified,
            paths,
        ));
        self.answers
            .lock()
            .unwrap()
            .pop()
            .unwrap_or(Resolution::CannotFix("the script is over".into()))
    }
}

/// A scripted model that computes the amount from the price in the source data.
struct FromSourceData;

#[async_trait]
impl Resolver for FromSourceData {
    async fn resolve(&self, request: ResolutionRequest<'_>) -> Resolution {
        let Some(price) = request
            .source_data
            .iter()
            .find_map(|value| value["price"].as_f64())
        else {
            return Resolution::CannotFix("no price in the source data".into());
        };
        // "buy 100 shares": the model reads the count from the user's request.
        let shares: f64 = request
            .user_request
            .split_whitespace()
            .find_map(|word| word.parse().ok())
            .unwrap_or(1.0);
        let mut arguments: Value = serde_json::from_str(request.arguments).unwrap();
        arguments["amount"] = json!(price * shares);
        Resolution::Arguments(arguments.to_string())
    }
}

fn fast() -> CorrectionBudgets {
    CorrectionBudgets {
        backoff: Duration::from_millis(1),
        max_backoff: Duration::from_millis(5),
        ..CorrectionBudgets::default()
    }
}

/// A toolbox whose conversion tool answers as a payments API would: 422 for an amount that
/// is not positive.
fn stock_toolbox(conversions: Arc<AtomicUsize>) -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(|_: StockPrice| async move {
            Ok::<_, String>(json!({"symbol": "ACME", "price": 468.285}))
        })
        .unwrap();
    toolbox
        .add_tool(move |args: ConvertCurrency| {
            let conversions = Arc::clone(&conversions);
            async move {
                conversions.fetch_add(1, Ordering::Relaxed);
                if args.amount <= 0.0 {
                    return Err("HTTP 422: amount must be greater than 0".to_owned());
                }
                Ok(json!({"amount": args.amount, "converted": args.amount * 0.92, "to": args.to}))
            }
        })
        .unwrap();
    toolbox
}

#[test]
fn a_conversion_of_zero_is_re_resolved_from_the_stock_price_already_held() {
    let conversions = Arc::new(AtomicUsize::new(0));
    let toolbox = stock_toolbox(Arc::clone(&conversions));
    let repair = CorrectionLoop::new(&toolbox, Unasked)
        .with_resolver(FromSourceData)
        .with_budgets(fast());
    repair.set_user_request("Buy 100 shares of ACME and tell me the cost in EUR");
    block_on(async {
        let price = repair.call("stock_price", r#"{"symbol": "ACME"}"#).await;
        assert!(price.envelope.ok);
        let looped = repair
            .call(
                "convert_currency",
                r#"{"amount": 0, "from": "USD", "to": "EUR"}"#,
            )
            .await;
        assert_eq!(looped.stop, Stop::Passed, "{:?}", looped.attempts);
        assert_eq!(looped.envelope.value.as_ref().unwrap()["amount"], 46828.5);
        let [attempt] = looped.attempts.as_slice() else {
            panic!("one attempt: {:?}", looped.attempts)
        };
        assert_eq!(attempt.layer, Layer::Resolution);
        assert_eq!(attempt.status, Some(422));
        // The error text was read into an issue at `amount`: only that field was taken.
        assert_eq!(attempt.fields_changed, ["amount"]);
        assert_eq!(attempt.issues_before[0].path.to_string(), "amount");
    });
    assert_eq!(conversions.load(Ordering::Relaxed), 2);
}

#[test]
fn the_resolver_gets_the_request_the_capped_sources_and_the_classification() {
    let toolbox = stock_toolbox(Arc::default());
    let resolver = Scripted::new([Resolution::CannotFix("no price known".into())]);
    let repair = CorrectionLoop::new(&toolbox, Unasked)
        .with_resolver(resolver)
        .with_budgets(CorrectionBudgets {
            source_bytes: 40,
            ..fast()
        });
    repair.set_user_request("convert my shares");
    repair.add_source(json!({"old": "x".repeat(100)}));
    repair.add_source(json!({"price": 1}));
    let looped = block_on(repair.call(
        "convert_currency",
        r#"{"amount": -3, "from": "USD", "to": "EUR"}"#,
    ));
    assert_eq!(looped.stop, Stop::CannotFix);
    assert_eq!(
        looped.attempts[0].cannot_fix.as_deref(),
        Some("no price known")
    );
    let seen = repair.resolver().seen.lock().unwrap().clone();
    // The older source is past the 40 bytes: only the latest goes.
    assert_eq!(
        seen,
        [(
            "convert my shares".to_owned(),
            vec![json!({"price": 1})],
            Classified::Correct,
            vec!["amount".to_owned()]
        )]
    );
}

/// A tool that fails `failures` times with `error`, then answers.
fn flaky(error: &'static str, failures: usize, calls: Arc<AtomicUsize>) -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(move |_: StockPrice| {
            let calls = Arc::clone(&calls);
            async move {
                if calls.fetch_add(1, Ordering::Relaxed) < failures {
                    Err(error.to_owned())
                } else {
                    Ok::<_, String>(json!({"price": 1.5}))
                }
            }
        })
        .unwrap();
    toolbox
}

#[test]
fn a_503_is_retried_unchanged_with_backoff_then_succeeds() {
    let calls = Arc::new(AtomicUsize::new(0));
    let toolbox = flaky("503 Service Unavailable", 2, Arc::clone(&calls));
    let repair = CorrectionLoop::new(&toolbox, Unasked).with_budgets(fast());
    let looped = block_on(repair.call("stock_price", r#"{"symbol": "ACME"}"#));
    assert_eq!(looped.stop, Stop::Passed);
    assert_eq!(calls.load(Ordering::Relaxed), 3);
    let waits: Vec<Option<u64>> = looped.attempts.iter().map(|a| a.waited_ms).collect();
    assert_eq!(waits, [Some(1), Some(2)]);
    assert!(looped
        .attempts
        .iter()
        .all(|a| a.layer == Layer::Retry && a.status == Some(503)));
    assert!(looped.attempts.iter().all(|a| a.fields_changed.is_empty()));
}

#[test]
fn retries_are_budgeted_and_a_429_waits_as_asked() {
    let calls = Arc::new(AtomicUsize::new(0));
    let toolbox = flaky(
        "HTTP 429 Too Many Requests; retry after 3 ms",
        10,
        Arc::clone(&calls),
    );
    let repair = CorrectionLoop::new(&toolbox, Unasked).with_budgets(fast());
    let looped = block_on(repair.call("stock_price", r#"{"symbol": "ACME"}"#));
    assert_eq!(looped.stop, Stop::RetriesPerCall);
    assert_eq!(calls.load(Ordering::Relaxed), 3);
    assert!(looped.attempts.iter().all(|a| a.waited_ms == Some(3)));
    assert_eq!(looped.envelope.reason(), Some(Reason::ToolError));
}

#[test]
fn a_404_is_not_retried_even_when_the_model_calls_it_transient() {
    let calls = Arc::new(AtomicUsize::new(0));
    let toolbox = flaky("HTTP 404: no such symbol", 10, Arc::clone(&calls));
    let repair = CorrectionLoop::new(&toolbox, Unasked)
        .with_resolver(Scripted::new([Resolution::Transient]))
        .with_budgets(fast());
    let looped = block_on(repair.call("stock_price", r#"{"symbol": "ACME"}"#));
    assert_eq!(looped.stop, Stop::Permanent);
    assert!(looped.attempts.is_empty());
    assert_eq!(calls.load(Ordering::Relaxed), 1);
    // A permanent status never reaches the resolver.
    assert!(repair.resolver().seen.lock().unwrap().is_empty());
}

#[test]
fn without_a_status_the_models_judgment_decides() {
    let calls = Arc::new(AtomicUsize::new(0));
    let toolbox = flaky("the ledger is busy", 1, Arc::clone(&calls));
    let transient = CorrectionLoop::new(&toolbox, Unasked)
        .with_resolver(Scripted::new([Resolution::Transient]))
        .with_budgets(fast());
    let looped = block_on(transient.call("stock_price", r#"{"symbol": "ACME"}"#));
    assert_eq!(looped.stop, Stop::Passed);
    assert_eq!(looped.attempts[0].layer, Layer::Retry);
    assert_eq!(
        transient.resolver().seen.lock().unwrap()[0].2,
        Classified::Unknown
    );

    // Without a resolver, an unclassified failure ends the loop.
    let toolbox = flaky("the ledger is busy", 1, Arc::default());
    let plain = CorrectionLoop::new(&toolbox, Unasked).with_budgets(fast());
    let looped = block_on(plain.call("stock_price", r#"{"symbol": "ACME"}"#));
    assert_eq!(looped.stop, Stop::CannotFix);
    assert_eq!(
        looped.attempts[0].cannot_fix.as_deref(),
        Some("no resolver")
    );
}

#[test]
fn re_resolutions_are_budgeted_per_call() {
    let conversions = Arc::new(AtomicUsize::new(0));
    let toolbox = stock_toolbox(Arc::clone(&conversions));
    // The model keeps sending a zero amount.
    let zero =
        || Resolution::Arguments(json!({"amount": 0, "from": "USD", "to": "EUR"}).to_string());
    let repair = CorrectionLoop::new(&toolbox, Unasked)
        .with_resolver(Scripted::new([zero(), zero(), zero()]))
        .with_budgets(CorrectionBudgets {
            stall_detection: false,
            ..fast()
        });
    let looped = block_on(repair.call(
        "convert_currency",
        r#"{"amount": 0, "from": "USD", "to": "EUR"}"#,
    ));
    assert_eq!(looped.stop, Stop::ResolutionsPerCall);
    assert_eq!(looped.attempts.len(), 2);
    assert_eq!(conversions.load(Ordering::Relaxed), 3);
    golden!(
        "envelope__repair_loop_resolutions_spent",
        looped.into_envelope()
    );
}

#[test]
fn a_call_past_its_timeout_is_made_again_unchanged() {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&calls);
    let mut toolbox = Toolbox::new()
        .with_budgets(toolgate::boundary::Budgets::new().timeout(Duration::from_millis(20)));
    toolbox
        .add_tool(move |_: StockPrice| {
            let first = counter.fetch_add(1, Ordering::Relaxed) == 0;
            async move {
                if first {
                    // Far past the timeout: the call is stopped, not awaited.
                    tokio::time::sleep(Duration::from_secs(60)).await;
                }
                Ok::<_, String>(json!({"price": 1.5}))
            }
        })
        .unwrap();
    let repair = CorrectionLoop::new(&toolbox, Unasked).with_budgets(fast());
    let looped = block_on(repair.call("stock_price", r#"{"symbol": "ACME"}"#));
    assert_eq!(looped.stop, Stop::Passed);
    assert_eq!(calls.load(Ordering::Relaxed), 2);
    let [attempt] = looped.attempts.as_slice() else {
        panic!("one attempt: {:?}", looped.attempts)
    };
    assert_eq!(attempt.layer, Layer::Retry);
    assert_eq!(attempt.status, None);
}

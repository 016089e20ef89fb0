//! The repair loop's layers at work: `cargo run -q --example agent_loop`.
//!
//! Offline (the default), a scripted model plays each layer: the prompt's type rules, a
//! repaired call, a refused call corrected by feedback, a tool failure re-resolved from the
//! source data, a transient failure retried, a budget stop, and one agent turn against a
//! fake Chat Completions endpoint on loopback.
//!
//! With `OPENAI_BASE_URL` set (and `OPENAI_API_KEY`, `OPENAI_MODEL`, default
//! `gpt-4.1-mini`), it runs the same user request as one real agent turn against that
//! endpoint; the exit code is 0 when the model answers in text, 1 when the endpoint fails
//! or the rounds run out.

use serde_json::{json, Value};
use toolgate::boundary::async_trait;
use toolgate::boundary::correction::{
    Correction, CorrectionBudgets, CorrectionLoop, CorrectionRequest, Corrector, Looped,
    Resolution, ResolutionRequest, Resolver,
};
use toolgate::openai::{agent_turn, OpenAiClient, Turn, TurnOptions};
use toolgate_example_servers::agent::{agent_toolbox, calls, fake_openai, says};

const REQUEST: &str = "Buy 100 shares of ACME: what do they cost in euros?";

/// A scripted model: it knows currency words, and computes amounts from prices it holds.
struct Scripted;

#[async_trait]
impl Corrector for Scripted {
    async fn correct(&self, request: CorrectionRequest<'_>) -> Correction {
        let fixed = request
            .arguments
            .replace("\"dollars\"", "\"USD\"")
            .replace("\"euros\"", "\"EUR\"");
        if fixed == request.arguments {
            Correction::CannotFix(format!(
                "I do not know how to fix: {}",
                request.hint.message
            ))
        } else {
            Correction::Arguments(fixed)
        }
    }
}

#[async_trait]
impl Resolver for Scripted {
    async fn resolve(&self, request: ResolutionRequest<'_>) -> Resolution {
        let price = request
            .source_data
            .iter()
            .find_map(|value| value["price"].as_f64());
        let shares = request
            .user_request
            .split_whitespace()
            .find_map(|word| word.parse::<f64>().ok());
        let (Some(price), Some(shares)) = (price, shares) else {
            return Resolution::CannotFix("no price or share count to compute from".into());
        };
        let mut arguments: Value = serde_json::from_str(request.arguments).unwrap_or_default();
        arguments["amount"] = json!(price * shares);
        Resolution::Arguments(arguments.to_string())
    }
}

fn show(title: &str, looped: &Looped) {
    println!("\n== {title}");
    for attempt in &looped.attempts {
        println!(
            "  attempt {} ({:?}{}): {} issue(s) before, fields taken {:?}, {} issue(s) after{}",
            attempt.attempt,
            attempt.layer,
            attempt
                .status
                .map(|s| format!(", status {s}"))
                .unwrap_or_default(),
            attempt.issues_before.len(),
            attempt.fields_changed,
            attempt.issues_after.len(),
            attempt
                .cannot_fix
                .as_deref()
                .map(|why| format!("; cannot fix: {why}"))
                .unwrap_or_default(),
        );
    }
    println!("  stop: {:?}", looped.stop);
    println!("  envelope: {}", looped.envelope.to_json());
}

/// One call through a loop, shown.
async fn step<C: Corrector, R: Resolver>(
    repair: &CorrectionLoop<'_, C, R>,
    title: &str,
    tool: &str,
    arguments: &str,
) {
    show(title, &repair.call(tool, arguments).await);
}

fn show_turn(turn: &Turn) {
    for message in &turn.messages[1..] {
        let role = message["role"].as_str().unwrap_or("?");
        match (message.get("tool_calls"), message.get("content")) {
            (Some(Value::Array(calls)), _) => {
                for call in calls {
                    println!(
                        "  {role}: calls {} {}",
                        call["function"]["name"], call["function"]["arguments"]
                    );
                }
            }
            (_, Some(Value::String(text))) => println!("  {role}: {text}"),
            _ => println!("  {role}: {message}"),
        }
    }
    println!("  answer after {} round(s): {}", turn.rounds, turn.answer);
}

async fn offline() {
    let toolbox = agent_toolbox(0);
    println!(
        "== Layer 1: the type rules in the system prompt\n{}",
        toolbox.prompt_rules(800)
    );

    let repaired = toolbox
        .call(
            "convert_currency",
            r#"{"amount": "250", "from": "USD", "to": "EUR"}"#,
        )
        .await;
    println!(
        "\n== Layer 2: a repaired call\n  envelope: {}",
        repaired.to_json()
    );

    let repair = CorrectionLoop::new(&toolbox, Scripted).with_resolver(Scripted);
    step(
        &repair,
        "Layer 3: a refused call corrected by feedback",
        "convert_currency",
        r#"{"amount": 10, "from": "dollars", "to": "EUR"}"#,
    )
    .await;

    repair.set_user_request(REQUEST);
    let price = repair.call("stock_price", r#"{"symbol": "ACME"}"#).await;
    println!(
        "\n== Layer 4: the stock price first\n  envelope: {}",
        price.envelope.to_json()
    );
    step(
        &repair,
        "Layer 4: a tool failure (422) re-resolved from the source data",
        "convert_currency",
        r#"{"amount": 0, "from": "USD", "to": "EUR"}"#,
    )
    .await;

    let busy = agent_toolbox(1);
    let fast = CorrectionBudgets {
        backoff: std::time::Duration::from_millis(10),
        ..CorrectionBudgets::default()
    };
    let retrying = CorrectionLoop::new(&busy, Scripted).with_budgets(fast.clone());
    step(
        &retrying,
        "Layer 4: a 503 retried unchanged",
        "convert_currency",
        r#"{"amount": 5, "from": "USD", "to": "EUR"}"#,
    )
    .await;

    step(
        &repair,
        "Layer 4: a 404 is not retried",
        "stock_price",
        r#"{"symbol": "NOPE"}"#,
    )
    .await;

    let budgeted = CorrectionLoop::new(&toolbox, Scripted).with_budgets(CorrectionBudgets {
        attempts_total: Some(1),
        ..fast
    });
    step(
        &budgeted,
        "A run budget of one correction: the first call spends it",
        "convert_currency",
        r#"{"amount": 5, "from": "dollars", "to": "EUR"}"#,
    )
    .await;
    step(
        &budgeted,
        "A budget stop: the next refused call gets no correction",
        "convert_currency",
        r#"{"amount": 5, "from": "USD", "to": "euros"}"#,
    )
    .await;

    println!("\n== An agent turn against a fake endpoint on loopback (scripted answers)");
    let (base_url, _) = fake_openai(vec![
        calls("call_1", "stock_price", r#"{"symbol": "ACME"}"#),
        calls(
            "call_2",
            "convert_currency",
            r#"{"amount": "46828.5", "from": "dollars", "to": "EUR"}"#,
        ),
        calls(
            "call_3",
            "convert_currency",
            r#"{"amount": 46828.5, "from": "USD", "to": "EUR"}"#,
        ),
        says("100 shares of ACME cost 43082.22 EUR."),
    ])
    .await;
    let client = OpenAiClient::new(base_url, None, "scripted");
    match agent_turn(&client, &toolbox, REQUEST, &TurnOptions::default()).await {
        Ok(turn) => show_turn(&turn),
        Err(error) => println!("  failed: {error}"),
    }
}

async fn online() -> bool {
    let model = std::env::var("OPENAI_MODEL").unwrap_or_else(|_| "gpt-4.1-mini".to_owned());
    let client = OpenAiClient::from_env(model);
    println!(
        "One agent turn against {} ({})",
        client.url(),
        client.model()
    );
    let toolbox = agent_toolbox(0);
    match agent_turn(&client, &toolbox, REQUEST, &TurnOptions::default()).await {
        Ok(turn) => {
            show_turn(&turn);
            true
        }
        Err(error) => {
            eprintln!("the turn failed: {error}");
            false
        }
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    if std::env::var("OPENAI_BASE_URL").is_ok_and(|url| !url.is_empty()) {
        if online().await {
            return std::process::ExitCode::SUCCESS;
        }
        return std::process::ExitCode::FAILURE;
    }
    offline().await;
    std::process::ExitCode::SUCCESS
}

//! `cargo run -q --example agent_loop` with `OPENAI_BASE_URL` set: one real agent turn
//! through the OpenAI-compatible client, here against a fake endpoint on loopback that
//! replays scripted answers. Exit code 0 when the model answers in text, 1 when the endpoint
//! fails.

use tokio::process::Command;
use toolgate_example_servers::agent::{calls, fake_openai, says};
use toolgate_example_servers::built_example;

async fn run_against(base_url: &str) -> std::process::Output {
    Command::new(built_example("agent_loop"))
        .env("OPENAI_BASE_URL", base_url)
        .env("OPENAI_API_KEY", "sk-test")
        .env("OPENAI_MODEL", "scripted")
        .output()
        .await
        .expect("the example runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_turn_with_a_refusal_corrected_by_the_model_ends_with_its_answer() {
    let (base_url, received) = fake_openai(vec![
        calls(
            "call_1",
            "convert_currency",
            r#"{"amount": 10, "from": "dollars", "to": "EUR"}"#,
        ),
        calls(
            "call_2",
            "convert_currency",
            r#"{"amount": 10, "from": "USD", "to": "EUR"}"#,
        ),
        says("10 USD is 9.2 EUR."),
    ])
    .await;
    let output = run_against(&base_url).await;
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("answer after 3 round(s): 10 USD is 9.2 EUR."),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#""reason":"invalid_arguments""#),
        "{stdout}"
    );
    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 3);
    assert_eq!(received[0].body["model"], "scripted");
    assert_eq!(received[0].authorization.as_deref(), Some("Bearer sk-test"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_endpoint_is_a_non_zero_exit() {
    let (base_url, _) = fake_openai(Vec::new()).await;
    let output = run_against(&base_url).await;
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("answered 500"), "{stderr}");
}

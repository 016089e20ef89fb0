//! The OpenAI-compatible client against a fake Chat Completions endpoint on loopback that
//! replays scripted answers (no network): an agent turn with a refusal corrected in the
//! conversation, the client as the repair loop's corrector and resolver, and its failures.

use serde_json::{json, Value};
use toolgate::boundary::correction::{CorrectionBudgets, CorrectionLoop, Stop};
use toolgate::boundary::{OnEarlyIssue, Reason};
use toolgate::flavour::Flavour;
use toolgate::openai::{agent_turn, OpenAiClient, OpenAiError, TurnError, TurnOptions};
use toolgate_example_servers::agent::{
    agent_toolbox, calls, fake_openai, fake_openai_texts, says, ACME_PRICE,
};

fn client(base_url: &str) -> OpenAiClient {
    OpenAiClient::new(base_url, Some("sk-test".to_owned()), "scripted")
}

#[tokio::test]
async fn an_agent_turn_sends_a_refusal_back_and_runs_the_corrected_call() {
    let (base_url, received) = fake_openai(vec![
        calls(
            "call_1",
            "convert_currency",
            r#"{"amount": "100", "from": "dollars", "to": "EUR"}"#,
        ),
        calls(
            "call_2",
            "convert_currency",
            r#"{"amount": 100, "from": "USD", "to": "EUR"}"#,
        ),
        says("100 USD is 92 EUR."),
    ])
    .await;
    let toolbox = agent_toolbox(0);
    let turn = agent_turn(
        &client(&base_url),
        &toolbox,
        "Convert 100 dollars to euros",
        &TurnOptions::default(),
    )
    .await
    .unwrap();
    assert_eq!(turn.answer, "100 USD is 92 EUR.");
    assert_eq!(turn.rounds, 3);
    assert_eq!(turn.envelopes.len(), 2);
    assert_eq!(turn.envelopes[0].reason(), Some(Reason::InvalidArguments));
    assert!(turn.envelopes[1].ok);

    let received = received.lock().unwrap().clone();
    assert_eq!(received.len(), 3);
    assert!(received
        .iter()
        .all(|r| r.authorization.as_deref() == Some("Bearer sk-test")));
    let first = &received[0].body;
    assert_eq!(first["model"], "scripted");
    let tools: Vec<&str> = first["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["convert_currency", "stock_price"]);
    // The system prompt holds the tools' type rules.
    let system = first["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.contains("- from: string, matching ^[A-Z]{3}$"),
        "{system}"
    );
    // The second request carries the refusal, with its hint, as a `tool` message.
    let messages = received[1].body["messages"].as_array().unwrap();
    let refusal = messages.last().unwrap();
    assert_eq!(refusal["role"], "tool");
    assert_eq!(refusal["tool_call_id"], "call_1");
    let envelope: Value = serde_json::from_str(refusal["content"].as_str().unwrap()).unwrap();
    assert_eq!(envelope["error"]["reason"], "invalid_arguments");
    assert_eq!(envelope["hint"]["fields"][0]["path"], "from");
    // The repair of `"100"` is in that envelope too.
    assert_eq!(envelope["repairs"][0]["rule"], "string_to_number");
    let success = received[2].body["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert!(success["content"]
        .as_str()
        .unwrap()
        .contains(r#""ok":true"#));
}

#[tokio::test]
async fn the_client_corrects_and_re_resolves_as_the_repair_loops_model() {
    let (base_url, received) = fake_openai(vec![
        // Layer 3: the correction, forced to the tool.
        calls(
            "c",
            "convert_currency",
            r#"{"amount": 0, "from": "USD", "to": "EUR"}"#,
        ),
        // Layer 4: the amount computed from the source data.
        calls(
            "r",
            "convert_currency",
            &json!({"amount": ACME_PRICE * 100.0, "from": "USD", "to": "EUR"}).to_string(),
        ),
    ])
    .await;
    let toolbox = agent_toolbox(0);
    let model = client(&base_url);
    let repair = CorrectionLoop::new(&toolbox, model.clone()).with_resolver(model);
    repair.set_user_request("Buy 100 shares of ACME; what do they cost in EUR?");
    repair.add_source(json!({"symbol": "ACME", "price": ACME_PRICE}));
    let looped = repair
        .call(
            "convert_currency",
            r#"{"amount": 0, "from": "dollars", "to": "EUR"}"#,
        )
        .await;
    assert_eq!(looped.stop, Stop::Passed, "{:?}", looped.attempts);
    assert_eq!(looped.envelope.value.as_ref().unwrap()["amount"], 46828.5);
    assert_eq!(looped.attempts.len(), 2);

    let received = received.lock().unwrap().clone();
    let correction = &received[0].body;
    assert_eq!(
        correction["tool_choice"]["function"]["name"],
        "convert_currency"
    );
    // The tool goes out as the OpenAI flavour writes it (`Toolbox::definitions_for`'s
    // writer): the name and description beside the schema, not repeated inside it.
    let sent_tool = &correction["tools"][0];
    let written = agent_toolbox(0).definitions_for(Flavour::OpenAi).unwrap();
    let expected = written
        .iter()
        .find(|tool| tool["function"]["name"] == "convert_currency")
        .unwrap();
    assert_eq!(sent_tool, expected);
    assert!(
        sent_tool["function"]["parameters"].get("title").is_none(),
        "{sent_tool}"
    );
    let asked: Value =
        serde_json::from_str(correction["messages"][1]["content"].as_str().unwrap()).unwrap();
    assert_eq!(asked["issues"][0]["path"], "from");
    let resolution = &received[1].body;
    let asked: Value =
        serde_json::from_str(resolution["messages"][1]["content"].as_str().unwrap()).unwrap();
    assert_eq!(asked["source_data"][0]["price"], ACME_PRICE);
    assert_eq!(
        asked["error"]["message"],
        "HTTP 422: amount must be greater than 0"
    );
}

#[tokio::test]
async fn a_model_that_says_transient_gets_a_retry_and_one_that_cannot_fix_says_why() {
    let (base_url, _) =
        fake_openai(vec![says("TRANSIENT"), says("I do not know the price.")]).await;
    let model = client(&base_url);
    let toolbox = {
        let mut toolbox = toolgate::boundary::Toolbox::new();
        let failures = std::sync::atomic::AtomicUsize::new(0);
        toolbox
            .add_tool(move |_: toolgate_example_servers::agent::StockPrice| {
                let failed = failures.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                async move {
                    Err::<Value, String>(match failed {
                        0 => "the ledger is busy".to_owned(),
                        _ => "the ledger has no such entry".to_owned(),
                    })
                }
            })
            .unwrap();
        toolbox
    };
    let repair = CorrectionLoop::new(&toolbox, model.clone())
        .with_resolver(model)
        .with_budgets(CorrectionBudgets {
            backoff: std::time::Duration::from_millis(1),
            ..CorrectionBudgets::default()
        });
    let looped = repair.call("stock_price", r#"{"symbol": "ACME"}"#).await;
    assert_eq!(looped.stop, Stop::CannotFix);
    assert_eq!(looped.attempts.len(), 2);
    assert_eq!(
        looped.attempts[1].cannot_fix.as_deref(),
        Some("I do not know the price.")
    );
}

#[tokio::test]
async fn endpoint_failures_and_spent_rounds_are_errors() {
    let (base_url, _) = fake_openai(Vec::new()).await;
    let toolbox = agent_toolbox(0);
    let failed = agent_turn(&client(&base_url), &toolbox, "hi", &TurnOptions::default()).await;
    match failed {
        Err(TurnError::Client(OpenAiError::Status { status, body, .. })) => {
            assert_eq!(status, 500);
            assert!(body.contains("the script is over"));
        }
        other => panic!("{other:?}"),
    }

    let looping = (0..3)
        .map(|i| calls(&format!("c{i}"), "stock_price", r#"{"symbol": "ACME"}"#))
        .collect();
    let (base_url, _) = fake_openai(looping).await;
    let options = TurnOptions {
        max_rounds: 3,
        ..TurnOptions::default()
    };
    match agent_turn(&client(&base_url), &toolbox, "loop", &options).await {
        Err(TurnError::RoundsSpent { rounds, envelopes }) => {
            assert_eq!(rounds, 3);
            assert_eq!(envelopes.len(), 3);
        }
        other => panic!("{other:?}"),
    }

    // Nothing listens there.
    let closed = client("http://127.0.0.1:9/v1").chat(&[], &[], None).await;
    assert!(
        matches!(closed, Err(OpenAiError::Http { .. })),
        "{closed:?}"
    );
}

#[tokio::test]
async fn a_strict_turn_sends_strict_tools_and_a_tool_strict_mode_cannot_say_stops_it_first() {
    let (base_url, received) = fake_openai(vec![
        calls("call_1", "stock_price", r#"{"symbol": "ACME"}"#),
        says("ACME is at 468.285 USD."),
    ])
    .await;
    let toolbox = agent_toolbox(0);
    let strict = TurnOptions {
        strict: true,
        ..TurnOptions::default()
    };
    let turn = agent_turn(&client(&base_url), &toolbox, "ACME?", &strict)
        .await
        .unwrap();
    assert_eq!(turn.answer, "ACME is at 468.285 USD.");
    let first = received.lock().unwrap()[0].body.clone();
    for tool in first["tools"].as_array().unwrap() {
        assert_eq!(tool["type"], "function");
        assert_eq!(tool["function"]["strict"], true, "{tool}");
        assert_eq!(
            tool["function"]["parameters"]["additionalProperties"],
            false
        );
    }

    // Free-form keys have no form in strict mode: the turn stops before any request.
    let (base_url, received) = fake_openai(vec![says("never sent")]).await;
    let mut toolbox = agent_toolbox(0);
    let tags = json!({"name": "tag", "parameters": {"type": "object", "properties": {
        "labels": {"type": "object", "additionalProperties": {"type": "string"}}}}});
    toolbox
        .add_runtime_tool(&tags, |args: Value| async move { Ok::<_, String>(args) })
        .unwrap();
    match agent_turn(&client(&base_url), &toolbox, "tag it", &strict).await {
        Err(TurnError::Flavour(error)) => assert!(
            error.to_string().contains("cannot express free-form keys"),
            "{error}"
        ),
        other => panic!("{other:?}"),
    }
    assert!(received.lock().unwrap().is_empty());
}

#[tokio::test]
async fn arguments_a_server_writes_as_an_object_reach_the_gate_as_written() {
    // Some OpenAI-compatible servers write `arguments` as an object: a key twice in it must
    // be refused by the gate, not collapsed by the client's parse (issue 28 §4).
    let object = r#"{"amount": 100, "amount": 5, "from": "USD", "to": "EUR"}"#;
    let (base_url, received) = fake_openai_texts(vec![
        format!(
            r#"{{"role":"assistant","content":null,"tool_calls":[{{"id":"call_1","type":"function","function":{{"name":"convert_currency","arguments":{object}}}}}]}}"#
        ),
        says("I could not convert it.").to_string(),
    ])
    .await;
    let toolbox = agent_toolbox(0);
    let turn = agent_turn(
        &client(&base_url),
        &toolbox,
        "Convert",
        &TurnOptions::default(),
    )
    .await
    .unwrap();
    assert_eq!(turn.envelopes[0].reason(), Some(Reason::InvalidArguments));
    let issues = &turn.envelopes[0].error.as_ref().unwrap().issues;
    assert_eq!(issues[0].path.to_string(), "amount", "{issues:?}");
    // The history sent back holds the arguments as the string the API writes, as sent.
    let received = received.lock().unwrap().clone();
    let echoed = &received[1].body["messages"][2]["tool_calls"][0]["function"]["arguments"];
    assert_eq!(echoed, object);
}

/// The answers of a conversion: a refused call beside a valid one, the correction, the text.
fn converting() -> Vec<Value> {
    vec![
        json!({"role": "assistant", "content": "Converting.", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "convert_currency",
                "arguments": r#"{"amount": "100", "from": "dollars", "to": "EUR"}"#}},
            {"id": "call_2", "type": "function", "function": {"name": "convert_currency",
                "arguments": r#"{"amount": 5, "from": "USD", "to": "EUR"}"#}}
        ]}),
        calls(
            "call_3",
            "convert_currency",
            r#"{"amount": 100, "from": "USD", "to": "EUR"}"#,
        ),
        says("100 USD is 92 EUR."),
    ]
}

/// The same turn streamed (`TurnOptions.stream`): the endpoint sends each answer as Chat
/// Completions chunks over server-sent events, the calls' arguments in pieces and
/// interleaved; the refusal goes back and the corrected call runs, as without a stream.
#[tokio::test]
async fn a_streamed_agent_turn_runs_the_same_calls() {
    let (base_url, received) = fake_openai(converting()).await;
    let toolbox = agent_toolbox(0);
    let options = TurnOptions {
        stream: true,
        ..TurnOptions::default()
    };
    let turn = agent_turn(
        &client(&base_url),
        &toolbox,
        "Convert 100 dollars",
        &options,
    )
    .await
    .unwrap();
    assert_eq!(turn.answer, "100 USD is 92 EUR.");
    assert_eq!(turn.rounds, 3);
    let outcomes: Vec<bool> = turn.envelopes.iter().map(|envelope| envelope.ok).collect();
    assert_eq!(outcomes, [false, true, true]);
    assert_eq!(turn.envelopes[0].reason(), Some(Reason::InvalidArguments));
    let received = received.lock().unwrap().clone();
    assert!(received.iter().all(|request| request.body["stream"] == true
        && request.body["stream_options"]["include_usage"] == true));
    // The history replays the streamed answer: its text and both calls.
    let replayed = &received[1].body["messages"][2];
    assert_eq!(replayed["content"], "Converting.");
    assert_eq!(replayed["tool_calls"].as_array().unwrap().len(), 2);
}

/// Streamed with `OnEarlyIssue::Cancel`: the first call's refusal is heard while the answer
/// streams, the answer is read no further and its other call does not run (refused as
/// stopped); the model corrects, as without a stream.
#[tokio::test]
async fn a_streamed_agent_turn_cancels_at_an_early_issue() {
    let (base_url, _) = fake_openai(converting()).await;
    let toolbox = agent_toolbox(0);
    let options = TurnOptions {
        stream: true,
        on_early_issue: OnEarlyIssue::Cancel,
        ..TurnOptions::default()
    };
    let turn = agent_turn(&client(&base_url), &toolbox, "Convert", &options)
        .await
        .unwrap();
    let outcomes: Vec<bool> = turn.envelopes.iter().map(|envelope| envelope.ok).collect();
    assert_eq!(outcomes, [false, false, true]);
    let first = serde_json::to_string(&turn.envelopes[0]).unwrap();
    assert!(first.contains("from"), "{first}");
    let second = serde_json::to_string(&turn.envelopes[1]).unwrap();
    assert!(second.contains("stopped the answer"), "{second}");
}

/// A stream that stops before its end (no finish reason, no `[DONE]`) runs none of its
/// calls, though their arguments parse: each is refused naming the cut.
#[tokio::test]
async fn a_dropped_stream_runs_none_of_its_calls() {
    let mut cut = calls(
        "call_1",
        "convert_currency",
        r#"{"amount": 100, "from": "USD", "to": "EUR"}"#,
    );
    cut["cut_stream"] = true.into();
    let (base_url, _) = fake_openai(vec![cut, says("Stopped.")]).await;
    let toolbox = agent_toolbox(0);
    let options = TurnOptions {
        stream: true,
        ..TurnOptions::default()
    };
    let turn = agent_turn(&client(&base_url), &toolbox, "Convert", &options)
        .await
        .unwrap();
    assert_eq!(turn.envelopes.len(), 1);
    assert!(!turn.envelopes[0].ok);
    let text = serde_json::to_string(&turn.envelopes[0]).unwrap();
    assert!(text.contains("cut before its end"), "{text}");
}

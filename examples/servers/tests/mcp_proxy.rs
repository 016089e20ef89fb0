//! `toolgate::mcp::Proxy` (what `toolgate mcp-proxy` runs) in front of a scripted upstream
//! (`fake_upstream`, raw JSON-RPC), driven by raw lines (issue 28 §7): what passes, what is
//! gated, what the upstream sees. (`.ci/run` puts the proxy in front of a Python SDK server
//! and calls it with the official Python client.)

use serde_json::{json, Value};
use tokio::process::Command;
use toolgate::boundary::Budgets;
use toolgate::mcp::Proxy;
use toolgate_example_servers::built_example;
use toolgate_example_servers::raw_client::{envelope, RawClient};

async fn proxied() -> RawClient {
    let upstream = Command::new(built_example("fake_upstream"));
    let proxy = Proxy::new(upstream)
        .check_output(true)
        .with_budgets(Budgets::new().calls_per_tool(50));
    RawClient::through(proxy).await
}

/// The calls the upstream received so far.
async fn seen(client: &mut RawClient, id: u64) -> Value {
    client.call(id, "calls_seen", "{}").await["result"]["structuredContent"]["seen"].clone()
}

#[tokio::test]
async fn the_proxy_forwards_repairs_refuses_and_passes_everything_else() {
    let mut client = proxied().await;

    // The client's own listing passes through unchanged, pages and all.
    client
        .send(br#"{"jsonrpc":"2.0","id":"list","method":"tools/list","params":{}}"#)
        .await;
    let page = client.answer(&json!("list")).await;
    assert_eq!(page["result"]["nextCursor"], "2", "{page}");

    // A valid call is forwarded as its text came; the upstream's notification passes.
    let sent = r#"{ "text" : "hi",   "n": 1 }"#;
    let valid = client.call(1, "echo", sent).await;
    assert_eq!(valid["result"]["structuredContent"]["received"], sent);
    assert!(valid["result"].get("_meta").is_none(), "{valid}");
    let logged = client
        .notifications
        .iter()
        .any(|n| n["method"] == "notifications/message");
    assert!(logged, "{:?}", client.notifications);

    // A repaired call reaches the upstream repaired, its repairs in the result's _meta.
    let repaired = client.call(2, "echo", r#"{"text": "hi", "n": "2"}"#).await;
    let received = repaired["result"]["structuredContent"]["received"]
        .as_str()
        .unwrap();
    let received: Value = serde_json::from_str(received).unwrap();
    assert_eq!(received, json!({"text": "hi", "n": 2}));
    let repairs = &repaired["result"]["_meta"]["io.toolgate/repairs"];
    assert_eq!(repairs[0]["rule"], "string_to_number", "{repaired}");

    // Refused calls, a repeated key among them, are answered by the proxy, never forwarded.
    let refused = envelope(
        &client
            .call(3, "echo", r#"{"text": "hi", "n": "two"}"#)
            .await,
    );
    assert_eq!(refused["error"]["reason"], "invalid_arguments");
    let repeated = envelope(
        &client
            .call(4, "echo", r#"{"text": "a", "n": 1, "n": 2}"#)
            .await,
    );
    assert_eq!(repeated["error"]["issues"][0]["path"], "n");
    let unknown = envelope(&client.call(5, "ecko", "{}").await);
    assert_eq!(unknown["error"]["did_you_mean"], "echo");
    assert_eq!(
        seen(&mut client, 6).await,
        json!(["echo", "echo", "calls_seen"])
    );

    // A tool whose schema cannot be read is refused with a `schema` issue, alone.
    let unreadable = envelope(&client.call(7, "unreadable", r#"{"a": [1, 2]}"#).await);
    assert_eq!(
        unreadable["error"]["issues"][0]["constraint"], "schema",
        "{unreadable}"
    );

    // --check-output: a result that breaks the outputSchema is a malformed_response.
    let malformed = envelope(&client.call(8, "bad_output", "{}").await);
    assert_eq!(malformed["error"]["reason"], "malformed_response");
    assert_eq!(malformed["error"]["issues"][0]["path"], "sum");

    // Other requests pass, and the upstream answers them.
    client
        .send(br#"{"jsonrpc":"2.0","id":9,"method":"ping"}"#)
        .await;
    assert_eq!(client.answer(&json!(9)).await["result"], json!({}));
    client
        .send(br#"{"jsonrpc":"2.0","id":10,"method":"prompts/list"}"#)
        .await;
    assert_eq!(client.answer(&json!(10)).await["error"]["code"], -32601);
}

#[tokio::test]
async fn a_changed_tool_list_rebuilds_the_gates() {
    let mut client = proxied().await;
    // Before the change, `extra` is not a tool the upstream lists.
    let unknown = envelope(&client.call(1, "extra", r#"{"x": 1}"#).await);
    assert_eq!(unknown["error"]["reason"], "unknown_tool");

    client.call(2, "switch", "{}").await;
    let changed = client
        .notifications
        .iter()
        .any(|n| n["method"] == "notifications/tools/list_changed");
    assert!(
        changed,
        "the change passes to the client: {:?}",
        client.notifications
    );
    // The rebuild is asked for when the change is read; the next call may come first, so
    // it is tried until the new gate answers (a refusal naming `x`, from `extra`'s schema).
    for id in 3..200 {
        let answer = client.call(id, "extra", r#"{"x": "no"}"#).await;
        let refusal = envelope(&answer);
        if refusal["error"]["reason"] == "invalid_arguments" {
            assert_eq!(refusal["error"]["issues"][0]["path"], "x");
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the gates were not rebuilt");
}

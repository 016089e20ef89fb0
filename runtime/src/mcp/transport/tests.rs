//! An [`McpServer`](crate::mcp::McpServer) served over [`TextTransport`] in this process,
//! driven by raw lines: every request is answered once, with its id as the client wrote it,
//! alone or in a batch.

use proptest::prelude::*;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::TextTransport;
use crate::boundary::Toolbox;
use crate::mcp::message::{items, locate};
use crate::mcp::McpServer;

fn ids() -> impl Strategy<Value = String> {
    prop_oneof![
        (0..100i64).prop_map(|n| n.to_string()),
        (0..100i64).prop_map(|n| format!("{n}.0")),
        Just("2e0".to_owned()),
        Just("-0".to_owned()),
        Just("18446744073709551616".to_owned()),
        Just("-9223372036854775809".to_owned()),
        "[a-z]{1,5}".prop_map(|s| format!("\"{s}\"")),
        Just(r#""\u00e9""#.to_owned()),
    ]
}

fn request(id: &str, kind: usize) -> String {
    match kind {
        0 => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
        1 => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{{"n":"2"}}}}}}"#
        ),
        2 => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":"```json\n{{\"n\": 3}}\n```"}}}}"#
        ),
        _ => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"nope/nope"}}"#),
    }
}

/// The answers' ids, as written, of the lines `requests` gets (batched or one by one).
async fn answered(requests: &[(String, usize)], batched: bool) -> Vec<String> {
    let mut toolbox = Toolbox::new();
    let definition = json!({"name": "echo", "inputSchema": {"type": "object",
        "properties": {"n": {"type": "integer"}}, "required": ["n"]}});
    toolbox
        .add_runtime_tool(&definition, |arguments: Value| async move {
            Ok::<_, String>(arguments)
        })
        .unwrap();
    let (client, server) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server);
    tokio::spawn(async move {
        use rmcp::ServiceExt;
        let running = McpServer::new(toolbox, "t")
            .serve(TextTransport::new(server_read, server_write))
            .await;
        if let Ok(running) = running {
            let _ = running.waiting().await;
        }
    });
    let (read, mut write) = tokio::io::split(client);
    let mut lines = BufReader::new(read).split(b'\n');
    let mut send = async |line: String| {
        write
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    };
    send(r#"{"jsonrpc":"2.0","id":"hello","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#.to_owned()).await;
    send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned()).await;
    let texts: Vec<String> = requests
        .iter()
        .map(|(id, kind)| request(id, *kind))
        .collect();
    if batched {
        send(format!("[{}]", texts.join(","))).await;
    } else {
        for text in texts {
            send(text).await;
        }
    }
    let mut ids = Vec::new();
    while ids.len() < requests.len() + 1 {
        let next = tokio::time::timeout(std::time::Duration::from_secs(20), lines.next_segment());
        let line = next
            .await
            .expect("every request is answered")
            .unwrap()
            .unwrap();
        let messages: Vec<Vec<u8>> = match items(&line, 0..line.len()) {
            Some(items) => items
                .into_iter()
                .map(|range| line[range].to_vec())
                .collect(),
            None => vec![line],
        };
        for message in messages {
            let located = locate(&message);
            if located.method.is_none() {
                ids.push(String::from_utf8(message[located.id.unwrap()].to_vec()).unwrap());
            }
        }
    }
    ids
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Over the stdio transport, every request is answered once with its id as written,
    /// whatever its JSON form (rmcp is handed a substitute), alone or in a batch answered
    /// as one array; a call's arguments sent as a string holding fenced JSON are read as
    /// argument text.
    #[test]
    fn every_request_is_answered_once_with_its_id_as_sent(
        requests in proptest::collection::vec((ids(), 0..4usize), 1..6),
        batched in any::<bool>(),
    ) {
        let mut seen = std::collections::HashSet::new();
        let requests: Vec<_> = requests.into_iter().filter(|(id, _)| seen.insert(id.clone())).collect();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let mut answered = runtime.block_on(answered(&requests, batched));
        let mut expected: Vec<String> = requests.iter().map(|(id, _)| id.clone()).collect();
        expected.push("\"hello\"".to_owned());
        answered.sort();
        expected.sort();
        prop_assert_eq!(answered, expected);
    }
}

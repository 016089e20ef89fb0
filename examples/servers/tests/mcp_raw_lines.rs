//! The example MCP server driven by raw JSON-RPC lines written by the test (issue 28 §1,
//! §2), served directly and through `toolgate::mcp::Proxy` (what `toolgate mcp-proxy` runs)
//! in front of it: the gate reads each call's arguments as sent, and every request line is
//! answered, whatever it holds.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Value};
use tokio::process::Command;
use toolgate::mcp::Proxy;
use toolgate_example_servers::built_example;
use toolgate_example_servers::raw_client::{envelope, RawClient};

/// How the example server is reached.
#[derive(Clone, Copy, Debug)]
enum Road {
    /// Its own stdio.
    Direct,
    /// Through the proxy, in this process.
    Proxied,
}

/// The example server, the handshake done.
struct Server(RawClient);

impl Server {
    async fn start(road: Road) -> Server {
        let command = Command::new(built_example("mcp_server"));
        Server(match road {
            Road::Direct => RawClient::direct(command).await,
            Road::Proxied => RawClient::through(Proxy::new(command)).await,
        })
    }

    async fn send(&mut self, line: &[u8]) {
        self.0.send(line).await;
    }

    async fn answer(&mut self, id: &Value) -> Value {
        self.0.answer(id).await
    }

    async fn call(&mut self, id: u64, arguments: &str) -> Value {
        self.0.call(id, "book_flight", arguments).await
    }
}

fn flight(passengers: &str) -> String {
    format!(
        r#"{{"origin":"CDG","destination":"JFK","date":"2026-12-01","passengers":{passengers},"cabin":"business"}}"#
    )
}

#[tokio::test]
async fn the_gate_reads_the_arguments_as_the_client_sent_them() {
    for road in [Road::Direct, Road::Proxied] {
        reads_the_arguments_as_sent(road).await;
    }
}

async fn reads_the_arguments_as_sent(road: Road) {
    let mut server = Server::start(road).await;

    let valid = server.call(1, &flight("2")).await;
    assert_eq!(valid["result"]["structuredContent"]["passengers"], 2);

    // A repeated key: rmcp's parse kept the last (3 passengers booked).
    let repeated = server.call(2, &flight("2, \"passengers\": 3")).await;
    let refusal = envelope(&repeated);
    assert_eq!(
        refusal["error"]["issues"][0]["path"], "passengers",
        "{refusal}"
    );

    // Numbers serde_json rounds: refused, as on every other road.
    for (id, number) in [(3, "2.0000000000000001"), (4, "1e-400"), (5, "1e400")] {
        let refusal = envelope(&server.call(id, &flight(number)).await);
        assert_eq!(refusal["error"]["reason"], "invalid_arguments", "{number}");
    }

    // Arguments sent as a JSON string holding the object: decoded, not `-32601`.
    let encoded = serde_json::to_string(&flight("2")).unwrap();
    let decoded = server.call(6, &encoded).await;
    assert_eq!(decoded["result"]["isError"], false, "{decoded}");
    let repairs = &decoded["result"]["_meta"]["io.toolgate/repairs"];
    assert_eq!(repairs[0]["rule"], "double_encoded", "{decoded}");

    // A lone surrogate: a syntax refusal, answered.
    let lone = flight("2").replace("CDG", "\\ud800");
    let refusal = envelope(&server.call(7, &lone).await);
    assert_eq!(
        refusal["error"]["issues"][0]["constraint"], "syntax",
        "{refusal}"
    );
}

#[tokio::test]
async fn every_request_line_is_answered() {
    for road in [Road::Direct, Road::Proxied] {
        answers_every_request_line(road).await;
    }
}

async fn answers_every_request_line(road: Road) {
    let mut server = Server::start(road).await;

    // Nested 126 and 127 levels in the arguments: within the gate's 127, past serde_json's
    // 128 with the message's own two.
    for (id, depth) in [(1, 126), (2, 127), (3, 5_000)] {
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let answer = server.call(id, &format!(r#"{{"origin":{deep}}}"#)).await;
        assert_eq!(envelope(&answer)["error"]["reason"], "invalid_arguments");
    }

    // Not UTF-8: a parse error with the request's id.
    server
        .send(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":{\"x\":\"\xFF\"}}")
        .await;
    assert_eq!(server.answer(&json!(4)).await["error"]["code"], -32700);

    // Not JSON, JSON that is not a request.
    server
        .send(br#"{"jsonrpc":"2.0","id":5,"method":"ping","#)
        .await;
    assert_eq!(server.answer(&json!(5)).await["error"]["code"], -32700);
    server
        .send(br#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":5}}"#)
        .await;
    assert_eq!(server.answer(&json!(6)).await["error"]["code"], -32602);

    // A line past the 16 MiB cap: a limit refusal for its id, and the rest skipped.
    let mut long = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"book_flight","arguments":{"origin":""#.to_vec();
    long.extend(std::iter::repeat_n(b'A', 17 << 20));
    long.extend_from_slice(br#""}}}"#);
    server.send(&long).await;
    let refusal = envelope(&server.answer(&json!(7)).await);
    assert_eq!(
        refusal["error"]["issues"][0]["constraint"], "limit",
        "{refusal}"
    );

    // And the server reads on.
    server
        .send(br#"{"jsonrpc":"2.0","id":8,"method":"ping"}"#)
        .await;
    assert_eq!(server.answer(&json!(8)).await["result"], json!({}));
}

/// Request lines of the class rmcp dropped: arguments `serde_json` cannot hold or that are
/// not JSON at all, bytes that are not UTF-8, lines cut short.
fn hostile_line(id: u64) -> impl Strategy<Value = Vec<u8>> {
    let leaf = prop_oneof![
        Just("1e400".to_owned()),
        Just("2.0000000000000001".to_owned()),
        Just("\"\\ud800\"".to_owned()),
        Just("\"\\udfff\\ud800\"".to_owned()),
        "\"[a-zA-Z ]{0,8}\"",
        "-?[0-9]{1,4}",
    ];
    let arguments = leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec(("\"(origin|passengers|cabin)\"", inner), 0..4).prop_map(
                |members| {
                    let members: Vec<String> = members
                        .iter()
                        .map(|(key, value)| format!("{key}:{value}"))
                        .collect();
                    format!("{{{}}}", members.join(","))
                }
            ),
        ]
    });
    let deep =
        (120..140usize).prop_map(|depth| format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
    let arguments = prop_oneof![3 => arguments, 1 => deep];
    (arguments, any::<bool>(), 0..4usize).prop_map(move |(arguments, cut, spoil)| {
        let mut line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"book_flight","arguments":{arguments}}}}}"#
        )
        .into_bytes();
        if cut {
            line.truncate(line.len() - 1);
        }
        if spoil == 0 {
            let at = line.len() - 3;
            line.insert(at, 0xFF);
        }
        line
    })
}

#[tokio::test]
async fn hostile_request_lines_are_each_answered_with_their_id() {
    for road in [Road::Direct, Road::Proxied] {
        answers_hostile_lines(road).await;
    }
}

async fn answers_hostile_lines(road: Road) {
    let mut server = Server::start(road).await;
    let mut runner = TestRunner::new(Config::default());
    for id in 100..164u64 {
        let line = hostile_line(id).new_tree(&mut runner).unwrap().current();
        server.send(&line).await;
        let answer = server.answer(&json!(id)).await;
        let answered = answer.get("result").is_some() || answer.get("error").is_some();
        assert!(answered, "{answer} for {}", String::from_utf8_lossy(&line));
    }
}

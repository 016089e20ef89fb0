//! The proxy in front of a scripted upstream in this process (it misbehaves on demand),
//! driven by raw lines: properties over hostile clients and upstreams, time paused (a
//! listing that never comes is waited for in no time).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use proptest::prelude::*;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

use super::Proxy;
use crate::mcp::message::locate;

/// What the scripted upstream does.
#[derive(Clone, Debug, Default)]
struct Script {
    /// The `tools` arrays of the pages of `tools/list` (JSON texts); each but the last
    /// names the next by the cursor `"N"`.
    pages: Vec<String>,
    /// `tools/list` is answered with an error.
    list_fails: bool,
    /// `tools/list` is never answered.
    list_stalls: bool,
    /// Every page names a next one.
    pages_forever: bool,
    /// Answers write their `id` after their `result`.
    id_last: bool,
    /// The `result` of every `tools/call` (JSON text); `{"content":[]}` by default.
    call_result: Option<String>,
    /// `notifications/tools/list_changed` sent before each call's answer, this many times.
    changes: usize,
    /// Requests before an `initialize` are refused (as the Python SDK's 2025 era does).
    needs_handshake: bool,
    /// Only MCP 2026-07-28's stateless era: `initialize` and requests without the `_meta`
    /// envelope are refused, `server/discover` answered.
    stateless_only: bool,
}

/// What the scripted upstream saw.
#[derive(Clone, Default)]
struct Seen {
    lines: Arc<Mutex<Vec<Vec<u8>>>>,
    listings: Arc<AtomicUsize>,
}

impl Seen {
    fn lines(&self) -> Vec<Vec<u8>> {
        self.lines.lock().unwrap().clone()
    }

    /// The `tools/call` lines the upstream received.
    fn calls(&self) -> Vec<Vec<u8>> {
        let is_call = |line: &Vec<u8>| locate(line).method(line).as_deref() == Some("tools/call");
        self.lines().into_iter().filter(is_call).collect()
    }
}

const ECHO: &str = r#"{"name":"echo","inputSchema":{"type":"object","properties":{"n":{"type":"integer"},"text":{"type":"string"},"free":{}},"required":["n"]}}"#;

async fn upstream(script: Script, seen: Seen, side: tokio::io::DuplexStream) {
    let (read, mut write) = tokio::io::split(side);
    let mut lines = BufReader::new(read).split(b'\n');
    while let Ok(Some(line)) = lines.next_segment().await {
        seen.lines.lock().unwrap().push(line.clone());
        let located = locate(&line);
        let (Some(id), Some(method)) = (located.id.clone(), located.method(&line)) else {
            continue;
        };
        let id = String::from_utf8_lossy(&line[id]).into_owned();
        let initialized = seen
            .lines()
            .iter()
            .any(|line| locate(line).method(line).as_deref() == Some("initialize"));
        if script.needs_handshake && !initialized && method != "initialize" {
            let error = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"Invalid request parameters"}}}}"#
            );
            let _ = write.write_all(format!("{error}\n").as_bytes()).await;
            continue;
        }
        if script.stateless_only {
            let enveloped = locate(&line).is_stateless_era(&line);
            let refusal = match method.as_str() {
                "initialize" => Some(-32022),
                "ping" => Some(-32601),
                _ if !enveloped => Some(-32602),
                _ => None,
            };
            if let Some(code) = refusal {
                let error = format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"stateless only"}}}}"#
                );
                let _ = write.write_all(format!("{error}\n").as_bytes()).await;
                continue;
            }
            if method == "server/discover" {
                let found = format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"supportedVersions":["2026-07-28"],"capabilities":{{"tools":{{}}}},"instructions":"hi","_meta":{{"io.modelcontextprotocol/serverInfo":{{"name":"modern","version":"1"}}}}}}}}"#
                );
                let _ = write.write_all(format!("{found}\n").as_bytes()).await;
                continue;
            }
        }
        if method == "tools/call" {
            for _ in 0..script.changes {
                let _ = write
                    .write_all(
                        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n",
                    )
                    .await;
            }
        }
        let result = match method.as_str() {
            "initialize" => r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"scripted","version":"0"}}"#.to_owned(),
            "tools/list" => {
                seen.listings.fetch_add(1, Ordering::SeqCst);
                if script.list_stalls {
                    continue;
                }
                if script.list_fails {
                    let error = format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"no tools"}}}}"#);
                    let _ = write.write_all(format!("{error}\n").as_bytes()).await;
                    continue;
                }
                let params: Value = serde_json::from_slice(&line).unwrap_or(Value::Null);
                let page: usize = params["params"]["cursor"].as_str().and_then(|c| c.parse().ok()).unwrap_or(0);
                let tools = script.pages.get(page).cloned().unwrap_or_else(|| "[]".to_owned());
                let next = script.pages_forever || page + 1 < script.pages.len();
                match next {
                    true => format!(r#"{{"tools":{tools},"nextCursor":"{}"}}"#, page + 1),
                    false => format!(r#"{{"tools":{tools}}}"#),
                }
            }
            "tools/call" => script.call_result.clone().unwrap_or_else(|| r#"{"content":[]}"#.to_owned()),
            _ => "{}".to_owned(),
        };
        let answer = if script.id_last {
            format!(r#"{{"jsonrpc":"2.0","result":{result},"id":{id}}}"#)
        } else {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)
        };
        if write
            .write_all(format!("{answer}\n").as_bytes())
            .await
            .is_err()
        {
            return;
        }
    }
}

/// A client of the proxy, speaking raw lines.
struct Client {
    to_proxy: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    from_proxy: tokio::io::Split<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    seen: Seen,
}

impl Client {
    async fn start(script: Script, proxy: Proxy) -> Client {
        let (client_side, proxy_side) = tokio::io::duplex(1 << 22);
        let (upstream_side, proxy_upstream_side) = tokio::io::duplex(1 << 22);
        let (proxy_read, proxy_write) = tokio::io::split(proxy_side);
        let (upstream_read, upstream_write) = tokio::io::split(proxy_upstream_side);
        tokio::spawn(proxy.serve(upstream_write, upstream_read, proxy_read, proxy_write));
        let seen = Seen::default();
        tokio::spawn(upstream(script, seen.clone(), upstream_side));
        let (read, write) = tokio::io::split(client_side);
        Client {
            to_proxy: write,
            from_proxy: BufReader::new(read).split(b'\n'),
            seen,
        }
    }

    async fn send(&mut self, line: &[u8]) {
        self.to_proxy.write_all(line).await.unwrap();
        self.to_proxy.write_all(b"\n").await.unwrap();
    }

    /// The next line the proxy writes; `None` if none comes within a minute (of paused time).
    async fn line(&mut self) -> Option<Vec<u8>> {
        let next = tokio::time::timeout(Duration::from_secs(60), self.from_proxy.next_segment());
        next.await.ok()?.ok()?
    }

    /// The handshake of the 2025 era.
    async fn hello(&mut self) {
        self.send(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#).await;
        self.line().await.expect("initialize is answered");
        self.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
    }
}

fn proxy() -> Proxy {
    Proxy::new(tokio::process::Command::new("unused"))
}

fn run<F: std::future::Future<Output = ()>>(test: F) {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap()
        .block_on(test);
}

/// Ids of every JSON form a client may write: plain integers and strings, integral floats,
/// `-0`, exponents, integers past `i64` and past 2^53, strings with escapes, and strings
/// that look like the proxy's own ids.
fn any_id() -> impl Strategy<Value = String> {
    prop_oneof![
        (0..1000i64).prop_map(|n| n.to_string()),
        (0..1000i64).prop_map(|n| format!("{n}.0")),
        (0..9i64).prop_map(|n| format!("{n}e0")),
        Just("-0".to_owned()),
        Just("1E+2".to_owned()),
        Just("9007199254740993".to_owned()),
        Just("18446744073709551616".to_owned()),
        Just("-9223372036854775809".to_owned()),
        Just("123456789012345678901234567890".to_owned()),
        "[a-z]{1,6}".prop_map(|s| format!("\"{s}\"")),
        Just(r#""\u0061""#.to_owned()),
        Just(r#""a""#.to_owned()),
        Just(r#""toolgate-0000000000000000-1""#.to_owned()),
        Just(r#""io.toolgate/tools-list/1""#.to_owned()),
    ]
}

/// A request of the client's with id `id`: a ping, a valid call, a call to repair, a call to
/// refuse, a call of a tool the upstream does not list.
fn request(id: &str, kind: usize) -> String {
    let call = |arguments: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"echo","arguments":{arguments}}}}}"#
        )
    };
    match kind {
        0 => format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#),
        1 => call(r#"{ "n" : 1, "free": 1.23456789012345678901234567890e29 }"#),
        2 => call(r#"{"free": {"b": 1e2, "a": [1.50]}, "n": "2"}"#),
        3 => call(r#"{"n": "two"}"#),
        _ => format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"ekho","arguments":{{}}}}}}"#
        ),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every request is answered once, with its id written as the client wrote it, whatever
    /// its form, alone or in a batch; the proxy's own requests' answers never reach the
    /// client; the upstream never holds two requests in flight under one id; and a valid call
    /// whose id can go as sent reaches the upstream byte for byte.
    #[test]
    fn every_request_is_answered_once_with_its_id(
        requests in proptest::collection::vec((any_id(), 0..5usize), 1..8),
        batched in any::<bool>(),
        id_last in any::<bool>(),
    ) {
        // One request per id (JSON-RPC asks ids to be unique among those in flight).
        let mut ids = std::collections::HashSet::new();
        let requests: Vec<_> = requests.into_iter().filter(|(id, _)| ids.insert(id.clone())).collect();
        run(async move {
            let script = Script { pages: vec![format!("[{ECHO}]")], id_last, ..Script::default() };
            let mut client = Client::start(script, proxy()).await;
            client.hello().await;
            let lines: Vec<String> = requests.iter().map(|(id, kind)| request(id, *kind)).collect();
            if batched {
                client.send(format!("[{}]", lines.join(",")).as_bytes()).await;
            } else {
                for line in &lines {
                    client.send(line.as_bytes()).await;
                }
            }
            let mut answered: Vec<String> = Vec::new();
            while answered.len() < requests.len() {
                let line = client.line().await.expect("every request is answered");
                let messages: Vec<Vec<u8>> = if line.starts_with(b"[") {
                    let Some(items) = crate::mcp::message::items(&line, 0..line.len()) else { panic!("a batch answer is an array") };
                    items.into_iter().map(|range| line[range].to_vec()).collect()
                } else {
                    vec![line]
                };
                for message in messages {
                    let located = locate(&message);
                    if located.method.is_some() {
                        continue;
                    }
                    let id = String::from_utf8(message[located.id.clone().expect("an answer has an id")].to_vec()).unwrap();
                    assert!(!id.contains("toolgate-") || requests.iter().any(|(sent, _)| *sent == id), "the proxy's own id reached the client: {id}");
                    answered.push(id);
                }
            }
            let mut expected: Vec<String> = requests.iter().map(|(id, _)| id.clone()).collect();
            expected.sort();
            answered.sort();
            assert_eq!(answered, expected);
            // Valid calls whose ids go as sent (integers below 2^53, strings that are not
            // the proxy's) reached the upstream as the client wrote them.
            // (An id equal to another's, `"\u0061"` and `"a"`, goes under a substitute.)
            let calls = client.seen.calls();
            let key = |id: &str| crate::mcp::ids::SentId::read(id.as_bytes()).and_then(|id| id.plain_key());
            for (id, kind) in &requests {
                let plain = key(id).is_some();
                let alone = requests.iter().filter(|(other, _)| key(other) == key(id)).count() == 1;
                if *kind == 1 && plain && alone && !id.contains("toolgate-") {
                    let sent = request(id, 1).into_bytes();
                    assert!(calls.contains(&sent), "{} not forwarded as sent", String::from_utf8_lossy(&sent));
                }
            }
            // No two calls in flight at the upstream under one id.
            let mut upstream_ids: Vec<Vec<u8>> = calls.iter().map(|line| line[locate(line).id.unwrap()].to_vec()).collect();
            let before = upstream_ids.len();
            upstream_ids.sort();
            upstream_ids.dedup();
            assert_eq!(before, upstream_ids.len());
        });
    }

    /// A repaired call reaches the upstream with only its repaired members written again,
    /// and the answer the client gets is the upstream's, byte for byte, but for its id and the
    /// repairs added to its `_meta`.
    #[test]
    fn a_result_keeps_its_bytes(
        result_members in proptest::collection::vec(prop_oneof![
            Just(r#""z": 123456789012345678901234567890"#.to_owned()),
            Just(r#""content":[]"#.to_owned()),
            Just(r#""_meta":{"k":1e400}"#.to_owned()),
            Just(r#""b" : {"y": 1, "x": [1.50, -0]}"#.to_owned()),
            Just(r#""resultType":"complete""#.to_owned()),
        ], 0..4),
    ) {
        let mut keys = std::collections::HashSet::new();
        let members: Vec<String> = result_members.into_iter().filter(|m| keys.insert(m[..4].to_owned())).collect();
        let result = format!("{{{}}}", members.join(","));
        run(async move {
            let script = Script { pages: vec![format!("[{ECHO}]")], call_result: Some(result.clone()), ..Script::default() };
            let mut client = Client::start(script, proxy()).await;
            client.hello().await;
            client.send(request("7", 2).as_bytes()).await;
            let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
            let forwarded = client.seen.calls().pop().unwrap();
            let forwarded = String::from_utf8(forwarded).unwrap();
            assert!(forwarded.contains(r#"{"free": {"b": 1e2, "a": [1.50]}, "n": 2}"#), "{forwarded}");
            let repairs = r#""io.toolgate/repairs":[{"path":"n","rule":"string_to_number","from":"2","to":2}]"#;
            let with_meta = if result.contains("\"_meta\":{") {
                result.replacen("\"_meta\":{", &format!("\"_meta\":{{{repairs},"), 1)
            } else if result == "{}" {
                format!("{{\"_meta\":{{{repairs}}}}}")
            } else {
                result.replacen('{', &format!("{{\"_meta\":{{{repairs}}},"), 1)
            };
            assert_eq!(answer, format!(r#"{{"jsonrpc":"2.0","id":7,"result":{with_meta}}}"#));
        });
    }
}

/// Listings that page on, fail or never come: the calls that wait for them are answered
/// with an error naming why (never as an unknown tool), the listing is asked again, and the
/// pages read are bounded; other lines flow meanwhile.
#[test]
fn a_listing_that_fails_stalls_or_grows_is_answered_and_bounded() {
    let cases = [
        (
            Script {
                list_fails: true,
                ..Script::default()
            },
            "tools/list was answered",
        ),
        (
            Script {
                list_stalls: true,
                ..Script::default()
            },
            "did not answer tools/list",
        ),
        (
            Script {
                pages_forever: true,
                pages: vec![format!("[{ECHO}]")],
                ..Script::default()
            },
            "more than 100 pages",
        ),
    ];
    for (script, reason) in cases {
        eprintln!("case {reason}");
        run(async move {
            let mut client = Client::start(script, proxy()).await;
            client.hello().await;
            eprintln!("hello done");
            client.send(request("1", 1).as_bytes()).await;
            // While the call waits, a ping flows.
            client
                .send(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
                .await;
            let first = client.line().await.unwrap();
            eprintln!("first {}", String::from_utf8_lossy(&first));
            assert!(
                first.starts_with(br#"{"jsonrpc":"2.0","id":2,"#),
                "{}",
                String::from_utf8_lossy(&first)
            );
            let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
            assert!(
                answer.contains(reason) && answer.contains(r#""id":1,"#),
                "{answer}"
            );
            assert!(!answer.contains("unknown_tool"), "{answer}");
            let listings = client.seen.listings.load(Ordering::SeqCst);
            assert!(
                listings <= super::MAX_LISTING_PAGES * 2 + 2,
                "{listings} pages asked"
            );
            // The next call asks again.
            client.send(request("3", 1).as_bytes()).await;
            client.line().await.unwrap();
            assert!(client.seen.listings.load(Ordering::SeqCst) > listings);
        });
    }
}

/// One tool affects only itself: a tool listed twice is gated by its first listing; a tool
/// whose schema cannot be read (nested past the reader's limit, a number past a float's
/// range, a lone surrogate) is refused with a `schema` issue naming it; the rest of its page
/// is gated.
#[test]
fn one_tool_affects_only_itself() {
    let deep = format!(
        "{}{}",
        r#"{"type":"array","items":"#.repeat(200),
        "}".repeat(200)
    );
    let broken = [
        format!(r#"{{"name":"deep","inputSchema":{{"type":"object","properties":{{"a":{deep}}}}}}}"#),
        r#"{"name":"huge","inputSchema":{"type":"object","properties":{"a":{"type":"number","maximum":1e400}}}}"#.to_owned(),
        r#"{"name":"lone","inputSchema":{"type":"object","properties":{"\ud800":{"type":"string"}}}}"#.to_owned(),
    ];
    let twice =
        r#"{"name":"echo","inputSchema":{"type":"object","properties":{"n":{"type":"string"}}}}"#;
    let page = format!("[{},{ECHO},{twice}]", broken.join(","));
    run(async move {
        let script = Script {
            pages: vec![page],
            ..Script::default()
        };
        let mut client = Client::start(script, proxy()).await;
        client.hello().await;
        for (id, name) in ["deep", "huge", "lone"].iter().enumerate() {
            let line = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{{}}}}}}"#
            );
            client.send(line.as_bytes()).await;
            let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
            assert!(
                answer.contains(r#"\"constraint\":\"schema\""#) && answer.contains(name),
                "{answer}"
            );
        }
        // `echo` is gated by its first listing (`n` an integer).
        client.send(request("9", 3).as_bytes()).await;
        let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
        assert!(answer.contains("invalid_arguments"), "{answer}");
    });
}

/// An upstream answer past the line cap is an error for its id, wherever the id is in it;
/// lines rmcp's types cannot hold pass both ways.
#[test]
fn what_rmcp_cannot_hold_passes_and_a_long_answer_is_an_error_for_its_id() {
    for id_last in [false, true] {
        run(async move {
            let long = format!(
                r#"{{"content":[{{"type":"text","text":"{}"}}]}}"#,
                "x".repeat(5000)
            );
            let script = Script {
                pages: vec![format!("[{ECHO}]")],
                id_last,
                call_result: Some(long),
                ..Script::default()
            };
            let mut client = Client::start(script, proxy().with_max_line_bytes(4096)).await;
            client.hello().await;
            client.send(request("1.0", 1).as_bytes()).await;
            let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
            assert!(
                answer.starts_with(r#"{"jsonrpc":"2.0","id":1.0,"error""#)
                    && answer.contains("longer than the limit"),
                "{answer}"
            );
            let notification = format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/x","params":{{"n":1e400,"d":{}{}}}}}"#,
                "[".repeat(300),
                "]".repeat(300)
            );
            client.send(notification.as_bytes()).await;
            client
                .send(br#"{"jsonrpc":"2.0","id":5,"method":"ping"}"#)
                .await;
            client.line().await.unwrap();
            assert!(client.seen.lines().contains(&notification.into_bytes()));
        });
    }
}

/// The stateless era (MCP 2026-07-28): the client opens with `server/discover` and sends
/// its `_meta` envelope on every request; the proxy's own `tools/list` carries the same
/// envelope, and where the upstream refuses it (it wants the 2025 handshake) the proxy makes
/// the handshake itself and lists again. The client's answers carry the members that era's
/// results do (`resultType`; `ttlMs` and `cacheScope` where cacheable).
#[test]
fn the_proxy_speaks_the_era_the_client_opened() {
    const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"x":1},"progressToken":7}"#;
    for needs_handshake in [false, true] {
        run(async move {
            let script = Script {
                pages: vec![format!("[{ECHO}]")],
                needs_handshake,
                ..Script::default()
            };
            let mut client = Client::start(script, proxy()).await;
            client.send(format!(r#"{{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{{{META}}}}}"#).as_bytes()).await;
            client.line().await.unwrap();
            let call = format!(
                r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"echo","arguments":{{"n":"3"}},{META}}}}}"#
            );
            client.send(call.as_bytes()).await;
            let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
            if needs_handshake {
                // The upstream refused the proxy's listing until the proxy's own handshake.
                let lines = client.seen.lines();
                let initialize = lines
                    .iter()
                    .position(|line| locate(line).method(line).as_deref() == Some("initialize"));
                assert!(initialize.is_some(), "the proxy made no handshake");
            } else {
                assert!(answer.contains(r#""resultType":"complete""#), "{answer}");
                let listing = client
                    .seen
                    .lines()
                    .into_iter()
                    .find(|line| locate(line).method(line).as_deref() == Some("tools/list"))
                    .unwrap();
                let listing = String::from_utf8(listing).unwrap();
                assert!(
                    listing.contains(r#""io.modelcontextprotocol/clientCapabilities":{"x":1}"#),
                    "{listing}"
                );
                assert!(!listing.contains("progressToken"), "{listing}");
            }
            assert!(answer.contains("string_to_number"), "{answer}");
            client
                .send(
                    format!(
                        r#"{{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{{{META}}}}}"#
                    )
                    .as_bytes(),
                )
                .await;
            let listed = String::from_utf8(client.line().await.unwrap()).unwrap();
            if !needs_handshake {
                assert!(
                    listed.contains(r#""ttlMs":0"#) && listed.contains(r#""cacheScope":"private""#),
                    "{listed}"
                );
            }
        });
    }
}

/// A storm of `list_changed` notifications is coalesced: one more listing after the one in
/// progress, not one per notification.
#[test]
fn a_storm_of_list_changed_is_coalesced() {
    run(async {
        let script = Script {
            pages: vec![format!("[{ECHO}]")],
            changes: 500,
            ..Script::default()
        };
        let mut client = Client::start(script, proxy()).await;
        client.hello().await;
        client.send(request("1", 1).as_bytes()).await;
        let mut answered = false;
        while !answered {
            let line = client.line().await.unwrap();
            answered = locate(&line).method.is_none();
        }
        client
            .send(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
            .await;
        while locate(&client.line().await.unwrap()).method.is_some() {}
        let listings = client.seen.listings.load(Ordering::SeqCst);
        assert!(listings <= 4, "{listings} listings for 500 changes");
    });
}

/// A call valid as sent whose schema has defaults is forwarded byte for byte (the defaults
/// are the upstream's); the arguments sent as a string holding fenced JSON are read as the
/// model's argument text and forwarded as the object.
#[test]
fn defaults_are_not_written_and_a_string_is_read_as_argument_text() {
    run(async {
        let tool = r#"{"name":"paged","inputSchema":{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer","default":10}}}}"#;
        let script = Script {
            pages: vec![format!("[{tool}]")],
            ..Script::default()
        };
        let mut client = Client::start(script, proxy()).await;
        client.hello().await;
        let valid = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"paged","arguments":{"q" : "x"}}}"#;
        client.send(valid.as_bytes()).await;
        let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
        assert!(!answer.contains("io.toolgate/repairs"), "{answer}");
        assert_eq!(client.seen.calls().last().unwrap(), valid.as_bytes());
        let fenced = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"paged","arguments":"```json\n{\"q\": \"y\"}\n```"}}"#;
        client.send(fenced.as_bytes()).await;
        let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
        assert!(
            answer.contains("double_encoded") && answer.contains("json_text"),
            "{answer}"
        );
        let forwarded = String::from_utf8(client.seen.calls().last().unwrap().clone()).unwrap();
        assert!(
            forwarded.contains(r#""arguments":{"q": "y"}}"#),
            "{forwarded}"
        );
    });
}

/// Members readers disagree on: a request that repeats a member saying what it is (two
/// `method`s, two `arguments`, two `name`s) is refused and reaches no one, as the gate could
/// read one call and the upstream run another; a batch member whose method is no string is
/// answered by the upstream inside the batch's array.
#[test]
fn a_request_that_repeats_what_it_is_is_refused() {
    run(async {
        let script = Script {
            pages: vec![format!("[{ECHO}]")],
            ..Script::default()
        };
        let mut client = Client::start(script, proxy()).await;
        client.hello().await;
        let repeated = [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","method":"tools/call","params":{"name":"echo","arguments":{"n":"x"}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"n":1},"arguments":{"n":"evil"}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","name":"other","arguments":{"n":1}}}"#,
        ];
        for (index, line) in repeated.iter().enumerate() {
            client.send(line.as_bytes()).await;
            let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
            assert!(
                answer.contains(&format!(r#""id":{},"error":{{"code":-32600"#, index + 1)),
                "{answer}"
            );
        }
        assert!(client.seen.calls().is_empty());
        client.send(br#"[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":5,"method":7}]"#).await;
        client
            .send(br#"{"jsonrpc":"2.0","id":6,"method":"ping"}"#)
            .await;
        let mut lines = Vec::new();
        while lines.len() < 2 {
            lines.push(String::from_utf8(client.line().await.unwrap()).unwrap());
        }
        assert!(
            lines
                .iter()
                .any(|line| line.starts_with(r#"[{"jsonrpc":"2.0","id":4"#)),
            "{lines:?}"
        );
    });
}

/// A result whose `_meta` is no object, or whose keys do not decode, still reads as JSON with
/// the repairs and the stateless era's members added where they fit.
#[test]
fn what_is_added_to_a_result_keeps_it_json() {
    for result in [
        r#"{"_meta":null,"content":[]}"#,
        r#"{"\ud800":1}"#,
        r#"{ }"#,
    ] {
        run(async move {
            let script = Script {
                pages: vec![format!("[{ECHO}]")],
                call_result: Some(result.to_owned()),
                ..Script::default()
            };
            let mut client = Client::start(script, proxy()).await;
            client.hello().await;
            let meta = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
            let call = format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo","arguments":{{"n":"2"}},{meta}}}}}"#
            );
            client.send(call.as_bytes()).await;
            let answer = client.line().await.unwrap();
            let located = locate(&answer);
            assert!(
                located.id.is_some() && !located.repeated,
                "{}",
                String::from_utf8_lossy(&answer)
            );
            let result = crate::mcp::message::member(&answer, 0..answer.len(), b"result").unwrap();
            let members = crate::mcp::message::members(&answer, result.clone());
            let keys: Vec<&[u8]> = members
                .iter()
                .map(|(key, _)| &answer[key.clone()])
                .collect();
            assert!(
                keys.contains(&&b"\"resultType\""[..]),
                "{}",
                String::from_utf8_lossy(&answer)
            );
            let meta_keys = keys.iter().filter(|key| **key == b"\"_meta\"").count();
            assert!(meta_keys <= 1, "{}", String::from_utf8_lossy(&answer));
            // Every member reads: the text is one JSON value (a lone surrogate's key aside,
            // which JSON's grammar takes).
            assert_eq!(
                crate::mcp::message::items(
                    &[b"[", &answer[..], b"]"].concat(),
                    0..answer.len() + 2
                )
                .map(|items| items.len()),
                Some(1)
            );
        });
    }
}

/// A client of the handshake era in front of an upstream of the stateless era only: the
/// proxy answers the `initialize` the upstream refuses from its own `server/discover`, hands
/// every request on with the envelope, and answers `ping` itself.
#[test]
fn a_handshake_client_is_bridged_to_a_stateless_upstream() {
    run(async {
        let script = Script {
            pages: vec![format!("[{ECHO}]")],
            stateless_only: true,
            ..Script::default()
        };
        let mut client = Client::start(script, proxy()).await;
        client.send(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"0"}}}"#).await;
        let hello = String::from_utf8(client.line().await.unwrap()).unwrap();
        assert_eq!(
            hello,
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"modern","version":"1"},"instructions":"hi"}}"#
        );
        client
            .send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        client.send(request("1", 2).as_bytes()).await;
        let answer = String::from_utf8(client.line().await.unwrap()).unwrap();
        assert!(
            answer.contains(r#""id":1,"result""#) && answer.contains("string_to_number"),
            "{answer}"
        );
        let call = String::from_utf8(client.seen.calls().pop().unwrap()).unwrap();
        assert!(call.contains(r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}}}"#), "{call}");
        client
            .send(br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#)
            .await;
        assert_eq!(
            client.line().await.unwrap(),
            br#"{"jsonrpc":"2.0","id":2,"result":{}}"#
        );
    });
}

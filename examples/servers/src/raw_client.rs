//! An MCP client that writes raw JSON-RPC lines and reads the answers, for the tests: the
//! server started as a child process, or behind `toolgate::mcp::Proxy` in this process.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Command;
use toolgate::mcp::Proxy;

/// What keeps the server running (a child process, the proxy's task).
type Running = Box<dyn std::any::Any + Send>;
/// The server's input, as the client has it.
type Input = Pin<Box<dyn AsyncWrite + Send>>;
/// The server's output, as the client has it.
type Output = Pin<Box<dyn AsyncRead + Send>>;

/// A server spoken to line by line, the MCP handshake done.
pub struct RawClient {
    _running: Running,
    input: Input,
    output: tokio::io::Lines<BufReader<Output>>,
    /// Answers read while waiting for another id.
    answers: BTreeMap<String, Value>,
    /// The server's messages without an id (notifications), in order.
    pub notifications: Vec<Value>,
}

/// A task stopped when dropped (the proxy, and with it its upstream).
struct AbortOnDrop(tokio::task::JoinHandle<std::io::Result<()>>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl RawClient {
    /// The server `command` starts, spoken to on its stdio.
    pub async fn direct(mut command: Command) -> RawClient {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("the server starts");
        let input = child.stdin.take().expect("its stdin");
        let output = child.stdout.take().expect("its stdout");
        RawClient::hello(Box::new(child), Box::pin(input), Box::pin(output)).await
    }

    /// The proxy, run in this process, spoken to through pipes.
    pub async fn through(proxy: Proxy) -> RawClient {
        let (client_side, proxy_side) = tokio::io::duplex(1 << 16);
        let (proxy_read, proxy_write) = tokio::io::split(proxy_side);
        let (client_read, client_write) = tokio::io::split(client_side);
        let running = tokio::spawn(proxy.run(proxy_read, proxy_write));
        RawClient::hello(
            Box::new(AbortOnDrop(running)),
            Box::pin(client_write),
            Box::pin(client_read),
        )
        .await
    }

    async fn hello(running: Running, input: Input, output: Output) -> RawClient {
        let mut client = RawClient {
            _running: running,
            input,
            output: BufReader::new(output).lines(),
            answers: BTreeMap::new(),
            notifications: Vec::new(),
        };
        let hello = json!({"jsonrpc": "2.0", "id": "hello", "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw-lines", "version": "0"}}});
        client.send(hello.to_string().as_bytes()).await;
        client.answer(&json!("hello")).await;
        client
            .send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        client
    }

    /// Writes one line.
    pub async fn send(&mut self, line: &[u8]) {
        self.input.write_all(line).await.expect("the server reads");
        self.input.write_all(b"\n").await.expect("the server reads");
        self.input.flush().await.expect("the server reads");
    }

    /// The answer to the request `id`: panics if none comes within 60 s.
    pub async fn answer(&mut self, id: &Value) -> Value {
        let key = id.to_string();
        let wait = async {
            loop {
                if let Some(answer) = self.answers.remove(&key) {
                    return answer;
                }
                let line = self.output.next_line().await.expect("a line");
                let line = line.expect("the server answers before it ends");
                let message: Value = serde_json::from_str(&line).expect("answers are JSON");
                match message.get("id") {
                    Some(id) => {
                        self.answers.insert(id.to_string(), message);
                    }
                    None => self.notifications.push(message),
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(60), wait)
            .await
            .unwrap_or_else(|_| panic!("no answer to the request {key}"))
    }

    /// Calls `tool` with `arguments` (a text written into the message as it is) under `id`.
    pub async fn call(&mut self, id: u64, tool: &str, arguments: &str) -> Value {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}}}}}"#
        );
        self.send(line.as_bytes()).await;
        self.answer(&json!(id)).await
    }
}

/// The envelope an `isError` result carries.
pub fn envelope(answer: &Value) -> Value {
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .expect("a text");
    serde_json::from_str(text).expect("the envelope's JSON")
}

//! A scripted MCP server on stdio, written as raw JSON-RPC lines (no SDK): the upstream the
//! proxy's tests put `toolgate::mcp::Proxy` in front of.
//!
//! - `tools/list` answers in two pages (`nextCursor`), and lists `extra` once `switch` was
//!   called;
//! - `echo` answers with the text of the arguments it received, as it received them, and
//!   sends a log notification first;
//! - `bad_output` breaks its own `outputSchema`; `unreadable` has a schema no gate can read
//!   (a remote `$ref`); `switch` sends `notifications/tools/list_changed`;
//! - `calls_seen` answers with the names of the calls received so far.

use std::io::{BufRead, Write};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{json, Value};

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(default)]
    method: Option<String>,
    #[serde(borrow, default)]
    params: Option<Params<'a>>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(default)]
    name: Option<String>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
    #[serde(default)]
    cursor: Option<String>,
}

fn tools(page: Option<&str>, switched: bool) -> Value {
    let object = |properties: Value, required: Value| json!({"type": "object", "properties": properties, "required": required});
    if page.is_none() {
        let echo = json!({"name": "echo", "inputSchema": object(
            json!({"text": {"type": "string"}, "n": {"type": "integer"}}), json!(["text", "n"])),
            "outputSchema": object(json!({"received": {"type": "string"}}), json!(["received"]))});
        return json!({"tools": [echo], "nextCursor": "2"});
    }
    let mut listed = vec![
        json!({"name": "bad_output", "inputSchema": object(json!({}), json!([])),
            "outputSchema": object(json!({"sum": {"type": "integer"}}), json!(["sum"]))}),
        json!({"name": "unreadable", "inputSchema": object(
            json!({"a": {"$ref": "https://example.com/remote.json"}}), json!([]))}),
        json!({"name": "switch", "inputSchema": object(json!({}), json!([]))}),
        json!({"name": "calls_seen", "inputSchema": object(json!({}), json!([]))}),
    ];
    if switched {
        listed.push(json!({"name": "extra", "inputSchema": object(
            json!({"x": {"type": "integer"}}), json!(["x"]))}));
    }
    json!({"tools": listed})
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut send = |message: Value| {
        let _ = writeln!(out, "{message}");
        let _ = out.flush();
    };
    let mut seen: Vec<String> = Vec::new();
    let mut switched = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { return };
        let Ok(message) = serde_json::from_str::<Message>(&line) else {
            continue;
        };
        let (Some(id), Some(method)) = (message.id, message.method) else {
            continue;
        };
        let id: Value = serde_json::from_str(id.get()).unwrap_or(Value::Null);
        let params = message.params;
        let result = match method.as_str() {
            "initialize" => json!({"protocolVersion": "2025-06-18",
                "capabilities": {"tools": {"listChanged": true}},
                "serverInfo": {"name": "fake-upstream", "version": "0"}}),
            "ping" => json!({}),
            "tools/list" => tools(params.and_then(|p| p.cursor).as_deref(), switched),
            "tools/call" => {
                let params = params.expect("a call has params");
                let name = params.name.unwrap_or_default();
                seen.push(name.clone());
                let received = params.arguments.map_or("", |raw| raw.get()).to_owned();
                match name.as_str() {
                    "echo" => {
                        send(json!({"jsonrpc": "2.0", "method": "notifications/message",
                            "params": {"level": "info", "data": "echoing"}}));
                        json!({"content": [{"type": "text", "text": received}],
                            "structuredContent": {"received": received}})
                    }
                    "bad_output" => json!({"content": [], "structuredContent": {"sum": "three"}}),
                    "switch" => {
                        switched = true;
                        send(
                            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}),
                        );
                        json!({"content": []})
                    }
                    "calls_seen" => json!({"content": [], "structuredContent": {"seen": seen}}),
                    _ => json!({"content": [{"type": "text", "text": received}]}),
                }
            }
            _ => {
                send(json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32601, "message": "Method not found"}}));
                continue;
            }
        };
        send(json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }
}

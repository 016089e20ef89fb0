//! The example MCP server over Streamable HTTP (`mcp_server --http`), driven by a real HTTP
//! client (ureq) with raw JSON-RPC bodies (issue 28 §1, §2): the gate reads each call's
//! arguments as sent, and every request gets an answer. (`.ci/run` drives the same server
//! with the official Python client's Streamable HTTP transport.)

use serde_json::{json, Value};
use toolgate_example_servers::{start_listening, Started};

/// One MCP session over HTTP.
struct Session {
    _server: Started,
    agent: ureq::Agent,
    url: String,
    id: String,
}

/// What a POST gave: its status and the JSON-RPC message it carried (as JSON or in an
/// event stream).
fn posted(response: &mut ureq::http::Response<ureq::Body>) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .expect("a text body");
    let message = text
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .find(|data| data.starts_with('{'))
        .unwrap_or(text.trim());
    (status, serde_json::from_str(message).unwrap_or(Value::Null))
}

impl Session {
    fn start() -> Session {
        let (server, url) = start_listening("mcp_server", &["--http", "127.0.0.1:0"]);
        // A new connection each request: a body past the cap is not read to its end, and
        // the server then closes that connection.
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_idle_connections(0)
            .build()
            .into();
        let hello = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw-http", "version": "0"}}});
        let mut response = agent
            .post(&url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .send(hello.to_string())
            .expect("an answer");
        let id = response
            .headers()
            .get("mcp-session-id")
            .and_then(|id| id.to_str().ok())
            .expect("a session id")
            .to_owned();
        let (status, answer) = posted(&mut response);
        assert_eq!(status, 200, "{answer}");
        let mut session = Session {
            _server: server,
            agent,
            url,
            id,
        };
        session.post(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        session
    }

    /// A POST of `body` in the session, as a client of protocol `version` sends it.
    fn send(&mut self, body: &[u8], version: &str) -> ureq::http::Response<ureq::Body> {
        self.agent
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", &self.id)
            .header("mcp-protocol-version", version)
            .send(body)
            .expect("an answer")
    }

    fn post(&mut self, body: &[u8]) -> (u16, Value) {
        posted(&mut self.send(body, "2025-06-18"))
    }

    /// The JSON-RPC answer's text a POST gets (its event's data, or the body), as written;
    /// the client one of 2025-03-26, whose batches servers take.
    fn post_text(&mut self, body: &[u8]) -> String {
        let mut response = self.send(body, "2025-03-26");
        let text = response.body_mut().read_to_string().expect("a text body");
        let data = text
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .map(str::trim)
            .find(|data| data.starts_with('{') || data.starts_with('['));
        data.unwrap_or(text.trim()).to_owned()
    }

    fn call(&mut self, id: u64, arguments: &str) -> Value {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"book_flight","arguments":{arguments}}}}}"#
        );
        let (status, answer) = self.post(body.as_bytes());
        assert_eq!((status, &answer["id"]), (200, &json!(id)), "{answer}");
        answer
    }
}

fn flight(passengers: &str) -> String {
    format!(
        r#"{{"origin":"CDG","destination":"JFK","date":"2026-12-01","passengers":{passengers},"cabin":"business"}}"#
    )
}

/// The envelope an `isError` result carries.
fn envelope(answer: &Value) -> Value {
    assert_eq!(answer["result"]["isError"], true, "{answer}");
    serde_json::from_str(answer["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
}

#[test]
fn over_streamable_http_the_gate_reads_what_was_sent_and_every_request_is_answered() {
    let mut session = Session::start();

    let valid = session.call(1, &flight("2"));
    assert_eq!(valid["result"]["structuredContent"]["passengers"], 2);

    let repeated = envelope(&session.call(2, &flight("2, \"passengers\": 3")));
    assert_eq!(repeated["error"]["issues"][0]["path"], "passengers");
    let rounded = envelope(&session.call(3, &flight("2.0000000000000001")));
    assert_eq!(rounded["error"]["reason"], "invalid_arguments");

    let encoded = serde_json::to_string(&flight("2")).unwrap();
    let decoded = session.call(4, &encoded);
    let repairs = &decoded["result"]["_meta"]["io.toolgate/repairs"];
    assert_eq!(repairs[0]["rule"], "double_encoded", "{decoded}");

    // Past serde_json's depth with the message's two levels, within the gate's.
    let deep = format!(r#"{{"origin":{}{}}}"#, "[".repeat(127), "]".repeat(127));
    assert_eq!(
        envelope(&session.call(5, &deep))["error"]["reason"],
        "invalid_arguments"
    );

    // Ids of every JSON form are answered as they were written (rmcp is handed a
    // substitute); a batch gets one array of answers.
    for id in ["1.0", "2e0", "-0", "18446744073709551616", r#""\u0061""#] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"book_flight","arguments":{}}}}}"#,
            flight("\"2\"")
        );
        let text = session.post_text(body.as_bytes());
        assert!(text.contains(&format!(r#""id":{id},"#)), "{id}: {text}");
        assert!(text.contains("string_to_number"), "{text}");
    }
    let batch = format!(
        r#"[{{"jsonrpc":"2.0","id":"a","method":"ping"}},{{"jsonrpc":"2.0","method":"notifications/x"}},{{"jsonrpc":"2.0","id":2.0,"method":"tools/call","params":{{"name":"book_flight","arguments":{}}}}}]"#,
        flight("2")
    );
    let text = session.post_text(batch.as_bytes());
    let answers: Vec<Value> = serde_json::from_str(&text).expect("an array of answers");
    assert_eq!(answers.len(), 2, "{text}");
    assert!(
        text.contains(r#""id":2.0,"#) && text.contains(r#""id":"a","#),
        "{text}"
    );

    // Not JSON: 400 with a JSON-RPC error for the id.
    let (status, answer) = session.post(br#"{"jsonrpc":"2.0","id":6,"method":"ping","#);
    assert_eq!(
        (status, &answer["id"], &answer["error"]["code"]),
        (400, &json!(6), &json!(-32700))
    );

    // A body past the cap: a limit refusal for the call, read no further.
    let mut long = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"book_flight","arguments":{"origin":""#.to_vec();
    long.extend(std::iter::repeat_n(b'A', 17 << 20));
    long.extend_from_slice(br#""}}}"#);
    let (status, answer) = session.post(&long);
    assert_eq!(status, 200);
    assert_eq!(
        envelope(&answer)["error"]["issues"][0]["constraint"],
        "limit"
    );
}

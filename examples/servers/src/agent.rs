//! What the `agent_loop` example and the OpenAI client's tests share: a stock tool, a
//! currency tool that answers as a payments API would, and a fake Chat Completions endpoint
//! on loopback that replays scripted answers and records what it was sent.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::State;
use axum::http::header::{HeaderName, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use toolgate::boundary::Toolbox;
use toolgate::Tool;

/// Look up the latest price of a stock, in US dollars.
#[derive(Tool, Deserialize, Debug)]
pub struct StockPrice {
    /// Ticker symbol, e.g. ACME
    #[tool(pattern = "^[A-Z]{1,5}$")]
    pub symbol: String,
}

/// Convert an amount of money from one currency to another.
#[derive(Tool, Deserialize, Debug)]
pub struct ConvertCurrency {
    /// The amount to convert
    pub amount: f64,
    /// ISO 4217 code of the amount's currency
    #[tool(pattern = "^[A-Z]{3}$", example = "USD")]
    pub from: String,
    /// ISO 4217 code to convert to
    #[tool(pattern = "^[A-Z]{3}$", example = "EUR")]
    pub to: String,
}

/// The rate the fake payments API converts at, whatever the currencies.
pub const RATE: f64 = 0.92;

/// The price the stock tool knows, for `ACME` only.
pub const ACME_PRICE: f64 = 468.285;

/// The agent's tools. `convert_currency` answers `HTTP 422: amount must be greater than 0`
/// for an amount that is not positive, and `503 Service Unavailable` on its first
/// `unavailable_first` calls; `stock_price` answers `HTTP 404` for a symbol it does not
/// know.
pub fn agent_toolbox(unavailable_first: usize) -> Toolbox {
    let conversions = Arc::new(AtomicUsize::new(0));
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(|args: StockPrice| async move {
            match args.symbol.as_str() {
                "ACME" => Ok(json!({"symbol": "ACME", "price": ACME_PRICE, "currency": "USD"})),
                other => Err(format!("HTTP 404: no stock with symbol {other}")),
            }
        })
        .expect("stock_price is registered once");
    toolbox
        .add_tool(move |args: ConvertCurrency| {
            let made = conversions.fetch_add(1, Ordering::Relaxed);
            async move {
                if made < unavailable_first {
                    return Err("503 Service Unavailable".to_owned());
                }
                if args.amount <= 0.0 {
                    return Err("HTTP 422: amount must be greater than 0".to_owned());
                }
                let converted = (args.amount * RATE * 100.0).round() / 100.0;
                Ok(json!({"amount": args.amount, "from": args.from, "to": args.to, "converted": converted}))
            }
        })
        .expect("convert_currency is registered once");
    toolbox
}

/// A request the fake endpoint received: its `Authorization` header and its body.
#[derive(Clone, Debug)]
pub struct Received {
    /// The `Authorization` header, if sent.
    pub authorization: Option<String>,
    /// The JSON body.
    pub body: Value,
}

#[derive(Clone)]
struct Script {
    /// Completion texts, the next last.
    answers: Arc<Mutex<Vec<String>>>,
    received: Arc<Mutex<Vec<Received>>>,
}

/// An assistant message that calls `tool` with `arguments` (as text).
pub fn calls(id: &str, tool: &str, arguments: &str) -> Value {
    json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": id, "type": "function", "function": {"name": tool, "arguments": arguments}}
    ]})
}

/// An assistant message of text.
pub fn says(text: &str) -> Value {
    json!({"role": "assistant", "content": text})
}

/// Starts the fake endpoint on a free loopback port: it answers each request with the next
/// scripted message (a 500 when the script is over). Returns its base URL (`.../v1`) and
/// what it receives.
pub async fn fake_openai(messages: Vec<Value>) -> (String, Arc<Mutex<Vec<Received>>>) {
    fake_openai_texts(messages.iter().map(Value::to_string).collect()).await
}

/// [`fake_openai`] with each message given as its JSON text, written into the completion as
/// it is (a server may send what a `Value` cannot hold: a key twice, arguments as an object).
pub async fn fake_openai_texts(messages: Vec<String>) -> (String, Arc<Mutex<Vec<Received>>>) {
    let mut answers: Vec<String> = messages
        .into_iter()
        .map(|message| {
            format!(
                r#"{{"id":"chatcmpl-fake","object":"chat.completion","model":"scripted","choices":[{{"index":0,"message":{message},"finish_reason":"stop"}}]}}"#
            )
        })
        .collect();
    answers.reverse();
    let script = Script {
        answers: Arc::new(Mutex::new(answers)),
        received: Arc::default(),
    };
    let received = Arc::clone(&script.received);
    let router = Router::new()
        .route("/v1/chat/completions", post(answer))
        .with_state(script);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a loopback port");
    let address = listener.local_addr().expect("its address");
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    (format!("http://{address}/v1"), received)
}

async fn answer(
    State(script): State<Script>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (StatusCode, [(HeaderName, &'static str); 1], String) {
    let authorization = headers
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    script
        .received
        .lock()
        .expect("not poisoned")
        .push(Received {
            authorization,
            body,
        });
    let streamed = body_streams(&script);
    match script.answers.lock().expect("not poisoned").pop() {
        Some(answer) if streamed => (
            StatusCode::OK,
            [(CONTENT_TYPE, "text/event-stream")],
            stream_of(&answer),
        ),
        Some(answer) => (StatusCode::OK, [(CONTENT_TYPE, "application/json")], answer),
        None => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(CONTENT_TYPE, "application/json")],
            json!({"error": {"message": "the script is over"}}).to_string(),
        ),
    }
}

/// Whether the request just received asked for a stream (`"stream": true`).
fn body_streams(script: &Script) -> bool {
    let received = script.received.lock().expect("not poisoned");
    received
        .last()
        .is_some_and(|last| last.body["stream"] == true)
}

/// The completion `answer` as Chat Completions streams it: its text in pieces of 4
/// characters, then its calls' arguments in pieces of 3, the calls' pieces interleaved
/// (each call opening with its index, id and name), the finish reason, the usage, `[DONE]`.
/// A message with `"cut_stream": true` stops before its finish reason (a dropped connection).
pub fn stream_of(answer: &str) -> String {
    let completion: Value = serde_json::from_str(answer).unwrap_or(Value::Null);
    let message = &completion["choices"][0]["message"];
    let chunk = |delta: Value, finish: Value| {
        format!(
            "data: {}\n\n",
            json!({"object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        )
    };
    let pieces = |text: &str, size: usize| -> Vec<String> {
        let characters: Vec<char> = text.chars().collect();
        characters
            .chunks(size)
            .map(|piece| piece.iter().collect())
            .collect()
    };
    let mut stream = String::new();
    if let Some(text) = message["content"].as_str() {
        for piece in pieces(text, 4) {
            stream.push_str(&chunk(
                json!({"role": "assistant", "content": piece}),
                Value::Null,
            ));
        }
    }
    let calls = message["tool_calls"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let arguments: Vec<Vec<String>> = calls
        .iter()
        .map(|call| match &call["function"]["arguments"] {
            Value::String(text) => pieces(text, 3),
            other => pieces(&other.to_string(), 3),
        })
        .collect();
    for (index, call) in calls.iter().enumerate() {
        let opening = json!({"index": index, "id": call["id"], "type": "function",
            "function": {"name": call["function"]["name"], "arguments": ""}});
        stream.push_str(&chunk(json!({"tool_calls": [opening]}), Value::Null));
    }
    let longest = arguments.iter().map(Vec::len).max().unwrap_or(0);
    for at in 0..longest {
        for (index, pieces) in arguments.iter().enumerate() {
            if let Some(piece) = pieces.get(at) {
                let delta =
                    json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]});
                stream.push_str(&chunk(delta, Value::Null));
            }
        }
    }
    if message["cut_stream"] == true {
        return stream;
    }
    let finish = if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    stream.push_str(&chunk(json!({}), Value::from(finish)));
    stream.push_str(&format!("data: {}\n\n", json!({"object": "chat.completion.chunk", "choices": [], "usage": {"completion_tokens": 12}})));
    stream.push_str("data: [DONE]\n\n");
    stream
}

//! MCP's Streamable HTTP transport for an [`McpServer`] (features `mcp` and `axum`): rmcp's
//! `StreamableHttpService` behind a layer that keeps each call's arguments as sent.

use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Router;
use futures_util::StreamExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;

use axum::http::request::Parts;

use super::batch::{is_batch, split, Split};
use super::incoming::{self, Handed, Ids, Incoming};
use super::message::{error_answer, INVALID_REQUEST, PARSE_ERROR};
use super::{McpServer, MAX_LINE_BYTES};

/// An axum router serving MCP's Streamable HTTP transport at `path`, each session (or, in
/// rmcp's stateless mode, each request) served by a server `server` makes: one run of its
/// toolbox, so budgets count per session.
///
/// As over [`stdio`](super::stdio), the gate reads each `tools/call`'s `arguments` as the
/// client sent them, and every request is answered: a body rmcp cannot read gets `400` with a
/// JSON-RPC error (its id when it can be read); a body past [`MAX_LINE_BYTES`] is read no
/// further, and a `tools/call` whose id and tool name come before the cut gets an `isError`
/// result with a `limit` refusal (another, `413` with a JSON-RPC error). rmcp's defaults
/// hold otherwise: sessions, and only loopback `Host`s (set `allowed_hosts` in `config` to
/// serve other names).
///
/// ```
/// use toolgate::boundary::Toolbox;
/// use toolgate::mcp::{streamable_http, McpServer};
///
/// # fn make_toolbox() -> Toolbox { Toolbox::new() }
/// let app: axum::Router = streamable_http(
///     "/mcp",
///     || McpServer::new(make_toolbox(), "calculator"),
///     Default::default(),
/// );
/// // Then, with axum's `tokio` feature:
/// // axum::serve(tokio::net::TcpListener::bind("127.0.0.1:8080").await?, app).await?;
/// ```
pub fn streamable_http(
    path: &str,
    server: impl Fn() -> McpServer + Send + Sync + 'static,
    mut config: StreamableHttpServerConfig,
) -> Router {
    // The layer reads at most `MAX_LINE_BYTES`; what rmcp reads is no longer.
    config.max_request_body_bytes = config.max_request_body_bytes.max(MAX_LINE_BYTES);
    let service = StreamableHttpService::new(
        move || Ok(server()),
        std::sync::Arc::new(LocalSessionManager::default()),
        config,
    );
    Router::new()
        .route_service(path, service)
        .layer(axum::middleware::from_fn(keep_arguments))
}

/// Reads a POST's message as the stdio transport reads a line, and hands rmcp the message
/// with a call's arguments kept in the request's extensions (rmcp gives the request's parts
/// to the handler) and its id under a substitute, which the answer gets back as it was sent
/// (see [`super::ids`]). A batch's messages are each handed on so, and their answers sent
/// back as one JSON array.
async fn keep_arguments(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (parts, body) = request.into_parts();
    let (text, cut) = match read_at_most(body, MAX_LINE_BYTES).await {
        Ok(read) => read,
        Err(error) => {
            let message = format!("the body could not be read: {error}");
            return answer(
                error_answer(None, PARSE_ERROR, &message),
                StatusCode::BAD_REQUEST,
            );
        }
    };
    if cut {
        return match incoming::too_long(&text, None, MAX_LINE_BYTES) {
            Incoming::Answer(line) => {
                let status = if is_error(&line) {
                    StatusCode::PAYLOAD_TOO_LARGE
                } else {
                    // A call's `limit` refusal: a result.
                    StatusCode::OK
                };
                answer(line, status)
            }
            _ => answer(
                error_answer(
                    None,
                    INVALID_REQUEST,
                    "the message is longer than the limit",
                ),
                StatusCode::PAYLOAD_TOO_LARGE,
            ),
        };
    }
    if !is_batch(&text) {
        return one(parts, &text, next).await;
    }
    let messages = match split(&text) {
        Split::Messages(messages) => messages,
        Split::Answer(line) => return answer(line, StatusCode::BAD_REQUEST),
    };
    // Each message as if posted alone, its answer taken from the response (JSON or an
    // event stream); the answers together as one array.
    let mut answers = Vec::new();
    for range in messages {
        let message = &text[range];
        let located = super::message::locate(message);
        let response = one(copy_of(&parts), message, next.clone()).await;
        let status = response.status();
        let answered = answer_in(response).await;
        // rmcp answers some refusals with a bare HTTP status (a session it does not know,
        // say): the request still gets a JSON-RPC answer in the array.
        match (
            answered.is_empty(),
            located.id(message),
            located.is_request(message),
        ) {
            (true, Some(id), true) => {
                let why = format!("the server answered this request with HTTP {status}");
                answers.push(
                    error_answer(Some(&id), INVALID_REQUEST, &why)
                        .trim_ascii_end()
                        .to_vec(),
                );
            }
            _ => answers.extend(answered),
        }
    }
    if answers.is_empty() {
        return StatusCode::ACCEPTED.into_response();
    }
    let mut array = b"[".to_vec();
    array.extend(answers.join(&b","[..]));
    array.push(b']');
    answer(array, StatusCode::OK)
}

/// One message posted: read as the stdio transport reads a line, answered by rmcp (its id
/// put back as sent) or by toolgate.
async fn one(mut parts: Parts, text: &[u8], next: Next) -> Response {
    let mut handed = Handed::new();
    match incoming::read(text, &mut handed, None, Ids::WhereNeeded) {
        Incoming::Message(message, spliced) => {
            if let Some(arguments) = incoming::arguments_of(&message) {
                parts.extensions.insert(arguments);
            }
            // The body rmcp reads may be shorter or longer than the one sent.
            parts.headers.remove(header::CONTENT_LENGTH);
            let body = Body::from(spliced.unwrap_or_else(|| text.to_vec()));
            let response = next.run(Request::from_parts(parts, body)).await;
            with_ids_as_sent(response, handed)
        }
        Incoming::Answer(line) => answer(line, StatusCode::BAD_REQUEST),
        Incoming::Dropped => answer(
            error_answer(None, PARSE_ERROR, "the message cannot be read"),
            StatusCode::BAD_REQUEST,
        ),
    }
}

/// A request's parts again, for another message of its batch.
fn copy_of(parts: &Parts) -> Parts {
    let mut request = Request::new(());
    *request.method_mut() = parts.method.clone();
    *request.uri_mut() = parts.uri.clone();
    *request.version_mut() = parts.version;
    *request.headers_mut() = parts.headers.clone();
    *request.extensions_mut() = parts.extensions.clone();
    request.into_parts().0
}

/// The JSON-RPC answers a response carries: its JSON body, or the answers among the events
/// of its stream (a request's progress and the like are not answers).
async fn answer_in(response: Response) -> Vec<Vec<u8>> {
    let Ok(bytes) = axum::body::to_bytes(response.into_body(), MAX_LINE_BYTES).await else {
        return Vec::new();
    };
    let text = bytes.as_ref();
    let is_answer = |message: &[u8]| {
        let located = super::message::locate(message);
        located.method.is_none() && (located.id.is_some() || message.starts_with(b"{"))
    };
    if text.trim_ascii_start().starts_with(b"{") {
        return vec![text.trim_ascii().to_vec()];
    }
    text.split(|&byte| byte == b'\n')
        .filter_map(|line| line.strip_prefix(b"data:"))
        .map(<[u8]>::trim_ascii)
        .filter(|data| is_answer(data))
        .map(<[u8]>::to_vec)
        .collect()
}

/// The response with each answer's substitute id replaced by the id sent: a JSON body
/// whole, an event stream line by line as it streams.
fn with_ids_as_sent(response: Response, handed: Handed) -> Response {
    let (parts, body) = response.into_parts();
    let state = Rewriting {
        stream: body.into_data_stream(),
        rest: Vec::new(),
        handed,
        ended: false,
    };
    let rewritten = futures_util::stream::unfold(state, |mut state| async move {
        if state.ended {
            return None;
        }
        loop {
            match state.stream.next().await {
                Some(Ok(chunk)) => {
                    state.rest.extend_from_slice(&chunk);
                    // Whole lines only, so an id is never cut between two chunks; what is
                    // after the last line end waits for the next chunk.
                    if let Some(end) = state.rest.iter().rposition(|&byte| byte == b'\n') {
                        let rest = state.rest.split_off(end + 1);
                        let lines = std::mem::replace(&mut state.rest, rest);
                        let done = restore_ids(&lines, &mut state.handed);
                        return Some((Ok::<_, axum::Error>(axum::body::Bytes::from(done)), state));
                    }
                }
                Some(Err(error)) => {
                    state.ended = true;
                    return Some((Err(error), state));
                }
                None => {
                    state.ended = true;
                    let done = restore_ids(&std::mem::take(&mut state.rest), &mut state.handed);
                    return Some((Ok(axum::body::Bytes::from(done)), state));
                }
            }
        }
    });
    Response::from_parts(parts, Body::from_stream(rewritten))
}

/// A response body being rewritten.
struct Rewriting {
    stream: axum::body::BodyDataStream,
    /// Bytes read after the last whole line.
    rest: Vec<u8>,
    handed: Handed,
    ended: bool,
}

/// `text` (whole lines of a JSON body or an event stream) with the substitute id of each
/// answer it holds replaced by the id sent.
fn restore_ids(text: &[u8], handed: &mut Handed) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for line in text.split_inclusive(|&byte| byte == b'\n') {
        let (prefix, message) = match line.strip_prefix(b"data:") {
            Some(data) => line.split_at(line.len() - data.len()),
            None => (&line[..0], line),
        };
        let located = super::message::locate(message.trim_ascii_start());
        let offset = message.len() - message.trim_ascii_start().len();
        let restored = located
            .id
            .clone()
            .filter(|_| located.method.is_none())
            .and_then(|range| {
                let range = range.start + offset..range.end + offset;
                let (sent, _) = handed.answered(&message[range.clone()])?;
                Some(
                    [
                        &message[..range.start],
                        sent.text().as_bytes(),
                        &message[range.end..],
                    ]
                    .concat(),
                )
            });
        out.extend_from_slice(prefix);
        out.extend_from_slice(restored.as_deref().unwrap_or(message));
    }
    out
}

/// Whether an answer line is a JSON-RPC error (not a result).
fn is_error(line: &[u8]) -> bool {
    serde_json::from_slice::<Value>(line).is_ok_and(|answer| answer.get("error").is_some())
}

fn answer(mut line: Vec<u8>, status: StatusCode) -> Response {
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    (status, [(header::CONTENT_TYPE, "application/json")], line).into_response()
}

/// The body's first `max` bytes, and whether there was more (not read).
async fn read_at_most(body: Body, max: usize) -> Result<(Vec<u8>, bool), axum::Error> {
    let mut chunks = body.into_data_stream();
    let mut kept = Vec::new();
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk?;
        let room = max - kept.len();
        if chunk.len() > room {
            kept.extend_from_slice(&chunk[..room]);
            return Ok((kept, true));
        }
        kept.extend_from_slice(&chunk);
    }
    Ok((kept, false))
}

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

use super::incoming::{self, Incoming};
use super::message::{error_answer, PARSE_ERROR};
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
/// to the handler).
async fn keep_arguments(request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let (text, cut) = match read_at_most(body, MAX_LINE_BYTES).await {
        Ok(read) => read,
        Err(error) => {
            let message = format!("the body could not be read: {error}");
            return answer(
                error_answer(Value::Null, PARSE_ERROR, &message),
                StatusCode::BAD_REQUEST,
            );
        }
    };
    let incoming = if cut {
        incoming::too_long(&text, MAX_LINE_BYTES)
    } else {
        incoming::read(&text)
    };
    match incoming {
        Incoming::Message(message, spliced) => {
            if let Some(arguments) = incoming::arguments_of(&message) {
                parts.extensions.insert(arguments);
            }
            // The body rmcp reads may be shorter than the one sent.
            parts.headers.remove(header::CONTENT_LENGTH);
            let body = Body::from(spliced.unwrap_or(text));
            next.run(Request::from_parts(parts, body)).await
        }
        Incoming::Answer(line) => {
            let status = match (cut, is_error(&line)) {
                (false, _) => StatusCode::BAD_REQUEST,
                (true, true) => StatusCode::PAYLOAD_TOO_LARGE,
                // A call's `limit` refusal: a result.
                (true, false) => StatusCode::OK,
            };
            answer(line, status)
        }
        Incoming::Dropped => answer(
            error_answer(Value::Null, PARSE_ERROR, "the message cannot be read"),
            StatusCode::BAD_REQUEST,
        ),
    }
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

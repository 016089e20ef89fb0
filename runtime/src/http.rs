//! The gate at an HTTP boundary (feature `axum`, axum 0.8).
//!
//! - [`Gated<T>`] is an extractor: the request body is decoded through the gate of the tool
//!   type `T` (repaired where lossless). A refused body is answered `422 Unprocessable Content`
//!   with an `application/problem+json` body ([RFC 9457]) holding every issue and the retry
//!   hint; a body axum cannot read (too large, cut off) keeps axum's status, with RFC 9457's
//!   members only (`type`, `title`, `status`, `detail`).
//! - A body is read as `axum::Json` reads one: its `Content-Type` is `application/json` or
//!   `application/*+json`, else `415 Unsupported Media Type` (a form, `text/plain`, none, or
//!   a JSON type with a `charset` other than UTF-8, which JSON is): the gate repairs what a
//!   model writes, not what a form encodes. A body past the gate's limit
//!   (`Options::max_bytes`, 1 MiB) is `413 Content Too Large`, as one past axum's body limit
//!   is: one status per cause. Every refusal before the gate (415, 413, a body cut off) is a
//!   problem body too, on both the extractor and the router.
//! - [`router`] serves a whole [`Toolbox`]: `GET /tools` lists the definitions, `POST
//!   /tools/{name}` calls a tool with the body as its argument text and answers its
//!   [`Envelope`] (status below). HTTP knows no agent run: each request is a run of its own
//!   ([`Toolbox::new_run`]), so one client's refusals or failures never spend another's
//!   budget; the budgets that still apply are those of one call (the timeout).
//!
//! [RFC 9457]: https://www.rfc-editor.org/rfc/rfc9457
//!
//! The problem body of a refusal: RFC 9457's members, its `errors` extension (one per issue,
//! with a JSON Pointer, as the RFC's own example), and toolgate's `issues` and `hint`:
//!
//! ```json
//! {"type": "about:blank", "title": "Unprocessable Content", "status": 422,
//!  "detail": "passengers: 12 is greater than the maximum 9",
//!  "errors": [{"detail": "12 is greater than the maximum 9", "pointer": "#/passengers"}],
//!  "issues": [{"path": "passengers", "constraint": "maximum", "expected": 9, "got": 12, "message": "..."}],
//!  "hint": {"tool": "book_flight", "reason": "invalid_arguments", "...": "..."}}
//! ```
//!
//! ```no_run
//! use axum::{routing::post, Json, Router};
//! use toolgate::http::Gated;
//!
//! /// Book a flight.
//! #[derive(toolgate::Tool, serde::Deserialize)]
//! struct BookFlight {
//!     #[tool(range(min = 1, max = 9))]
//!     passengers: u8,
//! }
//!
//! async fn book(flight: Gated<BookFlight>) -> Json<serde_json::Value> {
//!     Json(serde_json::json!({"passengers": flight.value.passengers, "repairs": flight.repairs}))
//! }
//!
//! let app: Router = Router::new().route("/book_flight", post(book));
//! ```

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, Path as UrlPath, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};
use toolgate_core::{Issue, Rejected, Repair, RetryHint, Tool};

use crate::boundary::{Envelope, Reason, Toolbox};

/// The media type of a problem body.
pub const PROBLEM_JSON: &str = "application/problem+json";

/// A request body decoded through the gate of `T`: the value, and the repairs made.
#[derive(Clone, Debug, PartialEq)]
pub struct Gated<T> {
    /// The decoded value.
    pub value: T,
    /// The repairs made to the body.
    pub repairs: Vec<Repair>,
}

/// A refused request: its status and problem body (see the module's notes).
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The HTTP status: 422 for refused arguments.
    pub status: StatusCode,
    /// The `application/problem+json` body.
    pub body: Value,
}

impl Refusal {
    /// A refusal before the gate: RFC 9457's members only.
    fn problem(status: StatusCode, detail: String) -> Self {
        let body = json!({
            "type": "about:blank",
            "title": status.canonical_reason().unwrap_or("Bad Request"),
            "status": status.as_u16(),
            "detail": detail,
        });
        Refusal { status, body }
    }

    /// The `422` answer to refused arguments.
    pub fn of(rejected: &Rejected) -> Self {
        Refusal::with_issues(rejected.report.issues(), Some(rejected.hint()))
    }

    /// The `422` answer for these issues and hint.
    pub fn with_issues(issues: &[Issue], hint: Option<&RetryHint>) -> Self {
        let status = StatusCode::UNPROCESSABLE_ENTITY;
        let errors: Vec<Value> = issues
            .iter()
            .map(|issue| json!({"detail": issue.message, "pointer": format!("#{}", issue.path.shown().to_json_pointer())}))
            .collect();
        let detail = hint.map_or_else(
            || issues.first().map_or_else(String::new, ToString::to_string),
            |hint| hint.message.clone(),
        );
        let body = json!({
            "type": "about:blank",
            "title": "Unprocessable Content",
            "status": status.as_u16(),
            "detail": detail,
            "errors": errors,
            "issues": issues,
            "hint": hint,
        });
        Refusal { status, body }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        (
            self.status,
            [(header::CONTENT_TYPE, PROBLEM_JSON)],
            self.body.to_string(),
        )
            .into_response()
    }
}

impl<S, T> FromRequest<S> for Gated<T>
where
    S: Send + Sync,
    T: Tool + DeserializeOwned + Send,
{
    type Rejection = Refusal;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = body_of(request, state).await?;
        match T::decode_bytes(&bytes) {
            Ok(decoded) => Ok(Gated {
                value: decoded.value,
                repairs: decoded.repairs,
            }),
            Err(rejected) => Err(Refusal::of(&rejected)),
        }
    }
}

/// The body of a request, read as `axum::Json` reads one (see the module's notes): a JSON
/// media type, within axum's body limit (2 MB unless the app sets another), which holds
/// while the body is read; else a problem body.
async fn body_of<S: Send + Sync>(request: Request, state: &S) -> Result<Bytes, Refusal> {
    let content_type = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let mut parts = content_type.split(';').map(str::trim);
    let media_type = parts.next().unwrap_or_default();
    let json = media_type == "application/json"
        || (media_type.starts_with("application/") && media_type.ends_with("+json"));
    if !json {
        let detail = "Expected request with `Content-Type: application/json`".to_owned();
        return Err(Refusal::problem(StatusCode::UNSUPPORTED_MEDIA_TYPE, detail));
    }
    // JSON is UTF-8 (RFC 8259): a body said to be in another charset is another media type.
    let charset = parts.find_map(|part| part.strip_prefix("charset="));
    if let Some(charset) = charset.map(|c| c.trim_matches('"')) {
        if charset != "utf-8" && charset != "utf8" {
            let detail = format!("Expected a UTF-8 JSON body, not `charset={charset}`");
            return Err(Refusal::problem(StatusCode::UNSUPPORTED_MEDIA_TYPE, detail));
        }
    }
    let bytes = Bytes::from_request(request, state)
        .await
        .map_err(|rejection| Refusal::problem(rejection.status(), rejection.body_text()))?;
    // Past the gate's own limit, the same status as past axum's: one status per cause.
    let most = toolgate_core::decode::Options::default().max_bytes;
    if bytes.len() > most {
        let detail = format!(
            "The body is {} bytes, more than the {most} bytes the gate reads",
            bytes.len()
        );
        return Err(Refusal::problem(StatusCode::PAYLOAD_TOO_LARGE, detail));
    }
    Ok(bytes)
}

/// The HTTP status of an envelope: `200` for a success; `422` refused arguments; `404`
/// unknown tool; `429` a spent budget; `403` a denial; `504` a timeout; `502` the tool's
/// failure or malformed result.
pub fn status_of(envelope: &Envelope) -> StatusCode {
    match envelope.reason() {
        None => StatusCode::OK,
        Some(Reason::InvalidArguments) => StatusCode::UNPROCESSABLE_ENTITY,
        Some(Reason::UnknownTool) => StatusCode::NOT_FOUND,
        Some(Reason::BudgetExceeded) => StatusCode::TOO_MANY_REQUESTS,
        Some(Reason::Denied) => StatusCode::FORBIDDEN,
        Some(Reason::Timeout) => StatusCode::GATEWAY_TIMEOUT,
        Some(Reason::ToolError | Reason::MalformedResponse) => StatusCode::BAD_GATEWAY,
    }
}

/// `GET /tools` and `POST /tools/{name}` for `toolbox` (see the module's notes).
pub fn router(toolbox: Arc<Toolbox>) -> Router {
    async fn list(State(toolbox): State<Arc<Toolbox>>) -> impl IntoResponse {
        Json(toolbox.definitions())
    }
    async fn call(
        State(toolbox): State<Arc<Toolbox>>,
        UrlPath(name): UrlPath<String>,
        request: Request,
    ) -> Response {
        let body = match body_of(request, &()).await {
            Ok(body) => body,
            Err(refusal) => return refusal.into_response(),
        };
        let envelope = match std::str::from_utf8(&body) {
            Ok(text) => toolbox.new_run().call(&name, text).await,
            // Read as it is, never with replacement characters the model did not send.
            Err(_) => {
                let issue = Issue::new(
                    toolgate_core::Path::root(),
                    toolgate_core::Constraint::Syntax,
                    "the body is not UTF-8",
                );
                let failure =
                    crate::boundary::Failure::new(Reason::InvalidArguments, issue.message.clone())
                        .with_issues(vec![issue]);
                Envelope::failure(crate::boundary::echoed(&name).into_owned(), failure, None)
            }
        };
        (status_of(&envelope), Json(envelope)).into_response()
    }
    Router::new()
        .route("/tools", get(list))
        .route("/tools/{name}", post(call))
        .with_state(toolbox)
}

//! The example HTTP server (`cargo run -q --example http_tool`), started on a free port and
//! driven over loopback by a real HTTP client (ureq).

use serde_json::{json, Value};
use toolgate_example_servers::{start_listening, Started};

/// Starts the example on a free port; its first line says where it listens.
fn start() -> (Started, String) {
    start_listening("http_tool", &[])
}

/// A client that reads every status's answer, on a new connection each request (a server
/// may close a connection after refusing a body it did not read, and a pooled connection
/// would then be found closed).
fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_idle_connections(0)
        .build()
        .into()
}

/// Posts `body` and returns the status, content type and JSON answer.
fn post(agent: &ureq::Agent, url: &str, body: &str) -> (u16, String, Value) {
    post_as(agent, url, body, "application/json")
}

/// Posts `body` as `media_type` and returns the status, content type and JSON answer.
fn post_as(agent: &ureq::Agent, url: &str, body: &str, media_type: &str) -> (u16, String, Value) {
    let mut response = agent
        .post(url)
        .header("content-type", media_type)
        .send(body)
        .expect("an answer");
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = response.body_mut().read_to_string().expect("a text body");
    (
        status,
        content_type,
        serde_json::from_str(&text).expect("a JSON body"),
    )
}

#[test]
fn a_real_client_gets_repairs_refusals_and_envelopes() {
    let (_server, base) = start();
    let agent = agent();
    let flight = r#"{"origin": "CDG", "destination": "JFK", "date": "2026-12-01", "passengers": "2", "cabin": "Business"}"#;

    let (status, _, answer) = post(&agent, &format!("{base}/book_flight"), flight);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["value"]["passengers"], 2);
    assert_eq!(answer["repairs"].as_array().unwrap().len(), 2);

    let wrong = flight
        .replace("\"CDG\"", "\"Paris\"")
        .replace("\"2\"", "12");
    let (status, content_type, problem) = post(&agent, &format!("{base}/book_flight"), &wrong);
    assert_eq!(status, 422);
    assert_eq!(content_type, "application/problem+json");
    assert_eq!(problem["status"], 422);
    assert_eq!(problem["errors"][0]["pointer"], "#/origin");
    let paths: Vec<&str> = problem["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["origin", "passengers"]);
    assert_eq!(problem["hint"]["reason"], "invalid_arguments");

    // The whole toolbox: listed, and called with envelopes and their statuses.
    let mut listed = agent
        .get(&format!("{base}/tools"))
        .call()
        .expect("an answer");
    let listed: Value = serde_json::from_str(&listed.body_mut().read_to_string().unwrap()).unwrap();
    assert_eq!(listed[1]["name"], "get_weather");
    let (status, _, envelope) = post(
        &agent,
        &format!("{base}/tools/get_weather"),
        r#"{"lat": 48.85, "lon": "2.35"}"#,
    );
    assert_eq!(status, 200, "{envelope}");
    assert_eq!(envelope["repairs"][0]["rule"], "string_to_number");
    let (status, _, envelope) = post(
        &agent,
        &format!("{base}/tools/get_weather"),
        r#"{"lat": 123}"#,
    );
    assert_eq!(status, 422);
    assert_eq!(envelope["error"]["reason"], "invalid_arguments");
    let (status, _, envelope) = post(&agent, &format!("{base}/tools/weather"), "{}");
    assert_eq!(status, 404);
    assert_eq!(envelope["error"]["did_you_mean"], json!("get_weather"));
}

/// Issue 28 §6: what is refused before the gate is answered as every refusal is, with a
/// problem body, on the extractor and on the router: a form or text body (415, as
/// `axum::Json` answers); a JSON media type with parameters or a `+json` suffix is read.
/// (A body past axum's limit, 413, is answered while a client still sends it, which a real
/// client may see as a closed connection: the next test sends one in process.)
#[test]
fn refusals_before_the_gate_are_problem_bodies() {
    let (_server, base) = start();
    let agent = agent();
    for url in [
        format!("{base}/book_flight"),
        format!("{base}/tools/get_weather"),
    ] {
        for (body, media_type) in [
            ("lat=1&lon=2", "application/x-www-form-urlencoded"),
            (r#"{"lat": 1, "lon": 2}"#, "text/plain"),
            // Issue 43 §8: JSON is UTF-8; another charset is another media type.
            (
                r#"{"lat": 1, "lon": 2}"#,
                "application/json; charset=latin1",
            ),
            (
                r#"{"lat": 1, "lon": 2}"#,
                "application/json; charset=\"ISO-8859-1\"",
            ),
        ] {
            let (status, content_type, problem) = post_as(&agent, &url, body, media_type);
            assert_eq!(status, 415, "{url} {media_type}: {problem}");
            assert_eq!(
                content_type, "application/problem+json",
                "{url} {media_type}"
            );
            assert_eq!(problem["status"], 415);
        }
        for media_type in [
            "application/json; charset=utf-8",
            "application/json; charset=\"UTF-8\"",
            "application/vnd.api+json",
        ] {
            let (status, _, answer) = post_as(&agent, &url, "{}", media_type);
            assert_eq!(status, 422, "{url} {media_type}: {answer}");
        }
    }
}

/// Issue 28 §6: a body past axum's limit is a problem body on the extractor and on the
/// router (axum's own answer is `text/plain`), sent to the app in process.
#[test]
fn a_body_past_the_limit_is_a_problem_body() {
    use axum::body::Body;
    use axum::extract::DefaultBodyLimit;
    use axum::routing::post;
    use std::sync::Arc;
    use toolgate::http::{router, Gated, PROBLEM_JSON};
    use toolgate_example_servers::{toolbox, BookFlight};
    use tower::ServiceExt;

    async fn book(_: Gated<BookFlight>) -> &'static str {
        "booked"
    }
    let app = axum::Router::new()
        .route("/book_flight", post(book))
        .merge(router(Arc::new(toolbox())))
        .layer(DefaultBodyLimit::max(1_000));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let large = format!(r#"{{"lat": 1, "pad": "{}"}}"#, "x".repeat(2_000));
    // Issue 43 §8: past the gate's 1 MiB but within axum's default 2 MB, the same 413.
    let within_axum = axum::Router::new()
        .route("/book_flight", post(book))
        .merge(router(Arc::new(toolbox())));
    let mid = format!(r#"{{"lat": 1, "pad": "{}"}}"#, "x".repeat(1_500_000));
    for uri in ["/book_flight", "/tools/get_weather"] {
        let request = axum::http::Request::post(uri)
            .header("content-type", "application/json")
            .body(Body::from(mid.clone()))
            .unwrap();
        let response = runtime
            .block_on(within_axum.clone().oneshot(request))
            .unwrap();
        assert_eq!(response.status().as_u16(), 413, "{uri}");
        assert_eq!(response.headers()["content-type"], PROBLEM_JSON, "{uri}");
    }
    for uri in ["/book_flight", "/tools/get_weather"] {
        let request = axum::http::Request::post(uri)
            .header("content-type", "application/json")
            .body(Body::from(large.clone()))
            .unwrap();
        let response = runtime.block_on(app.clone().oneshot(request)).unwrap();
        assert_eq!(response.status().as_u16(), 413, "{uri}");
        assert_eq!(response.headers()["content-type"], PROBLEM_JSON, "{uri}");
        let bytes = runtime
            .block_on(axum::body::to_bytes(response.into_body(), 10_000))
            .unwrap();
        let problem: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(problem["status"], 413, "{uri}");
    }
}

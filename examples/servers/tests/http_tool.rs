//! The example HTTP server (`cargo run -q --example http_tool`), started on a free port and
//! driven over loopback by a real HTTP client (ureq).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{json, Value};
use toolgate_example_servers::built_example;

/// The server, stopped when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the example on a free port; its first line says where it listens.
fn start() -> (Server, String) {
    let mut child = Command::new(built_example("http_tool"))
        .env("PORT", "0")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the example server starts");
    let stdout = child.stdout.take().expect("its stdout");
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("its first line");
    let address = line
        .trim()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
        .to_owned();
    (server, address)
}

/// Posts `body` and returns the status, content type and JSON answer.
fn post(agent: &ureq::Agent, url: &str, body: &str) -> (u16, String, Value) {
    let mut response = agent
        .post(url)
        .header("content-type", "application/json")
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
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
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

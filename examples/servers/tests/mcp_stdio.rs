//! The example MCP server (`cargo run -q --example mcp_server`), driven end to end over stdio
//! by rmcp's own client: the tools listed, and a valid, a repairable, a refused and an
//! unknown-tool call. (`.ci/run` drives the same server with the official Python client.)

use rmcp::model::{CallToolRequestParams, CallToolResult, JsonObject};
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use serde_json::{json, Value};
use toolgate_example_servers::built_example;

fn arguments(value: Value) -> JsonObject {
    match value {
        Value::Object(members) => members,
        _ => unreachable!("the arguments are objects"),
    }
}

/// The envelope a refused call carries as its first text content.
fn envelope(result: &CallToolResult) -> Value {
    let text = result.content[0].as_text().expect("a text content");
    serde_json::from_str(&text.text).expect("the envelope's JSON")
}

#[tokio::test]
async fn rmcps_client_lists_and_calls_the_tools_through_the_gate() {
    let server = TokioChildProcess::new(tokio::process::Command::new(built_example("mcp_server")))
        .expect("the example server starts");
    let client = ().serve(server).await.expect("the MCP handshake");

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, ["book_flight", "get_weather"]);
    let weather = &tools[1];
    assert!(weather.output_schema.is_some());
    assert_eq!(weather.input_schema["required"], json!(["lat", "lon"]));
    // Listed through the MCP flavour: the name and description said once, beside the schema.
    assert_eq!(weather.input_schema["type"], "object");
    assert_eq!(weather.input_schema.get("title"), None);
    assert!(weather.description.is_some());
    assert_eq!(weather.input_schema.get("description"), None);

    let flight = json!({"origin": "CDG", "destination": "JFK", "date": "2026-12-01",
        "passengers": 2, "cabin": "business"});
    let call = |name: &str, args: Value| {
        CallToolRequestParams::new(name.to_owned()).with_arguments(arguments(args))
    };

    let valid = client
        .call_tool(call("book_flight", flight.clone()))
        .await
        .unwrap();
    assert_eq!(valid.is_error, Some(false));
    assert_eq!(
        valid.structured_content.as_ref().unwrap()["booking"],
        "CDG-JFK-2026-12-01"
    );

    let mut sloppy = flight.clone();
    sloppy["passengers"] = json!("2");
    sloppy["cabin"] = json!("Business");
    let repaired = client.call_tool(call("book_flight", sloppy)).await.unwrap();
    assert_eq!(repaired.is_error, Some(false));
    assert_eq!(
        repaired.structured_content.as_ref().unwrap()["passengers"],
        2
    );
    let meta = serde_json::to_value(&repaired.meta).unwrap();
    assert_eq!(meta["io.toolgate/repairs"].as_array().unwrap().len(), 2);

    let weather = client
        .call_tool(call("get_weather", json!({"lat": "48.85", "lon": 2.35})))
        .await
        .unwrap();
    assert_eq!(
        weather.structured_content.as_ref().unwrap()["units"],
        "metric"
    );

    let mut wrong = flight.clone();
    wrong["origin"] = json!("Paris");
    let refused = client.call_tool(call("book_flight", wrong)).await.unwrap();
    assert_eq!(refused.is_error, Some(true));
    let refusal = envelope(&refused);
    assert_eq!(refusal["error"]["reason"], "invalid_arguments");
    assert_eq!(refusal["hint"]["fields"][0]["path"], "origin");

    let unknown = client
        .call_tool(call("bok_flight", json!({})))
        .await
        .unwrap();
    assert_eq!(unknown.is_error, Some(true));
    assert_eq!(envelope(&unknown)["error"]["did_you_mean"], "book_flight");

    client.cancel().await.unwrap();
}

#[tokio::test]
async fn rmcps_own_macros_with_lenient_parameters_repair_and_refuse() {
    let server = TokioChildProcess::new(tokio::process::Command::new(built_example(
        "mcp_rmcp_macros",
    )))
    .expect("the example server starts");
    let client = ().serve(server).await.expect("the MCP handshake");

    // The tool advertises BookFlight's own schema (Lenient<T>'s is T's).
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools[0].name, "book_flight");
    assert_eq!(
        tools[0].input_schema["properties"]["origin"]["pattern"],
        "^[A-Z]{3}$"
    );

    let sloppy = json!({"origin": "CDG", "destination": "JFK", "date": "2026-12-01",
        "passengers": "2", "cabin": "Business"});
    let call = CallToolRequestParams::new("book_flight").with_arguments(arguments(sloppy));
    let repaired = client.call_tool(call).await.unwrap();
    assert_eq!(repaired.is_error, Some(false));
    let text = &repaired.content[0].as_text().unwrap().text;
    let answer: Value = serde_json::from_str(text).unwrap();
    assert_eq!(answer["value"]["passengers"], 2);
    assert_eq!(answer["repairs"].as_array().unwrap().len(), 2);

    let wrong = json!({"origin": "Paris", "destination": "JFK", "date": "2026-12-01",
        "passengers": 12, "cabin": "business"});
    let call = CallToolRequestParams::new("book_flight").with_arguments(arguments(wrong));
    let refused = client.call_tool(call).await.unwrap();
    assert_eq!(refused.is_error, Some(true));
    let report = &refused.content[0].as_text().unwrap().text;
    assert!(
        report.contains("origin") && report.contains("passengers"),
        "{report}"
    );

    client.cancel().await.unwrap();
}

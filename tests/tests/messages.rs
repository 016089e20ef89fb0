//! The providers' message shapes, on answers recorded from their public documentation
//! (`tests/fixtures/messages/`, each naming its source): parallel tool calls read in order,
//! run through a toolbox, answered in the provider's shape; calls written back read the same.

#[macro_use]
mod boundary_common;

use boundary_common::block_on;
use serde_json::{json, Value};
use toolgate::boundary::messages::{
    calls_turn, correction_turn, tool_calls, tool_results, MessageError, Provider,
    CORRECTION_INSTRUCTION,
};
use toolgate::boundary::{Envelope, Reason, Toolbox};

/// Units of temperature.
#[derive(toolgate::Tool, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum Units {
    Celsius,
    Fahrenheit,
}

/// Current weather at a place.
#[derive(toolgate::Tool, serde::Deserialize)]
struct GetWeather {
    /// City and country
    location: String,
    /// Units of the temperature
    units: Option<Units>,
}

/// Send an email.
#[derive(toolgate::Tool, serde::Deserialize)]
struct SendEmail {
    #[tool(format = "email")]
    to: String,
    subject: String,
}

fn toolbox() -> Toolbox {
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(|args: GetWeather| async move {
            Ok::<_, String>(json!({"location": args.location, "temperature": 14}))
        })
        .unwrap();
    toolbox
        .add_tool(|args: SendEmail| async move { Ok::<_, String>(json!({"sent_to": args.to})) })
        .unwrap();
    toolbox
}

const RECORDINGS: [(Provider, &str); 3] = [
    (
        Provider::OpenAiChat,
        include_str!("../fixtures/messages/openai_chat.json"),
    ),
    (
        Provider::OpenAiResponses,
        include_str!("../fixtures/messages/openai_responses.json"),
    ),
    (
        Provider::Anthropic,
        include_str!("../fixtures/messages/anthropic.json"),
    ),
];

/// A result with its envelope text replaced by the recordings' placeholder, and the
/// envelope read back.
fn placeholder(mut result: Value, envelopes: &mut Vec<Envelope>) -> Value {
    for key in ["content", "output"] {
        if let Some(Value::String(text)) = result.get(key) {
            envelopes.push(serde_json::from_str(text).expect("a result holds an envelope"));
            result[key] = json!("…");
        }
    }
    if let Some(Value::Array(blocks)) = result.get_mut("content") {
        for block in blocks {
            *block = placeholder(block.take(), envelopes);
        }
    }
    result
}

#[test]
fn parallel_calls_are_read_run_and_answered_in_each_providers_shape() {
    let toolbox = toolbox();
    for (provider, recording) in RECORDINGS {
        let recording: Value = serde_json::from_str(recording).unwrap();
        let calls = tool_calls(provider, &recording["answer"]).unwrap();
        let names: Vec<&str> = calls.iter().map(|call| call.tool.as_str()).collect();
        assert_eq!(
            names,
            ["get_weather", "get_weather", "send_email"],
            "{provider:?}"
        );
        let envelopes = block_on(toolbox.call_all(calls.clone()));
        let results = tool_results(provider, &envelopes);
        let mut read_back = Vec::new();
        let shaped: Vec<Value> = results
            .into_iter()
            .map(|result| placeholder(result, &mut read_back))
            .collect();
        assert_eq!(Value::from(shaped), recording["results"], "{provider:?}");
        assert_eq!(read_back, envelopes, "{provider:?}");
        // "Celsius" was repaired, the email without a subject refused.
        assert_eq!(envelopes[1].repairs[0].rule.as_str(), "enum_case");
        assert_eq!(envelopes[2].reason(), Some(Reason::InvalidArguments));
        assert_eq!(envelopes[2].call_id, calls[2].call_id);
    }
}

#[test]
fn calls_written_back_read_the_same() {
    for (provider, recording) in RECORDINGS {
        let recording: Value = serde_json::from_str(recording).unwrap();
        let calls = tool_calls(provider, &recording["answer"]).unwrap();
        let turn = calls_turn(provider, &calls);
        let again = match provider {
            Provider::OpenAiResponses => tool_calls(provider, &Value::from(turn)),
            _ => tool_calls(provider, &turn[0]),
        }
        .unwrap();
        // Anthropic's input objects are written as JSON text: compare as JSON.
        for (call, again) in calls.iter().zip(&again) {
            assert_eq!(call.tool, again.tool);
            assert_eq!(call.call_id, again.call_id);
            let parse = |text: &str| serde_json::from_str::<Value>(text).unwrap();
            assert_eq!(parse(&call.arguments), parse(&again.arguments));
        }
        assert_eq!(calls.len(), again.len());
    }
}

#[test]
fn a_correction_turn_ends_with_the_instruction_after_the_results() {
    let toolbox = toolbox();
    let refused = block_on(toolbox.call("send_email", r#"{"to": "bob@email.com"}"#))
        .with_call_id(Some("call_1".into()));
    let chat = correction_turn(
        Provider::OpenAiChat,
        std::slice::from_ref(&refused),
        CORRECTION_INSTRUCTION,
    );
    assert_eq!(chat[0]["role"], "tool");
    assert_eq!(
        chat[1],
        json!({"role": "user", "content": CORRECTION_INSTRUCTION})
    );
    let responses = correction_turn(
        Provider::OpenAiResponses,
        std::slice::from_ref(&refused),
        "fix it",
    );
    assert_eq!(responses[0]["type"], "function_call_output");
    assert_eq!(responses[1]["content"], "fix it");
    let anthropic = correction_turn(
        Provider::Anthropic,
        std::slice::from_ref(&refused),
        "fix it",
    );
    assert_eq!(anthropic.len(), 1);
    let blocks = anthropic[0]["content"].as_array().unwrap();
    assert_eq!(blocks[0]["is_error"], true);
    assert!(blocks[0]["content"]
        .as_str()
        .unwrap()
        .contains(r#""missing_fields":["subject"]"#));
    assert_eq!(blocks[1], json!({"type": "text", "text": "fix it"}));
    golden!(
        "messages__anthropic_correction_turn",
        correction_turn(Provider::Anthropic, &[refused], CORRECTION_INSTRUCTION)
    );
}

#[test]
fn a_tool_call_without_a_name_or_an_id_is_an_error_naming_its_place() {
    let answer = json!({"tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "x", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"arguments": "{}"}}
    ]});
    assert_eq!(
        tool_calls(Provider::OpenAiChat, &answer),
        Err(MessageError {
            index: 1,
            what: "no `name`".into()
        })
    );
    let answer = json!({"content": [{"type": "tool_use", "name": "x", "input": {}}]});
    assert_eq!(
        tool_calls(Provider::Anthropic, &answer)
            .unwrap_err()
            .to_string(),
        "tool call 0: no `id`"
    );
    // Text and reasoning are no calls.
    assert_eq!(
        tool_calls(Provider::OpenAiResponses, &json!([{"type": "reasoning"}])),
        Ok(Vec::new())
    );
    assert_eq!(
        tool_calls(
            Provider::OpenAiChat,
            &json!({"role": "assistant", "content": "hi"})
        ),
        Ok(Vec::new())
    );
}

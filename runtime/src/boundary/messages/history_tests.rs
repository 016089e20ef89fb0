//! Issue 43 §5: a cut answer's calls never run, and a history after any refusal is one each
//! provider's API accepts.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::*;
use crate::boundary::messages::{answer_calls, cut};
use crate::boundary::{Call, Envelope, Failure, Reason};

/// Arguments of every kind a model sends: an object, text cut off, text that is not JSON,
/// JSON that is no object, an empty text, a fenced object.
fn any_arguments() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(r#"{"city": "Paris"}"#.to_owned()),
        Just(r#"{"city": "Par"#.to_owned()),
        Just("Paris".to_owned()),
        Just(r#"["Paris"]"#.to_owned()),
        Just(r#""{\"city\": \"Paris\"}""#.to_owned()),
        Just(String::new()),
        Just("```json\n{\"city\": \"Paris\"}\n```".to_owned()),
        Just("42".to_owned()),
    ]
}

/// Whether `text` is JSON text of an object.
fn object_text(text: &Value) -> bool {
    text.as_str()
        .and_then(|text| serde_json::from_str::<Value>(text).ok())
        .is_some_and(|value| value.is_object())
}

/// What each provider's API requires of a history's calls and their results (their request
/// references): every call readable as the API types it, and answered once, by its id.
fn accepted(provider: Provider, turns: &[Value], ids: &[String]) -> Result<(), String> {
    let mut answered: Vec<String> = Vec::new();
    match provider {
        Provider::OpenAiChat => {
            let calls = turns[0]["tool_calls"].as_array().ok_or("no tool_calls")?;
            for call in calls {
                if !object_text(&call["function"]["arguments"]) {
                    return Err(format!("arguments not JSON object text: {call}"));
                }
            }
            for turn in &turns[1..] {
                if turn["role"] != "tool" || !turn["content"].is_string() {
                    return Err(format!("not a tool message: {turn}"));
                }
                answered.push(turn["tool_call_id"].as_str().unwrap_or_default().to_owned());
            }
        }
        Provider::OpenAiResponses => {
            for item in turns {
                match item["type"].as_str() {
                    Some("function_call") if object_text(&item["arguments"]) => {}
                    Some("function_call_output") if item["output"].is_string() => {
                        answered.push(item["call_id"].as_str().unwrap_or_default().to_owned());
                    }
                    _ => return Err(format!("not a call or an output: {item}")),
                }
            }
        }
        Provider::Anthropic => {
            for block in turns[0]["content"].as_array().ok_or("no content")? {
                if block["type"] != "tool_use" || !block["input"].is_object() {
                    return Err(format!("input not an object: {block}"));
                }
            }
            // The next user message's first blocks are the results.
            for block in turns[1]["content"].as_array().ok_or("no results")? {
                if block["type"] != "tool_result" {
                    return Err(format!("not a result: {block}"));
                }
                answered.push(block["tool_use_id"].as_str().unwrap_or_default().to_owned());
            }
        }
        Provider::Gemini => {
            for part in turns[0]["parts"].as_array().ok_or("no parts")? {
                if !part["functionCall"]["args"].is_object() {
                    return Err(format!("args not an object: {part}"));
                }
            }
            for part in turns[1]["parts"].as_array().ok_or("no responses")? {
                if !part["functionResponse"]["response"].is_object() {
                    return Err(format!("response not an object: {part}"));
                }
                answered.push(
                    part["functionResponse"]["id"]
                        .as_str()
                        .unwrap_or_default()
                        .to_owned(),
                );
            }
        }
        _ => {
            for request in turns.iter().filter(|t| t.get("method").is_some()) {
                if !request["params"]["arguments"].is_object() {
                    return Err(format!("arguments not an object: {request}"));
                }
            }
            return Ok(());
        }
    }
    if answered != ids {
        return Err(format!("answered {answered:?}, called {ids:?}"));
    }
    Ok(())
}

/// The arguments of every call of a history's calls turn, as objects.
fn replayed_objects(provider: Provider, turns: &[Value]) -> Vec<Value> {
    let parse = |text: &Value| {
        serde_json::from_str(text.as_str().unwrap_or_default()).unwrap_or(Value::Null)
    };
    let list = |value: &Value| value.as_array().cloned().unwrap_or_default();
    match provider {
        Provider::OpenAiChat => list(&turns[0]["tool_calls"])
            .iter()
            .map(|call| parse(&call["function"]["arguments"]))
            .collect(),
        Provider::OpenAiResponses => turns
            .iter()
            .filter(|item| item["type"] == "function_call")
            .map(|item| parse(&item["arguments"]))
            .collect(),
        Provider::Anthropic => list(&turns[0]["content"])
            .iter()
            .map(|b| b["input"].clone())
            .collect(),
        Provider::Gemini => list(&turns[0]["parts"])
            .iter()
            .map(|p| p["functionCall"]["args"].clone())
            .collect(),
        _ => turns
            .iter()
            .filter(|t| t.get("method").is_some())
            .map(|t| t["params"]["arguments"].clone())
            .collect(),
    }
}

fn refused(call: &Call) -> Envelope {
    Envelope::failure(
        call.tool.as_str(),
        Failure::new(Reason::InvalidArguments, "refused"),
        None,
    )
    .with_call_id(call.call_id.clone())
}

proptest! {
    /// After any calls — unreadable, cut, not objects — and any of them refused or left
    /// without a recorded result, the history `history_turns` writes is one the provider's
    /// API accepts: every call's arguments an object (or object text), every call answered
    /// once, by its id, in order.
    #[test]
    fn a_history_after_any_refusal_is_accepted(
        provider in provider(),
        arguments in proptest::collection::vec(any_arguments(), 1..5),
        recorded in proptest::collection::vec(any::<bool>(), 5),
    ) {
        let calls: Vec<Call> = arguments
            .iter()
            .enumerate()
            .map(|(at, text)| Call::new("get_weather", text.clone()).with_id(format!("c{at}")))
            .collect();
        let envelopes: Vec<Envelope> = calls
            .iter()
            .zip(&recorded)
            .filter(|(_, recorded)| **recorded)
            .map(|(call, _)| refused(call))
            .collect();
        let turns = history_turns(provider, &calls, &envelopes);
        let ids: Vec<String> = calls.iter().filter_map(|c| c.call_id.clone()).collect();
        prop_assert_eq!(accepted(provider, &turns, &ids), Ok(()), "{:#?}", turns);
        // Each call replayed as sent where it is an object, else keeping its text.
        let replayed = replayed_objects(provider, &turns);
        prop_assert_eq!(replayed.len(), arguments.len());
        for (text, object) in arguments.iter().zip(replayed) {
            let expected = match serde_json::from_str::<Value>(text) {
                Ok(sent @ Value::Object(_)) => sent,
                _ => json!({ UNREADABLE_ARGUMENTS_KEY: text }),
            };
            prop_assert_eq!(object, expected);
        }
    }

    /// Every provider's cut — its finish reason, or the usage at the cap the request set
    /// whatever the finish reason says — is found; an answer that ended on its own is not cut.
    #[test]
    fn a_cut_answer_is_found_by_its_reason_or_its_usage(
        provider in prop_oneof![
            Just(Provider::OpenAiChat),
            Just(Provider::OpenAiResponses),
            Just(Provider::Anthropic),
            Just(Provider::Gemini)
        ],
        by_reason in any::<bool>(),
        used in 1..5000u64,
        cap in proptest::option::of(1..5000u64),
    ) {
        let (reason, natural) = match provider {
            Provider::OpenAiChat => ("length", "tool_calls"),
            Provider::OpenAiResponses => ("max_output_tokens", "completed"),
            Provider::Anthropic => ("max_tokens", "tool_use"),
            _ => ("MAX_TOKENS", "STOP"),
        };
        let said = if by_reason { reason } else { natural };
        let answer = match provider {
            Provider::OpenAiChat => json!({"choices": [{"finish_reason": said, "message": {}}],
                "usage": {"completion_tokens": used}}),
            Provider::OpenAiResponses if by_reason => json!({"status": "incomplete",
                "incomplete_details": {"reason": said}, "usage": {"output_tokens": used}}),
            Provider::OpenAiResponses => json!({"status": said, "usage": {"output_tokens": used}}),
            Provider::Anthropic => json!({"stop_reason": said, "usage": {"output_tokens": used}}),
            _ => json!({"candidates": [{"finishReason": said}],
                "usageMetadata": {"candidatesTokenCount": used}}),
        };
        let expected = by_reason || cap.is_some_and(|cap| used >= cap);
        prop_assert_eq!(cut(provider, &answer, cap).is_some(), expected, "{}", answer);
    }
}

#[test]
fn every_call_of_a_cut_answer_is_refused_naming_the_cut_even_when_it_parses() {
    let answer = json!({"choices": [{"finish_reason": "length", "message": {"tool_calls": [
        {"id": "a", "function": {"name": "get", "arguments": "{\"city\": \"Paris\"}"}},
        {"id": "b", "function": {"name": "get", "arguments": "{\"city\": \"Lon"}}]}}]});
    let read = answer_calls(Provider::OpenAiChat, &answer, None).unwrap();
    let cut = read.cut.clone().unwrap();
    let envelopes = refuse_cut(&read.calls, &cut);
    assert_eq!(envelopes.len(), 2);
    for (envelope, id) in envelopes.iter().zip(["a", "b"]) {
        assert_eq!(envelope.reason(), Some(Reason::InvalidArguments));
        assert_eq!(envelope.call_id.as_deref(), Some(id));
        let error = envelope.error.as_ref().unwrap();
        assert!(
            error.message.contains("finish reason `length`"),
            "{}",
            error.message
        );
        assert_eq!(
            error.issues[0].constraint,
            toolgate_core::Constraint::Syntax
        );
    }
}

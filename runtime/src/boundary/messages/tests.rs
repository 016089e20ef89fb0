use proptest::prelude::*;

use super::*;

#[path = "history_tests.rs"]
mod history;

/// Arguments a parse into a `Value` would change or refuse: a key twice, digits a float
/// rounds, numbers out of a float's range, nesting past serde_json's limit, escapes.
fn arguments_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("1e400".to_owned()),
        Just("2.0000000000000001".to_owned()),
        Just("\"\\u0041\\n\"".to_owned()),
        "\"[a-z ]{0,6}\"",
        "-?(0|[1-9][0-9]{0,3})",
    ];
    let nested = leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3)
                .prop_map(|items| format!("[{}]", items.join(", "))),
            prop::collection::vec(("\"[ab]\"", inner), 1..4).prop_map(|members| {
                let members: Vec<String> = members
                    .iter()
                    .map(|(key, value)| format!("{key}: {value}"))
                    .collect();
                format!("{{{}}}", members.join(", "))
            }),
        ]
    });
    let deep = (100..300usize)
        .prop_map(|depth| format!("{{\"a\": {}{}}}", "[".repeat(depth), "]".repeat(depth)));
    prop_oneof![3 => nested.prop_map(|value| format!("{{\"x\": {value}, \"x\": 1}}")), 1 => deep]
}

/// The answer of `provider` calling `get` with `arguments` written as they are, beside text.
fn answer(provider: Provider, arguments: &str) -> String {
    match provider {
        Provider::OpenAiChat => format!(
            r#"{{"choices": [{{"message": {{"role": "assistant", "content": "one moment", "tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "get", "arguments": {arguments}}}}}]}}}}]}}"#
        ),
        Provider::OpenAiResponses => format!(
            r#"{{"output": [{{"type": "reasoning", "summary": []}}, {{"type": "function_call", "call_id": "c1", "name": "get", "arguments": {arguments}}}]}}"#
        ),
        Provider::Anthropic => format!(
            r#"{{"role": "assistant", "content": [{{"type": "text", "text": "ok"}}, {{"type": "tool_use", "id": "c1", "name": "get", "input": {arguments}}}]}}"#
        ),
        Provider::Gemini => format!(
            r#"{{"candidates": [{{"content": {{"role": "model", "parts": [{{"text": "ok"}}, {{"functionCall": {{"id": "c1", "name": "get", "args": {arguments}}}}}]}}}}]}}"#
        ),
        _ => format!(
            r#"{{"jsonrpc": "2.0", "id": "c1", "method": "tools/call", "params": {{"name": "get", "arguments": {arguments}}}}}"#
        ),
    }
}

fn provider() -> impl Strategy<Value = Provider> {
    prop_oneof![
        Just(Provider::OpenAiChat),
        Just(Provider::OpenAiResponses),
        Just(Provider::Anthropic),
        Just(Provider::Gemini),
        Just(Provider::Mcp)
    ]
}

proptest! {
    #[test]
    fn arguments_written_as_json_reach_the_call_as_written(provider in provider(), arguments in arguments_text()) {
        let calls = tool_calls_in_text(provider, &answer(provider, &arguments)).unwrap();
        prop_assert_eq!(calls.len(), 1);
        prop_assert_eq!(&calls[0].arguments, &arguments);
        prop_assert_eq!(calls[0].call_id.as_deref(), Some("c1"));
    }

    #[test]
    fn arguments_written_as_a_string_are_its_content(provider in provider(), arguments in arguments_text()) {
        let string = Value::String(arguments.clone()).to_string();
        let calls = tool_calls_in_text(provider, &answer(provider, &string)).unwrap();
        prop_assert_eq!(&calls[0].arguments, &arguments);
    }
}

#[test]
fn text_that_is_not_json_is_an_error_and_other_shapes_have_no_calls() {
    assert!(tool_calls_in_text(Provider::OpenAiChat, "{").is_err());
    let calls = tool_calls_in_text(
        Provider::OpenAiChat,
        r#"{"content": "hi", "tool_calls": null}"#,
    );
    assert_eq!(calls.unwrap(), Vec::new());
}

proptest! {
    /// Every provider reads back the calls it writes: the names, the ids and the arguments
    /// (an object, as each provider carries one; Chat's and Responses' strings as written).
    #[test]
    fn the_calls_a_provider_writes_read_back(
        provider in provider(),
        calls in prop::collection::vec(("[a-z_]{1,12}", "c[0-9]{1,4}", "[a-z]{1,6}", -1000i64..1000), 1..4),
    ) {
        let calls: Vec<Call> = calls
            .into_iter()
            .map(|(tool, id, key, number)| {
                Call::new(tool, format!(r#"{{"{key}":{number}}}"#)).with_id(id)
            })
            .collect();
        let turn = calls_turn(provider, &calls);
        let read: Vec<Call> = match provider {
            // One item or request per call.
            Provider::OpenAiResponses => tool_calls(provider, &Value::from(turn.clone())).unwrap(),
            Provider::Mcp => turn
                .iter()
                .flat_map(|request| tool_calls(provider, request).unwrap())
                .collect(),
            _ => tool_calls(provider, &turn[0]).unwrap(),
        };
        prop_assert_eq!(read.len(), calls.len());
        for (read, sent) in read.iter().zip(&calls) {
            prop_assert_eq!(&read.tool, &sent.tool);
            prop_assert_eq!(&read.call_id, &sent.call_id);
            let read_arguments: Value = serde_json::from_str(&read.arguments).unwrap();
            let sent_arguments: Value = serde_json::from_str(&sent.arguments).unwrap();
            prop_assert_eq!(read_arguments, sent_arguments);
        }
    }
}

#[test]
fn gemini_results_are_function_responses_named_by_the_tool() {
    let envelope = Envelope::success("get", serde_json::json!({"celsius": 12}), Vec::new())
        .with_call_id(Some("c1".into()));
    let results = tool_results(Provider::Gemini, std::slice::from_ref(&envelope));
    let response = &results[0]["parts"][0]["functionResponse"];
    assert_eq!(response["name"], "get");
    assert_eq!(response["id"], "c1");
    assert_eq!(response["response"]["value"]["celsius"], 12);
    let turn = correction_turn(Provider::Gemini, &[envelope], CORRECTION_INSTRUCTION);
    assert_eq!(turn[0]["parts"][1]["text"], CORRECTION_INSTRUCTION);
}

/// The answer of `provider` calling `get` with `arguments`, the call's own members shuffled
/// among `strays` (other members beside the arguments: a second holder, a call inside an
/// unknown member, values of any type), and for OpenAI Chat a stray `function` before the
/// real one (a `Value` keeps the last).
fn answer_among(
    provider: Provider,
    arguments: &str,
    strays: &[(&str, &str)],
    order: &[usize],
) -> String {
    let (own, holder) = match provider {
        Provider::OpenAiChat => ("function", "arguments"),
        Provider::OpenAiResponses => ("item", "arguments"),
        Provider::Anthropic => ("block", "input"),
        Provider::Gemini => ("functionCall", "args"),
        _ => ("params", "arguments"),
    };
    let mut members: Vec<String> = vec![
        r#""name": "get""#.to_owned(),
        format!(r#""{holder}": {arguments}"#),
    ];
    members.extend(
        strays
            .iter()
            .filter(|(key, _)| *key != holder)
            .map(|(key, value)| format!(r#""{key}": {value}"#)),
    );
    let mut shuffled: Vec<String> = Vec::new();
    let mut left = members;
    for &pick in order {
        if left.is_empty() {
            break;
        }
        shuffled.push(left.remove(pick % left.len()));
    }
    shuffled.extend(left);
    let call = shuffled.join(", ");
    match (provider, own) {
        (Provider::OpenAiChat, _) => format!(
            r#"{{"choices": [{{"message": {{"tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "stray", "arguments": "{{}}"}}, "function": {{{call}}}}}]}}}}]}}"#
        ),
        (Provider::OpenAiResponses, _) => {
            format!(r#"{{"output": [{{"type": "function_call", "call_id": "c1", {call}}}]}}"#)
        }
        (Provider::Anthropic, _) => {
            format!(r#"{{"content": [{{"type": "tool_use", "id": "c1", {call}}}]}}"#)
        }
        (Provider::Gemini, _) => format!(
            r#"{{"candidates": [{{"content": {{"parts": [{{"functionCall": {{"id": "c1", {call}}}}}]}}}}]}}"#
        ),
        _ => format!(
            r#"{{"jsonrpc": "2.0", "id": "c1", "method": "tools/call", "params": {{{call}}}}}"#
        ),
    }
}

proptest! {
    /// Issue 43 §6: whatever surrounds a call's arguments in a provider's answer — a second
    /// holder (`input`, `args`, `arguments`) beside the one the provider reads, `function`
    /// twice, a call inside an unknown member, members of any type in any order — its
    /// arguments reach the call as written (a repeated key kept), for every provider.
    #[test]
    fn the_arguments_are_read_as_written_whatever_surrounds_them(
        provider in provider(),
        arguments in arguments_text(),
        strays in prop::sample::subsequence(vec![
            ("input", r#"{"q": 1, "q": 2}"#),
            ("args", "[1, 1]"),
            ("arguments", r#""{\"s\": 1}""#),
            ("extra", r#"{"arguments": {"z": 1, "z": 2}, "list": [null, true, 1.5]}"#),
            ("nested", r#"[{"name": "other", "input": {"k": 1, "k": 2}}]"#),
            ("id2", "12"),
            ("note", "null"),
        ], 0..7),
        order in prop::collection::vec(0..16usize, 0..9),
    ) {
        let text = answer_among(provider, &arguments, &strays, &order);
        let calls = tool_calls_in_text(provider, &text).unwrap();
        prop_assert_eq!(calls.len(), 1, "{}", text);
        prop_assert_eq!(&calls[0].arguments, &arguments, "{}", text);
    }
}

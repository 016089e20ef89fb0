use proptest::prelude::*;

use super::*;

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
    }
}

fn provider() -> impl Strategy<Value = Provider> {
    prop_oneof![
        Just(Provider::OpenAiChat),
        Just(Provider::OpenAiResponses),
        Just(Provider::Anthropic)
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

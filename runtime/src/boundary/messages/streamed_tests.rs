use super::*;

/// The message read from `stream` in pieces of `size` bytes, then closed.
fn read(provider: Provider, stream: &str, size: usize) -> StreamedMessage {
    let mut message = StreamedMessage::new(provider, None);
    for piece in stream.as_bytes().chunks(size) {
        message.feed(piece);
    }
    message.close();
    message
}

fn summary(message: &StreamedMessage) -> Vec<(Option<String>, Option<String>, String, bool)> {
    message
        .calls()
        .iter()
        .map(|call| {
            (
                call.call_id.clone(),
                call.tool.clone(),
                call.arguments.clone(),
                call.ended,
            )
        })
        .collect()
}

fn call(
    id: &str,
    tool: &str,
    arguments: &str,
    ended: bool,
) -> (Option<String>, Option<String>, String, bool) {
    (Some(id.into()), Some(tool.into()), arguments.into(), ended)
}

const CHAT_INTERLEAVED: &str = concat!(
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"x\\\"\"}}]}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":2,\"id\":\"b\",\"function\":{\"name\":\"mul\",\"arguments\":\"{\\\"y\\\": 2}\"}}]}}]}\n\n",
    ": keep-alive\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\": 1}\"}}]}}]}\n\n",
    "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
    "data: [DONE]\n\n",
);

#[test]
fn chat_calls_interleave_and_end_with_the_message() {
    for size in [1, 7, CHAT_INTERLEAVED.len()] {
        let message = read(Provider::OpenAiChat, CHAT_INTERLEAVED, size);
        assert_eq!(
            summary(&message),
            [
                call("a", "add", "{\"x\": 1}", false),
                call("b", "mul", "{\"y\": 2}", false)
            ]
        );
        assert_eq!(message.finish_reason(), Some("tool_calls"));
        assert_eq!(message.cut(), None);
    }
}

#[test]
fn a_chat_stream_cut_or_closed_early_cuts_every_call() {
    let length = CHAT_INTERLEAVED.replace("tool_calls\"}]", "length\"}]");
    let message = read(Provider::OpenAiChat, &length, 5);
    assert!(matches!(message.cut(), Some(Cut::TokenLimit(_))));
    let dropped = &CHAT_INTERLEAVED[..CHAT_INTERLEAVED.find(": keep").unwrap()];
    assert_eq!(
        read(Provider::OpenAiChat, dropped, 3).cut(),
        Some(Cut::Closed)
    );
    // The usage at the cap the request set, whatever the finish reason says.
    let usage = CHAT_INTERLEAVED.replace(
        "data: [DONE]",
        "data: {\"choices\":[],\"usage\":{\"completion_tokens\":64}}\n\ndata: [DONE]",
    );
    let mut message = StreamedMessage::new(Provider::OpenAiChat, Some(64));
    message.feed(usage.as_bytes());
    message.close();
    assert!(matches!(message.cut(), Some(Cut::TokenLimit(_))));
    // An error in the stream.
    let error = "data: {\"error\": {\"message\": \"overloaded\"}}\n\n";
    assert!(matches!(
        read(Provider::OpenAiChat, error, 4).cut(),
        Some(Cut::Error(_))
    ));
}

#[test]
fn chat_quirks_are_read_and_logged() {
    // Index 0 for every call, told apart by id (a new id after a whole call); a fresh id in
    // a call's every chunk (the same call); no index at all (keyed by id).
    let reused = concat!(
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"add\",\"arguments\":\"{}\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"b\",\"function\":{\"name\":\"mul\",\"arguments\":\"{\\\"y\\\"\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"function\":{\"arguments\":\": 2}\"}}]}}]}\n\n",
        "data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"d\",\"function\":{\"name\":\"neg\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"stop\"}]}\n\n",
    );
    let message = read(Provider::OpenAiChat, reused, 9);
    assert_eq!(
        summary(&message),
        [
            call("a", "add", "{}", false),
            call("b", "mul", "{\"y\": 2}", false),
            call("d", "neg", "{}", false)
        ]
    );
    assert_eq!(message.log().len(), 2, "{:?}", message.log());
}

const RESPONSES: &str = concat!(
    "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"output_index\":0,\"delta\":\"{\\\"q\\\"\"}\n\n",
    "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"type\":\"function_call\",\"id\":\"fc_1\",\"call_id\":\"call_1\",\"name\":\"search\",\"arguments\":\"\"}}\n\n",
    "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"output_index\":0,\"delta\":\": \\\"rust\\\"}\"}\n\n",
    "event: response.function_call_arguments.done\ndata: {\"type\":\"response.function_call_arguments.done\",\"item_id\":\"fc_1\",\"output_index\":0,\"arguments\":\"{\\\"q\\\": \\\"rust\\\"}\"}\n\n",
    "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"output_index\":1,\"item\":{\"type\":\"function_call\",\"id\":\"fc_2\",\"call_id\":\"call_2\",\"name\":\"open\",\"arguments\":\"\"}}\n\n",
    "event: response.function_call_arguments.done\ndata: {\"type\":\"response.function_call_arguments.done\",\"item_id\":\"fc_2\",\"output_index\":1,\"arguments\":\"{\\\"id\\\": 3}\"}\n\n",
    "event: response.function_call_arguments.delta\ndata: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_2\",\"output_index\":1,\"delta\":\"}\"}\n\n",
    "event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"status\":\"completed\",\"usage\":{\"output_tokens\":20}}}\n\n",
);

#[test]
fn responses_calls_end_at_their_done_whatever_the_order() {
    for size in [1, 13, RESPONSES.len()] {
        let message = read(Provider::OpenAiResponses, RESPONSES, size);
        let calls = message.calls();
        assert_eq!(
            summary(&message)[0],
            call("call_1", "search", "{\"q\": \"rust\"}", true)
        );
        // Arguments only in `.done`, then a delta after the end: garbled.
        assert_eq!(
            summary(&message)[1],
            call("call_2", "open", "{\"id\": 3}", true)
        );
        assert!(calls[1].garbled.is_some());
        assert_eq!(message.cut(), None);
    }
}

const ANTHROPIC: &str = concat!(
    "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"output_tokens\":1}}}\n\n",
    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\",\"input\":{}}}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}\n\n",
    "event: ping\ndata: {\"type\": \"ping\"}\n\n",
    "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"city\\\": \\\"Paris\\\"}\"}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
    "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_2\",\"name\":\"now\",\"input\":{}}}\n\n",
    "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":2}\n\n",
    "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"},\"usage\":{\"output_tokens\":40}}\n\n",
    "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
);

#[test]
fn anthropic_calls_are_their_blocks() {
    for size in [1, 11, ANTHROPIC.len()] {
        let message = read(Provider::Anthropic, ANTHROPIC, size);
        assert_eq!(
            summary(&message),
            [
                call("toolu_1", "get_weather", "{\"city\": \"Paris\"}", true),
                call("toolu_2", "now", "{}", true)
            ]
        );
        assert_eq!(message.finish_reason(), Some("tool_use"));
        assert_eq!(message.cut(), None);
    }
    let cut = ANTHROPIC.replace("\"tool_use\"},\"usage\"", "\"max_tokens\"},\"usage\"");
    assert!(matches!(
        read(Provider::Anthropic, &cut, 64).cut(),
        Some(Cut::TokenLimit(_))
    ));
}

#[test]
fn gemini_parts_are_whole_calls() {
    let stream = concat!(
        "[{\"candidates\":[{\"content\":{\"parts\":[{\"functionCall\":{\"name\":\"add\",\"args\":{\"a\":1,\"a\":2}}},",
        "{\"functionCall\":{\"name\":\"neg\",\"args\":{\"x\":1.50}}}]}}]}\n,\r\n",
        "{\"candidates\":[{\"content\":{\"parts\":[]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"candidatesTokenCount\":9}}]",
    );
    for size in [1, 17, stream.len()] {
        let message = read(Provider::Gemini, stream, size);
        let calls: Vec<(Option<String>, String)> = message
            .calls()
            .iter()
            .map(|call| (call.tool.clone(), call.arguments.clone()))
            .collect();
        // The arguments are kept as sent: the key sent twice, the digits.
        assert_eq!(
            calls,
            [
                (Some("add".into()), "{\"a\":1,\"a\":2}".into()),
                (Some("neg".into()), "{\"x\":1.50}".into())
            ]
        );
        assert_eq!(message.cut(), None);
    }
}

#[test]
fn only_the_first_choice_is_the_answer() {
    let stream = concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"add\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"length\"}]}\n\n",
        "data: {\"choices\":[{\"index\":1,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"b\",\"function\":{\"name\":\"mul\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"stop\"}]}\n\n",
        "data: [DONE]\n\n",
    );
    let message = read(Provider::OpenAiChat, stream, 5);
    assert_eq!(message.calls().len(), 1);
    assert!(matches!(message.cut(), Some(Cut::TokenLimit(_))));
}

#[test]
fn vertex_paths_are_bounded_and_whole_parts_stay_whole() {
    let deep = format!("${}", "[0]".repeat(200));
    let chunk = |call: serde_json::Value| {
        format!(
            "data: {}\n\n",
            serde_json::json!({"candidates": [{"content": {"parts": [{"functionCall": call}]}}]})
        )
    };
    let stream = chunk(serde_json::json!({"name": "f", "willContinue": true}))
        + &chunk(serde_json::json!({"partialArgs": [{"jsonPath": deep, "numberValue": 1}]}));
    assert!(matches!(
        read(Provider::Gemini, &stream, 64).cut(),
        Some(Cut::Error(_))
    ));
    let skipping = chunk(serde_json::json!({"name": "f", "willContinue": true}))
        + &chunk(serde_json::json!({"partialArgs": [{"jsonPath": "$.a[5]", "numberValue": 1}]}));
    assert!(matches!(
        read(Provider::Gemini, &skipping, 64).cut(),
        Some(Cut::Error(_))
    ));
    // A whole call while a streamed one is open keeps its arguments.
    let mixed = chunk(serde_json::json!({"name": "f", "willContinue": true}))
        + &chunk(serde_json::json!({"name": "g", "args": {"x": 1}}))
        + &chunk(serde_json::json!({"partialArgs": [{"jsonPath": "$.y", "stringValue": "z"}]}))
        + "data: {\"candidates\":[{\"finishReason\":\"STOP\"}]}\n\n";
    let message = read(Provider::Gemini, &mixed, 7);
    let calls: Vec<(Option<String>, String)> = message
        .calls()
        .iter()
        .map(|c| (c.tool.clone(), c.arguments.clone()))
        .collect();
    assert_eq!(
        calls,
        [
            (Some("f".into()), "{\"y\":\"z\"}".into()),
            (Some("g".into()), "{\"x\":1}".into())
        ]
    );
}

#[test]
fn a_fresh_id_in_every_chunk_is_read_once_and_the_log_is_capped() {
    let mut stream = String::from("data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"function\":{\"name\":\"add\",\"arguments\":\"{\\\"s\\\": \\\"\"}}]}}]}\n\n");
    for n in 0..500 {
        stream += &format!("data: {{\"choices\":[{{\"index\":0,\"delta\":{{\"tool_calls\":[{{\"index\":0,\"id\":\"id{n}\",\"function\":{{\"arguments\":\"}}\"}}}}]}}}}]}}\n\n");
    }
    stream += "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"\\\"}\"}}]},\"finish_reason\":\"stop\"}]}\n\n";
    let message = read(Provider::OpenAiChat, &stream, 4096);
    // One call: the brackets inside the string never closed it.
    assert_eq!(message.calls().len(), 1);
    assert_eq!(message.log().len(), MAX_LOG_LINES + 1);
}

use proptest::prelude::*;

use super::*;

/// Argument texts of the class rmcp's parse rewrites or refuses: numbers `serde_json`
/// rounds or cannot hold, lone surrogates, brackets and quotes inside strings, repeated
/// keys, nesting past its recursion limit. Written as text, never through a parser.
fn arguments_text() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        Just("1e400".to_owned()),
        Just("2.0000000000000001".to_owned()),
        Just("1e-400".to_owned()),
        Just("null".to_owned()),
        Just("\"\\ud800\"".to_owned()),
        r#""([a-z{}\[\],: ]|\\"|\\\\|\\u0041)*""#,
        "-?[0-9]{1,5}(\\.[0-9]{1,3})?",
    ];
    let nested = leaf.prop_recursive(6, 48, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4)
                .prop_map(|items| format!("[{}]", items.join(","))),
            prop::collection::vec(("\"[a-z]{0,2}\"", inner), 0..4).prop_map(|members| {
                let members: Vec<String> = members
                    .iter()
                    .map(|(key, value)| format!("{key} : {value}"))
                    .collect();
                format!("{{ {} }}", members.join(", "))
            }),
        ]
    });
    let deep =
        (1..400usize).prop_map(|depth| format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
    prop_oneof![4 => nested, 1 => deep]
}

/// A `tools/call` holding `arguments`, its members in any order.
fn message(arguments: String) -> impl Strategy<Value = (String, String)> {
    let id = prop_oneof![Just("7".to_owned()), Just("\"call-}\\\"]\"".to_owned())];
    (id, Just(arguments)).prop_flat_map(|(id, arguments)| {
        let members = vec![
            r#""jsonrpc": "2.0""#.to_owned(),
            format!(r#""id": {id}"#),
            r#""method": "tools/call""#.to_owned(),
            format!(
                r#""params": {{"_meta": {{"a": [1, "}}]"]}}, "name": "book", "arguments": {arguments}}}"#
            ),
        ];
        (Just(members).prop_shuffle(), Just(id))
            .prop_map(|(members, id)| (format!("{{{}}}", members.join(",")), id))
    })
}

proptest! {
    #[test]
    fn the_arguments_text_is_found_byte_for_byte(
        (arguments, (text, id)) in arguments_text().prop_flat_map(|arguments| (Just(arguments.clone()), message(arguments)))
    ) {
        let bytes = text.as_bytes();
        let located = locate(bytes);
        prop_assert_eq!(&bytes[located.arguments.clone().unwrap()], arguments.as_bytes());
        prop_assert_eq!(&bytes[located.id.clone().unwrap()], id.as_bytes());
        prop_assert_eq!(located.name(bytes), Some("book".to_owned()));
        prop_assert!(located.is_tools_call(bytes) && located.is_request(bytes));
        // With `{}` in their place, the message is strict JSON whatever the arguments were.
        let (spliced, range) = located.spliced(bytes).unwrap();
        prop_assert_eq!(range, located.arguments.clone().unwrap());
        let parsed: Value = serde_json::from_slice(&spliced).unwrap();
        prop_assert_eq!(&parsed["params"]["arguments"], &serde_json::json!({}));
    }

    #[test]
    fn a_text_cut_short_gives_only_members_that_end_in_it(
        ((_, (text, _)), cut) in arguments_text()
            .prop_flat_map(|arguments| (Just(arguments.clone()), message(arguments)))
            .prop_flat_map(|(arguments, message)| {
                let length = message.0.len();
                (Just((arguments, message)), 0..=length)
            })
    ) {
        let bytes = text.as_bytes();
        let whole = locate(bytes);
        let cut = locate(&bytes[..cut]);
        for (part, full) in [
            (cut.id, &whole.id),
            (cut.method, &whole.method),
            (cut.name, &whole.name),
            (cut.arguments, &whole.arguments),
        ] {
            if let Some(part) = part {
                prop_assert_eq!(Some(&part), full.as_ref());
            }
        }
    }

    #[test]
    fn any_bytes_are_scanned_without_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let located = locate(&bytes);
        let _ = (located.is_request(&bytes), located.spliced(&bytes));
    }
}

#[test]
fn keys_are_matched_as_decoded_and_the_first_of_two_is_taken() {
    let text = br#"{"id":1,"method":"tools/call","params":{"argum\u0065nts":{"a":1},"arguments":{"a":2}}}"#;
    let located = locate(text);
    assert_eq!(&text[located.arguments.unwrap()], br#"{"a":1}"#);
}

#[test]
fn only_a_tools_call_is_spliced() {
    let text = br#"{"id":1,"method":"prompts/get","params":{"arguments":{"a":1}}}"#;
    assert_eq!(locate(text).spliced(text), None);
    let text = br#"{"id":1,"method":"tools/call","params":{"name":"x"}}"#;
    assert_eq!(locate(text).spliced(text), None);
}

#[test]
fn a_response_or_a_notification_is_not_a_request() {
    for text in [
        &br#"{"jsonrpc":"2.0","id":1,"result":{}}"#[..],
        br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
        br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
    ] {
        assert!(
            !locate(text).is_request(text),
            "{}",
            String::from_utf8_lossy(text)
        );
    }
}

#[test]
fn a_cut_call_gives_its_id_method_and_name() {
    let text =
        br#"{"id":7,"method":"tools/call","params":{"name":"book","arguments":{"origin":"AAAA"#;
    let located = locate(text);
    assert_eq!(
        located.id(text).map(|id| id.text().to_owned()),
        Some("7".to_owned())
    );
    assert!(located.is_tools_call(text));
    assert_eq!(located.name(text).as_deref(), Some("book"));
    assert_eq!(located.arguments, None);
}

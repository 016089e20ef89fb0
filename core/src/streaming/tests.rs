use serde_json::json;

use super::*;

fn tool() -> DynamicTool {
    DynamicTool::from_definition(&json!({
        "name": "book",
        "parameters": {"type": "object", "properties": {
            "nights": {"type": "integer", "minimum": 1, "maximum": 9},
            "city": {"type": "string", "pattern": "^[A-Z][a-z]+$"},
            "guests": {"type": "array", "items": {"type": "string", "minLength": 2}},
            "desk": {"type": "object", "properties": {"mail": {"type": "string", "format": "email"}},
                     "required": ["mail"]},
            "any": {}
        }, "required": ["nights"]}
    }))
    .expect("a tool")
}

/// Every event of `text` fed in pieces of `size` bytes, and the decoder.
fn fed<'t>(
    tool: &'t DynamicTool,
    text: &str,
    size: usize,
) -> (Vec<StreamEvent>, StreamDecoder<'t>) {
    let mut call = tool.stream_decoder();
    let mut events = Vec::new();
    for piece in text.as_bytes().chunks(size.max(1)) {
        events.extend_from_slice(call.feed(piece));
    }
    (events, call)
}

fn issues(events: &[StreamEvent]) -> Vec<String> {
    events
        .iter()
        .filter_map(|event| match event {
            StreamEvent::Issue(issue) => Some(format!("{} {}", issue.path, issue.constraint)),
            _ => None,
        })
        .collect()
}

#[test]
fn issues_are_sent_when_their_value_is_complete() {
    let tool = tool();
    let text = r#"{"nights": 12, "city": "paris", "guests": ["Ada", "B"], "desk": {"mail": "x"}}"#;
    for size in [1, 2, 7, text.len()] {
        let (events, call) = fed(&tool, text, size);
        assert_eq!(
            issues(&events),
            [
                "nights maximum",
                "city pattern",
                "guests[1] minLength",
                "desk.mail format"
            ],
            "{size}"
        );
        assert_eq!(call.state(), StreamState::Refused);
        let refused = call.finish().expect_err("refused");
        assert_eq!(refused.report, tool.decode(text).unwrap_err().report);
    }
}

#[test]
fn a_number_is_complete_only_at_its_delimiter() {
    let tool = tool();
    let mut call = tool.stream_decoder();
    assert!(call.feed(br#"{"nights": 1"#).is_empty());
    assert!(call.feed(b"2").is_empty());
    assert!(
        matches!(&call.feed(b",")[0], StreamEvent::Issue(issue) if issue.constraint == Constraint::Maximum)
    );
}

#[test]
fn places_not_sure_are_silent() {
    let tool = tool();
    // A key in another case (a later key may name the field exactly), a field named again,
    // an undeclared key, a value of any type: no issue is sent for them.
    for text in [
        r#"{"Nights": 12, "nights": 2}"#,
        r#"{"nights": 2, "nights": 12}"#,
        r#"{"other": 12, "nights": 2}"#,
        r#"{"any": {"nights": 12}, "nights": 2}"#,
        r#"{"nights": null}"#,
    ] {
        let (events, _) = fed(&tool, text, 1);
        assert!(issues(&events).is_empty(), "{text}: {events:?}");
    }
    // Text that does not start with an object: the end decides.
    let (events, call) = fed(&tool, "```json\n{\"nights\": 12}\n```", 1);
    assert!(
        matches!(events[..], [StreamEvent::Silent { .. }]),
        "{events:?}"
    );
    assert_eq!(call.state(), StreamState::Silent);
}

#[test]
fn the_text_is_refused_where_no_end_can_mend_it() {
    let tool = tool();
    for (text, constraint) in [
        (&br#"{"nights": 2, "city": x"#[..], Constraint::Syntax),
        (&b"{\"city\": \"\xff"[..], Constraint::Syntax),
        (&br#"{"nights": 1e400"#[..], Constraint::Limit),
    ] {
        let mut call = tool.stream_decoder();
        let mut events = Vec::new();
        for piece in text.chunks(1) {
            events.extend_from_slice(call.feed(piece));
        }
        // The syntax error waits for the text it quotes, or the end.
        events.extend_from_slice(call.feed(b" and then some more text that follows"));
        let sent = events.iter().find_map(|event| match event {
            StreamEvent::Issue(issue) => Some(issue.clone()),
            _ => None,
        });
        assert_eq!(
            sent.map(|issue| issue.constraint),
            Some(constraint),
            "{text:?}"
        );
        let refused = call.finish().expect_err("refused");
        assert!(refused
            .report
            .issues()
            .iter()
            .any(|issue| issue.constraint == constraint && issue.path.is_root()));
    }
    // Past the limit, only the count is kept, and the end refuses it as one shot does.
    let mut options = Options::default();
    options.max_bytes = 16;
    let small = DynamicTool::from_model(tool.model().clone()).with_options(options);
    let text = r#"{"nights": 2, "city": "Lyon"}"#;
    let (events, call) = fed(&small, text, 3);
    assert_eq!(issues(&events), [" limit"]);
    let refused = call.finish().expect_err("too long");
    assert_eq!(refused.report, small.decode(text).unwrap_err().report);
    assert_eq!(
        refused.hint_json(),
        small.decode(text).unwrap_err().hint_json()
    );
}

#[test]
fn a_character_split_between_pieces_waits_for_its_end() {
    let tool = tool();
    let text = "{\"guests\": [\"Zürich\"], \"nights\": 2}";
    for size in 1..text.len() {
        let (events, call) = fed(&tool, text, size);
        assert!(issues(&events).is_empty(), "{size}: {events:?}");
        assert_eq!(call.finish().expect("accepted"), tool.decode(text).unwrap());
    }
}

#[test]
fn no_event_ends_a_call_and_a_cut_call_is_refused() {
    let tool = tool();
    let text = r#"{"nights": 2}"#;
    let (events, call) = fed(&tool, text, 1);
    assert!(issues(&events).is_empty());
    // The object closed: what follows may still refuse the call.
    assert_eq!(call.state(), StreamState::RootClosed);
    let (_, after) = fed(&tool, r#"{"nights": 2} {"nights": 3}"#, 1);
    assert!(after.finish().is_err());
    // Cut by the provider, a call is refused even though its text parses.
    let (_, call) = fed(&tool, text, 1);
    let refused = call.cut(Cut::TokenLimit("finish reason `length`".into()));
    let cut = refused.report.issues().last().expect("the cut's issue");
    assert!(
        cut.path.is_root() && cut.message.contains("token limit"),
        "{cut:?}"
    );
    // Refused now, with the early issues sent.
    let (_, call) = fed(&tool, r#"{"nights": 12, "ci"#, 1);
    let refused = call.refuse_now();
    assert_eq!(refused.report.issues()[0].constraint, Constraint::Maximum);
    assert!(refused.report.issues()[1]
        .message
        .contains("after 18 bytes"));
}

#[test]
fn reading_a_byte_at_a_time_is_linear() {
    let tool = tool();
    for size in [6_250, 100_000] {
        for text in [
            format!(r#"{{"nights": 2{}, "city": "Lyon"}}"#, " ".repeat(size)),
            format!(r#"{{"any": {}, "nights": 2}}"#, "7".repeat(size)),
            format!(r#"{{"city": "{}"}}"#, "\\u00e9".repeat(size / 6)),
            format!("{{\"nights\": 2 // {}\n}}", "x".repeat(size)),
            format!(r#"{{"guests": [{}"Ada"]}}"#, r#""Ada","#.repeat(size / 6)),
            format!("{}{{\"nights\": 2}}", "\n".repeat(size)),
        ] {
            let (_, call) = fed(&tool, &text, 1);
            assert!(
                call.work() <= 4 * text.len() as u64,
                "{:.30}: {}",
                text,
                call.work()
            );
        }
    }
}

#[test]
fn values_are_sent_complete_when_asked() {
    let tool = tool();
    let text =
        r#"{"nights": "2", "city": "Lyon", "guests": ["Ada", "Bo"], "desk": {"mail": "a@b.co"}}"#;
    let mut call = tool.stream_decoder().with_values();
    let mut values = Vec::new();
    for piece in text.as_bytes().chunks(1) {
        for event in call.feed(piece) {
            match event {
                StreamEvent::Value { path, value } => values.push(format!("{path}={value}")),
                StreamEvent::Repaired(repair) => {
                    values.push(format!("{} {:?}", repair.path, repair.rule))
                }
                _ => {}
            }
        }
    }
    assert_eq!(
        values,
        [
            "nights StringToNumber",
            "nights=2",
            "city=\"Lyon\"",
            "guests[0]=\"Ada\"",
            "guests[1]=\"Bo\"",
            "desk.mail=\"a@b.co\""
        ]
    );
    // Without asking, only what refuses or repairs is sent.
    let (events, _) = fed(&tool, text, 1);
    assert!(
        matches!(events[..], [StreamEvent::Repaired(_)]),
        "{events:?}"
    );
}

#[test]
fn snapshots_only_grow_and_show_atoms_whole() {
    let tool = tool();
    for (text, nights) in [
        (
            r#"{"nights": 12, "city": "Lyo\u006e", "guests": ["Ada", "Bo", []], "desk": {"mail": "a@b.co"}, "any": [true, null, -1.5e3]}"#,
            12,
        ),
        (
            "{'nights': 3, city: \"Z\\u00fcrich\", /* c */ \"guests\": [\"a\",],}",
            3,
        ),
        // A comment where a value is awaited is not a value begun.
        (
            "{\"nights\": /* soon */ 2, \"guests\": [\"a\", /**/ \"b\"] # done\n}",
            2,
        ),
    ] {
        let mut call = tool.stream_decoder();
        let mut before: Option<Partial> = None;
        for (at, byte) in text.bytes().enumerate() {
            call.feed(&[byte]);
            let Some(now) = call.snapshot() else {
                panic!("{text}: no snapshot after {at} bytes");
            };
            // A number is never shown before its delimiter: `12` is not `1`.
            if text[..=at].ends_with("\"nights\": 1") {
                assert_eq!(
                    now.at(&Path::root().key("nights")).map(|n| n.state),
                    Some(NodeState::Pending)
                );
            }
            if let Some(before) = &before {
                assert!(
                    before.grows_into(&now),
                    "{text} at {at}: {before:?} then {now:?}"
                );
            }
            before = Some(now);
        }
        let last = before.expect("a snapshot");
        assert_eq!(last.state, NodeState::Complete);
        let whole = tool.decode(text).map(|decoded| decoded.value);
        if let Ok(value) = whole {
            assert_eq!(last.to_value(), value, "{text}");
        }
        // Typed readers take complete nodes only.
        assert_eq!(last.get::<u64>(&Path::root().key("nights")), Some(nights));
    }
    // Text that does not start with an object has no snapshot.
    let mut call = tool.stream_decoder();
    call.feed(b"```json\n{");
    assert!(call.snapshot().is_none());
}

/// A string written as JSON, each character plain or escaped as `escaped` says (quotes,
/// backslashes and control characters always escaped; a character past the BMP as a pair).
fn written(string: &str, escaped: &[bool]) -> String {
    let mut text = String::from('"');
    for (at, c) in string.chars().enumerate() {
        let escape = escaped
            .get(at % escaped.len().max(1))
            .copied()
            .unwrap_or(false);
        match c {
            '"' => text.push_str("\\\""),
            '\\' => text.push_str("\\\\"),
            c if (c as u32) < 0x20 || escape => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    text.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => text.push(c),
        }
    }
    text.push('"');
    text
}

fn strings_tool() -> DynamicTool {
    DynamicTool::from_definition(&json!({
        "name": "note",
        "parameters": {"type": "object", "properties": {
            "text": {"type": "string", "maxLength": 3},
            "kind": {"enum": ["memo", "mail"]},
            "fixed": {"const": "x"},
            "list": {"type": "array", "items": {"type": "string"}},
            "inner": {"type": "object", "properties": {"text": {"type": "string"}}},
            "any": {}
        }}
    }))
    .expect("a tool")
}

proptest::proptest! {
    /// A string's characters come as they stream, at the places the decoder follows at a
    /// string's schema only: joined, its deltas are the string as sent, however the text is
    /// cut and escaped; a snapshot shows it growing by those characters.
    #[test]
    fn a_strings_deltas_join_into_it(
        strings in proptest::collection::vec("(\\PC|[\"\\\\\n\t]){0,12}", 6),
        escaped in proptest::collection::vec(proptest::bool::ANY, 1..5),
        cuts in proptest::collection::vec(1usize..9, 1..8),
    ) {
        let tool = strings_tool();
        let w = |at: usize| written(&strings[at], &escaped);
        let text = format!(
            r#"{{"text": {}, "kind": {}, "fixed": {}, {}: {}, "list": [{}, {}], "inner": {{"text": {}}}, "any": {}}}"#,
            w(0), w(1), w(3), written(&format!("zz{}", strings[2]), &escaped), w(2), w(4), w(5), w(0), w(1)
        );
        let mut call = tool.stream_decoder().with_values();
        let mut joined: Vec<(String, String)> = Vec::new();
        let mut before: Option<Partial> = None;
        let (mut at, mut cut) = (0, 0);
        while at < text.len() {
            let end = (at + cuts[cut % cuts.len()]).min(text.len());
            cut += 1;
            for event in call.feed(&text.as_bytes()[at..end]) {
                if let StreamEvent::Text { path, delta } = event {
                    let path = path.to_string();
                    match joined.last_mut() {
                        Some((last, so_far)) if *last == path => so_far.push_str(delta),
                        _ => joined.push((path, delta.clone())),
                    }
                }
            }
            at = end;
            let now = call.snapshot().expect("a snapshot");
            if let Some(before) = &before {
                proptest::prop_assert!(before.grows_into(&now), "{} at {}", text, end);
            }
            before = Some(now);
        }
        let expected: Vec<(String, String)> = [
            ("text", &strings[0]),
            ("list[0]", &strings[4]),
            ("list[1]", &strings[5]),
            ("inner.text", &strings[0]),
        ]
        .into_iter()
        .filter(|(_, string)| !string.is_empty())
        .map(|(path, string)| (path.to_owned(), string.to_string()))
        .collect();
        proptest::prop_assert_eq!(joined, expected, "{}", text);
        proptest::prop_assert_eq!(before.map(|last| last.to_value()), serde_json::from_str(&text).ok());
    }
}

#[test]
fn a_string_comes_as_it_streams_and_an_enum_whole() {
    let tool = strings_tool();
    let text = r#"{"text": "ab\u00e9c", "kind": "memo", "list": ["xy"]}"#;
    let mut call = tool.stream_decoder().with_values();
    let mut deltas = Vec::new();
    for (at, byte) in text.bytes().enumerate() {
        for event in call.feed(&[byte]) {
            if let StreamEvent::Text { path, delta } = event {
                deltas.push(format!("{path}:{delta}"));
            }
        }
        let snapshot = call.snapshot().expect("a snapshot");
        let shown = |path: Path| snapshot.at(&path).map(|node| (node.state, node.to_value()));
        // Half an escape is not shown; the string grows by whole characters.
        if text[..=at].ends_with(r#""ab\u00"#) {
            assert_eq!(
                shown(Path::root().key("text")),
                Some((NodeState::Incomplete, json!("ab")))
            );
        }
        // An enum's string is held to its closing quote.
        if text[..=at].ends_with(r#""me"#) {
            assert_eq!(
                shown(Path::root().key("kind")),
                Some((NodeState::Pending, json!(null)))
            );
        }
    }
    assert_eq!(
        deltas,
        [
            "text:a",
            "text:b",
            "text:é",
            "text:c",
            "list[0]:x",
            "list[0]:y"
        ]
    );
}

/// A string shown growing stays shown when the call stops inside it (a byte that is not
/// UTF-8, the text past `max_bytes`): snapshots only grow, whatever ends the reading.
#[test]
fn a_growing_string_stays_shown_after_a_stop() {
    let tool = strings_tool();
    let mut small = crate::decode::Options::default();
    small.max_bytes = 16;
    let small = strings_tool().with_options(small);
    for (tool, stop) in [(&tool, &[0xff_u8][..]), (&small, b"aaaaaaaaaa")] {
        let mut call = tool.stream_decoder();
        call.feed(br#"{"text": "hel"#);
        let before = call.snapshot().expect("a snapshot");
        assert_eq!(
            before.at(&Path::root().key("text")).map(|node| node.state),
            Some(NodeState::Incomplete)
        );
        call.feed(stop);
        assert_eq!(call.state(), StreamState::Refused);
        let after = call.snapshot().expect("a snapshot");
        assert!(before.grows_into(&after), "{before:?} then {after:?}");
    }
}

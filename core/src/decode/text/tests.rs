use super::*;

fn read(text: &str) -> Result<serde_json::Value, TextError> {
    read_lenient(text, 128).map(|json| json.to_value())
}

#[test]
fn reads_what_models_write() {
    let expected = serde_json::json!({"a": 1, "b": [true, null], "c": "it's"});
    for text in [
        "```json\n{\"a\": 1, \"b\": [true, null], \"c\": \"it's\"}\n```",
        "Here you go: {\"a\": 1, \"b\": [true, null], \"c\": \"it's\"} Hope it helps.",
        "{\"a\": 1, \"b\": [true, null,], \"c\": \"it's\",}",
        "{'a': 1, 'b': [True, None], 'c': \"it's\"}",
        "{'a': 1, 'b': [True, None], 'c': 'it\\'s'}",
        "{a: 1, b: [true, null], c: \"it's\"}",
        "{\n  // the count\n  \"a\": 1, /* flags */ \"b\": [true, null], \"c\": \"it\\x27s\"\n}",
    ] {
        assert_eq!(read(text), Ok(expected.clone()), "{text}");
    }
}

#[test]
fn refuses_cut_off_and_ambiguous_text() {
    for text in [
        "{\"a\": 1, \"b\": [tr",
        "{\"a\": \"unfinished",
        "{\"a\": 12",
        "```json\n{\"a\": 1,",
        "{'a': Tru",
    ] {
        assert_eq!(read(text), Err(TextError::Truncated), "{text}");
    }
    assert_eq!(
        read("{\"a\": 1} and also {\"b\": 2}"),
        Err(TextError::Ambiguous)
    );
    assert_eq!(read("no json here"), Err(TextError::NoValue));
    assert!(matches!(
        read("{\"a\": nope}"),
        Err(TextError::Invalid { .. })
    ));
    assert_eq!(read_lenient(&"[".repeat(200), 128), Err(TextError::TooDeep));
}

#[test]
fn a_value_hidden_after_the_first_is_still_a_second_candidate() {
    // Found by the text_stage fuzz target (T1, T3): a comment after the value, or the
    // rest of a fence's opening line, must not hide a second value.
    for text in [
        "{\"a\": 1} // or {\"a\": 2}",
        "{\"a\": 1} # {\"a\": 2}",
        "{\"a\": 1} /* {\"a\": 2} */",
        "```json {\"a\": 2}\n{\"a\": 1}\n```",
    ] {
        assert_eq!(read(text), Err(TextError::Ambiguous), "{text:?}");
    }
    // A comment without a value is prose, and an info string is read past.
    let one = Ok(serde_json::json!({"a": 1}));
    assert_eq!(read("{\"a\": 1} // the call"), one);
    assert_eq!(read("```json title\n{\"a\": 1}\n```"), one);
}

#[test]
fn a_fence_says_what_its_body_says() {
    // T2: a fenced JSON string of the arguments is that string (the walk reads it as
    // `double_encoded`), as the body alone would be.
    assert_eq!(
        read("```json\n\"{\\\"a\\\": 1}\"\n```"),
        Ok(serde_json::json!("{\"a\": 1}"))
    );
}

#[test]
fn decodes_unicode_escapes() {
    assert_eq!(
        read(r#"{"e": "\u00e9\ud83d\ude00\U0001F600"}"#),
        Ok(serde_json::json!({"e": "é😀😀"}))
    );
}

proptest::proptest! {
    /// Issue 43 §3: prose that holds brace groups that read as no JSON value, even leniently
    /// (`{name}`, `{the city}`, `{a, b}`, `[see below]`), around one object is that object;
    /// a second group that reads as a value (`{}`, `[1]`, another object) makes the text
    /// ambiguous; an object inside a group that does not read is never taken.
    #[test]
    fn placeholders_in_prose_are_prose(
        before in proptest::collection::vec(0..6usize, 0..4),
        after in proptest::collection::vec(0..6usize, 0..4),
        second in proptest::option::of(0..3usize),
        second_first in proptest::bool::ANY,
    ) {
        const GROUPS: [&str; 6] =
            ["{name}", "{the city}", "{a, b}", "[see below]", "{x y z}", "{city!}"];
        const VALUES: [&str; 3] = ["{}", "[1]", "{\"b\": 2}"];
        let words = |picks: &[usize]| -> String {
            picks.iter().map(|&i| format!("use {} here. ", GROUPS[i])).collect()
        };
        let mut text = format!("{}Call: {{\"a\": 1}} {}", words(&before), words(&after));
        if let Some(value) = second {
            text = if second_first {
                format!("First {} then {text}", VALUES[value])
            } else {
                format!("{text} and {}", VALUES[value])
            };
        }
        let read = read(&text);
        if second.is_some() {
            proptest::prop_assert_eq!(read, Err(TextError::Ambiguous), "{}", text);
        } else {
            proptest::prop_assert_eq!(read, Ok(serde_json::json!({"a": 1})), "{}", text);
        }
    }
}

#[test]
fn a_value_inside_a_group_that_does_not_read_is_never_taken() {
    for text in [
        "Use {name {\"a\": 1} here",
        "Use {name: x, y {\"a\": 1}} here",
        "Use [see {\"a\": 1} here",
        "Call {\"a\": 1, \"b\": } please",
    ] {
        assert!(
            matches!(read(text), Err(TextError::Invalid { .. })),
            "{text}: {:?}",
            read(text)
        );
    }
    // A closing bracket outside every group is not prose.
    assert!(matches!(
        read("Result]: {\"a\": 1}"),
        Err(TextError::NotProse { .. })
    ));
}

proptest::proptest! {
    /// An object that starts the text decides it: where the object fails, the text is
    /// refused at the object's fault, whatever follows it (a fence, prose with a value, a
    /// second object), so that whether a text is refused is known from its object alone.
    #[test]
    fn an_object_that_starts_the_text_and_fails_refuses_it(
        broken in proptest::sample::select(vec![
            "{\"a\": x}", "{\"a\" 1}", "{\"a\": 1,, \"b\": 2}", "{\"a\": \u{0}}", "{the city}",
            "{\"a\": [1 2]}", "{\"a\": 1 \"b\": 2}", "{'a': Tru}",
        ]),
        space in "[ \n\t]{0,3}",
        after in proptest::sample::select(vec![
            "", " ```json\n{\"a\": 1}\n```", " Here: {\"a\": 1}", " {\"a\": 1}", "\n```\n{\"a\": 1}\n```\n",
        ]),
    ) {
        let text = format!("{space}{broken}{after}");
        let refused = read(&text);
        let at_object = matches!(
            &refused,
            Err(TextError::Invalid { offset, .. }) if *offset >= space.len() && *offset <= space.len() + broken.len()
        );
        proptest::prop_assert!(at_object, "{:?}: {:?}", text, refused);
    }
}

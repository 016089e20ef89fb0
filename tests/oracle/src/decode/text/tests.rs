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

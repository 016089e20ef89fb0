//! Whole texts: double_encoded and json_text.

use super::*;

// ---------------------------------------------------------------------------------------
// double_encoded
// ---------------------------------------------------------------------------------------

#[test]
fn double_encoded_repairs_arguments_sent_as_a_json_string() {
    let model = tool(vec![
        Field::required("a", Schema::integer()),
        Field::optional("b", Schema::string()),
    ]);
    let inner = r#"{"a": 1, "b": "x"}"#;
    let text = serde_json::to_string(inner).unwrap();
    let decoded = accept_text(&model, &text);
    assert_eq!(decoded.value, json!({"a": 1, "b": "x"}));
    assert_eq!(
        decoded.repairs,
        vec![repair(
            "",
            Rule::DoubleEncoded,
            json!(inner),
            json!({"a": 1, "b": "x"})
        )]
    );

    // The same through decode_value, with a repair inside.
    let decoded = accept(&model, json!(r#"{"a": "2"}"#));
    assert_eq!(decoded.value, json!({"a": 2}));
    assert_eq!(
        decoded.repairs,
        vec![
            repair(
                "",
                Rule::DoubleEncoded,
                json!(r#"{"a": "2"}"#),
                json!({"a": "2"})
            ),
            repair("a", Rule::StringToNumber, json!("2"), json!(2)),
        ]
    );
}

#[test]
fn double_encoded_does_not_apply_to_strings_that_hold_no_object() {
    let model = tool(vec![Field::optional("a", Schema::integer())]);
    for sent in [json!("[1, 2]"), json!("hello"), json!("{\"a\": 1")] {
        let rejected = refuse(&model, sent.clone());
        assert_eq!(
            issues(&rejected),
            expect(&[("", Constraint::Type)]),
            "{sent}"
        );
        assert_eq!(rejected.repairs, vec![], "{sent}");
    }
}

// ---------------------------------------------------------------------------------------
// json_text
// ---------------------------------------------------------------------------------------

#[test]
fn json_text_repairs_what_models_write() {
    let model = text_model();
    let expected = json!({"a": 1, "b": [true, false, null], "c": "it's"});
    let texts = [
        // markdown fence
        "```json\n{\"a\": 1, \"b\": [true, false, null], \"c\": \"it's\"}\n```",
        // fence without an info string
        "```\n{\"a\": 1, \"b\": [true, false, null], \"c\": \"it's\"}\n```",
        // prose around one value
        "Sure! Here are the arguments: {\"a\": 1, \"b\": [true, false, null], \"c\": \"it's\"} Hope that helps.",
        // trailing commas
        "{\"a\": 1, \"b\": [true, false, null,], \"c\": \"it's\",}",
        // single quotes
        "{'a': 1, 'b': [true, false, null], 'c': \"it's\"}",
        // Python literals
        "{\"a\": 1, \"b\": [True, False, None], \"c\": \"it's\"}",
        // unquoted keys
        "{a: 1, b: [true, false, null], c: \"it's\"}",
        // comments
        "{\n  // the count\n  \"a\": 1, /* flags */ \"b\": [true, false, null], # hash\n \"c\": \"it's\"\n}",
        // all at once
        "```python\n{'a': 1, b: [True, False, None,], 'c': \"it's\",  # done\n}\n```",
    ];
    for text in texts {
        let decoded = accept_text(&model, text);
        assert_eq!(decoded.value, expected, "{text:?}");
        assert_eq!(decoded.repairs.len(), 1, "{text:?}: {:?}", decoded.repairs);
        let logged = &decoded.repairs[0];
        assert_eq!(logged.rule, Rule::JsonText, "{text:?}");
        assert!(logged.path.is_root(), "{text:?}");
        assert_eq!(logged.to, json!(expected.to_string()), "{text:?}");
    }
}

#[test]
fn json_text_logs_the_text_as_sent() {
    let model = text_model();
    let decoded = accept_text(&model, "{a: 1,}");
    assert_eq!(decoded.value, json!({"a": 1}));
    assert_eq!(
        decoded.repairs,
        vec![repair(
            "",
            Rule::JsonText,
            json!("{a: 1,}"),
            json!("{\"a\":1}")
        )]
    );
}

#[test]
fn json_text_is_not_applied_to_strict_json() {
    let decoded = accept_text(&text_model(), "  {\"a\": 1}\n");
    assert_eq!(decoded.value, json!({"a": 1}));
    assert_eq!(decoded.repairs, vec![]);
}

#[test]
fn json_text_repairs_combine_with_value_repairs() {
    let decoded = accept_text(&text_model(), "```json\n{'a': '5', 'c': 7}\n```");
    assert_eq!(decoded.value, json!({"a": 5, "c": "7"}));
    assert_eq!(
        rules(&decoded.repairs),
        vec![Rule::JsonText, Rule::StringToNumber, Rule::ScalarToString]
    );
    assert_eq!(decoded.repairs[1].path, path("a"));
    assert_eq!(decoded.repairs[2].path, path("c"));
}

#[test]
fn json_text_refuses_prose_with_a_second_value_or_a_stray_bracket() {
    // A citation that reads as a value beside the call, or a closing bracket outside every
    // group: which text is the call is a guess (DESIGN.md, `json_text`). A group that reads
    // as no value (`[see the docs]`, `{name}`) is prose (issue 43 §3).
    let model = text_model();
    for text in [
        "Calling the tool (per [1]):\n{\"a\": 1}",
        "{\"a\": 1} (see [2])",
        "Sure see the docs]: {\"a\": 1}",
    ] {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            issues(&rejected),
            expect(&[("", Constraint::Syntax)]),
            "{text:?}"
        );
        let message = &rejected.report.issues()[0].message;
        assert!(
            message.contains("JSON punctuation") || message.contains("more than one"),
            "{message}"
        );
    }
    for text in [
        "Sure [see the docs]: {\"a\": 1}",
        "Use {name} style. Call: {\"a\": 1}",
    ] {
        let decoded = accept_text(&model, text);
        assert_eq!(decoded.value, json!({"a": 1}), "{text:?}");
        assert_eq!(decoded.repairs[0].rule, Rule::JsonText);
    }
}

#[test]
fn json_text_refuses_cut_off_text_with_syntax_at_the_root() {
    let model = text_model();
    let texts = [
        "{\"a\": 1, \"b\": [tr",
        "{\"a\": 1, \"b\": [true, false",
        "{\"a\": 1, \"c\": \"unfinish",
        "{\"a\": 12",
        "{\"a\": 1,",
        "{\"a\"",
        "{",
        "[",
        "{'a': 1, 'c': 'unfinish",
        "{a: 1, b: [Tru",
        "{a: 1, b: [None, Fal",
        "{a: 1 /* a comment that never ends",
        "```json\n{\"a\": 1,",
        "```json\n{\"a\": 1, \"b\": [\n```",
        "Here you go: {\"a\": 1, \"c\": \"x\"",
        "Here you go: {\"a\": 1",
    ];
    for text in texts {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            issues(&rejected),
            expect(&[("", Constraint::Syntax)]),
            "{text:?}"
        );
        assert_eq!(rejected.repairs, vec![], "{text:?}: something was closed");
    }
}

#[test]
fn json_text_refuses_text_that_holds_no_single_value() {
    let model = text_model();
    for text in [
        "no json here",
        "",
        "{\"a\": 1} and also {\"a\": 2}",
        "{\"a\": nope}",
    ] {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            issues(&rejected),
            expect(&[("", Constraint::Syntax)]),
            "{text:?}"
        );
        assert_eq!(rejected.repairs, vec![], "{text:?}");
    }
}

#[test]
fn text_that_is_not_utf8_is_refused_by_every_road() {
    let model = tool(vec![Field::optional("a", Schema::string())]);
    let texts: [&[u8]; 3] = [
        b"{\"a\": \"caf\xe9\"}",
        b"{\"a\": \"x\"} \xff",
        b"{\"a\xc3\": \"x\"}",
    ];
    for text in texts {
        let shown = String::from_utf8_lossy(text);
        let stream = decode_text_by_stream(&model, text, &Options::default());
        assert!(
            stream.is_none(),
            "the stream leaves {shown} to the tree road"
        );
        for rejected in [
            decode_text(&model, text, &Options::default()).unwrap_err(),
            decode_text_by_tree(&model, text, &Options::default()).unwrap_err(),
        ] {
            assert_eq!(
                rejected.report.to_string(),
                "the text is not UTF-8",
                "{shown}"
            );
        }
    }
}

use serde_json::json;

use crate::DynamicTool;

fn tool() -> DynamicTool {
    DynamicTool::from_definition(&json!({"name": "t", "parameters": {"type": "object", "properties": {
        "n": {"type": "integer"},
        "x": {"type": "number"},
        "flag": {"type": "boolean"},
        "cabin": {"enum": ["economy", "business"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "ids": {"type": "array", "items": {"type": "integer"}},
        "query": {"type": "string"},
        "limit": {"type": "integer", "default": 10},
        "inner": {"type": "object", "properties": {"k": {"type": "integer"}, "s": {"type": "string"}}},
        "free": {}
    }}}))
    .unwrap()
}

fn spliced(sent: &str) -> String {
    let tool = tool();
    let decoded = tool.decode(sent).unwrap();
    tool.repaired_text(sent, &decoded).expect("spliced")
}

#[test]
fn only_the_repaired_members_are_written_again() {
    let cases = [
        // Nothing repaired (a default filled in is not a repair): as sent.
        (r#"{"query" : "a",  "free": 1E+2}"#, None),
        (r#"{"query":"a"}"#, None),
        (
            r#"{"free": 1.23456789012345678901234567890e29, "n": "5"}"#,
            Some(r#"{"free": 1.23456789012345678901234567890e29, "n": 5}"#),
        ),
        (
            r#"{"x": " 1e3 ", "free": [1.50]}"#,
            Some(r#"{"x": 1e3, "free": [1.50]}"#),
        ),
        (r#"{"n": 5.0}"#, Some(r#"{"n": 5}"#)),
        (
            r#"{"flag": "yes", "cabin": "Business"}"#,
            Some(r#"{"flag": true, "cabin": "business"}"#),
        ),
        (
            r#"{"Query": "a", "free": {"b": 1, "a": 2}}"#,
            Some(r#"{"query": "a", "free": {"b": 1, "a": 2}}"#),
        ),
        (r#"{"n": null, "query": "a"}"#, Some(r#"{"query": "a"}"#)),
        (r#"{"query": "a", "n": null}"#, Some(r#"{"query": "a"}"#)),
        (r#"{"n": null}"#, Some(r#"{}"#)),
        (r#"{"tags": "solo"}"#, Some(r#"{"tags": ["solo"]}"#)),
        (r#"{"ids": "[1, \"2\"]"}"#, Some(r#"{"ids": [1, 2]}"#)),
        (r#"{"ids": "5"}"#, Some(r#"{"ids": [5]}"#)),
        (
            r#"{"inner": {"k": "1", "s": 2}}"#,
            Some(r#"{"inner": {"k": 1, "s": "2"}}"#),
        ),
        (r#"{"query": 5}"#, Some(r#"{"query": "5"}"#)),
        // The text around the value, and lenient text.
        (
            "```json\n{\"n\": 1, \"free\": 1.0000000000000000000001e22}\n```",
            Some(r#"{"n": 1, "free": 1.0000000000000000000001e22}"#),
        ),
        ("Call: {\"n\": \"2\"} now", Some(r#"{"n": 2}"#)),
        (
            "{'n': 1, 'free': 1.0000000000000001, /* c */ 'tags': ['a',],}",
            Some(r#"{"n":1,"free":1.0000000000000001,"tags":["a"]}"#),
        ),
        // The arguments sent as a JSON string.
        (
            r#""{\"n\": 1, \"free\": 1e2}""#,
            Some(r#"{"n": 1, "free": 1e2}"#),
        ),
        (r#""```json\n{\"n\": \"1\"}\n```""#, Some(r#"{"n": 1}"#)),
    ];
    for (sent, expected) in cases {
        assert_eq!(spliced(sent), expected.unwrap_or(sent), "{sent}");
    }
}

/// Members of `tool()`'s arguments as a model may send them: `(key, value text, repaired)`,
/// the value valid as sent or in a form a rule repairs.
fn member() -> impl proptest::strategy::Strategy<Value = (String, String, bool)> {
    use proptest::prelude::*;
    let valid = |key: &'static str, values: &'static [&'static str]| {
        proptest::sample::select(values).prop_map(move |v| (key.to_owned(), v.to_owned(), false))
    };
    let repaired = |key: &'static str, values: &'static [&'static str]| {
        proptest::sample::select(values).prop_map(move |v| (key.to_owned(), v.to_owned(), true))
    };
    prop_oneof![
        valid("n", &["5", "-7", "0"]),
        repaired("n", &["\"5\"", "5.0", "\" 12 \"", "1e1", "null"]),
        valid("x", &["1.5", "1E+2", "-0.0", "3"]),
        repaired(
            "x",
            &[
                "\"1.5\"",
                "\" 1e3 \"",
                "\"-0.25\"",
                "\"1.23456789012345678901234567890e29\""
            ]
        ),
        valid("flag", &["true", "false"]),
        repaired("flag", &["\"yes\"", "1", "\"OFF\""]),
        valid("cabin", &["\"economy\""]),
        repaired("cabin", &["\"Business\"", "\"ECONOMY\""]),
        valid("tags", &["[\"a\", \"b\"]", "[]"]),
        repaired("tags", &["\"solo\"", "\"[\\\"a\\\"]\"", "[\"a\", 2]"]),
        valid("ids", &["[1,2]"]),
        repaired("ids", &["\"5\"", "\"[1, \\\"2\\\"]\"", "[\"3\"]"]),
        valid("query", &["\"q\"", "\"\\u00e9\\n\""]),
        repaired("query", &["5", "true"]),
        repaired("Query", &["\"q\""]),
        valid("inner", &["{\"s\": \"x\", \"k\": 1}"]),
        repaired("inner", &["{\"k\": \"1\", \"s\": 2}", "{\"K\": 1}"]),
        valid(
            "free",
            &[
                "1.23456789012345678901234567890e29",
                "1.50",
                "-0",
                "{\"b\": [1e2, {}], \"a\": null}",
                "\"x\""
            ]
        ),
    ]
}

/// The arguments' text around the object: as it is, fenced, in prose, or as a JSON string
/// (of the object, or of the fenced object).
fn around(object: &str, how: usize) -> String {
    match how {
        0 => object.to_owned(),
        1 => format!("```json\n{object}\n```"),
        2 => format!("Here are the arguments: {object} (all of them)"),
        3 => serde_json::to_string(object).unwrap(),
        _ => serde_json::to_string(&format!("```\n{object}\n```")).unwrap(),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// For any call the gate accepts, the text handed on reads back valid as sent as the
    /// same value (`repaired_text` checks it and never falls back), keeps every member that
    /// was not repaired byte for byte, never writes a default, and is the text sent itself
    /// where nothing was repaired.
    #[test]
    fn a_repaired_call_changes_only_its_repaired_members(
        members in proptest::collection::vec(member(), 0..8),
        spacing in proptest::collection::vec(proptest::sample::select(&["", " ", "\n  ", "\t"][..]), 4),
        how in 0..5usize,
    ) {
        // One member per field (a repeated key is refused, not repaired).
        let mut seen = std::collections::HashSet::new();
        let members: Vec<_> = members
            .into_iter()
            .filter(|(key, _, _)| seen.insert(key.to_lowercase()))
            .collect();
        let [open, colon, comma, close] = [spacing[0], spacing[1], spacing[2], spacing[3]];
        let written: Vec<String> = members
            .iter()
            .map(|(key, value, _)| format!("\"{key}\"{colon}:{colon}{value}"))
            .collect();
        let object = format!("{{{open}{}{close}}}", written.join(&format!("{comma},{comma}")));
        let sent = around(&object, how);
        let tool = tool();
        // `{}` in prose is no call; every other text here is accepted.
        proptest::prop_assume!(!(members.is_empty() && how == 2));
        let decoded = tool.decode(&sent).unwrap();
        let text = tool.repaired_text(&sent, &decoded);
        proptest::prop_assert!(text.is_some(), "not spliced: {sent} {:?}", decoded.repairs);
        let text = text.unwrap();
        if !decoded.is_repaired() {
            proptest::prop_assert_eq!(&text, &sent);
        } else if how == 0 && members.first().is_some_and(|(_, _, repaired)| !repaired) {
            // The spacing of the object around its first member is kept too.
            let start = format!("{{{open}{}", written[0]);
            proptest::prop_assert!(text.starts_with(&start), "{text} (sent {sent})");
        }
        proptest::prop_assert!(!text.contains("\"limit\""), "a default was written: {text}");
        // Members kept as sent (JSON strings of the object escape them, so look inside).
        if how < 3 {
            for ((_, _, repaired), member) in members.iter().zip(&written) {
                if !repaired {
                    proptest::prop_assert!(text.contains(member.as_str()), "{member} lost in {text} (sent {sent})");
                }
            }
        }
    }
}

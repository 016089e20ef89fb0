//! What a schema was accepted for is answered, and a limit is called a limit (issue 27 §4
//! and §6).
//!
//! - Unions nested at one value: the reader refuses more than `decode::MAX_NESTED_UNIONS`
//!   with a message naming the limit (never "refers back to itself"), so a schema it accepts
//!   never meets the limit when called; a schema built in code meets it at call time, and
//!   the `schema` issue names the limit, and recursion only when the schema recurses.
//!   One-item arrays (`wrap_in_array`) stop wrapping at the limit: a `type` issue, never a
//!   `schema` one, so a tree (`A = anyOf[array of A, integer]`) answers any value.
//! - A `pattern` accepted when the schema was read is answered for every string within
//!   `max_bytes`: a match, or a `pattern` issue, never a `schema` issue.

use proptest::prelude::*;
use serde_json::{json, Value};
use toolgate::decode::{Options, MAX_NESTED_UNIONS};
use toolgate::model::{Field, Schema, ToolModel, UnionMode, MOST_FOLLOWED_REFERENCES};
use toolgate::{Constraint, DynamicTool};

/// `depth` levels at one value of the kind `kind`: `anyOf`, `oneOf`, a union under an
/// `allOf` of one member, a type list beside a union, or a one-item array.
fn nested(depth: usize, kind: usize) -> Value {
    let mut schema = json!({"type": "integer"});
    for level in 0..depth {
        let other = json!({"type": "string", "maxLength": level + 1});
        schema = match kind {
            0 => json!({"anyOf": [schema, other]}),
            1 => json!({"oneOf": [schema, other]}),
            2 => json!({"allOf": [{"anyOf": [schema, other]}]}),
            3 => json!({"anyOf": [schema, {"type": ["string", "null"], "maxLength": level + 1}]}),
            _ => json!({"type": "array", "items": schema}),
        };
    }
    schema
}

/// The issues of each answer to `values` at `a`, as (constraint, message).
fn answers(tool: &DynamicTool, values: &[Value]) -> Vec<(Constraint, String)> {
    let mut issues = Vec::new();
    for value in values {
        let text = json!({"a": value}).to_string();
        if let Err(rejected) = tool.decode(&text) {
            issues.extend(
                rejected
                    .report
                    .iter()
                    .map(|issue| (issue.constraint, issue.message.clone())),
            );
        }
    }
    issues
}

fn some_values() -> Vec<Value> {
    vec![
        json!(5),
        json!("x"),
        json!(true),
        json!(null),
        json!([1]),
        json!({"k": 1}),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Read from JSON Schema: refused past the limit with the limit named, else every value
    /// answered without a `schema` issue.
    #[test]
    fn nesting_read_from_a_schema_names_the_limit(depth in 24usize..42, kind in 0usize..5) {
        let definition = json!({"name": "t", "parameters": {
            "type": "object", "properties": {"a": nested(depth, kind)}}});
        match ToolModel::from_definition(&definition) {
            Err(errors) => {
                let message = errors.to_string();
                prop_assert!(kind < 4 && depth > MAX_NESTED_UNIONS, "{depth} {kind}: {message}");
                prop_assert!(message.contains("MAX_NESTED_UNIONS"), "{message}");
                prop_assert!(message.contains(&format!("more than the {MAX_NESTED_UNIONS}")), "{message}");
                prop_assert!(!message.contains("itself"), "{message}");
            }
            Ok(model) => {
                prop_assert!(kind == 4 || depth <= MAX_NESTED_UNIONS, "{depth} {kind}");
                let tool = DynamicTool::from_model(model);
                for (constraint, message) in answers(&tool, &some_values()) {
                    prop_assert_ne!(constraint, Constraint::Schema, "{}", message);
                }
            }
        }
    }

    /// Built in code (no reader to refuse it): past the limit, a `schema` issue naming it,
    /// saying "refers back to itself" only when a definition does.
    #[test]
    fn nesting_built_in_code_names_the_limit(depth in 24usize..42, recursive in any::<bool>()) {
        let mut schema = Schema::integer();
        for _ in 0..depth {
            schema = Schema::union(UnionMode::AnyOf, vec![schema, Schema::string()]);
        }
        let mut definitions = std::collections::BTreeMap::new();
        if recursive {
            let looping = Schema::union(UnionMode::AnyOf, vec![Schema::reference("A"), Schema::integer()]);
            definitions.insert("A".to_owned(), looping);
        }
        let fields = vec![
            Field::optional("a", schema),
            Field::optional("r", Schema::reference(if recursive { "A" } else { "B" })),
        ];
        if !recursive {
            definitions.insert("B".to_owned(), Schema::integer());
        }
        let model = ToolModel::new("t", None, Schema::object(fields), definitions);
        let tool = DynamicTool::from_model(model);
        let schema_issues: Vec<String> = answers(&tool, &[json!(true)])
            .into_iter()
            .filter(|(constraint, _)| *constraint == Constraint::Schema)
            .map(|(_, message)| message)
            .collect();
        prop_assert_eq!(schema_issues.is_empty(), depth <= MAX_NESTED_UNIONS, "{:?}", schema_issues);
        for message in &schema_issues {
            prop_assert!(message.contains("MAX_NESTED_UNIONS"), "{message}");
            prop_assert_eq!(message.contains("refers back to itself"), recursive, "{}", message);
        }
        if recursive {
            // The recursive definition itself meets the limit, and says why.
            let text = json!({"r": "x"}).to_string();
            let rejected = tool.decode(&text).unwrap_err();
            let message = &rejected.report.issues()[0].message;
            prop_assert!(message.contains("MAX_NESTED_UNIONS") && message.contains("A → A"), "{message}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// References to references built in code (the reader refuses chains past 32): a chain
    /// past the limit is called a limit, a cycle a cycle.
    #[test]
    fn reference_chains_name_the_limit_or_the_cycle(length in 1usize..50, cycle in any::<bool>()) {
        let name = |i: usize| format!("D{i}");
        let mut definitions: std::collections::BTreeMap<String, Schema> = (0..length - 1)
            .map(|i| (name(i), Schema::reference(name(i + 1))))
            .collect();
        let last = if cycle { Schema::reference(name(0)) } else { Schema::integer() };
        definitions.insert(name(length - 1), last);
        let input = Schema::object(vec![Field::optional("x", Schema::reference(name(0)))]);
        let tool = DynamicTool::from_model(ToolModel::new("t", None, input, definitions));
        let text = json!({"x": 5}).to_string();
        let issues: Vec<String> = match tool.decode(&text) {
            Ok(_) => Vec::new(),
            Err(rejected) => rejected.report.iter().map(|i| i.message.clone()).collect(),
        };
        // The field's reference and `length - 1` references in a row.
        let followed = MOST_FOLLOWED_REFERENCES;
        prop_assert_eq!(issues.is_empty(), !cycle && length <= followed, "{:?}", issues);
        for message in &issues {
            prop_assert_eq!(message.contains("themselves"), cycle, "{}", message);
            let limit = format!("more than {followed} in a row");
            prop_assert_eq!(message.contains(&limit), length > followed, "{}", message);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// References to references read from JSON Schema: refused past the reader's limit with
    /// the limit named, else followed at call time.
    #[test]
    fn reference_chains_read_are_followed(length in 20usize..45) {
        let mut defs = serde_json::Map::new();
        for i in 0..length {
            defs.insert(format!("D{i}"), json!({"$ref": format!("#/$defs/D{}", i + 1)}));
        }
        defs.insert(format!("D{length}"), json!({"type": "integer"}));
        let definition = json!({"name": "t", "parameters": {"type": "object",
            "properties": {"x": {"$ref": "#/$defs/D0"}}, "$defs": defs}});
        match DynamicTool::from_definition(&definition) {
            Err(errors) => {
                let message = errors.to_string();
                prop_assert!(message.contains("more than 32 in a row"), "{message}");
                prop_assert!(!message.contains("themselves"), "{message}");
            }
            Ok(tool) => {
                let decoded = tool.decode(r#"{"x": "5"}"#);
                prop_assert!(decoded.is_ok(), "{length}: {:?}", decoded.err().map(|r| r.report));
            }
        }
    }
}

/// A tree whose alternatives hold arrays of itself answers values wrapped past the limit
/// with a `type` or union issue, never a `schema` one.
#[test]
fn a_tree_of_unions_and_arrays_is_answered() {
    let definition = json!({"name": "t", "parameters": {
        "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/A"}}, {"type": "integer"}]}}}});
    let tool = DynamicTool::from_definition(&definition).unwrap();
    let issues = answers(&tool, &[json!("x"), json!([1, [2, "y"]]), json!({"k": 1})]);
    assert!(!issues.is_empty());
    for (constraint, message) in issues {
        assert_ne!(constraint, Constraint::Schema, "{message}");
    }
    let decoded = tool.decode(r#"{"a": [1, [2, "3"]]}"#).unwrap();
    assert_eq!(decoded.value, json!({"a": [1, [2, 3]]}));
}

/// A pattern of bounded repetitions, classes, alternations and anchors.
fn pattern() -> impl Strategy<Value = String> {
    let atom = prop::sample::select(vec![
        "a",
        "b",
        ".",
        "[ab]",
        "[^a]",
        "\\d",
        "\\w",
        "\\s",
        "(?:ab|ba)",
        "[a-z]",
        "\\p{L}",
    ]);
    let repetition = prop_oneof![
        Just(String::new()),
        Just("*".to_owned()),
        Just("+".to_owned()),
        Just("?".to_owned()),
        (0usize..3000).prop_map(|k| format!("{{{k}}}")),
        (0usize..50, 0usize..400).prop_map(|(k, more)| format!("{{{k},{}}}", k + more)),
    ];
    let piece = (atom, repetition).prop_map(|(atom, repetition)| format!("{atom}{repetition}"));
    (
        any::<bool>(),
        prop::collection::vec(piece, 1..5),
        any::<bool>(),
        prop::option::of(prop::sample::select(vec!["a", "b+", "c{3}"])),
    )
        .prop_map(|(start, pieces, end, alternative)| {
            let body = pieces.concat();
            let body = match alternative {
                Some(other) => format!("(?:{body}|{other})"),
                None => body,
            };
            format!(
                "{}{body}{}",
                if start { "^" } else { "" },
                if end { "$" } else { "" }
            )
        })
}

/// A string of `length` bytes (or a character less) repeating `unit`, with `tail` at its end.
fn long_string(unit: &str, length: usize, tail: &str) -> String {
    let mut text = String::with_capacity(length + 8);
    while text.len() + unit.len() + tail.len() <= length {
        text.push_str(unit);
    }
    text.push_str(tail);
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn an_accepted_pattern_answers_every_string_within_max_bytes(
        pattern in pattern(),
        unit in prop::sample::select(vec!["a", "ab", "é", " ", "x1_", "\u{2028}", "c"]),
        tail in prop::sample::select(vec!["", "c", "ac", "bb", "\n"]),
        length in prop_oneof![0usize..64, 1_000usize..5_000, Just(Options::default().max_bytes - 32)],
    ) {
        let definition = json!({"name": "t", "parameters": {"type": "object",
            "properties": {"a": {"type": "string", "pattern": pattern}}}});
        // Refused when read is an answer too (the cost is bounded there, with the pattern named).
        let Ok(tool) = DynamicTool::from_definition(&definition) else {
            return Ok(());
        };
        let text = json!({"a": long_string(unit, length, tail)}).to_string();
        prop_assert!(text.len() <= Options::default().max_bytes);
        if let Err(rejected) = tool.decode(&text) {
            for issue in rejected.report.iter() {
                prop_assert_eq!(issue.constraint, Constraint::Pattern, "{}: {}", pattern, issue.message);
            }
        }
    }
}

/// The published reproduction: `a.{2000}c` is refused when read (its DFA would pass the
/// limit), so no call meets it; a bounded form of it answers a 1 MB string.
#[test]
fn a_costly_pattern_is_refused_when_read_and_a_bounded_one_answers() {
    let definition = |pattern: &str| {
        json!({"name": "t", "parameters": {"type": "object",
            "properties": {"a": {"type": "string", "pattern": pattern}}}})
    };
    let refused = DynamicTool::from_definition(&definition("a.{2000}c")).unwrap_err();
    assert!(refused.to_string().contains("too costly"), "{refused}");
    let tool = DynamicTool::from_definition(&definition("^a.{20}c")).unwrap();
    let long = long_string("a", Options::default().max_bytes - 32, "c");
    let rejected = tool.decode(&json!({"a": long}).to_string()).unwrap_err();
    assert_eq!(rejected.report.issues()[0].constraint, Constraint::Pattern);
}

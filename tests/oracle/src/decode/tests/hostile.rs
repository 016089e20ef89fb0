//! Hostile arguments and schemas: the work of a call is bounded by the sizes of the input and
//! the schema (counted, not timed), nothing is dropped silently, and a schema that refers
//! back to itself gives an issue instead of a stack overflow.

use super::*;
use crate::model::UnionMode;
use crate::suggest::work::folds_in;

fn wide_fields(count: usize) -> Vec<Field> {
    (0..count)
        .map(|i| Field::optional(format!("field_{i}"), Schema::string()))
        .collect()
}

/// `{"k0": 0, "k1": 0, ...}`.
fn unknown_keys(count: usize) -> String {
    let members: Vec<String> = (0..count).map(|i| format!("\"k{i}\": 0")).collect();
    format!("{{{}}}", members.join(", "))
}

#[test]
fn keys_of_a_wide_object_are_found_without_a_scan_per_key() {
    // 2,000 fields, 5,000 unknown keys: a scan per key folds 10 million names.
    let fields = 2_000;
    let keys = 5_000;
    let open = tool(wide_fields(fields));
    let text = unknown_keys(keys);
    let folds = folds_in(|| {
        accept_text(&open, &text);
    });
    assert!(folds <= 4 * (fields + keys), "{folds} folds");
    // Closed: every key is an issue, but suggestions stop at the issue cap.
    let closed = ToolModel::new(
        "t",
        None,
        Schema::object(wide_fields(fields)).deny_unknown_fields(),
        Default::default(),
    );
    let folds = folds_in(|| {
        let rejected = refuse_text(&closed, &text);
        assert_eq!(rejected.report.len(), Report::DEFAULT_CAP + 1);
    });
    let suggestions = (Report::DEFAULT_CAP + 1) * (fields + 1);
    assert!(folds <= 4 * (fields + keys) + suggestions, "{folds} folds");
}

#[test]
fn an_issue_lists_a_long_enum_shortened_with_a_count() {
    let values: Vec<EnumValue> = (0..100_000)
        .map(|i| EnumValue::new(format!("value_{i}")))
        .collect();
    let model = tool_x(Schema::array(Schema::enumeration(values)));
    let wrong: Vec<Value> = (0..100).map(|_| json!("bad")).collect();
    let rejected = refuse(&model, json!({ "x": wrong }));
    let answer = serde_json::to_string(rejected.report.issues()).unwrap();
    // 101 issues (the cap and its summary), each a few hundred bytes.
    assert!(answer.len() < 101 * 1_000, "{} bytes", answer.len());
    let first = &rejected.report.issues()[0];
    let expected = first.expected.as_ref().unwrap().as_array().unwrap();
    assert_eq!(expected.len(), crate::values::LISTED_VALUES + 1);
    assert_eq!(expected.last(), Some(&json!("… 99980 more")));
    assert!(
        first.message.ends_with("… (100000 values in all)"),
        "{}",
        first.message
    );
}

#[test]
fn repeated_keys_inside_a_value_of_any_type_are_refused() {
    let model = tool_x(Schema::any());
    for text in [
        r#"{"x": {"k": 1, "k": 2}}"#,
        r#"{"x": [{"k": 1, "k": 2}]}"#,
        r#"{'x': {'k': 1, 'k': 2}}"#,
        r#"{"x": {"a": {"k": [1], "k": [2]}}}"#,
    ] {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            rejected.report.issues()[0].constraint,
            Constraint::Syntax,
            "{text}"
        );
    }
    // An undeclared key of an open object is a value of any type too.
    let rejected = refuse_text(&tool(vec![]), r#"{"extra": {"k": 1, "k": 2}}"#);
    assert_eq!(
        issues(&rejected),
        expect(&[("extra.k", Constraint::Syntax)])
    );
    // Equal repeats choose nothing: accepted.
    let decoded = accept_text(&model, r#"{"x": {"k": 1, "k": 1.0}}"#);
    assert_eq!(decoded.value, json!({"x": {"k": 1}}));
    // The same past 32 members, where repeats are found with a set.
    let wide = |last: &str| {
        let members: Vec<String> = (0..40).map(|n| format!(r#""k{n}": {n}"#)).collect();
        format!(r#"{{"x": {{{}, "k7": {last}}}}}"#, members.join(", "))
    };
    let rejected = refuse_text(&model, &wide("8"));
    assert_eq!(issues(&rejected), expect(&[("x.k7", Constraint::Syntax)]));
    let decoded = accept_text(&model, &wide("7.0"));
    assert_eq!(decoded.value["x"].as_object().map(|m| m.len()), Some(40));
}

#[test]
fn two_keys_folding_to_one_field_are_a_tie() {
    let model = tool(vec![Field::optional("query", Schema::string())]);
    for text in [
        r#"{"Query": "a", "QUERY": "b"}"#,
        r#"{"Query": "a", "QUERY": "a"}"#,
    ] {
        let rejected = refuse_text(&model, text);
        assert_eq!(
            issues(&rejected),
            expect(&[("query", Constraint::Syntax)]),
            "{text}"
        );
        assert!(rejected.report.issues()[0]
            .message
            .contains("\"Query\", \"QUERY\""));
    }
    // One folded key is still `key_case`.
    let decoded = accept_text(&model, r#"{"QUERY": "b"}"#);
    assert_eq!(decoded.value, json!({"query": "b"}));
    // The same tie on a wide (indexed) object.
    let mut fields = wide_fields(40);
    fields.push(Field::optional("query", Schema::string()));
    let rejected = refuse_text(&tool(fields), r#"{"Query": "a", "QUERY": "b"}"#);
    assert_eq!(issues(&rejected), expect(&[("query", Constraint::Syntax)]));
}

#[test]
fn a_union_that_refers_back_to_itself_stops_with_an_issue() {
    // Built in code, so the schema reader's refusal does not apply: the walk must stop.
    let looping = Schema::union(
        UnionMode::AnyOf,
        vec![Schema::reference("A"), Schema::reference("A")],
    );
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required("x", Schema::reference("A"))]),
        [("A".to_owned(), looping)].into(),
    );
    let rejected = refuse(&model, json!({"x": 5}));
    let constraints: Vec<Constraint> = rejected.report.iter().map(|i| i.constraint).collect();
    assert!(
        constraints.contains(&Constraint::Schema) || constraints.contains(&Constraint::Limit),
        "{constraints:?}"
    );
    // An array of itself: wrapping stops too.
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required("x", Schema::reference("A"))]),
        [("A".to_owned(), Schema::array(Schema::reference("A")))].into(),
    );
    refuse(&model, json!({"x": 5}));
    accept(&model, json!({"x": [[], [[]]]}));
}

#[test]
fn references_that_only_lead_to_references_are_named_so() {
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required("x", Schema::reference("A"))]),
        [("A".to_owned(), Schema::reference("A"))].into(),
    );
    let rejected = refuse(&model, json!({"x": 5}));
    assert!(rejected.report.issues()[0]
        .message
        .contains("lead back to themselves"));
}

#[test]
fn the_value_checker_stops_at_a_union_that_refers_back_to_itself() {
    let looping = Schema::union(
        UnionMode::AnyOf,
        vec![Schema::reference("A"), Schema::integer()],
    );
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required("x", Schema::reference("A"))]),
        [("A".to_owned(), looping)].into(),
    );
    // Checking a value (as defaults, examples and `Value` fields are checked) ends.
    let mut checker = crate::Checker::new(&model);
    checker.check_value(&json!({"x": "s"}), model.input());
    assert!(checker.finish().is_err());
}

#[test]
fn union_trials_are_bounded_by_the_values_they_read() {
    // Found by the read_schema_references fuzz target (R2): 5,000 alternatives that each
    // read a 150,000-item array again would read 750 million values.
    let alternatives = (0..5_000)
        .map(|_| Schema::array(Schema::string()))
        .collect();
    let model = tool_x(Schema::union(UnionMode::AnyOf, alternatives));
    let items: Vec<Value> = (0..150_000).map(|i| json!(i)).collect();
    let rejected = refuse(&model, json!({ "x": items }));
    let limit = rejected
        .report
        .iter()
        .find(|issue| issue.constraint == Constraint::Limit)
        .expect("a limit issue");
    assert!(
        limit.message.contains("values read again"),
        "{}",
        limit.message
    );
}

#[test]
fn hitting_the_nesting_cap_refuses_the_value_whatever_the_union() {
    // Found by the read_schema_references fuzz target (R4): with A_k = oneOf[A_k+1,
    // integer] for k < 41 and A_41 = string, the cap used to cut one alternative off
    // silently, so the answer depended on the cap. Now it is a `schema` refusal.
    let mut definitions = std::collections::BTreeMap::new();
    for k in 0..41 {
        definitions.insert(
            format!("A{k}"),
            Schema::union(
                UnionMode::OneOf,
                vec![Schema::reference(format!("A{}", k + 1)), Schema::integer()],
            ),
        );
    }
    definitions.insert("A41".to_owned(), Schema::string());
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required("x", Schema::reference("A0"))]),
        definitions,
    );
    let rejected = refuse(&model, json!({"x": 5}));
    assert!(
        rejected
            .report
            .iter()
            .any(|issue| issue.constraint == Constraint::Schema),
        "{}",
        rejected.report
    );
}

/// A value built in code can nest deeper than any text is read: checking it (a `Value`
/// field's `validate()`, a default, an example) or decoding it (`decode_value`) is refused
/// with a `limit` issue, measured without recursion before anything recurses into it.
#[test]
fn a_value_nested_past_the_limit_is_refused_before_it_is_walked() {
    let model = tool_x(Schema::any());
    // Deep enough that walking it (or converting it to a tree) on a test thread's stack
    // would overflow it: 2 MiB for 100,000 levels leaves 20 bytes a level.
    let mut deep = json!(1);
    for _ in 0..100_000 {
        deep = Value::Array(vec![deep]);
    }
    // Not `json!`, which would copy `deep` by a recursive `to_value`.
    let value = Value::Object([("x".to_owned(), deep)].into_iter().collect());
    let mut checker = crate::Checker::new(&model);
    checker.check_value(&value, model.input());
    let report = checker.finish().unwrap_err();
    assert_eq!(report.issues()[0].constraint, Constraint::Limit);
    assert!(report.issues()[0].message.contains("nest more than 127"));
    let refused = decode_value(&model, &value, &Options::default()).unwrap_err();
    assert_eq!(refused.report.issues()[0].constraint, Constraint::Limit);
    // serde_json drops a `Value` by recursion: take it apart level by level.
    let mut rest = value;
    loop {
        rest = match rest {
            Value::Object(mut members) => match members.remove("x") {
                Some(inner) => inner,
                None => break,
            },
            Value::Array(mut items) => match items.pop() {
                Some(inner) => inner,
                None => break,
            },
            _ => break,
        };
    }
}

//! Unions: the alternative is chosen first (no repair, then the fewest repairs, then the
//! fewest defaults), and a value no alternative takes is reported inside the alternative it
//! was meant for, or as the union with what its alternatives want. Each case names the real
//! tool schema its shape comes from (the tools-dev corpus of issue 11).

use super::*;
use crate::model::UnionMode;
use crate::values::LISTED_VALUES;

/// A tool read from a JSON Schema definition, as `DynamicTool` reads one.
fn schema_tool(definition: Value) -> ToolModel {
    ToolModel::from_definition(&definition)
        .unwrap_or_else(|errors| panic!("the schema was refused: {errors}"))
}

/// The one issue of a refusal, which must be alone.
fn only_issue(rejected: &Rejected) -> &crate::Issue {
    match rejected.report.issues() {
        [only] => only,
        issues => panic!("expected one issue, got {issues:?}"),
    }
}

/// A classifier's `labels`: items that are an object with an enum, or a bare label string.
fn labels_tool() -> ToolModel {
    schema_tool(
        json!({"type": "object", "properties": {"labels": {"type": "array", "items": {
        "oneOf": [
            {"type": "object", "properties": {
                "name": {"type": "string"},
                "confidence": {"type": "string", "enum": ["low", "medium", "high"]}},
             "required": ["name", "confidence"]},
            {"type": "string"}
        ]}}}, "required": ["labels"]}),
    )
}

#[test]
fn an_enum_inside_the_only_object_alternative_is_named_at_its_own_path() {
    let model = labels_tool();
    let rejected = refuse(
        &model,
        json!({"labels": [{"name": "spam", "confidence": "sure"}]}),
    );
    let issue = only_issue(&rejected);
    assert_eq!(issue.path.to_string(), "labels[0].confidence");
    assert_eq!(issue.constraint, Constraint::Enum);
    assert_eq!(issue.expected, Some(json!(["low", "medium", "high"])));
    // The hint lists the allowed values, though the path runs through a union.
    let hint = crate::RetryHint::build(&model, &rejected.report, HintReason::InvalidArguments);
    assert_eq!(
        hint.fields[0].allowed_values,
        [json!("low"), json!("medium"), json!("high")]
    );
    // The value checker (defaults, examples, typed values) names the same issue.
    let checked = model
        .check_against(
            model.input(),
            &json!({"labels": [{"name": "spam", "confidence": "sure"}]}),
        )
        .unwrap_err();
    assert_eq!(checked.issues(), rejected.report.issues());
}

/// Cloudflare's R2 bucket lock rules: `condition` is told apart by `type`, a one-value `enum`.
fn lock_rules_tool() -> ToolModel {
    schema_tool(
        json!({"type": "object", "properties": {"condition": {"oneOf": [
        {"type": "object", "properties": {"type": {"type": "string", "enum": ["Indefinite"]}},
         "required": ["type"]},
        {"type": "object", "properties": {"type": {"type": "string", "enum": ["Date"]},
                                          "date": {"type": "string", "format": "date-time"}},
         "required": ["type", "date"]},
        {"type": "object", "properties": {"type": {"type": "string", "enum": ["Age"]},
                                          "maxAgeSeconds": {"type": "integer"}},
         "required": ["type", "maxAgeSeconds"]}
    ]}}, "required": ["condition"]}),
    )
}

#[test]
fn a_discriminator_sent_names_the_alternative() {
    let model = lock_rules_tool();
    let rejected = refuse(&model, json!({"condition": {"type": "Age"}}));
    assert_eq!(
        issues(&rejected),
        expect(&[("condition.maxAgeSeconds", Constraint::Required)])
    );
    let checked = model
        .check_against(model.input(), &json!({"condition": {"type": "Age"}}))
        .unwrap_err();
    assert_eq!(checked.issues(), rejected.report.issues());
    // A tag that names no alternative: the union, with the tag values it wants.
    let rejected = refuse(&model, json!({"condition": {"type": "Forever"}}));
    let issue = only_issue(&rejected);
    assert_eq!(
        (issue.path.to_string(), issue.constraint),
        ("condition".to_owned(), Constraint::OneOf)
    );
    assert_eq!(issue.expected, Some(json!(["Indefinite", "Date", "Age"])));
}

/// Firecrawl's `webhook`: a URL string, or an object with the URL and headers.
fn webhook_tool() -> ToolModel {
    schema_tool(
        json!({"type": "object", "properties": {"webhook": {"anyOf": [
            {"type": "string"},
            {"type": "object", "properties": {"url": {"type": "string"},
                                              "headers": {"type": "object", "additionalProperties": {"type": "string"}}},
             "required": ["url"]}
        ]}}}),
    )
}

#[test]
fn a_union_none_of_whose_alternatives_can_be_told_lists_what_they_want() {
    let model = webhook_tool();
    // An object that shares no key with the object alternative: another shape altogether.
    let rejected = refuse(&model, json!({"webhook": {"value": "https://example.com"}}));
    let issue = only_issue(&rejected);
    assert_eq!(issue.path.to_string(), "webhook");
    assert_eq!(issue.constraint, Constraint::AnyOf);
    assert_eq!(issue.expected, Some(json!(["string", "object"])));
    assert_eq!(
        issue.message,
        "the value fits 0 of the 2 alternatives (string, object); at least one must fit"
    );
    let hint = crate::RetryHint::build(&model, &rejected.report, HintReason::InvalidArguments);
    assert_eq!(
        hint.fields[0].alternatives,
        [json!("string"), json!("object")]
    );
    // The object alternative by its keys: its own issue, at its own path.
    let rejected = refuse(
        &model,
        json!({"webhook": {"url": "https://example.com", "headers": {"X-Key": [7]}}}),
    );
    assert_eq!(
        issues(&rejected),
        expect(&[("webhook.headers[\"X-Key\"]", Constraint::Type)])
    );
}

#[test]
fn the_alternatives_listed_are_capped_like_allowed_values() {
    // Notion's `icon`/`cover` style unions can be long; a union of 25 tagged objects.
    let variants: Vec<Value> = (0..25)
        .map(|i| json!({"type": "object", "properties": {"kind": {"const": format!("k{i}")}}, "required": ["kind"]}))
        .collect();
    let model =
        schema_tool(json!({"type": "object", "properties": {"block": {"oneOf": variants}}}));
    let rejected = refuse(&model, json!({"block": {"kind": "nope"}}));
    let expected = only_issue(&rejected).expected.clone().unwrap();
    let listed = expected.as_array().unwrap();
    assert_eq!(listed.len(), LISTED_VALUES + 1);
    assert_eq!(listed[LISTED_VALUES], json!("… 5 more"));
    let hint = crate::RetryHint::build(&model, &rejected.report, HintReason::InvalidArguments);
    assert_eq!(hint.fields[0].alternatives.len(), 6);
    assert_eq!(hint.fields[0].alternatives[5], json!("…"));
}

#[test]
fn a_type_list_is_a_type_issue_with_the_list() {
    // A search filter's `Value`: `{"type": ["string", "number", "boolean"]}`.
    let model = schema_tool(json!({"type": "object", "properties": {
        "value": {"type": ["string", "number", "boolean"]}}}));
    let rejected = refuse(&model, json!({"value": [1, 2]}));
    let issue = only_issue(&rejected);
    assert_eq!(issue.constraint, Constraint::Type);
    assert_eq!(issue.expected, Some(json!(["string", "number", "boolean"])));
    assert_eq!(
        issue.message,
        "expected string or number or boolean, got array [1,2]"
    );
    let checked = model
        .check_against(model.input(), &json!({"value": [1, 2]}))
        .unwrap_err();
    assert_eq!(checked.issues(), rejected.report.issues());
}

#[test]
fn a_union_of_string_consts_is_an_enum() {
    // A news tool's `region`: `anyOf: [{"const": "uk"}, {"const": "world"}, ...]`.
    let model = schema_tool(
        json!({"type": "object", "properties": {"region": {"anyOf": [
        {"const": "uk"}, {"const": "world"}, {"const": "us-canada"}]}}}),
    );
    let decoded = accept(&model, json!({"region": "US_Canada"}));
    assert_eq!(decoded.value, json!({"region": "us-canada"}));
    assert_eq!(
        decoded.repairs,
        [repair(
            "region",
            Rule::EnumCase,
            json!("US_Canada"),
            json!("us-canada")
        )]
    );
    let rejected = refuse(&model, json!({"region": "mars"}));
    let issue = only_issue(&rejected);
    assert_eq!(issue.constraint, Constraint::Enum);
    assert_eq!(issue.expected, Some(json!(["uk", "world", "us-canada"])));
    let without = Options::default().without(Rule::EnumCase);
    refuse_with(&model, json!({"region": "UK"}), &without);
}

#[test]
fn an_empty_array_under_a_union_whose_only_array_has_min_items_is_min_items() {
    // A PDF reader's `pages`: a page number, or a non-empty list of them.
    let model = schema_tool(json!({"type": "object", "properties": {"pages": {"anyOf": [
        {"type": "integer", "minimum": 1},
        {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1}]}}}));
    let rejected = refuse(&model, json!({"pages": []}));
    assert_eq!(
        issues(&rejected),
        expect(&[("pages", Constraint::MinItems)])
    );
}

/// PostHog's `properties`: a group object, or a list of them.
fn property_groups_tool() -> ToolModel {
    let group = json!({"type": "object", "properties": {
        "type": {"type": "string", "enum": ["AND", "OR"]},
        "values": {"type": "array", "items": {}}}, "required": ["type", "values"]});
    schema_tool(
        json!({"type": "object", "properties": {"properties": {"anyOf": [
        {"type": "array", "items": group}, group]}}}),
    )
}

#[test]
fn any_of_takes_the_alternative_with_the_fewest_repairs() {
    let model = property_groups_tool();
    // `key_case` alone (the object), not `wrap_in_array` and `key_case` (the array).
    let decoded = accept(&model, json!({"properties": {"Type": "OR", "values": []}}));
    assert_eq!(
        decoded.value,
        json!({"properties": {"type": "OR", "values": []}})
    );
    assert_eq!(rules(&decoded.repairs), [Rule::KeyCase]);
    // A JSON-encoded object is the object after `json_string`, not wrapped into the array.
    let decoded = accept(
        &model,
        json!({"properties": "{\"type\": \"AND\", \"values\": []}"}),
    );
    assert_eq!(
        decoded.value,
        json!({"properties": {"type": "AND", "values": []}})
    );
    assert_eq!(rules(&decoded.repairs), [Rule::JsonString]);
}

/// MongoDB's aggregation stages: a `$vectorSearch` stage (with defaults), or any stage.
fn pipeline_tool() -> ToolModel {
    schema_tool(json!({"type": "object", "properties": {"stage": {"anyOf": [
        {"type": "object", "properties": {"$vectorSearch": {"type": "object", "properties": {
            "index": {"type": "string"},
            "limit": {"type": "integer", "default": 10},
            "exact": {"type": "boolean", "default": false}}, "required": ["index"]}},
         "required": ["$vectorSearch"]},
        {"type": "object", "additionalProperties": {}}]}}}))
}

#[test]
fn any_of_fills_no_defaults_when_the_value_fits_another_alternative_as_it_is() {
    let model = pipeline_tool();
    let stage = json!({"stage": {"$vectorSearch": {"index": "notes"}}});
    let decoded = accept(&model, stage.clone());
    assert_eq!(decoded.value, stage);
    assert!(decoded.repairs.is_empty(), "{:?}", decoded.repairs);
    // Defaults are filled within the one alternative chosen, never from two.
    let model = schema_tool(json!({"type": "object", "properties": {"stage": {"anyOf": [
        {"type": "object", "properties": {"index": {"type": "string"}, "limit": {"type": "integer", "default": 10}},
         "required": ["index"], "additionalProperties": false},
        {"type": "object", "properties": {"index": {"type": "string"}, "exact": {"type": "boolean", "default": false}},
         "required": ["index"], "additionalProperties": false}]}}}));
    let decoded = accept(&model, json!({"stage": {"index": "notes"}}));
    assert_eq!(
        decoded.value,
        json!({"stage": {"index": "notes", "limit": 10}})
    );
    assert_eq!(rules(&decoded.repairs), [Rule::Default]);
}

#[test]
fn one_of_counts_a_repaired_fit_only_when_the_repaired_value_fits_one_alternative() {
    // Fuzz finding R5 (read_schema_references, crash-oneof-repair-fits-twice.json): `0`
    // became `false` (`number_to_bool`), which, sent again, fits both alternatives.
    let model = schema_tool(json!({"type": "object", "properties": {"v": {"oneOf": [
        {"oneOf": [{"type": "string", "enum": ["0"]}, {"type": "boolean"}]},
        {"type": "boolean"}]}}}));
    let rejected = refuse(&model, json!({"v": 0}));
    let issue = only_issue(&rejected);
    assert_eq!(
        (issue.path.to_string(), issue.constraint),
        ("v".to_owned(), Constraint::OneOf)
    );
    assert!(rejected.repairs.is_empty(), "{:?}", rejected.repairs);
    // The value it would have handed out is refused the same way.
    let again = refuse(&model, json!({"v": false}));
    assert_eq!(issues(&again), issues(&rejected));
    // One repaired fit that is sound is still taken (a count sent as a string).
    let model = schema_tool(json!({"type": "object", "properties": {"n": {"oneOf": [
        {"type": "integer"}, {"type": "object"}]}}}));
    let decoded = accept(&model, json!({"n": "5"}));
    assert_eq!(decoded.value, json!({"n": 5}));
}

#[test]
fn choosing_an_alternative_stays_bounded_on_unions_shared_many_times_over() {
    // Hostile: D_k = anyOf[D_k+1, D_k+1], twenty deep, read once each but 2^20 paths; what
    // an alternative takes (its JSON types, for the choice and the issue) is looked up within
    // a bound, and the trials within theirs.
    let mut definitions = std::collections::BTreeMap::new();
    for k in 0..20 {
        let next = Schema::reference(format!("D{}", k + 1));
        definitions.insert(
            format!("D{k}"),
            Schema::union(UnionMode::AnyOf, vec![next.clone(), next]),
        );
    }
    definitions.insert("D20".to_owned(), Schema::integer().maximum(1));
    let model = ToolModel::new(
        "t",
        None,
        Schema::object(vec![Field::required("x", Schema::reference("D0"))]),
        definitions.into_iter().collect(),
    );
    let started = std::time::Instant::now();
    let rejected = refuse(&model, json!({"x": "many"}));
    assert!(!rejected.report.is_empty());
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

/// The Anthropic cookbook's `batch_tool` writes `"types": "object"` (a typo) for its
/// invocations, so each item is untyped: an object must have `name`, any other value passes.
/// An object without `name` was wrapped into the array alternative (`wrap_in_array`) and
/// accepted; a repair that changes the JSON type is no fit where an alternative takes that
/// type.
#[test]
fn a_repair_never_moves_a_value_to_another_json_type_an_alternative_takes() {
    let model = schema_tool(json!({"type": "object", "properties": {"invocations": {
        "type": "array", "items": {"types": "object", "properties": {
            "name": {"types": "string"}, "arguments": {"types": "string"}},
        "required": ["name", "arguments"]}}}, "required": ["invocations"]}));
    let rejected = refuse(&model, json!({"invocations": [{"arguments": "x"}]}));
    let issue = only_issue(&rejected);
    assert_eq!(issue.path.to_string(), "invocations[0].name");
    assert_eq!(issue.constraint, Constraint::Required);
    assert!(rejected.repairs.is_empty(), "{:?}", rejected.repairs);
    let decoded = accept(
        &model,
        json!({"invocations": [{"name": "n", "arguments": "x"}, 7]}),
    );
    assert_eq!(decoded.repairs, vec![]);

    // A number below an integer alternative's minimum is not the string of a string one.
    let model = schema_tool(json!({"type": "object", "properties": {"limit": {"anyOf": [
        {"type": "integer", "minimum": 5}, {"type": "string", "pattern": "^[0-9]+$"}]}}}));
    let rejected = refuse(&model, json!({"limit": 3}));
    let issue = only_issue(&rejected);
    assert_eq!(
        (issue.path.to_string(), issue.constraint),
        ("limit".to_owned(), Constraint::Minimum)
    );
    // Text that holds a value of another type is read as ever, though a string alternative
    // exists (Firecrawl's `formats`: a format name, or an object sent as JSON text).
    let model = schema_tool(
        json!({"type": "object", "properties": {"formats": {"type": "array",
        "items": {"anyOf": [{"type": "string", "enum": ["markdown", "html"]},
        {"type": "object", "properties": {"type": {"type": "string", "const": "json"},
        "prompt": {"type": "string"}}, "required": ["type"]}]}}}}),
    );
    let decoded = accept(
        &model,
        json!({"formats": ["{\"type\": \"json\", \"prompt\": \"p\"}"]}),
    );
    assert_eq!(
        decoded.value,
        json!({"formats": [{"type": "json", "prompt": "p"}]})
    );
    // Where no alternative takes the type sent, the repair stands.
    let model = schema_tool(json!({"type": "object", "properties": {"limit": {"anyOf": [
        {"type": "integer", "minimum": 5}, {"type": "boolean"}]}}}));
    let decoded = accept(&model, json!({"limit": "6"}));
    assert_eq!(decoded.value, json!({"limit": 6}));
    assert_eq!(decoded.repairs.len(), 1, "{:?}", decoded.repairs);
}

/// Null is judged by the union's alternatives, not refused at the union: an alternative
/// deeper down may take it (the JSON-Schema-Test-Suite's "nested oneOf"), on every road.
#[test]
fn null_reaches_the_alternatives_of_a_union() {
    let model = schema_tool(json!({"type": "object", "properties": {"v": {"oneOf": [
        {"oneOf": [{"type": "null"}]},
        {"type": "integer"}
    ]}}, "required": ["v"]}));
    assert_eq!(accept(&model, json!({"v": null})).value, json!({"v": null}));
    assert_eq!(
        accept_text(&model, r#"{"v": null}"#).value,
        json!({"v": null})
    );
    let streamed =
        crate::decode::decode_text_by_stream(&model, br#"{"v": null}"#, &Options::default());
    assert_eq!(
        streamed.map(|d| d.map(|d| d.value).ok()),
        Some(Some(json!({"v": null})))
    );
    assert!(model
        .check_against(model.input(), &json!({"v": null}))
        .is_ok());
    // An alternative that takes no null still refuses it, as a type.
    let no_null = schema_tool(json!({"type": "object", "properties": {"v": {"oneOf": [
        {"type": "string"}, {"type": "integer"}
    ]}}, "required": ["v"]}));
    let refused = refuse(&no_null, json!({"v": null}));
    assert_eq!(issues(&refused), expect(&[("v", Constraint::Type)]));
}

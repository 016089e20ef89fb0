use std::time::{Duration, Instant};

use serde_json::json;

use super::{resolve_uri, wanted_name};
use crate::model::read::read_parts;
use crate::model::read::tests::{accepts, errors};
use crate::model::{Json, Kind, ToolModel};
use crate::DynamicTool;

fn model(text: &str) -> ToolModel {
    ToolModel::from_json_schema(text).unwrap_or_else(|e| panic!("{e}"))
}

/// The MCP shape the issue names: a tree whose children point back into the schema by a
/// JSON pointer (`#/properties/data/properties/children`).
#[test]
fn a_pointer_into_the_properties_makes_a_recursive_definition() {
    let model = model(
        r##"{"type": "object", "properties": {"data": {"type": "object", "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"},
                "children": {"$ref": "#/properties/data/properties/children"}
            }}}
        }}}}"##,
    );
    assert_eq!(model.definitions().keys().collect::<Vec<_>>(), ["children"]);
    let tree =
        json!({"data": {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}});
    assert!(accepts(&model, tree));
    let bad = json!({"data": {"children": [{"children": [{"name": 5}]}]}});
    let report = model.check_against(model.input(), &bad).unwrap_err();
    assert_eq!(
        report.issues()[0].path.to_string(),
        "data.children[0].children[0].name"
    );
    // Written back as `$defs`, and read again the same.
    let again = ToolModel::from_json_schema(model.json_schema()).unwrap();
    assert_eq!(again.definitions(), model.definitions());
}

/// `{"$ref": "#"}`: recursion through the whole schema (JSON-Schema-Test-Suite "root pointer
/// ref"; MCP tools that nest filters in filters).
#[test]
fn the_root_pointer_is_a_definition_named_root() {
    let model = model(
        r##"{"type": "object", "properties": {"and": {"type": "array", "items": {"$ref": "#"}},
            "field": {"type": "string"}}, "additionalProperties": false}"##,
    );
    assert!(model.definitions().contains_key("Root"));
    assert!(accepts(
        &model,
        json!({"and": [{"field": "a"}, {"and": []}]})
    ));
    assert!(!accepts(&model, json!({"and": [{"other": 1}]})));
}

/// draft-07 tools (pydantic v1, zod-to-json-schema) point into `definitions`, below a
/// definition too.
#[test]
fn definitions_and_pointers_into_them_are_read() {
    let schema: Json = serde_json::from_str(
        r##"{"type": "object", "definitions": {"Address": {"type": "object", "properties": {
            "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}}},
          "properties": {"home": {"$ref": "#/definitions/Address"},
            "zip": {"$ref": "#/definitions/Address/properties/zip"}}}"##,
    )
    .unwrap();
    let model = read_parts(Some("t".into()), None, schema).unwrap();
    let names: Vec<&String> = model.definitions().keys().collect();
    assert_eq!(names, ["Address", "zip"]);
    assert!(accepts(
        &model,
        json!({"home": {"zip": "12345"}, "zip": "54321"})
    ));
    assert!(!accepts(&model, json!({"zip": "5432"})));
    assert!(!accepts(&model, json!({"home": {"zip": "x"}})));
}

/// JSON pointer escapes and percent-encoding (JSON-Schema-Test-Suite "escaped pointer ref").
#[test]
fn escaped_pointers_are_decoded() {
    let model = model(
        r##"{"type": "object", "$defs": {"tilde~field": {"type": "integer"},
            "slash/field": {"type": "integer"}, "percent%field": {"type": "integer"}},
          "properties": {
            "tilde": {"$ref": "#/$defs/tilde~0field"},
            "slash": {"$ref": "#/$defs/slash~1field"},
            "percent": {"$ref": "#/$defs/percent%25field"},
            "copy": {"$ref": "#/properties/tilde"}}}"##,
    );
    for key in ["tilde", "slash", "percent", "copy"] {
        assert!(accepts(&model, json!({ key: 1 })), "{key}");
        assert!(!accepts(&model, json!({ key: "a" })), "{key}");
    }
}

/// `$anchor` and `$id`-relative references (JSON-Schema-Test-Suite `anchor.json`, "refs
/// with relative uris and defs").
#[test]
fn anchors_and_ids_name_their_subschemas() {
    let model = model(
        r##"{"$id": "http://example.com/root.json", "type": "object",
          "$defs": {"pos": {"$anchor": "positive", "type": "integer", "minimum": 1},
            "node": {"$id": "node.json", "type": "object",
              "properties": {"next": {"$ref": "#/properties/value"}, "value": {"type": "string"}}}},
          "properties": {"count": {"$ref": "#positive"},
            "node": {"$ref": "node.json"},
            "value": {"$ref": "http://example.com/node.json#/properties/value"}}}"##,
    );
    assert!(accepts(
        &model,
        json!({"count": 2, "node": {"next": "a"}, "value": "b"})
    ));
    assert!(!accepts(&model, json!({"count": 0})));
    assert!(!accepts(&model, json!({"node": {"next": 1}})));
    assert!(!accepts(&model, json!({"value": 1})));
}

/// `{"$ref": ..., "maxItems": 2}`: in 2020-12 the siblings apply too; the description stays
/// on the use (the shape of OpenAPI-generated MCP schemas).
#[test]
fn siblings_of_a_reference_apply_too() {
    let model = model(
        r##"{"type": "object", "$defs": {"tags": {"type": "array", "items": {"type": "string"}}},
          "properties": {"tags": {"$ref": "#/$defs/tags", "maxItems": 2, "description": "At most two."},
            "more": {"$ref": "#/$defs/tags", "maxItems": 2}}}"##,
    );
    assert!(accepts(&model, json!({"tags": ["a", "b"]})));
    assert!(!accepts(&model, json!({"tags": ["a", "b", "c"]})));
    assert!(!accepts(&model, json!({"tags": [1]})));
    assert!(!accepts(&model, json!({"more": ["a", "b", "c"]})));
    let Kind::Object(object) = &model.input().kind else {
        panic!()
    };
    assert_eq!(
        object.fields[0].schema.description.as_deref(),
        Some("At most two.")
    );
    // One definition for the same target and siblings.
    assert_eq!(
        model.definitions().keys().collect::<Vec<_>>(),
        ["tags", "tags_1"]
    );
}

/// pydantic's inheritance: `allOf: [{"$ref": Base}, {more properties}]`.
#[test]
fn all_of_a_reference_and_more_properties_is_merged() {
    let model = model(
        r##"{"type": "object", "$defs": {"Base": {"type": "object",
            "properties": {"id": {"type": "integer"}}, "required": ["id"]}},
          "properties": {"item": {"allOf": [{"$ref": "#/$defs/Base"},
            {"properties": {"label": {"type": "string"}}, "required": ["label"]}]}}}"##,
    );
    assert!(accepts(&model, json!({"item": {"id": 1, "label": "a"}})));
    assert!(!accepts(&model, json!({"item": {"id": 1}})));
    assert!(!accepts(&model, json!({"item": {"label": "a"}})));
}

/// A constraint beside a reference that the merge cannot make exact is refused, not dropped.
#[test]
fn siblings_that_do_not_merge_are_refused() {
    let found = errors(
        r##"{"type": "object", "$defs": {"n": {"type": "integer", "minimum": 1}},
          "properties": {"n": {"$ref": "#/$defs/n", "minimum": 2}}}"##,
    );
    assert_eq!(
        found,
        ["/properties/n/allOf: `allOf` members give `minimum` different values; not merged"]
    );
}

#[test]
fn remote_references_are_refused_with_their_pointer() {
    let found = errors(
        r##"{"type": "object", "properties": {
            "a": {"$ref": "http://example.com/schema.json"},
            "b": {"$ref": "other.json#/$defs/x"}}}"##,
    );
    assert_eq!(found.len(), 2);
    assert!(found[0].starts_with("/properties/a/$ref: `$ref` \"http://example.com/schema.json\" points outside this schema document"), "{}", found[0]);
    assert!(found[1].starts_with("/properties/b/$ref:"), "{}", found[1]);
    // At run time: one `schema` issue, the batch goes on.
    let tool = DynamicTool::from_definition(&json!({"name": "t", "parameters":
        {"type": "object", "properties": {"a": {"$ref": "http://example.com/s.json"}}}}));
    let message = tool.err().unwrap().to_string();
    assert!(message.contains("/properties/a/$ref"), "{message}");
}

/// Malformed pointers are errors, never panics.
#[test]
fn malformed_pointers_are_errors() {
    for (reference, expected) in [
        ("#/properties/%ZZ", "points to nothing"),
        ("#/items/99", "points to nothing"),
        ("#/$defs/a/~2", "not `~0` or `~1`"),
        ("#/required", "not a schema"),
        ("#/required/0", "not a schema"),
        ("#nowhere", "no `$anchor`"),
        ("#/properties/a/0", "points to nothing"),
        ("#/$defs", "not a schema"),
        ("%", "outside this schema document"),
    ] {
        let text = format!(
            r#"{{"type": "object", "required": ["a"], "$defs": {{"a": {{}}}},
              "properties": {{"a": {{"$ref": {reference:?}}}}}}}"#
        );
        let found = errors(&text);
        assert!(
            found.len() == 1 && found[0].contains(expected),
            "{reference}: {found:?}"
        );
    }
}

#[test]
fn chains_of_references_are_bounded() {
    // a0 → a1 → … → a39 → integer: more than a check follows.
    let mut defs: Vec<String> = (0..39)
        .map(|i| format!(r##""a{i}": {{"$ref": "#/$defs/a{}"}}"##, i + 1))
        .collect();
    defs.push(r#""a39": {"type": "integer"}"#.to_owned());
    let text = format!(
        r##"{{"type": "object", "$defs": {{{}}}, "properties": {{"x": {{"$ref": "#/$defs/a0"}}}}}}"##,
        defs.join(",")
    );
    let found = errors(&text);
    assert!(
        found.iter().any(|e| e.starts_with("/$defs/a0:")),
        "{found:?}"
    );
    // A short chain is fine.
    let short = model(
        r##"{"type": "object", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"type": "integer"}},
          "properties": {"x": {"$ref": "#/$defs/a"}}}"##,
    );
    assert!(accepts(&short, json!({"x": 1})));
    // A cycle of references with siblings is refused, not followed forever.
    let found = errors(
        r##"{"type": "object", "$defs": {"a": {"$ref": "#/$defs/b", "minimum": 1},
            "b": {"$ref": "#/$defs/a", "maximum": 3}},
          "properties": {"x": {"$ref": "#/$defs/a"}}}"##,
    );
    assert!(!found.is_empty());
}

/// Hostile: many references to deep pointers, and references with siblings that fan out
/// two ways at every level, are read in bounded work (each target once).
#[test]
fn many_references_to_deep_pointers_are_read_once() {
    let depth = 50;
    let mut schema = r#"{"type": "integer"}"#.to_owned();
    for _ in 0..depth {
        schema = format!(r#"{{"type": "object", "properties": {{"n": {schema}}}}}"#);
    }
    let deep = "/properties/n".repeat(depth);
    let references: Vec<String> = (0..2_000)
        .map(|i| {
            let level = "/properties/n".repeat(i % depth);
            format!(r##""r{i}": {{"$ref": "#{level}"}}, "d{i}": {{"$ref": "#{deep}"}}"##)
        })
        .collect();
    let text = format!(
        r#"{{"type": "object", "properties": {{"tree": {schema}, {}}}}}"#,
        references.join(",").replace("#/", "#/properties/tree/")
    );
    let started = Instant::now();
    let wide = model(&text);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(wide.definitions().len() <= depth + 1);

    // d_i = allOf[{$ref d_{i+1}, minimum: 0}, {$ref d_{i+1}, maximum: 9}]: 2^40 if inlined.
    let levels = 40;
    let mut defs: Vec<String> = (0..levels)
        .map(|i| {
            format!(
                r##""d{i}": {{"type": "array", "items": {{"allOf": [{{"$ref": "#/$defs/d{next}", "minItems": 0}}, {{"$ref": "#/$defs/d{next}", "maxItems": 9}}]}}}}"##,
                next = i + 1
            )
        })
        .collect();
    defs.push(format!(r#""d{levels}": {{"type": "array"}}"#));
    let text = format!(
        r##"{{"type": "object", "$defs": {{{}}}, "properties": {{"x": {{"$ref": "#/$defs/d0"}}}}}}"##,
        defs.join(",")
    );
    let started = Instant::now();
    let model = model(&text);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(accepts(&model, json!({"x": [[[]]]})));
    assert!(!accepts(&model, json!({"x": [vec![json!([]); 10]]})));
}

#[test]
fn names_are_readable() {
    let tokens =
        |pointer: &str| -> Vec<String> { pointer.split('/').skip(1).map(str::to_owned).collect() };
    assert_eq!(wanted_name(&[], None), "Root");
    assert_eq!(
        wanted_name(&tokens("/properties/data/properties/children/items"), None),
        "children_items"
    );
    assert_eq!(
        wanted_name(&tokens("/properties/a/anyOf/1"), None),
        "anyOf_1"
    );
    assert_eq!(wanted_name(&tokens("/$defs/a/$defs/b"), None), "b");
    assert_eq!(
        wanted_name(&tokens("/properties/x"), Some("anchor")),
        "anchor"
    );
}

#[test]
fn uris_resolve_as_rfc_3986_says() {
    assert_eq!(resolve_uri("", "node.json"), "node.json");
    assert_eq!(
        resolve_uri("http://example.com/a/b.json", "c.json"),
        "http://example.com/a/c.json"
    );
    assert_eq!(
        resolve_uri("http://example.com/a/b.json", "/c.json"),
        "http://example.com/c.json"
    );
    assert_eq!(
        resolve_uri("http://example.com/a/b.json", "../c.json"),
        "http://example.com/c.json"
    );
    assert_eq!(
        resolve_uri("http://example.com/a/b.json", "//other.org/x"),
        "http://other.org/x"
    );
    assert_eq!(resolve_uri("urn:uuid:1", "urn:uuid:2"), "urn:uuid:2");
}

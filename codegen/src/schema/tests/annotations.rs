//! Issue 27 §5: the annotations (`title`, `$comment`) and descriptions of a schema reach the
//! generated code wherever they stand: on a named definition (the type's own
//! `#[tool(annotations)]`), on a definition written in place (given to the field or the
//! elements that use it), on a list's items and a map's values (`items(..)`, `values(..)`).
//! Read back through the derive's front end, as `fidelity.rs` does for descriptions.

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolgate_core::model::{Kind, Schema, ToolModel};

use super::fidelity::{derive_errors, description, generated_struct};
use super::hostile::{described, tool_key};
use crate::schema::Builder;

/// Each of `title`, `$comment` and `description` present or not, with hard text.
fn annotated() -> impl Strategy<Value = Map<String, Value>> {
    (
        prop::option::of(description()),
        prop::option::of(description()),
        prop::option::of(description()),
    )
        .prop_map(|(title, comment, described)| {
            let mut keywords = Map::new();
            for (keyword, text) in [
                ("title", title),
                ("$comment", comment),
                ("description", described),
            ] {
                if let Some(text) = text {
                    keywords.insert(keyword.to_owned(), Value::String(text));
                }
            }
            keywords
        })
}

/// `schema` with `keywords` added.
fn with(mut schema: Value, keywords: &Map<String, Value>) -> Value {
    let members = schema.as_object_mut().expect("an object schema");
    members.extend(keywords.clone());
    schema
}

/// The annotations of `keywords` (all but `description`), in keyword order.
fn annotations(keywords: &Map<String, Value>) -> Vec<(String, Value)> {
    sorted(
        keywords
            .iter()
            .filter(|(keyword, _)| *keyword != "description")
            .map(|(keyword, value)| (keyword.clone(), value.clone()))
            .collect(),
    )
}

/// Annotations in keyword order (the reader holds them in its own order).
fn sorted(mut annotations: Vec<(String, Value)>) -> Vec<(String, Value)> {
    annotations.sort_by(|a, b| a.0.cmp(&b.0));
    annotations
}

/// The `annotations = "..."` of `#[tool(...)]` attributes, as JSON members in order.
fn annotations_attribute(attrs: &[syn::Attribute]) -> Vec<(String, Value)> {
    tool_key(attrs, "annotations")
        .map(|text| parsed(&text))
        .unwrap_or_default()
}

fn parsed(text: &str) -> Vec<(String, Value)> {
    toolgate_core::model::annotation_members(text)
}

/// The element schema (items or values) of a derived list or map schema.
fn element(schema: &Schema) -> &Schema {
    match &schema.kind {
        Kind::Array(array) => &array.items,
        Kind::Map(map) => &map.values,
        other => panic!("a list or a map: {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn annotations_reach_the_generated_code_wherever_they_stand(
        plain in annotated(),
        named in annotated(),
        items in annotated(),
        values in annotated(),
    ) {
        let definition = json!({"name": "t", "parameters": {
            "type": "object",
            "properties": {
                "by_reference": {"$ref": "#/$defs/Plain"},
                "list_of_references": {"type": "array", "items": {"$ref": "#/$defs/Plain"}},
                "list": {"type": "array", "items": with(json!({"type": "string"}), &items)},
                "map": {"type": "object", "additionalProperties": with(json!({"type": "integer"}), &values)},
                "named": {"$ref": "#/$defs/Named"}
            },
            "$defs": {
                "Plain": with(json!({"type": "string", "maxLength": 9}), &plain),
                "Named": with(json!({"type": "object", "properties": {"v": {"type": "integer"}}}), &named)
            }
        }})
        .to_string();
        ToolModel::from_definition_text(&definition).unwrap_or_else(|e| panic!("{e}\n{definition}"));
        let code = Builder::new()
            .generate_text("t.json", &definition)
            .unwrap_or_else(|e| panic!("{e}\n{definition}"));
        let fields = crate::derive::front_end_fields(&generated_struct(&code, "T"))
            .unwrap_or_else(|e| panic!("{e}\n{code}"));
        let field = |name: &str| fields.iter().find(|f| f.wire_name == name).expect("every property is a field");
        let text = |keywords: &Map<String, Value>| keywords.get("description").and_then(Value::as_str).map(str::to_owned);
        // A definition written in place gives its own to the field that uses it.
        let by_reference = field("by_reference");
        prop_assert_eq!(&by_reference.description, &text(&plain), "{}", code);
        let field_annotations = by_reference.annotations.as_deref().map(parsed).unwrap_or_default();
        prop_assert_eq!(sorted(field_annotations), annotations(&plain), "{}", code);
        // ... and to the elements that use it; inline elements keep theirs.
        for (name, keywords) in [("list_of_references", &plain), ("list", &items), ("map", &values)] {
            let field = field(name);
            let derived = field.schema.as_ref().expect("a typed field");
            let element = element(derived);
            prop_assert_eq!(&element.description, &text(keywords), "{}: {}", field.wire_name, code);
            prop_assert_eq!(sorted(element.annotations.clone()), annotations(keywords), "{}: {}", field.wire_name, code);
        }
        // A named definition is a type that carries its own.
        let named_type = generated_struct(&code, "Named");
        prop_assert_eq!(described(&named_type.attrs), text(&named), "{}", code);
        prop_assert_eq!(sorted(annotations_attribute(&named_type.attrs)), annotations(&named), "{}", code);
        prop_assert_eq!(derive_errors(&code), Vec::<String>::new(), "{}", code);
    }
}

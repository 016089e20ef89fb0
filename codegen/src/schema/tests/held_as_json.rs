//! Shapes serde cannot read as Rust types, held as JSON (`lower/checked.rs`), each named
//! after the real schema it comes from; and what stays refused.

use toolgate_core::model::read::read_value_schema;
use toolgate_core::model::{Json, Kind, ToolModel};

use super::{refusals, tool};
use crate::schema::Builder;

fn generate(definition: &str) -> String {
    Builder::new()
        .generate_text("t.json", definition)
        .unwrap_or_else(|error| panic!("{error}"))
}

/// The `schema = r#"..."#` texts of the generated code, read back.
fn schema_texts(code: &str) -> Vec<String> {
    let file = syn::parse_file(code).unwrap();
    let mut texts = Vec::new();
    let mut collect = |attrs: &[syn::Attribute]| {
        for attr in attrs.iter().filter(|a| a.path().is_ident("tool")) {
            let _ = attr.parse_nested_meta(|meta| {
                if meta.path.is_ident("schema") {
                    let text: syn::LitStr = meta.value()?.parse()?;
                    texts.push(text.value());
                } else if meta.input.peek(syn::Token![=]) {
                    let _: syn::Expr = meta.value()?.parse()?;
                }
                Ok(())
            });
        }
    };
    for item in &file.items {
        if let syn::Item::Struct(item) = item {
            collect(&item.attrs);
            for field in &item.fields {
                collect(&field.attrs);
            }
        }
    }
    texts
}

/// Notion's `API-move-page`: `parent` is one of two object shapes told apart by their keys,
/// which serde's untagged enums cannot do faithfully.
#[test]
fn notion_parent_of_two_object_shapes_is_held_as_json() {
    let code = generate(&tool(
        r#"{"parent": {"description": "The new parent.", "anyOf": [
            {"type": "object", "properties": {"page_id": {"type": "string"}}, "required": ["page_id"]},
            {"type": "object", "properties": {"database_id": {"type": "string"}}, "required": ["database_id"]}]}}"#,
    ));
    assert!(
        code.contains("pub parent: ::std::option::Option<::toolgate::serde_json::Value>,"),
        "{code}"
    );
    assert!(
        code.contains("/// The new parent.\n    ///\n    /// Held as JSON: "),
        "{code}"
    );
    assert!(
        code.contains(r#"schema = r#"{"anyOf":[{"type":"object","properties":{"page_id""#),
        "{code}"
    );
    assert!(code.contains("#[serde(default)]"), "{code}");
}

/// The text is the field's schema, definitions included: read back, it is the same schema.
#[test]
fn the_text_is_exactly_the_fields_schema() {
    let definition = r##"{"name": "t", "parameters": {"type": "object", "properties": {
        "labels": {"type": "array", "maxItems": 3, "items": {"$ref": "#/$defs/label"}}},
        "required": ["labels"],
        "$defs": {"label": {"oneOf": [{"type": "string", "minLength": 2}, {"type": "string", "pattern": "^#"}]}}}}"##;
    let code = generate(definition);
    assert!(
        code.contains("pub labels: ::toolgate::serde_json::Value,"),
        "{code}"
    );
    let texts = schema_texts(&code);
    assert_eq!(texts.len(), 1, "{code}");
    let json: Json = serde_json::from_str(&texts[0]).unwrap();
    let read = read_value_schema(&json).unwrap();
    let model = ToolModel::from_definition_text(definition).unwrap();
    let Kind::Object(object) = &model.input().kind else {
        unreachable!()
    };
    assert_eq!(read.input(), &object.fields[0].schema);
    assert_eq!(read.definitions(), model.definitions());
}

/// Cloudflare's `purge_cache`: the arguments are a union of object shapes, one per way to
/// call the tool. The tool is a struct around one JSON value.
#[test]
fn cloudflare_root_union_is_a_tool_around_a_json_value() {
    let code = generate(
        r#"{"name": "purge_cache", "description": "Purge.", "inputSchema": {"type": "object",
            "anyOf": [{"type": "object", "properties": {"tags": {"type": "array"}}, "required": ["tags"]},
                      {"type": "object", "properties": {"files": {"type": "array"}}, "required": ["files"]}]}}"#,
    );
    assert!(
        code.contains("#[tool(\n    name = \"purge_cache\",\n    schema = r#\"{\"anyOf\":"),
        "{code}"
    );
    assert!(
        code.contains("pub struct PurgeCache(\n    /// Held as JSON: "),
        "{code}"
    );
    assert!(
        code.contains("    pub ::toolgate::serde_json::Value,\n);"),
        "{code}"
    );
    assert!(code.contains("/// Purge.\n"), "{code}");
}

/// A root object without properties (a map of any keys) is held as JSON too.
#[test]
fn a_root_map_is_a_tool_around_a_json_value() {
    let code = generate(
        r#"{"name": "set_env", "parameters": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 4}}}"#,
    );
    assert!(code.contains("pub struct SetEnv(\n"), "{code}");
}

/// MongoDB's sort orders and object-valued `enum`s: no Rust literal holds an object.
#[test]
fn mongodb_object_valued_const_and_enum_are_held_as_json() {
    let code = generate(&tool(
        r#"{"a": {"const": {"k": 1}}, "b": {"enum": [1, {"k": 1}]}}"#,
    ));
    assert_eq!(
        schema_texts(&code),
        [r#"{"const":{"k":1}}"#, r#"{"enum":[1,{"k":1}]}"#],
        "{code}"
    );
}

/// A tagged union whose alternatives keep undeclared keys in a map: serde flattens maps into
/// structs only, so the union is held as JSON.
#[test]
fn a_tagged_alternative_with_a_map_is_held_as_json() {
    let union = r#"{"shape": {"oneOf": [
        {"type": "object", "properties": {"kind": {"const": "dot"}}, "required": ["kind"], "additionalProperties": {"type": "string"}},
        {"type": "object", "properties": {"kind": {"const": "box"}}, "required": ["kind"], "additionalProperties": {"type": "string"}}
    ]}}"#;
    let code = generate(&tool(union));
    assert!(
        code.contains("pub shape: ::std::option::Option<::toolgate::serde_json::Value>,"),
        "{code}"
    );
    assert!(
        code.contains("serde cannot flatten a map into an enum variant"),
        "{code}"
    );
    // The enum the try wrote is taken back.
    assert!(!code.contains("pub enum"), "{code}");
}

/// PostHog's feature-flag operators list values twice: one variant each.
#[test]
fn posthog_enum_with_a_repeated_value_is_one_variant() {
    let code = generate(&tool(
        r#"{"operator": {"type": "string", "enum": ["exact", "is_not", "exact"]}}"#,
    ));
    assert_eq!(code.matches("rename = \"exact\"").count(), 1, "{code}");
}

/// Bounds no value meets: the field refuses every value, as at run time.
#[test]
fn bounds_no_value_meets_are_held_as_json() {
    let code = generate(&tool(
        r#"{"n": {"type": "integer", "minimum": 5, "maximum": 1}}"#,
    ));
    assert_eq!(
        schema_texts(&code),
        [r#"{"type":"integer","minimum":5,"maximum":1}"#]
    );
}

/// What no road can enforce stays refused: a remote reference, at its pointer.
#[test]
fn a_remote_reference_stays_refused() {
    let definition = tool(r#"{"p": {"$ref": "https://example.com/p.json"}}"#);
    let error = Builder::new()
        .generate_text("t.json", &definition)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("t.json: /parameters/properties/p/$ref: "),
        "{error}"
    );
    assert_eq!(refusals(&definition).len(), 1);
}

/// Under `typed_only`, what would be held as JSON is refused at its pointer.
#[test]
fn typed_only_refuses_what_would_be_json() {
    assert_eq!(
        refusals(&tool(r#"{"a": {"const": {"k": 1}}}"#)),
        ["/parameters/properties/a/const: the `const` value {\"k\":1} is not a literal the derive takes (a string, number, bool, or an array of them)"]
    );
    let root = r#"{"name": "t", "parameters": {"type": "object", "anyOf": [{"type": "object"}, {"type": "object"}]}}"#;
    assert_eq!(
        refusals(root),
        ["/parameters: the arguments are not an object with `properties` (a union of object shapes, say)"]
    );
}

/// A JSON-pointer reference to an array of inline objects, inside those objects
/// (`{"$ref": "#/properties/data/properties/children"}`: a tree of nodes): the objects are
/// one struct holding a `Vec` of itself, no JSON value.
#[test]
fn a_self_containing_array_of_inline_objects_is_a_tree_of_structs() {
    let code = generate(
        r##"{"name": "write_tree", "inputSchema": {"type": "object", "properties": {"data": {"type": "object", "properties": {
            "children": {"type": "array", "maxItems": 5, "items": {"type": "object", "properties": {
                "name": {"type": "string"},
                "children": {"$ref": "#/properties/data/properties/children"}}, "required": ["name"]}}}}},
            "required": ["data"]}}"##,
    );
    assert!(!code.contains("serde_json::Value"), "{code}");
    assert!(!code.contains("schema ="), "{code}");
    let structs = code.matches("pub struct ").count();
    // The tool, `data` and one node struct.
    assert_eq!(structs, 3, "{code}");
    assert_eq!(code.matches("::std::vec::Vec<").count(), 2, "{code}");
    assert_eq!(code.matches("length(max = 5)").count(), 2, "{code}");
}

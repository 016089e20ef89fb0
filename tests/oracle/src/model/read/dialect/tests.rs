//! Issue 27 §9 (R1): the older dialects are rewritten in every subschema position, so a
//! schema reads the same in draft-07/BFCL form as in 2020-12 form.

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::model::ToolModel;

/// A schema tree that can be written in either dialect.
#[derive(Clone, Debug)]
enum Node {
    Integer,
    Float,
    Object(Vec<(String, Node)>),
    Ref(usize),
    Array(Box<Node>),
    Map(Box<Node>),
    AllOf(Vec<Node>),
    AnyOf(Vec<Node>),
    Tuple(Vec<Node>),
}

/// How many definitions a tree may refer to.
const DEFINITIONS: usize = 3;

fn node() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        Just(Node::Integer),
        Just(Node::Float),
        (0..DEFINITIONS).prop_map(Node::Ref),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            prop::collection::vec(("[a-c]", inner.clone()), 1..3).prop_map(|fields| {
                let mut seen = std::collections::BTreeSet::new();
                Node::Object(
                    fields
                        .into_iter()
                        .filter(|(name, _)| seen.insert(name.clone()))
                        .collect(),
                )
            }),
            inner.clone().prop_map(|n| Node::Array(Box::new(n))),
            inner.clone().prop_map(|n| Node::Map(Box::new(n))),
            prop::collection::vec(inner.clone(), 1..3).prop_map(Node::AllOf),
            prop::collection::vec(inner.clone(), 2..3).prop_map(Node::AnyOf),
            prop::collection::vec(inner, 2..3).prop_map(Node::Tuple),
        ]
    })
}

/// `old`: draft-07 `definitions` and BFCL's `dict`/`float`; else 2020-12.
fn write(node: &Node, old: bool) -> Value {
    match node {
        Node::Integer => json!({"type": "integer"}),
        Node::Float if old => json!({"type": "float"}),
        Node::Float => json!({"type": "number"}),
        Node::Object(fields) => {
            let properties: serde_json::Map<String, Value> = fields
                .iter()
                .map(|(name, field)| (name.clone(), write(field, old)))
                .collect();
            json!({"type": if old { "dict" } else { "object" }, "properties": properties})
        }
        Node::Ref(index) if old => json!({"$ref": format!("#/definitions/D{index}")}),
        Node::Ref(index) => json!({"$ref": format!("#/$defs/D{index}")}),
        Node::Array(items) => json!({"type": "array", "items": write(items, old)}),
        Node::Map(values) => json!({"type": "object", "additionalProperties": write(values, old)}),
        Node::AllOf(members) => {
            json!({"allOf": members.iter().map(|m| write(m, old)).collect::<Vec<_>>()})
        }
        Node::AnyOf(members) => {
            json!({"anyOf": members.iter().map(|m| write(m, old)).collect::<Vec<_>>()})
        }
        // draft-07's tuple is `items` as a list; 2020-12's is `prefixItems`.
        Node::Tuple(elements) => {
            let elements: Vec<Value> = elements.iter().map(|e| write(e, old)).collect();
            let count = elements.len();
            if old {
                json!({"type": "array", "items": elements, "additionalItems": false, "minItems": count})
            } else {
                json!({"type": "array", "prefixItems": elements, "items": false, "minItems": count})
            }
        }
    }
}

fn read(root: &Node, definitions: &[Node], old: bool) -> Result<ToolModel, String> {
    let defs: serde_json::Map<String, Value> = definitions
        .iter()
        .enumerate()
        .map(|(index, d)| (format!("D{index}"), write(d, old)))
        .collect();
    let mut schema = json!({"type": "object", "properties": {"x": write(root, old)}});
    schema[if old { "definitions" } else { "$defs" }] = Value::Object(defs);
    ToolModel::from_definition_text(&schema.to_string()).map_err(|e| e.to_string())
}

#[test]
fn a_draft_07_reference_inside_all_of_is_read() {
    let schema = r##"{"type":"object","properties":{"x":{"allOf":[{"$ref":"#/definitions/A"}]}},"definitions":{"A":{"type":"integer"}}}"##;
    let model = ToolModel::from_definition_text(schema).unwrap();
    let same = r##"{"type":"object","properties":{"x":{"allOf":[{"$ref":"#/$defs/A"}]}},"$defs":{"A":{"type":"integer"}}}"##;
    assert_eq!(model, ToolModel::from_definition_text(same).unwrap());
    let bfcl = r#"{"type":"dict","properties":{"x":{"allOf":[{"type":"dict","properties":{"n":{"type":"float"}}}]}}}"#;
    assert!(ToolModel::from_definition_text(bfcl).is_ok());
    // An `allOf` member may require what another member declares: the rewrite adds no
    // property for it there (the merge would see it declared twice, differently).
    let split = r#"{"type":"object","allOf":[{"properties":{"body":{"type":"string"}}},{"required":["body"]}]}"#;
    let model = ToolModel::from_definition_text(split).unwrap();
    assert!(model.json_schema().ends_with(
        r#""type":"object","properties":{"body":{"type":"string"}},"required":["body"]}"#
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Any tree of objects, arrays, maps, `allOf`, `anyOf`, tuples and references reads the
    /// same in both dialects: two equal models, or two refusals.
    #[test]
    fn the_older_dialects_read_as_2020_12_in_every_position(
        root in node(),
        definitions in prop::collection::vec(node(), DEFINITIONS),
    ) {
        let old = read(&root, &definitions, true);
        let new = read(&root, &definitions, false);
        match (&old, &new) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "draft-07 {:?}\n2020-12 {:?}", old.map(|_| ()), new.map(|_| ())),
        }
    }
}

use std::collections::BTreeMap;

use super::*;
use crate::model::{Field, Kind, Schema};

fn model_with_references() -> ToolModel {
    let definitions: BTreeMap<String, Schema> = [
        (
            "Point".to_owned(),
            Schema::object(vec![Field::required("x", Schema::integer())]),
        ),
        ("Alias".to_owned(), Schema::reference("Point")),
        ("Loop".to_owned(), Schema::reference("Loop")),
    ]
    .into();
    let input = Schema::object(vec![
        Field::required("at", Schema::reference("Alias")),
        Field::optional("maybe", Schema::reference("Point").nullable()),
        Field::optional("lost", Schema::reference("Nowhere")),
        Field::optional("looping", Schema::reference("Loop")),
    ]);
    ToolModel::new("t", None, input, definitions)
}

fn field_node(model: &ToolModel, at: usize) -> NodeId {
    let Kind::Object(object) = &model.input().kind else {
        unreachable!()
    };
    model.plan().node_of(&object.fields[at].schema).unwrap()
}

#[test]
fn references_are_followed_once_when_the_plan_is_built() {
    let model = model_with_references();
    let plan = model.plan();
    assert_eq!(Some(plan.root()), plan.node_of(model.input()));
    let point = plan.node_of(&model.definitions()["Point"]).unwrap();
    assert_eq!(plan.target(field_node(&model, 0)), Some(point));
    assert_eq!(plan.target(field_node(&model, 1)), Some(point));
    assert_eq!(plan.target(field_node(&model, 2)), None, "unknown");
    assert_eq!(plan.target(field_node(&model, 3)), None, "a cycle");
    assert_eq!(plan.target(point), Some(point));
    assert!(plan.accepts_null(field_node(&model, 1)));
    assert!(!plan.accepts_null(field_node(&model, 0)));
    assert!(plan.keys(point).is_some() && plan.keys(field_node(&model, 0)).is_none());
    // Every schema is a node: the input, its 4 fields, Point and its field, Alias, Loop.
    assert_eq!(plan.len(), 9);
}

#[test]
fn a_moved_model_keeps_its_plan_true() {
    let model = model_with_references();
    let before = model.key_match(
        match &model.definitions()["Point"].kind {
            Kind::Object(object) => object,
            _ => unreachable!(),
        },
        "X",
        true,
    );
    let moved = Box::new(model);
    let Kind::Object(object) = &moved.definitions()["Point"].kind else {
        unreachable!()
    };
    assert_eq!(moved.key_match(object, "X", true), before);
    let point = moved.plan().node_of(&moved.definitions()["Point"]).unwrap();
    assert!(std::ptr::eq(
        moved.plan().schema(point),
        &moved.definitions()["Point"]
    ));
    assert!(std::ptr::eq(
        moved.plan().schema(moved.plan().root()),
        moved.input()
    ));
}

#[test]
fn a_plan_is_shared_across_threads() {
    fn shared<T: Send + Sync>() {}
    shared::<Plan>();
    let model = std::sync::Arc::new(model_with_references());
    let nodes = std::thread::spawn({
        let model = model.clone();
        move || model.plan().len()
    })
    .join()
    .unwrap();
    assert_eq!(nodes, model.plan().len());
}

#[test]
fn a_clone_builds_its_own_plan() {
    let model = model_with_references();
    let clone = model.clone();
    assert!(!std::ptr::eq(model.plan(), clone.plan()));
    assert!(std::ptr::eq(
        clone.plan().schema(clone.plan().root()),
        clone.input()
    ));
}

#[test]
fn a_default_is_judged_once_for_every_fill() {
    let input = Schema::object(vec![
        Field::optional("n", Schema::integer().with_default(serde_json::json!(5.0))),
        Field::optional("s", Schema::string().with_default(serde_json::json!(7))),
        Field::optional("none", Schema::string()),
    ]);
    let model = ToolModel::new("t", None, input, Default::default());
    let Kind::Object(object) = &model.input().kind else {
        unreachable!()
    };
    let judged = std::cell::Cell::new(0);
    for _ in 0..3 {
        let filled = model.plan().field_default(&object.fields[0].schema, || {
            judged.set(judged.get() + 1);
            crate::decode::filled_default(&model, &object.fields[0])
        });
        // An integer's default written with a fraction is handed on as the integer.
        assert_eq!(filled, Some(serde_json::json!(5)));
    }
    assert_eq!(judged.get(), 1);
    let misfit = model.plan().field_default(&object.fields[1].schema, || {
        crate::decode::filled_default(&model, &object.fields[1])
    });
    assert_eq!(
        misfit, None,
        "a number is no string: the default does not fit"
    );
    let without = model
        .plan()
        .field_default(&object.fields[2].schema, || unreachable!());
    assert_eq!(without, None);
    // The decoder fills the one that fits, and logs it.
    let decoded = crate::decode::decode_text(&model, b"{}", &Default::default()).unwrap();
    assert_eq!(decoded.value, serde_json::json!({"n": 5}));
}

/// A schema built apart from the model (`check_against` takes any schema; the schema
/// compiler checks a constant against a clone) is checked like the model's own: its object
/// is scanned, its default judged each time. The plan has no node for it.
#[test]
fn a_schema_built_apart_is_checked_like_the_models_own() {
    use serde_json::json;
    let model = ToolModel::new("t", None, Schema::object(vec![]), Default::default());
    let mut fields: Vec<Field> = (0..40)
        .map(|i| Field::optional(format!("f{i}"), Schema::integer()))
        .collect();
    fields.push(Field::required("n", Schema::integer()).alias("count"));
    let apart = Schema::object(fields.clone()).deny_unknown_fields();
    assert_eq!(model.plan().node_of(&apart), None);
    assert!(model
        .check_against(&apart, &json!({"n": 1, "f3": 2}))
        .is_ok());
    assert!(model.check_against(&apart, &json!({"count": 1})).is_ok());
    assert!(model.check_against(&apart, &json!({"N": 1})).is_err());
    // The same object inside a model answers alike.
    let inside = ToolModel::new(
        "t",
        None,
        Schema::object(fields).deny_unknown_fields(),
        Default::default(),
    );
    for value in [
        json!({"n": 1, "f3": 2}),
        json!({"count": 1}),
        json!({"N": 1}),
    ] {
        assert_eq!(
            model.check_against(&apart, &value).is_ok(),
            inside.check_against(inside.input(), &value).is_ok()
        );
    }
    let defaulted = Schema::integer().with_default(json!(3));
    let judged = std::cell::Cell::new(0);
    for _ in 0..2 {
        let filled = model.plan().field_default(&defaulted, || {
            judged.set(judged.get() + 1);
            Some(json!(3))
        });
        assert_eq!(filled, Some(json!(3)));
    }
    assert_eq!(
        judged.get(),
        2,
        "judged each time: nothing to keep the verdict in"
    );
}

/// A model with every kind of child: a tuple with prefix and items, a map with
/// `propertyNames`, an object with an undeclared keys' schema and `propertyNames`, a union,
/// references (one that leads nowhere, one nullable).
fn model_with_every_child() -> ToolModel {
    use crate::model::UnionMode;
    let definitions = model_with_references().definitions().clone();
    let input = Schema::object(vec![
        Field::required(
            "pair",
            Schema::tuple(vec![Schema::string(), Schema::reference("Point")]),
        ),
        Field::optional(
            "scores",
            Schema::map(Schema::integer()).keys(|keys| keys.pattern("^[a-z]+$")),
        ),
        Field::optional(
            "open",
            Schema::object(vec![Field::optional("a", Schema::boolean())])
                .additional(Schema::reference("Alias").nullable())
                .keys(|keys| keys.max_length(8)),
        ),
        Field::optional(
            "either",
            Schema::union(
                UnionMode::AnyOf,
                vec![Schema::reference("Point"), Schema::array(Schema::string())],
            ),
        ),
        Field::optional("lost", Schema::reference("Nowhere")),
    ]);
    ToolModel::new("t", None, input, definitions)
}

/// Every child step of a node's handle, with the schema it must lead to.
fn children<'m>(model: &'m ToolModel, node: Node<'m>) -> Vec<(Node<'m>, &'m Schema)> {
    let Some(resolved) = node.resolved else {
        return Vec::new();
    };
    match &resolved.kind {
        Kind::Array(array) => (0..array.prefix_items.len() + 2)
            .map(|at| (node.item(model, array, at), array.item_schema(at)))
            .collect(),
        Kind::Map(map) => {
            let mut steps = vec![(node.map_values(model, map), &*map.values)];
            steps.extend(node.map_keys(model, map).zip(map.property_names.as_deref()));
            steps
        }
        Kind::Object(object) => {
            let mut steps: Vec<_> = (0..object.fields.len())
                .map(|at| (node.field(model, object, at), &object.fields[at].schema))
                .collect();
            if let crate::model::Additional::Schema(extra) = &object.additional {
                steps.push((node.extra(model, object).unwrap(), &**extra));
            }
            steps.extend(
                node.object_keys(model, object)
                    .zip(object.property_names.as_deref()),
            );
            steps
        }
        Kind::Union(union) => (0..union.variants.len())
            .map(|at| (node.variant(model, union, at), &union.variants[at]))
            .collect(),
        _ => Vec::new(),
    }
}

/// Each node's handle answers as the model does, and steps to the children its schema has
/// (the plan's edges are in order); a clone of the schema, built apart, answers the same.
#[test]
fn each_node_steps_to_its_children_and_a_clone_answers_alike() {
    let model = model_with_every_child();
    let plan = model.plan();
    let mut visited = 0;
    for id in (0..plan.len()).map(|at| NodeId(at as u32)) {
        let node = plan.node(id);
        assert_eq!(node.id, Some(id));
        assert_eq!(
            node.resolved.map(|r| r as *const Schema),
            model.resolve(node.schema).map(|r| r as *const Schema)
        );
        assert_eq!(node.accepts_null, model.accepts_null(node.schema));
        let clone = node.schema.clone();
        let apart = Node::apart(&model, &clone);
        assert_eq!(apart.id, None);
        assert_eq!(apart.accepts_null, node.accepts_null);
        assert_eq!(apart.resolved.is_some(), node.resolved.is_some());
        let attached = children(&model, node);
        let apart_children = children(&model, apart);
        assert_eq!(attached.len(), apart_children.len());
        for ((child, schema), (apart_child, apart_schema)) in attached.iter().zip(&apart_children) {
            assert!(std::ptr::eq(child.schema, *schema));
            assert_eq!(Some(child.id.unwrap()), plan.node_of(schema));
            assert_eq!(*apart_schema, *schema);
            assert_eq!(apart_child.accepts_null, child.accepts_null);
            assert_eq!(apart_child.resolved.is_some(), child.resolved.is_some());
            // A reference leads back into the model's definitions.
            if matches!(apart_schema.kind, Kind::Ref(_)) {
                assert_eq!(apart_child.target, child.target);
            }
            visited += 1;
        }
    }
    assert!(visited > 15, "{visited} children stepped to");
}

#[test]
fn a_reference_built_apart_is_attached_again() {
    let model = model_with_references();
    let reference = Schema::reference("Alias");
    let apart = Node::apart(&model, &reference);
    let point = model.plan().node_of(&model.definitions()["Point"]);
    assert_eq!(apart.id, None);
    assert_eq!(apart.target, point);
    assert!(std::ptr::eq(
        model.plan().keys_for(apart.target),
        model.plan().keys(point.unwrap()).unwrap()
    ));
}

/// A key equal to a field's wire name names that field without a scan only where no field
/// before it answers to the name (by its own name or an alias): the first field to answer
/// to a key is the one it names, on every road.
#[test]
fn a_wire_name_answered_by_an_earlier_field_is_looked_up() {
    let input = Schema::object(vec![
        Field::optional("a", Schema::integer()).alias("b"),
        Field::optional("b", Schema::integer()),
        Field::optional("c", Schema::integer()),
        Field::optional("c", Schema::string()),
    ]);
    let model = ToolModel::new("t", None, input, Default::default());
    let Kind::Object(object) = &model.input().kind else {
        unreachable!()
    };
    let keys = model.plan().keys_of(object);
    let answered: Vec<bool> = (0..5).map(|at| keys.answers_first(at)).collect();
    assert_eq!(answered, [true, false, true, false, false]);
    // `b` is field 0's alias; the second `c` is never named.
    let decoded =
        crate::decode::decode_text(&model, br#"{"b": 1, "c": 2}"#, &Default::default()).unwrap();
    assert_eq!(decoded.value, serde_json::json!({"a": 1, "c": 2}));
}

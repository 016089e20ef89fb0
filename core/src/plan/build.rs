//! Building a [`Plan`]: one pass over the model's schemas, then each node's target and
//! tables. Linear in the model's size (a reference chain is followed at most
//! [`MOST_FOLLOWED_REFERENCES`](crate::model::MOST_FOLLOWED_REFERENCES) steps), without
//! recursion: a model nested as deep as the reader allows is built in a loop.

use std::ptr::NonNull;
use std::sync::OnceLock;

use super::{address, ByAddress, EnumTable, KeyTable, Node, NodeId, Plan, SCANNED_VALUES};
use crate::model::{Additional, Kind, Schema, ToolModel};

/// The plan of `model`.
pub(super) fn plan(model: &ToolModel) -> Plan {
    let schemas = every_schema(model);
    let by_schema: ByAddress<NodeId> = schemas
        .iter()
        .enumerate()
        .map(|(at, schema)| (address(*schema), NodeId(at as u32)))
        .collect();
    let mut keys = Vec::new();
    let mut enums = Vec::new();
    let mut by_object = ByAddress::default();
    let mut by_enum = ByAddress::default();
    let mut defaults = 0u32;
    let nodes = schemas
        .iter()
        .map(|&schema| {
            let target = model
                .resolve(schema)
                .map(|described| by_schema[&address(described)]);
            let mut node = Node {
                schema: NonNull::from(schema),
                target,
                accepts_null: model.accepts_null(schema),
                keys: None,
                enumeration: None,
                default: schema.default.is_some().then(|| {
                    defaults += 1;
                    defaults - 1
                }),
            };
            match &schema.kind {
                Kind::Object(object) => {
                    let at = keys.len() as u32;
                    keys.push(KeyTable::of(object));
                    by_object.insert(address(object), at);
                    node.keys = Some(at);
                }
                Kind::Enum(enumeration) if enumeration.values.len() > SCANNED_VALUES => {
                    let at = enums.len() as u32;
                    enums.push(EnumTable::of(enumeration));
                    by_enum.insert(address(enumeration), at);
                    node.enumeration = Some(at);
                }
                _ => {}
            }
            node
        })
        .collect();
    Plan {
        nodes,
        keys: keys.into(),
        enums: enums.into(),
        root: NodeId(0),
        by_schema,
        by_object,
        by_enum,
        defaults_fit: OnceLock::new(),
        defaults: (0..defaults).map(|_| OnceLock::new()).collect(),
    }
}

/// Every schema of `model` in pre-order, the input first (so its node is 0), then each
/// definition's: items, fields, the schema of undeclared keys, `propertyNames`,
/// alternatives. References are not followed (what they name is a definition, visited
/// itself).
fn every_schema(model: &ToolModel) -> Vec<&Schema> {
    let mut schemas = Vec::new();
    let mut pending: Vec<&Schema> = model.definitions().values().rev().collect();
    pending.push(model.input());
    while let Some(schema) = pending.pop() {
        schemas.push(schema);
        let first_child = pending.len();
        match &schema.kind {
            Kind::Array(array) => pending.extend(array.schemas()),
            Kind::Map(map) => {
                pending.push(&map.values);
                pending.extend(map.property_names.as_deref());
            }
            Kind::Object(object) => {
                pending.extend(object.fields.iter().map(|field| &field.schema));
                if let Additional::Schema(extra) = &object.additional {
                    pending.push(extra);
                }
                pending.extend(object.property_names.as_deref());
            }
            Kind::Union(union) => pending.extend(&union.variants),
            _ => {}
        }
        // Children in their order: the stack pops the last first.
        pending[first_child..].reverse();
    }
    schemas
}

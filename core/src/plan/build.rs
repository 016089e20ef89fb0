//! Building a [`Plan`]: one pass over the model's schemas, then each node's target and
//! tables. Linear in the model's size (a reference chain is followed at most
//! [`MOST_FOLLOWED_REFERENCES`](crate::model::MOST_FOLLOWED_REFERENCES) steps), without
//! recursion: a model nested as deep as the reader allows is built in a loop.

use std::ptr::NonNull;
use std::sync::OnceLock;

use super::{address, ByAddress, Entry, EnumTable, KeyTable, NodeId, Plan, SCANNED_VALUES};
use crate::model::{Additional, Kind, Schema, ToolModel};

/// The plan of `model`.
pub(super) fn plan(model: &ToolModel) -> Plan {
    let Walked {
        schemas,
        children,
        edges,
    } = every_schema(model);
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
        .zip(children)
        .map(|(&schema, children)| {
            let target = model
                .resolve(schema)
                .map(|described| by_schema[&address(described)]);
            let mut node = Entry {
                schema: NonNull::from(schema),
                children,
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
        edges: edges.into(),
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

/// Every schema of a model in pre-order, and where each one's children are.
struct Walked<'m> {
    schemas: Vec<&'m Schema>,
    /// Per schema, the index of its first child in `edges`.
    children: Vec<u32>,
    /// The children's nodes, each schema's in the order [`super::Plan::edge`] reads them.
    edges: Vec<NodeId>,
}

/// Every schema of `model` in pre-order, the input first (so its node is 0), then each
/// definition's: items, fields, the schema of undeclared keys, `propertyNames`,
/// alternatives. References are not followed (what they name is a definition, visited
/// itself). Each schema's children are recorded as edges, in this order:
///
/// | kind | edges |
/// | --- | --- |
/// | array | `prefixItems`, then `items` |
/// | map | the values' schema, then `propertyNames` if any |
/// | object | the fields, then `additionalProperties`' schema if any, then `propertyNames` if any |
/// | union | the alternatives |
fn every_schema(model: &ToolModel) -> Walked<'_> {
    const UNSET: NodeId = NodeId(u32::MAX);
    let mut walked = Walked {
        schemas: Vec::new(),
        children: Vec::new(),
        edges: Vec::new(),
    };
    // Each schema still to visit, with the edge that leads to it (none for the roots).
    let mut pending: Vec<(&Schema, Option<usize>)> = model
        .definitions()
        .values()
        .rev()
        .map(|schema| (schema, None))
        .collect();
    pending.push((model.input(), None));
    while let Some((schema, edge)) = pending.pop() {
        let id = NodeId(walked.schemas.len() as u32);
        if let Some(edge) = edge {
            walked.edges[edge] = id;
        }
        walked.schemas.push(schema);
        walked.children.push(walked.edges.len() as u32);
        let first_child = pending.len();
        let mut child = |schema| {
            pending.push((schema, Some(walked.edges.len())));
            walked.edges.push(UNSET);
        };
        match &schema.kind {
            Kind::Array(array) => array.schemas().for_each(&mut child),
            Kind::Map(map) => {
                child(&map.values);
                map.property_names
                    .as_deref()
                    .into_iter()
                    .for_each(&mut child);
            }
            Kind::Object(object) => {
                object.fields.iter().for_each(|field| child(&field.schema));
                if let Additional::Schema(extra) = &object.additional {
                    child(extra);
                }
                object
                    .property_names
                    .as_deref()
                    .into_iter()
                    .for_each(&mut child);
            }
            Kind::Union(union) => union.variants.iter().for_each(&mut child),
            _ => {}
        }
        // Children in their order: the stack pops the last first.
        pending[first_child..].reverse();
    }
    debug_assert!(walked.edges.iter().all(|&edge| edge != UNSET));
    walked
}

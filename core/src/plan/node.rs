//! [`Node`]: one schema of the model as the walkers carry it, with what every visit asks
//! of it (where its references lead, whether it takes `null`, its node for tables and
//! children) answered once, and the steps to its children.
//!
//! A walker starts at the plan's root and steps to children by position (the `n`th field,
//! the item at an index, an alternative), each an array read. A schema built apart from the
//! model (a clone handed to `ToolModel::check_against`) has no node: its handle answers the
//! same questions on demand, as the model would (`ToolModel::resolve`, `accepts_null`), and
//! its children are apart too, until a reference leads back into the model's definitions,
//! where the walk is attached again.

use std::ptr;

use super::{EnumTable, KeyTable, NodeId, Plan};
use crate::model::{ArraySchema, MapSchema, ObjectSchema, Schema, ToolModel, UnionSchema};

/// One use of a schema, as a walker carries it (see the module's documentation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<'m> {
    /// The schema of the use (a reference stays one: its message and `nullable` are its own).
    pub(crate) schema: &'m Schema,
    /// The schema describing the values: `schema` with its references followed; `None`
    /// where they lead nowhere.
    pub(crate) resolved: Option<&'m Schema>,
    /// The use's node; `None` for a schema built apart.
    pub(crate) id: Option<NodeId>,
    /// The node of `resolved`: its children, key table and enum table.
    pub(crate) target: Option<NodeId>,
    /// Whether the use takes `null` ([`ToolModel::accepts_null`]).
    pub(crate) accepts_null: bool,
}

impl Plan {
    /// The `offset`th child of `parent` (see `build::every_schema` for the order).
    fn edge(&self, parent: NodeId, offset: usize) -> NodeId {
        self.edges[self.nodes[parent.index()].children as usize + offset]
    }

    /// The `offset`th child of `parent` (see `build::every_schema` for the order: an
    /// object's fields first, an array's item schemas).
    pub(crate) fn child(&self, parent: NodeId, offset: usize) -> NodeId {
        self.edge(parent, offset)
    }

    /// The children of `parent` (see [`Plan::child`]), and the nodes after them: index it
    /// only below its number of children.
    pub(crate) fn children(&self, parent: NodeId) -> &[NodeId] {
        &self.edges[self.nodes[parent.index()].children as usize..]
    }

    /// The handle of node `id`.
    pub(crate) fn node(&self, id: NodeId) -> Node<'_> {
        let entry = &self.nodes[id.index()];
        Node {
            schema: self.schema(id),
            resolved: entry.target.map(|target| self.schema(target)),
            id: Some(id),
            target: entry.target,
            accepts_null: entry.accepts_null,
        }
    }

    /// The key table of an object whose node is `object` (its `target`); an object built
    /// apart is scanned (see [`Plan::keys_of`]).
    pub(crate) fn keys_for(&self, object: Option<NodeId>) -> &KeyTable {
        match object.and_then(|object| self.nodes[object.index()].keys) {
            Some(at) => &self.keys[at as usize],
            None => &super::tables::SCANNED,
        }
    }

    /// The table of a long enum whose node is `enumeration` (its `target`).
    pub(crate) fn enum_for(&self, enumeration: Option<NodeId>) -> Option<&EnumTable> {
        let at = self.nodes[enumeration?.index()].enumeration?;
        Some(&self.enums[at as usize])
    }

    /// [`Plan::field_default`] for a field whose schema's node is `field` (its `id`): the
    /// verdict's slot is found without a lookup.
    pub(crate) fn field_default_at(
        &self,
        field: Option<NodeId>,
        schema: &Schema,
        judge: impl FnOnce() -> Option<serde_json::Value>,
    ) -> Option<serde_json::Value> {
        schema.default.as_ref()?;
        match field.and_then(|field| self.nodes[field.index()].default) {
            Some(slot) => self.defaults[slot as usize].get_or_init(judge).clone(),
            None => judge(),
        }
    }
}

impl<'m> Node<'m> {
    /// The handle of `schema`: its node when it is a schema of `model` (one lookup by
    /// address), else built apart.
    pub(crate) fn of(model: &'m ToolModel, schema: &'m Schema) -> Self {
        let plan = model.plan();
        match plan.node_of(schema) {
            Some(id) => plan.node(id),
            None => Node::apart(model, schema),
        }
    }

    /// The handle of a schema built apart from `model`: answered on demand, as the model
    /// answers. A reference into the model's definitions leads back to their nodes.
    pub(crate) fn apart(model: &'m ToolModel, schema: &'m Schema) -> Self {
        let resolved = model.resolve(schema);
        Node {
            schema,
            resolved,
            id: None,
            target: resolved.and_then(|resolved| model.plan().node_of(resolved)),
            accepts_null: model.accepts_null(schema),
        }
    }

    /// The child at `offset` of this node's values, which is `child` of `resolved`.
    #[inline]
    fn child(self, model: &'m ToolModel, offset: usize, child: &'m Schema) -> Node<'m> {
        match self.target {
            Some(target) => {
                let plan = model.plan();
                let node = plan.node(plan.edge(target, offset));
                debug_assert!(ptr::eq(node.schema, child), "the plan's edges are in order");
                node
            }
            None => Node::apart(model, child),
        }
    }

    /// The field at `at` of `object`, this node's values' schema.
    pub(crate) fn field(self, model: &'m ToolModel, object: &'m ObjectSchema, at: usize) -> Self {
        self.child(model, at, &object.fields[at].schema)
    }

    /// The schema of `object`'s undeclared keys, where it has one.
    pub(crate) fn extra(self, model: &'m ToolModel, object: &'m ObjectSchema) -> Option<Self> {
        match &object.additional {
            crate::model::Additional::Schema(extra) => {
                Some(self.child(model, object.fields.len(), extra))
            }
            _ => None,
        }
    }

    /// The `propertyNames` schema of `object`, where it has one.
    pub(crate) fn object_keys(
        self,
        model: &'m ToolModel,
        object: &'m ObjectSchema,
    ) -> Option<Self> {
        let keys = object.property_names.as_deref()?;
        let extra = matches!(object.additional, crate::model::Additional::Schema(_));
        Some(self.child(model, object.fields.len() + usize::from(extra), keys))
    }

    /// The schema of `map`'s values.
    pub(crate) fn map_values(self, model: &'m ToolModel, map: &'m MapSchema) -> Self {
        self.child(model, 0, &map.values)
    }

    /// The `propertyNames` schema of `map`, where it has one.
    pub(crate) fn map_keys(self, model: &'m ToolModel, map: &'m MapSchema) -> Option<Self> {
        Some(self.child(model, 1, map.property_names.as_deref()?))
    }

    /// The schema of the item at `index` of `array` ([`ArraySchema::item_schema`]).
    pub(crate) fn item(self, model: &'m ToolModel, array: &'m ArraySchema, index: usize) -> Self {
        let offset = index.min(array.prefix_items.len());
        self.child(model, offset, array.item_schema(index))
    }

    /// The alternative at `at` of `union`.
    pub(crate) fn variant(self, model: &'m ToolModel, union: &'m UnionSchema, at: usize) -> Self {
        self.child(model, at, &union.variants[at])
    }

    /// The key table of this node's values, an object (scanned when built apart).
    pub(crate) fn keys(self, model: &'m ToolModel) -> &'m KeyTable {
        model.plan().keys_for(self.target)
    }

    /// The table of this node's values, a long enum (`None`: scanned).
    pub(crate) fn enum_table(self, model: &'m ToolModel) -> Option<&'m EnumTable> {
        model.plan().enum_for(self.target)
    }
}

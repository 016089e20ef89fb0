//! The plan: a tool model compiled once, on first use, into what every road reads while it
//! walks a value (issue 29).
//!
//! The [`ToolModel`] is the description: a tree of [`Schema`]s with named definitions,
//! what the derive, the schema reader and the writers build and compare. Walking a value
//! against it directly meant interpreting it at every value: following references by name,
//! fetching an object's key tables from a map keyed by its address, deciding again whether
//! a use takes `null`. The plan does that work once per model:
//! - an arena of nodes ([`NodeId`]), one for each schema of the model (each use: a reference is a
//!   node of its own, since whether it takes `null` and its description belong to the use),
//!   each with the node that describes its values ([`Plan::target`], references followed
//!   once, here) and whether it takes `null`;
//! - per object one [`KeyTable`] (wire names, aliases, folded names with their ties): every
//!   road that matches a key to a field or steps along a path goes through it (see
//!   [`keys`]), and one step along a path ([`ToolModel::step`]) for everything that walks a
//!   path over the model;
//! - per long enum one [`EnumTable`].
//!
//! The plan is built in one pass, linear in the model's size (`plan/build.rs`), and kept in the
//! model's `OnceLock`: a model is never changed after it is built, so the plan stays true.
//! It points into the model it was built from (its schemas are boxed or held in a
//! `BTreeMap`, so they keep their addresses when the model moves) and is reachable only
//! through `&ToolModel`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ptr::NonNull;
use std::sync::OnceLock;

use serde_json::Value;

use crate::model::{EnumSchema, ObjectSchema, Schema, ToolModel};

mod build;
pub mod keys;
mod node;
mod path;
mod tables;

pub use keys::{KeyMatch, KeyTarget, KeyTargets, Tie};
pub(crate) use node::Node;
pub use path::Step;
pub use tables::{work, EnumTable, FoldedMatch, KeyTable, SCANNED_FIELDS, SCANNED_VALUES};

/// A node of a [`Plan`]: one schema of the model, one use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// One schema of the model, compiled.
#[derive(Debug)]
struct Entry {
    /// The schema, inside the model the plan belongs to.
    schema: NonNull<Schema>,
    /// Where the node's children start in [`Plan::edges`] (see `build::every_schema` for
    /// their order).
    children: u32,
    /// The node describing this one's values: itself, or where its references lead; `None`
    /// for a reference the model cannot follow (unknown, a cycle, a chain longer than
    /// [`crate::model::MOST_FOLLOWED_REFERENCES`]).
    target: Option<NodeId>,
    /// Whether the use takes `null` ([`ToolModel::accepts_null`]).
    accepts_null: bool,
    /// The key table of an object node (an index into [`Plan::keys`]).
    keys: Option<u32>,
    /// The table of a long enum node (an index into [`Plan::enums`]).
    enumeration: Option<u32>,
    /// Where the verdict on the node's `default` is kept, for a schema with one (an index
    /// into [`Plan::defaults`]).
    default: Option<u32>,
}

/// A tool model compiled for walking (see the module's documentation).
#[derive(Debug)]
pub struct Plan {
    nodes: Box<[Entry]>,
    /// Every node's children, each node's in a run of their own ([`Entry::children`]).
    edges: Box<[NodeId]>,
    keys: Box<[KeyTable]>,
    enums: Box<[EnumTable]>,
    root: NodeId,
    /// Each schema's node, by the schema's address: for the callers that hold a `&Schema`
    /// of the model rather than a node.
    by_schema: ByAddress<NodeId>,
    /// Each object's key table, by the `ObjectSchema`'s address (see [`Plan::by_schema`]).
    by_object: ByAddress<u32>,
    /// Each long enum's table, by the `EnumSchema`'s address.
    by_enum: ByAddress<u32>,
    /// Whether every field default of the model fits its field (judged by the decoder, once).
    defaults_fit: OnceLock<bool>,
    /// Per schema with a `default`: the value an absent field of that schema is given, or
    /// `None` where the default does not fit the schema (judged by the decoder, once).
    defaults: Box<[OnceLock<Option<Value>>]>,
}

// SAFETY: a `Plan` only reads the schemas its nodes point to, which belong to the
// `ToolModel` holding the plan. A model is never changed after it is built (its fields are
// private and no method takes `&mut self`), its schemas keep their addresses when it moves
// (the input is boxed, definitions live in a `BTreeMap`'s heap nodes), and the plan is
// reachable only as `&Plan` through `&ToolModel`, so it never outlives them. Sharing it
// across threads shares `&Schema`s, which are `Sync`.
unsafe impl Send for Plan {}
// SAFETY: as above.
unsafe impl Sync for Plan {}

impl Plan {
    /// The node of the arguments' schema.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// The node of `schema`, when it is a schema of this plan's model (`None` for a schema
    /// built apart, as `ToolModel::check_against` may be given).
    pub fn node_of(&self, schema: &Schema) -> Option<NodeId> {
        self.by_schema.get(&address(schema)).copied()
    }

    /// The schema of `node`.
    pub fn schema(&self, node: NodeId) -> &Schema {
        // SAFETY: see `unsafe impl Send for Plan`: the schema lives as long as the model,
        // which outlives `&self`.
        unsafe { self.nodes[node.index()].schema.as_ref() }
    }

    /// Every schema of the model, one per node: the input, then each definition, and every
    /// schema inside them (items, fields, the schema of undeclared keys, `propertyNames`,
    /// alternatives), references not followed.
    pub(crate) fn schemas(&self) -> impl Iterator<Item = &Schema> {
        (0..self.nodes.len()).map(|at| self.schema(NodeId(at as u32)))
    }

    /// The node that describes `node`'s values: itself, or where its references lead;
    /// `None` for a reference the model cannot follow.
    pub fn target(&self, node: NodeId) -> Option<NodeId> {
        self.nodes[node.index()].target
    }

    /// Whether `node`'s use takes `null`.
    pub fn accepts_null(&self, node: NodeId) -> bool {
        self.nodes[node.index()].accepts_null
    }

    /// The key table of an object node.
    pub fn keys(&self, node: NodeId) -> Option<&KeyTable> {
        let at = self.nodes[node.index()].keys?;
        Some(&self.keys[at as usize])
    }

    /// The table of a long enum node (more than [`SCANNED_VALUES`] values).
    pub fn enumeration(&self, node: NodeId) -> Option<&EnumTable> {
        let at = self.nodes[node.index()].enumeration?;
        Some(&self.enums[at as usize])
    }

    /// The key table of `object`. An object that is not part of this plan's model (a
    /// schema built apart and handed to `ToolModel::check_against`, or a clone the schema
    /// compiler checks a constant against) has none: it is scanned, which answers alike
    /// and only costs more for a wide one. Schemas built apart come from code, never from
    /// input: every schema of a model is in its plan.
    pub(crate) fn keys_of(&self, object: &ObjectSchema) -> &KeyTable {
        match self.by_object.get(&address(object)) {
            Some(&at) => &self.keys[at as usize],
            None => &tables::SCANNED,
        }
    }

    /// The table of `enumeration`, an enum of this plan's model, where it is long.
    pub(crate) fn enum_of(&self, enumeration: &EnumSchema) -> Option<&EnumTable> {
        let at = *self.by_enum.get(&address(enumeration))?;
        Some(&self.enums[at as usize])
    }

    /// The value an absent field whose schema is `schema` is given (`None` without a
    /// `default`): `judge` decides it (the default as the decoder hands it on, or `None` where it does
    /// not fit). For a schema of this plan's model the verdict is kept, so `judge` runs
    /// once per model; a default is judged without context (every repair off), so one
    /// verdict serves every fill, on every road. A schema built apart is judged each time.
    ///
    /// `judge` must not ask for the same default again (checking a value fills no default).
    pub(crate) fn field_default(
        &self,
        schema: &Schema,
        judge: impl FnOnce() -> Option<Value>,
    ) -> Option<Value> {
        schema.default.as_ref()?;
        let slot = self
            .node_of(schema)
            .and_then(|node| self.nodes[node.index()].default);
        match slot {
            Some(slot) => self.defaults[slot as usize].get_or_init(judge).clone(),
            None => judge(),
        }
    }

    /// How many nodes the plan has: one per schema of the model.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the plan has no node (never: the arguments' schema is one).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

impl ToolModel {
    /// The plan of this model, compiled on the first call and kept.
    #[doc(hidden)]
    pub fn plan(&self) -> &Plan {
        self.plan_cell().get_or_init(|| build::plan(self))
    }

    /// Whether every field default of this model fits the field's own schema, as `judge`
    /// (the decoder's `decode::every_default_fits`) decides: decided once and kept.
    /// Then the decoder fills every default serde would, and a typed value needs no second
    /// check after serde built it.
    pub(crate) fn defaults_fit(&self, judge: impl FnOnce(&ToolModel) -> bool) -> bool {
        *self.plan().defaults_fit.get_or_init(|| judge(self))
    }
}

/// A map keyed by addresses inside the model, hashed by one multiplication: the walkers
/// look an object's table up once per object value, and SipHash (the default, which
/// guards against keys an attacker picks) would cost more than the lookup saves. Addresses
/// are the allocator's, never input's.
type ByAddress<V> = HashMap<usize, V, BuildHasherDefault<AddressHasher>>;

/// The hasher of [`ByAddress`]: Fibonacci hashing of the address, its high half folded
/// into the low bits (addresses are aligned, so their own low bits are all zero).
#[derive(Default)]
struct AddressHasher(u64);

impl Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(self.0.rotate_left(8) ^ u64::from(byte));
        }
    }

    fn write_u64(&mut self, n: u64) {
        let product = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = product ^ (product >> 32);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}

/// A part's address inside the model: the key of the plan's maps (one map per type of
/// part, as an object may share its address with the schema holding it).
fn address<T>(part: &T) -> usize {
    part as *const T as usize
}

#[cfg(test)]
mod tests;

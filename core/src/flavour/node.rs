//! The one node rewrite every rewriting flavour runs, and the [`Hook`] by which each says
//! what differs.
//!
//! Every node goes through the same steps, in this order:
//! 1. a boolean schema is the hook's to refuse or keep ([`Hook::boolean`]);
//! 2. `oneOf` is written as `anyOf`;
//! 3. the hook's checks and rewrites of the node ([`Hook::enter`]), which may end it (a
//!    `$ref` that stands alone);
//! 4. each keyword is kept or taken out ([`Hook::keeps`]; one taken out is removed, or its
//!    constraint moved into the description);
//! 5. the hook's last word on the keywords ([`Hook::kept`]), then the description written;
//! 6. the hook's checks and counts of the node as written ([`Hook::written`]);
//! 7. the subschemas, by the shared walk ([`each_child`]), with the object closed where
//!    [`Hook::CLOSE`] says.
//!
//! So a rule that every flavour shares is written once, here or in [`Walk`], and a
//! flavour's own module holds only its answers.

use super::walk::{each_child, each_child_where, is_object, Walk};
use super::{describe, FlavourError, Members};
use crate::model::Json;

/// Where a flavour closes an object node (`additionalProperties: false`, and what else its
/// strict mode wants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Close {
    /// Objects stay as they are.
    Never,
    /// Before any subschema is walked.
    BeforeChildren,
    /// After the properties are walked and before the other subschemas (OpenAI's strict
    /// mode makes an optional property nullable once the property is written).
    AfterProperties,
}

/// Whether a node goes on after [`Hook::enter`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entered {
    /// Its keywords are filtered and its subschemas walked.
    Go,
    /// It is written already (a `$ref` standing alone).
    Done,
}

/// What a rewriting flavour decides at each step of [`rewrite_node`]. The functions take no
/// `self`: a flavour is a type, and what one node needs between its steps is its
/// [`Hook::Node`].
pub(crate) trait Hook {
    /// What the hook keeps about one node between its steps.
    type Node: Default;

    /// Where objects are closed.
    const CLOSE: Close = Close::Never;

    /// A boolean schema where a schema sits.
    fn boolean(walk: &Walk<'_>, path: &str) -> Result<(), FlavourError>;

    /// The node's checks and rewrites before its keywords are filtered; a constraint the
    /// flavour cannot say may go to `moved`, the description's notes.
    fn enter(
        walk: &mut Walk<'_>,
        node: &mut Members,
        path: &str,
        state: &mut Self::Node,
        moved: &mut Vec<(String, serde_json::Value)>,
    ) -> Result<Entered, FlavourError>;

    /// Whether `keyword` stays: `Some(true)` kept, `Some(false)` taken out
    /// ([`Walk::take_out`]), `None` handled by the hook (recorded and left out).
    fn keeps(
        walk: &mut Walk<'_>,
        path: &str,
        keyword: &str,
        value: &Json,
        state: &mut Self::Node,
    ) -> Option<bool>;

    /// The hook's last word on the kept keywords, before the description is written.
    fn kept(_node: &mut Members, _state: Self::Node) {}

    /// Checks and counts of the node as written, before its subschemas.
    fn written(
        walk: &mut Walk<'_>,
        node: &mut Members,
        path: &str,
        depth: usize,
    ) -> Result<(), FlavourError>;

    /// Closes an object node, where [`Hook::CLOSE`] says.
    fn close(_walk: &mut Walk<'_>, _node: &mut Members, _path: &str) -> Result<(), FlavourError> {
        Ok(())
    }
}

/// One node in `H`'s flavour, and (by the shared walk) every subschema below it.
pub(crate) fn rewrite_node<H: Hook>(
    walk: &mut Walk<'_>,
    value: &mut Json,
    path: &str,
    depth: usize,
) -> Result<(), FlavourError> {
    let Json::Object(node) = value else {
        return H::boolean(walk, path);
    };
    walk.one_of_to_any_of(node, path);
    let mut state = H::Node::default();
    let mut moved = Vec::new();
    if H::enter(walk, node, path, &mut state, &mut moved)? == Entered::Done {
        return Ok(());
    }
    for (keyword, value) in std::mem::take(node) {
        match H::keeps(walk, path, &keyword, &value, &mut state) {
            Some(true) => node.push((keyword, value)),
            Some(false) => walk.take_out(path, &keyword, &value, &mut moved),
            None => {}
        }
    }
    H::kept(node, state);
    describe(node, &moved);
    H::written(walk, node, path, depth)?;
    match H::CLOSE {
        Close::Never => each_child(walk, node, path, depth, rewrite_node::<H>),
        Close::BeforeChildren => {
            if is_object(node) {
                H::close(walk, node, path)?;
            }
            each_child(walk, node, path, depth, rewrite_node::<H>)
        }
        Close::AfterProperties => {
            each_child_where(walk, node, path, depth, rewrite_node::<H>, |keyword| {
                keyword == "properties"
            })?;
            if is_object(node) {
                H::close(walk, node, path)?;
            }
            each_child_where(walk, node, path, depth, rewrite_node::<H>, |keyword| {
                keyword != "properties"
            })
        }
    }
}

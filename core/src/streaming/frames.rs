//! The open containers of a streamed call, followed over the tool's plan as far as the
//! decoder can say for sure where a value belongs (see the module documentation of
//! `streaming`): a field named exactly, the first time in its object, or an item of a plain
//! array.

use std::borrow::Cow;

use crate::check::Step;
use crate::model::{Kind, ObjectSchema};
use crate::plan::{KeyMatch, NodeId, Plan};

/// Most fields of an object whose repeats the decoder tells apart; a field past them is not
/// followed.
const FOLLOWED_FIELDS: usize = 64;

/// One open container.
struct Frame<'m> {
    /// The node of the container's values, where the decoder follows it.
    node: Option<NodeId>,
    /// An object's schema, where it is followed.
    object: Option<&'m ObjectSchema>,
    /// The fields of a followed object named so far (a bit per field).
    named: u64,
    member: Member<'m>,
}

/// The member being read in an open container.
#[derive(Clone, Copy)]
enum Member<'m> {
    /// An object between members, or a key not followed.
    None,
    /// A field named exactly, the first time: its name (as the path writes it), its index
    /// and its value's node.
    Field(&'m str, NodeId),
    /// The next item of an array, and its index.
    Item(usize),
}

/// The open containers, outermost first.
pub(super) struct Frames<'m> {
    plan: &'m Plan,
    open: Vec<Frame<'m>>,
}

impl<'m> Frames<'m> {
    pub(super) fn new(plan: &'m Plan) -> Self {
        Frames {
            plan,
            open: Vec::new(),
        }
    }

    /// How many containers are open.
    pub(super) fn depth(&self) -> usize {
        self.open.len()
    }

    /// The node of the value that comes next, where the decoder is sure of it.
    pub(super) fn value_node(&self) -> Option<NodeId> {
        let Some(frame) = self.open.last() else {
            return Some(self.plan.root());
        };
        let node = frame.node?;
        match frame.member {
            Member::Field(_, field) => Some(field),
            Member::Item(_) => Some(self.plan.child(node, 0)),
            Member::None => None,
        }
    }

    /// A container opens at `node` (`None`: a place not followed).
    pub(super) fn open(&mut self, node: Option<NodeId>, object: bool) {
        let (node, schema) = match node.and_then(|node| followed(self.plan, node, object)) {
            Some((target, schema)) => (Some(target), schema),
            None => (None, None),
        };
        self.open.push(Frame {
            node,
            object: schema,
            named: 0,
            member: if object {
                Member::None
            } else {
                Member::Item(0)
            },
        });
    }

    /// The innermost container closes: it was its parent's member's value.
    pub(super) fn close(&mut self) {
        self.open.pop();
        self.value_done();
    }

    /// A key of the innermost object: its value is followed where it names a field exactly,
    /// the first time.
    pub(super) fn key(&mut self, key: &str, folding: bool) {
        let plan = self.plan;
        let Some(frame) = self.open.last_mut() else {
            return;
        };
        frame.member = Member::None;
        let (Some(node), Some(object)) = (frame.node, frame.object) else {
            return;
        };
        let KeyMatch::Exact(at) = plan.keys_for(Some(node)).key_match(object, key, folding) else {
            return;
        };
        if at >= FOLLOWED_FIELDS || frame.named & 1 << at != 0 {
            // Named again: the call is refused for it, and which value the report speaks
            // of is the end's to say.
            frame.node = None;
            return;
        }
        frame.named |= 1 << at;
        if let Some(&field) = plan.children(node).get(at) {
            frame.member = Member::Field(&object.fields[at].name, field);
        }
    }

    /// The innermost container's member has its whole value.
    pub(super) fn value_done(&mut self) {
        if let Some(frame) = self.open.last_mut() {
            frame.member = match frame.member {
                Member::Item(index) => Member::Item(index + 1),
                _ => Member::None,
            };
        }
    }

    /// The path of the value that comes next, as the checker writes it.
    pub(super) fn steps(&self) -> impl Iterator<Item = Step<'m>> + '_ {
        self.open.iter().filter_map(|frame| match frame.member {
            Member::Field(name, _) => Some(Step::Key(Cow::Borrowed(name))),
            Member::Item(index) => Some(Step::Index(index)),
            Member::None => None,
        })
    }
}

/// Where a container at `node` is followed: its target node, and an object's schema. Not
/// where its values' place could depend on what comes later or on other members (see the
/// module documentation of `streaming`).
fn followed(plan: &Plan, node: NodeId, object: bool) -> Option<(NodeId, Option<&ObjectSchema>)> {
    let handle = plan.node(node);
    let (resolved, target) = (handle.resolved?, handle.target?);
    if resolved.constant.is_some() {
        return None;
    }
    match (&resolved.kind, object) {
        (Kind::Object(schema), true) if schema.property_names.is_none() => {
            Some((target, Some(schema)))
        }
        (Kind::Array(array), false) if array.prefix_items.is_empty() && !array.unique_items => {
            Some((target, None))
        }
        _ => None,
    }
}

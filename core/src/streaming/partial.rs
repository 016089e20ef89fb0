//! [`Partial`]: the arguments of a streamed call as far as they came, each node with its state
//! (BAML's `Pending | Incomplete | Complete`), on demand ([`StreamDecoder::snapshot`]).
//!
//! It keeps jsonriver's invariants: a node's type never changes once shown; numbers,
//! booleans, `null` and enum or `const` strings appear only complete, after their delimiter or
//! closing quote (`12` is not shown as `1`); a string the decoder follows at a string's schema
//! is shown as it grows (incomplete, never half an escape or a character), any other only
//! complete; containers only grow; a key is shown once its value has begun. The value is
//! as sent (no repair made, nothing checked): what the gate decides is `finish`'s; a view for
//! a user, not an input to a tool.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::StreamDecoder;
use crate::path::Segment;
use crate::read::tokens::{Stop, Token, Tokens};
use crate::read::tree;
use crate::Path;

/// Where a node of a [`Partial`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeState {
    /// Begun, nothing of it shown yet (a scalar not complete).
    Pending,
    /// A container still open, or a string still arriving (its characters so far).
    Incomplete,
    /// Complete: it will not change.
    Complete,
}

/// A node of the partial arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Partial {
    /// Where it stands.
    pub state: NodeState,
    /// What it holds so far (`null` for a pending node).
    pub value: PartialValue,
}

/// What a [`Partial`] node holds.
#[derive(Clone, Debug, PartialEq)]
pub enum PartialValue {
    /// A complete scalar (or, pending, nothing yet: `null`).
    Scalar(Value),
    /// An array's items so far.
    Array(Vec<Partial>),
    /// An object's members so far, in the order sent.
    Object(Vec<(String, Partial)>),
}

impl Partial {
    /// The node at `path`, if it came.
    pub fn at(&self, path: &Path) -> Option<&Partial> {
        let mut node = self;
        for segment in path.segments() {
            node = match (segment, &node.value) {
                (Segment::Key(key), PartialValue::Object(members)) => {
                    // The last member of a name is the one a reader keeps.
                    &members.iter().rev().find(|(name, _)| name == key)?.1
                }
                (Segment::Index(index), PartialValue::Array(items)) => items.get(*index)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The node at `path` as a `T`, where it is complete (as sent, through serde).
    pub fn get<T: DeserializeOwned>(&self, path: &Path) -> Option<T> {
        let node = self.at(path)?;
        if node.state != NodeState::Complete {
            return None;
        }
        serde_json::from_value(node.to_value()).ok()
    }

    /// Whether this snapshot grows into `later`, one taken after more text (jsonriver's
    /// invariants, which every two snapshots of one call keep): a complete node never
    /// changes, a node's type never changes, containers only append.
    pub fn grows_into(&self, later: &Partial) -> bool {
        match (self.state, &self.value, &later.value) {
            (NodeState::Complete, _, _) => self == later,
            (NodeState::Pending, _, _) => true,
            (
                NodeState::Incomplete,
                PartialValue::Scalar(Value::String(before)),
                PartialValue::Scalar(Value::String(after)),
            ) => after.starts_with(before.as_str()),
            (NodeState::Incomplete, PartialValue::Array(before), PartialValue::Array(after)) => {
                before.len() <= after.len()
                    && before.iter().zip(after).all(|(a, b)| a.grows_into(b))
            }
            (NodeState::Incomplete, PartialValue::Object(before), PartialValue::Object(after)) => {
                before.len() <= after.len()
                    && before
                        .iter()
                        .zip(after)
                        .all(|((key_a, a), (key_b, b))| key_a == key_b && a.grows_into(b))
            }
            _ => false,
        }
    }

    /// The value so far: containers with what they hold, pending nodes as `null`.
    pub fn to_value(&self) -> Value {
        match &self.value {
            PartialValue::Scalar(value) => value.clone(),
            PartialValue::Array(items) => items.iter().map(Partial::to_value).collect(),
            PartialValue::Object(members) => {
                let mut object = Map::new();
                for (key, member) in members {
                    object.insert(key.clone(), member.to_value());
                }
                Value::Object(object)
            }
        }
    }
}

/// An open container while the snapshot is made, and the key of its member being read.
struct Open {
    node: Partial,
    key: Option<String>,
}

impl<T> StreamDecoder<'_, T> {
    /// The arguments as far as they came (see [`Partial`]): read again from the text fed,
    /// so it costs one pass over what came; `None` where the text does not start with an
    /// object or is not JSON (then only `finish` can say what it holds).
    pub fn snapshot(&self) -> Option<Partial> {
        let start = self.text.len() - self.text.trim_start().len();
        if !self.text[start..].starts_with('{') {
            return None;
        }
        let max_depth = self.options.max_depth.min(crate::decode::MAX_DEPTH);
        let mut tokens = Tokens::at(start, max_depth);
        let mut open: Vec<Open> = Vec::new();
        loop {
            let token = match tokens.next(&self.text) {
                Ok(Some(token)) => token,
                Ok(None) => unreachable!("the root closes with its end token"),
                Err(Stop::More) => {
                    // A value begun where the tokenizer stopped (not white space or a
                    // comment, which may yet end without one).
                    let rest = self.text[tokens.position()..].trim_start();
                    let begun = rest.starts_with(|c: char| !matches!(c, '/' | '#'));
                    let growing = self.growing_string(&tokens);
                    return Some(close_all(open, begun, growing));
                }
                Err(Stop::Error(_)) => return None,
            };
            let scalar = match token {
                Token::ObjectStart | Token::ArrayStart => {
                    let value = match token {
                        Token::ObjectStart => PartialValue::Object(Vec::new()),
                        _ => PartialValue::Array(Vec::new()),
                    };
                    let node = Partial {
                        state: NodeState::Incomplete,
                        value,
                    };
                    open.push(Open { node, key: None });
                    continue;
                }
                Token::ObjectEnd | Token::ArrayEnd => {
                    let mut done = open.pop()?;
                    done.node.state = NodeState::Complete;
                    match open.last_mut() {
                        Some(parent) => add(parent, done.node),
                        None => return Some(done.node),
                    }
                    continue;
                }
                Token::Key(key) => {
                    if let Some(parent) = open.last_mut() {
                        parent.key = Some(key.into_owned());
                    }
                    continue;
                }
                scalar => tree::scalar(scalar, 0)?.ok()?.to_value(),
            };
            let node = Partial {
                state: NodeState::Complete,
                value: PartialValue::Scalar(scalar),
            };
            match open.last_mut() {
                Some(parent) => add(parent, node),
                None => return None,
            }
        }
    }
}

impl<T> StreamDecoder<'_, T> {
    /// The string the snapshot's `tokens` stopped inside, as it stands, where the decoder
    /// sends its characters as they come (a value followed at a string's schema: see
    /// [`super::StreamEvent::Text`]). Shown whatever the decoder's phase: after a stop (past
    /// `max_bytes`, a byte that is not UTF-8) the text and the decoder's place in it stay, so
    /// the string stays shown.
    fn growing_string(&self, tokens: &Tokens) -> Option<Partial> {
        let string = tokens.string_so_far(&self.text)?;
        let followed = self.tokens.string_so_far(&self.text)?;
        let texts = followed.start == string.start && self.texts_string(&string);
        texts.then(|| Partial {
            state: NodeState::Incomplete,
            value: PartialValue::Scalar(Value::String(string.after(0))),
        })
    }
}

/// A member or an item of `parent`.
fn add(parent: &mut Open, node: Partial) {
    match &mut parent.node.value {
        PartialValue::Object(members) => {
            if let Some(key) = parent.key.take() {
                members.push((key, node));
            }
        }
        PartialValue::Array(items) => items.push(node),
        PartialValue::Scalar(_) => {}
    }
}

/// The containers still open, closed into one another as they stand: a value `begun` in the
/// innermost but not complete is shown as a pending node, or as the `growing` string it is.
fn close_all(mut open: Vec<Open>, begun: bool, growing: Option<Partial>) -> Partial {
    let mut growing = growing;
    let mut inner: Option<Partial> = None;
    while let Some(mut container) = open.pop() {
        match inner.take() {
            Some(node) => add(&mut container, node),
            None => {
                let array = matches!(container.node.value, PartialValue::Array(_));
                if begun && (container.key.is_some() || array) {
                    let pending = growing.take().unwrap_or(Partial {
                        state: NodeState::Pending,
                        value: PartialValue::Scalar(Value::Null),
                    });
                    add(&mut container, pending);
                }
            }
        }
        inner = Some(container.node);
    }
    inner.unwrap_or(Partial {
        state: NodeState::Pending,
        value: PartialValue::Scalar(Value::Null),
    })
}

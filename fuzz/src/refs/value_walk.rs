//! Writing an argument value that follows a graph.

use super::*;

pub(super) struct ValueWalk<'g, 'u, 'a> {
    pub(super) graph: &'g Graph,
    pub(super) u: &'u mut Unstructured<'a>,
    pub(super) nodes: usize,
    pub(super) max_nodes: usize,
    pub(super) depth_goal: usize,
    pub(super) wrong: bool,
}

impl ValueWalk<'_, '_, '_> {
    /// `depth`: containers around the value; `hops`: references followed at this value.
    pub(super) fn value(&mut self, node: &Node, depth: usize, hops: usize) -> Value {
        self.nodes += 1;
        let spent = self.nodes > self.max_nodes;
        let deep_enough = depth >= self.depth_goal.min(MAX_VALUE_DEPTH);
        // (Choices are written so that used-up bytes, which read as 0, build a value that
        // fits and goes deep.)
        if self.wrong && pick(self.u, 16) == 15 {
            return [
                json!("x"),
                json!(1.5),
                json!(null),
                json!([]),
                json!({}),
                json!("5"),
            ][pick(self.u, 6)]
            .clone();
        }
        match node {
            Node::Leaf(leaf) => match leaf {
                Leaf::Integer { min, max } => {
                    let low = min.unwrap_or(0);
                    let high = max.unwrap_or(low + 10).max(low);
                    json!(low + (pick(self.u, 4) as i64).min(high - low))
                }
                Leaf::Number => json!(0.5),
                Leaf::String { .. } => json!("s"),
                Leaf::Boolean => json!(true),
                Leaf::Null => Value::Null,
                Leaf::Any => json!({"any": [1, "two"]}),
                Leaf::Never => json!(0),
                Leaf::Enum(values) => json!(values[pick(self.u, values.len())]),
                Leaf::Const(value) => json!(value),
            },
            Node::Ref { target, .. } => {
                if hops > 40 {
                    return json!(0);
                }
                let target = &self.graph.definitions[*target];
                self.value(target, depth, hops + 1)
            }
            Node::Dangling(_) | Node::Unsupported(_) => json!("?"),
            Node::Object { fields, additional } => {
                let mut object = Map::new();
                if depth >= MAX_VALUE_DEPTH || spent {
                    return Value::Object(object);
                }
                for (name, node, required) in fields {
                    // Below the goal every field is written, to follow the graph down; at
                    // the goal only a few (required ones may go missing: issues deep down).
                    let write = if deep_enough {
                        pick(self.u, 4) == 0
                    } else {
                        *required || pick(self.u, 4) != 3
                    };
                    if write {
                        let value = self.value(node, depth + 1, 0);
                        object.insert(name.clone(), value);
                    }
                }
                if let Additional::Schema(node) = additional {
                    if pick(self.u, 3) == 0 {
                        let value = self.value(node, depth + 1, 0);
                        object.insert("extra".into(), value);
                    }
                }
                Value::Object(object)
            }
            Node::Array { items, .. } => {
                if depth >= MAX_VALUE_DEPTH || spent {
                    return json!([]);
                }
                let count = if deep_enough {
                    pick(self.u, 2)
                } else {
                    1 + pick(self.u, 2)
                };
                Value::Array(
                    (0..count)
                        .map(|_| self.value(items, depth + 1, 0))
                        .collect(),
                )
            }
            Node::Map(values) => {
                if depth >= MAX_VALUE_DEPTH || spent {
                    return json!({});
                }
                let count = if deep_enough {
                    pick(self.u, 2)
                } else {
                    1 + pick(self.u, 2)
                };
                let mut object = Map::new();
                for index in 0..count {
                    let value = self.value(values, depth + 1, 0);
                    object.insert(format!("k{index}"), value);
                }
                Value::Object(object)
            }
            Node::Union { variants, .. } => {
                let variant = &variants[pick(self.u, variants.len())];
                self.value(variant, depth, hops + 1)
            }
            Node::AllOf(members) => {
                let member = &members[pick(self.u, members.len())];
                self.value(member, depth, hops + 1)
            }
            Node::Nullable(inner) => {
                if pick(self.u, 4) == 3 {
                    Value::Null
                } else {
                    self.value(inner, depth, hops + 1)
                }
            }
        }
    }
}

//! What the target asks of a built graph: how long a chain of union trials can nest at one
//! value.

use super::*;

impl Graph {
    /// The most union trials (and wraps of one item in an array, which the decoder counts
    /// as trials) that can nest at one value, at any value: through references, union
    /// alternatives, `allOf`, nullable wrappers and array items. 64 for a cycle of those.
    pub fn longest_trial_chain(&self) -> usize {
        let mut memo: Vec<Option<usize>> = vec![None; self.definitions.len()];
        let mut on_path = vec![false; self.definitions.len()];
        let mut longest = 0;
        let mut pending: Vec<&Node> = std::iter::once(&self.root)
            .chain(&self.definitions)
            .collect();
        while let Some(node) = pending.pop() {
            longest = longest.max(self.chain_at(node, &mut memo, &mut on_path));
            match node {
                Node::Object { fields, additional } => {
                    pending.extend(fields.iter().map(|(_, n, _)| n));
                    if let Additional::Schema(n) = additional {
                        pending.push(n);
                    }
                }
                Node::Map(n) | Node::Nullable(n) => pending.push(n),
                Node::Array { items, .. } => pending.push(items),
                Node::Union {
                    variants: nodes, ..
                }
                | Node::AllOf(nodes) => pending.extend(nodes),
                _ => {}
            }
        }
        longest
    }

    /// The trials that nest at the value of `node` (objects and maps end it: their members
    /// are other values).
    fn chain_at(
        &self,
        node: &Node,
        memo: &mut Vec<Option<usize>>,
        on_path: &mut Vec<bool>,
    ) -> usize {
        const CYCLE: usize = 64;
        let length = match node {
            Node::Ref { target, .. } => {
                if let Some(known) = memo[*target] {
                    return known;
                }
                if on_path[*target] {
                    return CYCLE;
                }
                on_path[*target] = true;
                let length = self.chain_at(&self.definitions[*target], memo, on_path);
                on_path[*target] = false;
                memo[*target] = Some(length);
                length
            }
            Node::Union { variants, .. } => {
                1 + variants
                    .iter()
                    .map(|v| self.chain_at(v, memo, on_path))
                    .max()
                    .unwrap_or(0)
            }
            Node::AllOf(members) => members
                .iter()
                .map(|m| self.chain_at(m, memo, on_path))
                .max()
                .unwrap_or(0),
            Node::Nullable(inner) => self.chain_at(inner, memo, on_path),
            Node::Array { items, .. } => 1 + self.chain_at(items, memo, on_path),
            _ => 0,
        };
        length.min(CYCLE)
    }
}

pub(super) fn same_value_targets(node: &Node, reached: &mut Vec<usize>) {
    match node {
        Node::Ref { target, .. } => reached.push(*target),
        Node::Union { variants, .. } => {
            for variant in variants {
                same_value_targets(variant, reached);
            }
        }
        Node::AllOf(members) => {
            for member in members {
                same_value_targets(member, reached);
            }
        }
        Node::Nullable(inner) => same_value_targets(inner, reached),
        _ => {}
    }
}

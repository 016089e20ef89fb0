//! Definitions that refer back to themselves without reading anything on the way:
//! `A = {"$ref": "#/$defs/A"}`, `A = anyOf[{"$ref": A}, integer]`, `A = oneOf[B, string]` with
//! `B = oneOf[A, integer]`. Checking a value against such a definition would follow the
//! references forever at the same value (a stack overflow, not an answer), so the reader
//! refuses them. A cycle that passes through an object, array or map is recursion over a
//! smaller value (a tree) and is fine.

use std::collections::BTreeMap;

use crate::model::{Kind, Schema};

/// Most cycles reported for one schema (the rest add nothing the first ones do not say).
const MOST_REPORTED: usize = 10;

/// Cycles of references and union alternatives with no object, array or map between: for
/// each, the definition where it was found and the cycle written out (`A → B → A`, at most a
/// few names shown). One depth-first walk over the definitions: linear in their references.
pub(crate) fn cycles_without_progress(
    definitions: &BTreeMap<String, Schema>,
) -> Vec<(String, String)> {
    // The definitions each one reaches at the same value: through `$ref`, directly or in a
    // union alternative (unions nest).
    let names: Vec<&str> = definitions.keys().map(String::as_str).collect();
    let position = |name: &str| names.binary_search(&name).ok();
    let edges: Vec<Vec<usize>> = definitions
        .values()
        .map(|schema| {
            let mut reached = Vec::new();
            same_value_references(schema, &mut reached);
            reached.into_iter().filter_map(position).collect()
        })
        .collect();
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let mut marks = vec![Mark::New; names.len()];
    let mut found = Vec::new();
    for root in 0..names.len() {
        if marks[root] != Mark::New {
            continue;
        }
        // (definition, next edge to follow); the stack is the current path.
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        marks[root] = Mark::OnPath;
        while let Some((at, edge)) = stack.last_mut() {
            let at = *at;
            let Some(&next) = edges[at].get(*edge) else {
                marks[at] = Mark::Done;
                stack.pop();
                continue;
            };
            *edge += 1;
            match marks[next] {
                Mark::New => {
                    marks[next] = Mark::OnPath;
                    stack.push((next, 0));
                }
                Mark::OnPath if found.len() < MOST_REPORTED => {
                    let from = stack.iter().position(|&(d, _)| d == next).unwrap_or(0);
                    let cycle: Vec<&str> = stack[from..]
                        .iter()
                        .map(|&(d, _)| names[d])
                        .chain(std::iter::once(names[next]))
                        .collect();
                    let shown = if cycle.len() > 8 {
                        format!(
                            "{} → … → {}",
                            cycle[..4].join(" → "),
                            cycle[cycle.len() - 3..].join(" → ")
                        )
                    } else {
                        cycle.join(" → ")
                    };
                    found.push((names[next].to_owned(), shown));
                }
                Mark::OnPath | Mark::Done => {}
            }
        }
    }
    found.sort();
    found
}

fn same_value_references<'s>(schema: &'s Schema, reached: &mut Vec<&'s str>) {
    let mut pending = vec![schema];
    while let Some(schema) = pending.pop() {
        match &schema.kind {
            Kind::Ref(name) => reached.push(name),
            Kind::Union(union) => pending.extend(&union.variants),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::UnionMode;

    fn union(variants: Vec<Schema>) -> Schema {
        Schema::union(UnionMode::AnyOf, variants)
    }

    #[test]
    fn a_long_chain_is_walked_once() {
        // A → B → … → Z9999 → A: one cycle, found in one walk, shown shortened.
        let count = 10_000;
        let name = |i: usize| format!("D{i:05}");
        let definitions: BTreeMap<String, Schema> = (0..count)
            .map(|i| {
                (
                    name(i),
                    union(vec![
                        Schema::reference(name((i + 1) % count)),
                        Schema::integer(),
                    ]),
                )
            })
            .collect();
        let found = cycles_without_progress(&definitions);
        assert_eq!(found.len(), 1);
        assert!(found[0].1.contains("→ … →"), "{}", found[0].1);
    }

    #[test]
    fn finds_cycles_through_references_and_unions_only() {
        let definitions = BTreeMap::from([
            ("Self".to_owned(), Schema::reference("Self")),
            (
                "A".to_owned(),
                union(vec![Schema::reference("A"), Schema::integer()]),
            ),
            (
                "B".to_owned(),
                union(vec![Schema::reference("C"), Schema::string()]),
            ),
            (
                "C".to_owned(),
                union(vec![Schema::reference("B"), Schema::integer()]),
            ),
            (
                "Tree".to_owned(),
                Schema::array(union(vec![Schema::reference("Tree"), Schema::integer()])),
            ),
        ]);
        let found = cycles_without_progress(&definitions);
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["A", "B", "Self"]);
        assert_eq!(found[0].1, "A → A");
        assert_eq!(found[1].1, "B → C → B");
        assert_eq!(found[2].1, "Self → Self");
    }
}

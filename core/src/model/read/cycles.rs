//! Definitions that refer back to themselves without reading anything on the way:
//! `A = {"$ref": "#/$defs/A"}`, `A = anyOf[{"$ref": A}, integer]`, `A = oneOf[B, string]` with
//! `B = oneOf[A, integer]`. Checking a value against such a definition would follow the
//! references forever at the same value (a stack overflow, not an answer), so the reader
//! refuses them. A cycle that passes through an object, array or map is recursion over a
//! smaller value (a tree) and is fine.

use std::collections::BTreeMap;

use crate::limits::MAX_NESTED_UNIONS;
use crate::model::{Additional, Kind, Schema, UnionMode};
use crate::path::escape_pointer_token;

/// What the reader refuses about values that would be tried without end or past the
/// decoder's limit at one value, each at its pointer, in this order (each only when the
/// ones before found nothing): definitions that refer back to themselves without an object
/// or array between ([`cycles_without_progress`]); unions nested deeper than
/// [`MAX_NESTED_UNIONS`] at one value ([`too_deep_unions`]: the decoder would refuse every
/// call that reaches them with a `schema` issue, so the reader refuses the schema, and `gen`
/// with it); a chain of more than 32 references to references.
pub(super) fn endless_at_one_value(
    input: &Schema,
    definitions: &BTreeMap<String, Schema>,
) -> Vec<(String, String)> {
    let at = |name: &str| format!("/$defs/{}", escape_pointer_token(name));
    let cycles: Vec<(String, String)> = cycles_without_progress(definitions)
        .into_iter()
        .map(|(name, path)| {
            (at(&name), format!(
                "the definition refers back to itself through {path} without an object or array in between: no value can be read"
            ))
        })
        .collect();
    if !cycles.is_empty() {
        return cycles;
    }
    if let Some((pointer, depth, through)) = too_deep_unions(input, definitions) {
        let through = match through.as_slice() {
            [] => "alternatives".to_owned(),
            names => format!("the definitions {}", shown_chain(names)),
        };
        return vec![(pointer, format!(
            "unions (`anyOf`, `oneOf`, type lists) nest {depth} deep at this value, through {through} with no object or array between: more than the {MAX_NESTED_UNIONS} a value may nest (`decode::MAX_NESTED_UNIONS`). To fix it, flatten them (a union whose alternative is a union is one union of all their alternatives: `anyOf: [A, b]` with `A` = `anyOf: [x, y]` is `anyOf: [x, y, b]`), or put an object between two levels (a field holding the inner union)"
        ))];
    }
    super::references::long_reference_chains(definitions)
        .into_iter()
        .map(|name| {
            let message = "the definition is a reference to a reference… more than 32 in a row (`MOST_REFERENCES_IN_A_ROW`), the most a definition may chain";
            (at(&name), message.to_owned())
        })
        .collect()
}

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

/// The first value whose schema nests unions deeper than [`MAX_NESTED_UNIONS`]: unions
/// within unions, through references, with no object, array or map between (what the
/// decoder tries at one value without reading anything). Its JSON pointer (relative to the
/// root, definitions at `/$defs/<name>`) and how deep its unions nest. Call it once
/// [`cycles_without_progress`] found none (a cycle would nest without end).
///
/// Each definition's nesting is measured once, after the definitions it reaches
/// (post-order, without recursion across definitions): linear in the schema.
fn too_deep_unions<'s>(
    input: &'s Schema,
    definitions: &'s BTreeMap<String, Schema>,
) -> Option<(String, usize, Vec<&'s str>)> {
    let mut depths: BTreeMap<&str, usize> = BTreeMap::new();
    for root in definitions.keys() {
        // (definition, whether the definitions it reaches were pushed already).
        let mut stack: Vec<(&str, bool)> = vec![(root.as_str(), false)];
        while let Some((name, expanded)) = stack.pop() {
            if depths.contains_key(name) {
                continue;
            }
            let Some(body) = definitions.get(name) else {
                depths.insert(name, 0);
                continue;
            };
            if expanded {
                let depth = union_depth(body, &depths);
                depths.insert(name, depth);
                continue;
            }
            stack.push((name, true));
            let mut reached = Vec::new();
            same_value_references(body, &mut reached);
            stack.extend(
                reached
                    .into_iter()
                    .filter(|next| !depths.contains_key(next))
                    .map(|next| (next, false)),
            );
        }
    }
    let roots = std::iter::once((String::new(), input)).chain(
        definitions
            .iter()
            .map(|(name, body)| (format!("/$defs/{}", escape_pointer_token(name)), body)),
    );
    for (pointer, root) in roots {
        // Every value inside: the root, and what containers hold.
        let mut pending = vec![(pointer, root)];
        while let Some((pointer, schema)) = pending.pop() {
            let depth = union_depth(schema, &depths);
            if depth > MAX_NESTED_UNIONS {
                let through = deepest_references(schema, definitions, &depths);
                return Some((pointer, depth, through));
            }
            value_children(schema, &pointer, &mut pending);
        }
    }
    None
}

/// The values `schema` holds (items, fields, values of undeclared keys, keys), each with its
/// pointer; through unions too, since an alternative may be a container.
fn value_children<'s>(schema: &'s Schema, pointer: &str, into: &mut Vec<(String, &'s Schema)>) {
    let at = |rest: &str| format!("{pointer}{rest}");
    match &schema.kind {
        Kind::Array(array) => {
            into.extend(
                (array.prefix_items.iter().enumerate())
                    .map(|(i, item)| (at(&format!("/prefixItems/{i}")), item)),
            );
            into.push((at("/items"), &array.items));
        }
        Kind::Map(map) => {
            into.push((at("/additionalProperties"), &map.values));
            into.extend(
                map.property_names
                    .iter()
                    .map(|k| (at("/propertyNames"), &**k)),
            );
        }
        Kind::Object(object) => {
            into.extend(object.fields.iter().map(|field| {
                let name = escape_pointer_token(&field.name);
                (at(&format!("/properties/{name}")), &field.schema)
            }));
            if let Additional::Schema(extra) = &object.additional {
                into.push((at("/additionalProperties"), &**extra));
            }
            into.extend(
                object
                    .property_names
                    .iter()
                    .map(|k| (at("/propertyNames"), &**k)),
            );
        }
        Kind::Union(union) => {
            let keyword = match union.mode {
                UnionMode::AnyOf => "anyOf",
                UnionMode::OneOf => "oneOf",
            };
            into.extend(
                (union.variants.iter().enumerate())
                    .map(|(i, variant)| (at(&format!("/{keyword}/{i}")), variant)),
            );
        }
        _ => {}
    }
}

/// How deep unions nest at the value of `schema`, the definitions' depths known: a union is
/// one more than its deepest alternative, a reference is its definition's depth.
fn union_depth(schema: &Schema, definitions: &BTreeMap<&str, usize>) -> usize {
    match &schema.kind {
        Kind::Union(union) => {
            let deepest = union
                .variants
                .iter()
                .map(|variant| union_depth(variant, definitions));
            1 + deepest.max().unwrap_or(0)
        }
        Kind::Ref(name) => definitions.get(name.as_str()).copied().unwrap_or(0),
        _ => 0,
    }
}

/// The definitions the deepest nesting of unions at `schema` goes through, in order: what
/// the user would flatten. Follows the deepest alternative at each level (each step goes
/// one level down, so it ends).
fn deepest_references<'s>(
    schema: &'s Schema,
    definitions: &'s BTreeMap<String, Schema>,
    depths: &BTreeMap<&str, usize>,
) -> Vec<&'s str> {
    let mut through = Vec::new();
    let mut at = schema;
    loop {
        match &at.kind {
            // No cycle is left (`cycles_without_progress` ran first); the bound is a guard.
            Kind::Ref(name) => match definitions.get_key_value(name.as_str()) {
                Some((name, body)) if through.len() < definitions.len() => {
                    through.push(name.as_str());
                    at = body;
                }
                _ => break,
            },
            Kind::Union(union) => {
                let deepest = (union.variants.iter())
                    .map(|variant| (union_depth(variant, depths), variant))
                    .max_by_key(|(depth, _)| *depth);
                match deepest {
                    Some((depth, variant)) if depth > 0 => at = variant,
                    _ => break,
                }
            }
            _ => break,
        }
    }
    through
}

/// A chain of definition names as `A → B → … → Z`: the first three and the last.
fn shown_chain(names: &[&str]) -> String {
    let quoted = |name: &&str| format!("`{}`", crate::issue::shorten_name(name));
    if names.len() <= 4 {
        return names.iter().map(quoted).collect::<Vec<_>>().join(" → ");
    }
    let first: Vec<String> = names[..3].iter().map(quoted).collect();
    format!(
        "{} → … → {} ({} in all)",
        first.join(" → "),
        quoted(&names[names.len() - 1]),
        names.len()
    )
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
    fn unions_nested_past_the_limit_are_found_at_their_value() {
        // D0 = anyOf[D1, integer], ..., a chain of 10,000 definitions: measured without
        // recursion across definitions, reported at the first value that reaches it.
        let count = 10_000;
        let name = |i: usize| format!("D{i:05}");
        let mut definitions: BTreeMap<String, Schema> = (0..count - 1)
            .map(|i| {
                let next = Schema::reference(name(i + 1));
                (name(i), union(vec![next, Schema::integer()]))
            })
            .collect();
        definitions.insert(name(count - 1), Schema::integer());
        let input = Schema::object(vec![crate::model::Field::optional(
            "x",
            Schema::array(Schema::reference(name(0))),
        )]);
        let (pointer, depth, through) = too_deep_unions(&input, &definitions).unwrap();
        assert_eq!(
            (pointer.as_str(), depth),
            ("/properties/x/items", count - 1)
        );
        // The message names the definitions to flatten.
        assert_eq!(through.len(), count - 1);
        assert_eq!(
            shown_chain(&through),
            "`D00000` → `D00001` → `D00002` → … → `D09998` (9999 in all)"
        );
        // Exactly the limit, through references and alternatives: read.
        let mut nested = Schema::integer();
        for _ in 0..MAX_NESTED_UNIONS {
            nested = union(vec![Schema::string(), nested]);
        }
        let input = Schema::object(vec![crate::model::Field::optional("y", nested.clone())]);
        assert_eq!(too_deep_unions(&input, &BTreeMap::new()), None);
        let deeper = union(vec![nested, Schema::string()]);
        let input = Schema::object(vec![crate::model::Field::optional("y", deeper)]);
        let none = BTreeMap::new();
        let found = too_deep_unions(&input, &none);
        assert_eq!(
            found,
            Some((
                "/properties/y".to_owned(),
                MAX_NESTED_UNIONS + 1,
                Vec::new()
            ))
        );
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

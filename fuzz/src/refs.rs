//! Tool schemas with `$defs`/`$ref` graphs built from fuzz bytes, for
//! `read_schema_references`: recursive and mutually recursive definitions, references back
//! to a definition through unions only (a cycle without progress, which the reader must
//! refuse), fan-out (`D_k = {l: D_k-1, r: D_k-1}`), references inside arrays, maps, unions
//! and `allOf`; and argument values that follow the graph as deep as it goes.
//!
//! The builder keeps its own small model ([`Node`]) so the target knows what it built: which
//! definitions form a cycle without progress, and how to write a value that follows the
//! references.

use arbitrary::Unstructured;
use serde_json::{json, Map, Value};

mod analysis;
mod build;
mod value_walk;

use analysis::same_value_targets;
use build::Build;
use value_walk::ValueWalk;

/// Most definitions a graph holds (fan-out chains included).
pub const MAX_DEFINITIONS: usize = 64;
/// Most nodes one definition's schema holds.
const MAX_NODES: usize = 48;
/// Most JSON nodes in one argument value. Finding R2 (fuzz/README.md, fixed in main by a
/// budget of values read again) made values of 4,000 nodes take seconds; the cap stays for
/// throughput (such a value still costs over a second in a fuzz build: issues serialise the
/// whole value), and `TOOLGATE_FUZZ_KNOWN=1` lifts it to [`MAX_VALUE_NODES_KNOWN`].
pub const MAX_VALUE_NODES: usize = 300;
/// The cap with `TOOLGATE_FUZZ_KNOWN=1`.
pub const MAX_VALUE_NODES_KNOWN: usize = 4000;
/// How deep a value may go: beyond the decoder's `MAX_DEPTH` (127), so the limit is hit too.
pub const MAX_VALUE_DEPTH: usize = 140;

/// A number in `0..n` (0 when the bytes are used up).
pub fn pick(u: &mut Unstructured<'_>, n: usize) -> usize {
    if n <= 1 {
        return 0;
    }
    u.int_in_range(0..=n - 1).unwrap_or(0)
}

fn coin(u: &mut Unstructured<'_>) -> bool {
    u.arbitrary::<bool>().unwrap_or(false)
}

/// A leaf schema.
#[derive(Clone, Debug)]
pub enum Leaf {
    Integer {
        min: Option<i64>,
        max: Option<i64>,
    },
    Number,
    String {
        max_length: Option<u8>,
    },
    Boolean,
    Null,
    /// `true`
    Any,
    /// `false`
    Never,
    Enum(Vec<&'static str>),
    Const(i64),
}

/// The builder's view of one schema.
#[derive(Clone, Debug)]
pub enum Node {
    Leaf(Leaf),
    /// `{"$ref": ...}` to a definition (by index), with optional sibling annotations.
    Ref {
        target: usize,
        description: bool,
    },
    /// A reference to a name no definition has.
    Dangling(&'static str),
    /// `{"$ref": "#"}` (the root), or another reference the reader does not support.
    Unsupported(&'static str),
    Object {
        fields: Vec<(String, Node, bool)>,
        additional: Additional,
    },
    Array {
        items: Box<Node>,
        min_items: Option<u8>,
        max_items: Option<u8>,
    },
    /// `{"type": "object", "additionalProperties": node}`
    Map(Box<Node>),
    Union {
        one_of: bool,
        variants: Vec<Node>,
    },
    /// `allOf` members.
    AllOf(Vec<Node>),
    /// `anyOf: [node, {"type": "null"}]`
    Nullable(Box<Node>),
}

#[derive(Clone, Debug)]
pub enum Additional {
    Unsaid,
    False,
    True,
    Schema(Box<Node>),
}

/// Names of definitions: plain ones, and ones a reference must escape (`/`, `~`, `%`,
/// space, non-ASCII), made unique with the definition's index.
const NAME_BASES: [&str; 14] = [
    "D",
    "Node",
    "Tree",
    "a/b",
    "a~b",
    "per%cent",
    "with space",
    "ünï",
    "Self",
    "$defs",
    "",
    "0",
    "x.y",
    "ref",
];

/// Field names.
const FIELD_NAMES: [&str; 14] = [
    "l", "r", "next", "child", "children", "value", "items", "$ref", "type", "a b", "", "ñ",
    "self", "anyOf",
];

const ENUM_VALUES: [&str; 6] = ["a", "b", "A", "a_b", "Ref", "#/$defs/D0"];

/// A JSON pointer token written into a `$ref`: `~` and `/` escaped as JSON Pointer says,
/// then `%` and space percent-encoded (URI fragment).
pub fn ref_to(name: &str) -> String {
    let token = name.replace('~', "~0").replace('/', "~1");
    let mut out = String::from("#/$defs/");
    for c in token.chars() {
        match c {
            '%' => out.push_str("%25"),
            ' ' => out.push_str("%20"),
            c => out.push(c),
        }
    }
    out
}

/// The templates a graph is built from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// Definitions of any shape referring to any definition.
    General,
    /// `D_k = {l: D_k-1, r: D_k-1}` (or through arrays and maps).
    ObjectFanOut,
    /// `D_k = anyOf[D_k-1, D_k-1]` (no progress, but no cycle: a DAG).
    UnionFanOut,
    /// `A = anyOf[$ref A, integer]` and its cousins, beside other definitions.
    SelfUnion,
    /// A ring `D_0 → D_1 → … → D_0`, each step through an object, array, map or union.
    Ring,
}

/// A built graph: definitions (name, node) and the root object.
#[derive(Clone, Debug)]
pub struct Graph {
    pub template: Template,
    pub names: Vec<String>,
    pub definitions: Vec<Node>,
    pub root: Node,
}

impl Graph {
    /// Builds a graph from the fuzz bytes.
    pub fn build(u: &mut Unstructured<'_>) -> Graph {
        let template = match pick(u, 5) {
            0 => Template::General,
            1 => Template::ObjectFanOut,
            2 => Template::UnionFanOut,
            3 => Template::SelfUnion,
            _ => Template::Ring,
        };
        let count = match template {
            Template::General | Template::SelfUnion => 1 + pick(u, 12),
            _ => 1 + pick(u, MAX_DEFINITIONS),
        };
        let mut build = Build { u, count, nodes: 0 };
        let mut definitions = Vec::with_capacity(count);
        for index in 0..count {
            build.nodes = 0;
            let node = match template {
                Template::General => build.node(0),
                Template::ObjectFanOut | Template::UnionFanOut if index == 0 => {
                    Node::Leaf(build.leaf())
                }
                Template::ObjectFanOut => build.step(index - 1, true, true),
                Template::UnionFanOut => build.step(index - 1, true, false),
                Template::SelfUnion => match pick(build.u, 3) {
                    // A = anyOf[$ref A, integer], oneOf, nullable, allOf: a cycle of one.
                    0 => build.step(index, false, false),
                    // A ring of two through unions: A → B → A.
                    1 if index > 0 => build.step(index - 1, false, false),
                    _ => build.node(0),
                },
                Template::Ring => {
                    let next = (index + 1) % count;
                    let progress = pick(build.u, 4) != 0;
                    build.step(next, false, progress)
                }
            };
            definitions.push(node);
        }
        let names = (0..count)
            .map(|index| {
                let base = NAME_BASES[pick(build.u, NAME_BASES.len())];
                format!("{base}{index}")
            })
            .collect();
        // The root: an object whose first field reaches the last definition (the top of a
        // chain), then any fields.
        build.nodes = 0;
        let mut fields = vec![(
            "x".to_owned(),
            Node::Ref {
                target: count - 1,
                description: false,
            },
            coin(build.u),
        )];
        for (name, node, required) in build.fields(1) {
            if name != "x" {
                fields.push((name, node, required));
            }
        }
        let additional = build.additional(1);
        Graph {
            template,
            names,
            definitions,
            root: Node::Object { fields, additional },
        }
    }

    /// The schema of `node` as JSON Schema 2020-12 (`draft07`: `definitions` and
    /// `#/definitions/` references instead).
    pub fn schema(&self, node: &Node, draft07: bool) -> Value {
        match node {
            Node::Leaf(leaf) => match leaf {
                Leaf::Integer { min, max } => {
                    let mut schema = json!({"type": "integer"});
                    if let Some(min) = min {
                        schema["minimum"] = json!(min);
                    }
                    if let Some(max) = max {
                        schema["maximum"] = json!(max);
                    }
                    schema
                }
                Leaf::Number => json!({"type": "number"}),
                Leaf::String { max_length } => match max_length {
                    Some(max) => json!({"type": "string", "maxLength": max}),
                    None => json!({"type": "string"}),
                },
                Leaf::Boolean => json!({"type": "boolean"}),
                Leaf::Null => json!({"type": "null"}),
                Leaf::Any => json!(true),
                Leaf::Never => json!(false),
                Leaf::Enum(values) => json!({"type": "string", "enum": values}),
                Leaf::Const(value) => json!({"const": value}),
            },
            Node::Ref {
                target,
                description,
            } => {
                let mut reference = ref_to(&self.names[*target]);
                if draft07 {
                    reference = reference.replacen("#/$defs/", "#/definitions/", 1);
                }
                let mut schema = json!({"$ref": reference});
                if *description {
                    schema["description"] = json!(format!("see {}", self.names[*target]));
                }
                schema
            }
            Node::Dangling(name) => {
                let mut reference = ref_to(name);
                if draft07 {
                    reference = reference.replacen("#/$defs/", "#/definitions/", 1);
                }
                json!({"$ref": reference})
            }
            Node::Unsupported(target) => json!({"$ref": target}),
            Node::Object { fields, additional } => {
                let mut properties = Map::new();
                let mut required = Vec::new();
                for (name, node, is_required) in fields {
                    properties.insert(name.clone(), self.schema(node, draft07));
                    if *is_required {
                        required.push(json!(name));
                    }
                }
                let mut schema = json!({"type": "object", "properties": properties});
                if !required.is_empty() {
                    schema["required"] = Value::Array(required);
                }
                match additional {
                    Additional::Unsaid => {}
                    Additional::False => schema["additionalProperties"] = json!(false),
                    Additional::True => schema["additionalProperties"] = json!(true),
                    Additional::Schema(node) => {
                        schema["additionalProperties"] = self.schema(node, draft07)
                    }
                }
                schema
            }
            Node::Array {
                items,
                min_items,
                max_items,
            } => {
                let mut schema = json!({"type": "array", "items": self.schema(items, draft07)});
                if let Some(min) = min_items {
                    schema["minItems"] = json!(min);
                }
                if let Some(max) = max_items {
                    schema["maxItems"] = json!(max);
                }
                schema
            }
            Node::Map(values) => {
                json!({"type": "object", "additionalProperties": self.schema(values, draft07)})
            }
            Node::Union { one_of, variants } => {
                let variants: Vec<Value> =
                    variants.iter().map(|v| self.schema(v, draft07)).collect();
                if *one_of {
                    json!({"oneOf": variants})
                } else {
                    json!({"anyOf": variants})
                }
            }
            Node::AllOf(members) => {
                let members: Vec<Value> = members.iter().map(|m| self.schema(m, draft07)).collect();
                json!({"allOf": members})
            }
            Node::Nullable(inner) => {
                json!({"anyOf": [self.schema(inner, draft07), {"type": "null"}]})
            }
        }
    }

    /// The whole tool definition: `wrapper` picks bare, MCP, OpenAI or Anthropic.
    pub fn definition(&self, wrapper: usize, draft07: bool) -> Value {
        let mut arguments = self.schema(&self.root, draft07);
        let mut definitions = Map::new();
        for (name, node) in self.names.iter().zip(&self.definitions) {
            definitions.insert(name.clone(), self.schema(node, draft07));
        }
        let key = if draft07 { "definitions" } else { "$defs" };
        arguments[key] = Value::Object(definitions);
        match wrapper % 4 {
            0 => {
                arguments["title"] = json!("graph");
                arguments
            }
            1 => json!({"name": "graph", "description": "A graph.", "inputSchema": arguments}),
            2 => {
                json!({"type": "function", "function": {"name": "graph", "parameters": arguments}})
            }
            _ => json!({"name": "graph", "input_schema": arguments}),
        }
    }

    /// The definitions that refer back to themselves without an object, array or map in
    /// between (through references, union alternatives, `allOf` members and nullable
    /// wrappers): the reader must refuse the schema when there is one.
    pub fn cycle_without_progress(&self) -> Option<Vec<usize>> {
        let edges: Vec<Vec<usize>> = self
            .definitions
            .iter()
            .map(|node| {
                let mut reached = Vec::new();
                same_value_targets(node, &mut reached);
                reached
            })
            .collect();
        // Iterative DFS with colours.
        let count = self.definitions.len();
        let mut colour = vec![0u8; count];
        for root in 0..count {
            if colour[root] != 0 {
                continue;
            }
            let mut stack = vec![(root, 0usize)];
            colour[root] = 1;
            while let Some(&mut (at, ref mut edge)) = stack.last_mut() {
                let Some(&next) = edges[at].get(*edge) else {
                    colour[at] = 2;
                    stack.pop();
                    continue;
                };
                *edge += 1;
                match colour[next] {
                    0 => {
                        colour[next] = 1;
                        stack.push((next, 0));
                    }
                    1 => {
                        let from = stack.iter().position(|&(d, _)| d == next).unwrap_or(0);
                        let mut cycle: Vec<usize> = stack[from..].iter().map(|&(d, _)| d).collect();
                        cycle.push(next);
                        return Some(cycle);
                    }
                    _ => {}
                }
            }
        }
        None
    }

    /// An argument value that follows the graph: every object field present (`all_fields`)
    /// or a coin decides, recursion followed as deep as `depth_goal`; `wrong` leaves are
    /// sometimes of the wrong type (a string for a number...) so refusals come with deep
    /// paths.
    pub fn value(
        &self,
        u: &mut Unstructured<'_>,
        depth_goal: usize,
        wrong: bool,
        max_nodes: usize,
    ) -> Value {
        let mut walk = ValueWalk {
            graph: self,
            u,
            nodes: 0,
            max_nodes,
            depth_goal,
            wrong,
        };
        walk.value(&self.root, 0, 0)
    }
}

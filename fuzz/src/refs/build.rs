//! Building a graph's definitions from fuzz bytes.

use super::*;

pub(super) struct Build<'u, 'a> {
    pub(super) u: &'u mut Unstructured<'a>,
    pub(super) count: usize,
    pub(super) nodes: usize,
}

impl Build<'_, '_> {
    pub(super) fn leaf(&mut self) -> Leaf {
        match pick(self.u, 9) {
            0 => Leaf::Integer {
                min: coin(self.u).then(|| pick(self.u, 5) as i64 - 2),
                max: coin(self.u).then(|| pick(self.u, 100) as i64),
            },
            1 => Leaf::Number,
            2 => Leaf::String {
                max_length: coin(self.u).then(|| pick(self.u, 8) as u8),
            },
            3 => Leaf::Boolean,
            4 => Leaf::Null,
            5 => Leaf::Any,
            6 => Leaf::Never,
            7 => {
                let count = 1 + pick(self.u, ENUM_VALUES.len());
                Leaf::Enum(ENUM_VALUES[..count].to_vec())
            }
            _ => Leaf::Const(pick(self.u, 3) as i64),
        }
    }

    fn reference(&mut self) -> Node {
        match pick(self.u, 16) {
            0 => Node::Dangling(["Missing", "d0", "#", ""][pick(self.u, 4)]),
            1 => Node::Unsupported(
                [
                    "#",
                    "#/properties/x",
                    "#/definitions/D0",
                    "https://example.com/s.json#/$defs/D0",
                    "#/$defs/D0/properties/l",
                    "",
                ][pick(self.u, 6)],
            ),
            _ => Node::Ref {
                target: pick(self.u, self.count),
                description: pick(self.u, 4) == 0,
            },
        }
    }

    pub(super) fn fields(&mut self, depth: usize) -> Vec<(String, Node, bool)> {
        let count = pick(self.u, 4) + usize::from(depth == 0);
        let mut fields: Vec<(String, Node, bool)> = Vec::new();
        for index in 0..count {
            let mut name = FIELD_NAMES[pick(self.u, FIELD_NAMES.len())].to_owned();
            if fields.iter().any(|(n, _, _)| *n == name) {
                name = format!("{name}{index}");
            }
            let node = self.node(depth + 1);
            let required = coin(self.u);
            fields.push((name, node, required));
        }
        fields
    }

    /// Any schema, references to any definition among its parts.
    pub(super) fn node(&mut self, depth: usize) -> Node {
        self.nodes += 1;
        if depth >= 5 || self.nodes > MAX_NODES {
            return if self.count > 0 && coin(self.u) {
                self.reference()
            } else {
                Node::Leaf(self.leaf())
            };
        }
        match pick(self.u, 10) {
            0 => Node::Leaf(self.leaf()),
            1 | 2 => self.reference(),
            3 => {
                let fields = self.fields(depth);
                let additional = self.additional(depth);
                Node::Object { fields, additional }
            }
            4 => Node::Array {
                items: Box::new(self.node(depth + 1)),
                min_items: coin(self.u).then(|| pick(self.u, 3) as u8),
                max_items: coin(self.u).then(|| pick(self.u, 4) as u8),
            },
            5 => Node::Map(Box::new(self.node(depth + 1))),
            6 | 7 => {
                let count = 1 + pick(self.u, 3);
                let one_of = coin(self.u);
                Node::Union {
                    one_of,
                    variants: (0..count).map(|_| self.node(depth + 1)).collect(),
                }
            }
            8 => {
                let count = 1 + pick(self.u, 2);
                Node::AllOf((0..count).map(|_| self.node(depth + 1)).collect())
            }
            _ => Node::Nullable(Box::new(self.node(depth + 1))),
        }
    }

    pub(super) fn additional(&mut self, depth: usize) -> Additional {
        match pick(self.u, 5) {
            0 | 1 => Additional::Unsaid,
            2 => Additional::False,
            3 => Additional::True,
            _ => Additional::Schema(Box::new(self.node(depth + 1))),
        }
    }

    /// One step of a chain or ring: a schema that reaches `target` (twice when `twice`).
    pub(super) fn step(&mut self, target: usize, twice: bool, progress: bool) -> Node {
        let to = |description| Node::Ref {
            target,
            description,
        };
        let description = pick(self.u, 8) == 7;
        if !progress {
            let variants = if twice {
                vec![to(description), to(false)]
            } else {
                vec![to(description), Node::Leaf(self.leaf())]
            };
            return match pick(self.u, 4) {
                0 => Node::Union {
                    one_of: true,
                    variants,
                },
                1 if !twice => Node::Nullable(Box::new(to(description))),
                2 if !twice => Node::AllOf(vec![to(description)]),
                _ => Node::Union {
                    one_of: false,
                    variants,
                },
            };
        }
        match pick(self.u, 4) {
            0 => Node::Array {
                items: Box::new(if twice {
                    Node::Union {
                        one_of: false,
                        variants: vec![to(description), to(false)],
                    }
                } else {
                    to(description)
                }),
                min_items: None,
                max_items: coin(self.u).then_some(2),
            },
            1 => Node::Map(Box::new(to(description))),
            _ => {
                let required = coin(self.u);
                let mut fields = vec![("l".to_owned(), to(description), required)];
                if twice {
                    fields.push(("r".to_owned(), to(false), required));
                }
                if coin(self.u) {
                    fields.push(("v".to_owned(), Node::Leaf(self.leaf()), false));
                }
                Node::Object {
                    fields,
                    additional: if coin(self.u) {
                        Additional::False
                    } else {
                        Additional::Unsaid
                    },
                }
            }
        }
    }
}

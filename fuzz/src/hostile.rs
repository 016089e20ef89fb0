//! Tool definitions with hostile text in every place the schema compiler writes into code,
//! for `gen`: descriptions with Markdown fences, indented lines, CR, bidi controls, URLs,
//! HTML, attribute and comment closers; names that are keywords (`gen`, `Self`, `self`),
//! prelude types, confusables, digits, empty; enum values, `const` and defaults of the same
//! kind; `$defs` names, tagged and untagged unions, nested objects, arrays, maps, nullable
//! fields, MCP `outputSchema`, several tools in one file.

use arbitrary::Unstructured;
use serde_json::{json, Map, Value};

use crate::refs::pick;

fn coin(u: &mut Unstructured<'_>) -> bool {
    u.arbitrary::<bool>().unwrap_or(false)
}

/// Pieces of descriptions.
const TEXT: [&str; 47] = [
    "Plain words.",
    "```\nstd::process::exit(1);\n```",
    "```rust\nfn main() { panic!() }\n```",
    "```text\nnot code\n```",
    "```ignore\nx\n```",
    "```json\n{\"a\": 1}\n```",
    "```no_run\nloop {}\n```",
    "~~~\nlet x = 1;\n~~~",
    "```",
    "~~~",
    "\n\n    indented_code();\n",
    "\n    four spaces",
    "\n\tlet tab = 1;",
    "\n\n        eight",
    "line\rwith CR",
    "\r\n",
    "\r",
    "\n",
    "\n\n",
    "\u{202e}evil\u{202c}",
    "\u{2066}isolate\u{2069}",
    "\u{200b}zero width",
    "https://example.com/a_b?c=d#e",
    "<https://example.com>",
    "[link](javascript:alert(1))",
    "<script>alert(1)</script>",
    "*/",
    "/*",
    "\"]\n#[doc = \"",
    "\"#]",
    "#![allow(warnings)]",
    "\\",
    "\\n",
    "{{}}",
    "${x}",
    "  two leading spaces",
    "trailing spaces  ",
    "\u{0}nul",
    "\u{feff}bom",
    "    ",
    ">     quoted_code();",
    "\n> ```\n> code();\n> ```",
    "- item\n\n      list_code();",
    "1. step\n\n   ~~~~rust\n   code();\n   ~~~~",
    "\n\n\u{a0}\u{a0}\u{a0}\u{a0}nbsp_code();",
    "`` ``` ``",
    "<pre>\ncode\n</pre>",
];

/// Names: of tools, properties, `$defs`, enum values, tags.
const NAMES: [&str; 40] = [
    "gen",
    "Self",
    "self",
    "super",
    "crate",
    "_",
    "type",
    "r#type",
    "async",
    "try",
    "union",
    "Option",
    "String",
    "Vec",
    "Result",
    "Box",
    "std",
    "core",
    "toolgate",
    "serde",
    "Ok",
    "None",
    "Default",
    "Tool",
    "\u{440}\u{430}y",
    "pay",
    "p\u{430}y",
    "\u{1d5ba}",
    "123",
    "1.5",
    "a-b",
    "a b",
    "",
    "__",
    "a__b",
    "🙂",
    "\u{202e}x",
    "ǅ",
    "é",
    "x\ny",
];

const FORMATS: [&str; 6] = ["date", "email", "uri", "uuid", "int32", "float"];

/// A string made of 1–3 hostile pieces, maybe with bytes from the input.
pub fn text(u: &mut Unstructured<'_>) -> String {
    let mut out = String::new();
    for _ in 0..1 + pick(u, 3) {
        if pick(u, 8) == 0 {
            let length = pick(u, 12);
            let bytes = u.bytes(length).unwrap_or_default();
            out.push_str(&String::from_utf8_lossy(bytes));
        } else {
            out.push_str(TEXT[pick(u, TEXT.len())]);
        }
    }
    out
}

pub fn name(u: &mut Unstructured<'_>) -> String {
    match pick(u, 10) {
        0 => text(u),
        1 => format!(
            "{}{}",
            NAMES[pick(u, NAMES.len())],
            NAMES[pick(u, NAMES.len())]
        ),
        _ => NAMES[pick(u, NAMES.len())].to_owned(),
    }
}

struct Gen<'u, 'a> {
    u: &'u mut Unstructured<'a>,
    defs: Vec<String>,
    nodes: usize,
}

impl Gen<'_, '_> {
    fn describe(&mut self, schema: &mut Value) {
        if pick(self.u, 3) != 0 {
            schema["description"] = json!(text(self.u));
        }
        if pick(self.u, 8) == 0 {
            schema["title"] = json!(text(self.u));
        }
        if pick(self.u, 10) == 0 {
            schema["examples"] = json!([text(self.u)]);
        }
    }

    fn schema(&mut self, depth: usize) -> Value {
        self.nodes += 1;
        let leaf_only = depth >= 4 || self.nodes > 40;
        let mut schema = match pick(self.u, if leaf_only { 7 } else { 13 }) {
            0 => {
                let mut s = json!({"type": "string"});
                match pick(self.u, 5) {
                    0 => s["default"] = json!(text(self.u)),
                    1 => s["pattern"] = json!(["^a$", "\\d+", "^[^\"]*$", "```"][pick(self.u, 4)]),
                    2 => s["format"] = json!(FORMATS[pick(self.u, 3)]),
                    _ => {}
                }
                s
            }
            1 => {
                let count = 1 + pick(self.u, 4);
                let values: Vec<String> = (0..count).map(|_| name(self.u)).collect();
                json!({"type": "string", "enum": values})
            }
            2 => json!({"const": name(self.u)}),
            3 => {
                let mut s = json!({"type": "integer"});
                if coin(self.u) {
                    s["minimum"] = json!(pick(self.u, 10) as i64 - 5);
                }
                if coin(self.u) {
                    s["default"] = json!(pick(self.u, 10));
                }
                if coin(self.u) {
                    s["format"] = json!(["int32", "int64", "uint8"][pick(self.u, 3)]);
                }
                s
            }
            4 => json!({"type": "number", "multipleOf": 0.5}),
            5 => json!({"type": "boolean", "default": coin(self.u)}),
            6 if !self.defs.is_empty() => {
                let target = self.defs[pick(self.u, self.defs.len())].clone();
                let token = target
                    .replace('~', "~0")
                    .replace('/', "~1")
                    .replace('%', "%25");
                json!({"$ref": format!("#/$defs/{token}")})
            }
            6 => json!({"type": "null"}),
            7 | 8 => self.object(depth + 1),
            9 => json!({"type": "array", "items": self.schema(depth + 1)}),
            10 => json!({"type": "object", "additionalProperties": self.schema(depth + 1)}),
            11 => {
                // A tagged union: objects told apart by a `const` tag.
                let tag = name(self.u);
                let variants: Vec<Value> = (0..1 + pick(self.u, 3))
                    .map(|_| {
                        let mut variant = self.object(depth + 1);
                        let value = name(self.u);
                        variant["properties"][&tag] = json!({"const": value});
                        variant["required"] = json!([tag]);
                        self.describe(&mut variant);
                        variant
                    })
                    .collect();
                json!({"oneOf": variants})
            }
            _ => {
                let variants: Vec<Value> = (0..2 + pick(self.u, 2))
                    .map(|_| {
                        let mut variant = self.schema(depth + 1);
                        self.describe(&mut variant);
                        variant
                    })
                    .collect();
                if coin(self.u) {
                    json!({"anyOf": variants})
                } else {
                    json!({"oneOf": variants})
                }
            }
        };
        if pick(self.u, 6) == 0 {
            schema = json!({"anyOf": [schema, {"type": "null"}]});
        }
        self.describe(&mut schema);
        schema
    }

    fn object(&mut self, depth: usize) -> Value {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for _ in 0..pick(self.u, 5) {
            let key = name(self.u);
            if properties.contains_key(&key) {
                continue;
            }
            let schema = self.schema(depth);
            properties.insert(key.clone(), schema);
            if coin(self.u) {
                required.push(json!(key));
            }
        }
        let mut object = json!({"type": "object", "properties": properties});
        if !required.is_empty() {
            object["required"] = Value::Array(required);
        }
        match pick(self.u, 6) {
            0 => object["additionalProperties"] = json!(false),
            1 => object["additionalProperties"] = json!({"type": "string"}),
            _ => {}
        }
        object
    }

    fn tool(&mut self) -> Value {
        self.defs.clear();
        self.nodes = 0;
        let mut defs = Map::new();
        for _ in 0..pick(self.u, 3) {
            let def = name(self.u);
            self.defs.push(def.clone());
        }
        for def in self.defs.clone() {
            let mut schema = if coin(self.u) {
                self.object(1)
            } else {
                self.schema(1)
            };
            self.describe(&mut schema);
            defs.insert(def, schema);
        }
        let mut arguments = self.object(0);
        if !defs.is_empty() {
            arguments["$defs"] = Value::Object(defs);
        }
        if pick(self.u, 4) == 0 {
            arguments["description"] = json!(text(self.u));
        }
        let tool_name = name(self.u);
        let description = text(self.u);
        match pick(self.u, 4) {
            0 => {
                json!({"type": "function", "function": {"name": tool_name, "description": description, "parameters": arguments}})
            }
            1 => {
                let mut tool = json!({"name": tool_name, "description": description, "inputSchema": arguments});
                if coin(self.u) {
                    self.nodes = 0;
                    tool["outputSchema"] = self.object(1);
                }
                tool
            }
            2 => json!({"name": tool_name, "description": description, "input_schema": arguments}),
            _ => {
                arguments["title"] = json!(tool_name);
                arguments
            }
        }
    }
}

/// A schema file's text: one tool, or an array of 2–3.
pub fn definition_file(u: &mut Unstructured<'_>) -> String {
    let mut generator = Gen {
        u,
        defs: Vec::new(),
        nodes: 0,
    };
    let file = if pick(generator.u, 4) == 0 {
        Value::Array(
            (0..2 + pick(generator.u, 2))
                .map(|_| generator.tool())
                .collect(),
        )
    } else {
        generator.tool()
    };
    file.to_string()
}

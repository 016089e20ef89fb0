//! Generated names never make a valid file fail (issue 27 §4): tools, result types and
//! definitions whose names are equal after case conversion (`Foo`, `foo`, `f-o-o`), a tool
//! beside another's `<tool>_output`, a definition named like a tool, names of std types
//! (`Box`, `Result`) and keywords (`Self`, `type`): each gets its own Rust name, and each
//! type reports its own tool name.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use serde_json::{json, Value};

use crate::schema::Builder;

/// Stems that collide after heck's case conversion, in the spellings a schema may use.
fn colliding_name() -> impl Strategy<Value = String> {
    let stem = prop::sample::select(vec![
        "foo", "bar_baz", "x", "self", "type", "box", "result", "vec", "option", "string",
        "hash_map", "tool", "some", "default",
    ]);
    let spelling = prop::sample::select(vec![0usize, 1, 2, 3, 4, 5, 6]);
    let suffix = prop::sample::select(vec!["", "_output", "_output_2", "Output", "_item", "2"]);
    (stem, spelling, suffix).prop_map(|(stem, spelling, suffix)| {
        let words: Vec<&str> = stem.split('_').collect();
        let upper = |w: &str| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + c.as_str()
            })
        };
        let base = match spelling {
            0 => words.join("_"),
            1 => words.iter().map(|w| upper(w)).collect(),
            2 => words.join("-"),
            3 => words.join("_").to_ascii_uppercase(),
            4 => words.join("."),
            5 => words.iter().map(|w| w.to_string()).collect(),
            _ => format!("_{}", words.join("_")),
        };
        format!("{base}{suffix}")
    })
}

fn object(field: &str) -> Value {
    json!({"type": "object", "properties": {field: {"type": "string"}}, "required": [field]})
}

/// One MCP tool: its definitions each used by a property, an enum and a nested object
/// (types named from the property), and maybe an `outputSchema`.
fn tool(name: &str, definitions: &[String], output: bool) -> Value {
    let mut properties = serde_json::Map::new();
    for (index, definition) in definitions.iter().enumerate() {
        properties.insert(
            format!("p{index}"),
            json!({"$ref": format!("#/$defs/{definition}")}),
        );
    }
    properties.insert(name.to_owned(), object("inner"));
    properties.insert(
        format!("{name}_e"),
        json!({"type": "string", "enum": ["a", "A"]}),
    );
    let defs: BTreeMap<&String, Value> = definitions.iter().map(|d| (d, object("v"))).collect();
    let mut tool = json!({
        "name": name,
        "inputSchema": {"type": "object", "properties": properties, "$defs": defs},
    });
    if output {
        tool["outputSchema"] = object("result");
    }
    tool
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn colliding_names_get_distinct_names(
        tools in prop::collection::btree_map(
            colliding_name(),
            (prop::collection::btree_set(colliding_name(), 0..4), any::<bool>()),
            1..6,
        ),
    ) {
        let file: Vec<Value> = tools
            .iter()
            .map(|(name, (definitions, output))| {
                tool(name, &definitions.iter().cloned().collect::<Vec<_>>(), *output)
            })
            .collect();
        let text = serde_json::to_string(&file).unwrap();
        let generated = Builder::new().generate_text_tools("t.json", &text);
        let generated = match generated {
            Ok(generated) => generated,
            Err(error) => return Err(TestCaseError::fail(format!("{error}\n{text}"))),
        };
        // The code is Rust, every type name is given once, and every type reports its own
        // tool name.
        let parsed = syn::parse_file(&generated.code).expect("the code parses");
        let mut types = BTreeSet::new();
        for item in &parsed.items {
            let ident = match item {
                syn::Item::Struct(item) => &item.ident,
                syn::Item::Enum(item) => &item.ident,
                _ => continue,
            };
            prop_assert!(types.insert(ident.to_string()), "{} twice in\n{}", ident, generated.code);
        }
        let mut reported = BTreeSet::new();
        for tool in &generated.tools {
            prop_assert!(types.contains(&tool.rust_name));
            prop_assert!(reported.insert(tool.name.clone()), "{}", tool.name);
            if let (Some(output), Some(output_name)) = (&tool.output, &tool.output_name) {
                prop_assert!(types.contains(output));
                prop_assert!(reported.insert(output_name.clone()), "{}", output_name);
            }
        }
        prop_assert_eq!(generated.tools.len(), tools.len());
        let tool_names = generated.code.matches("#[tool(name = ").count();
        prop_assert_eq!(tool_names, reported.len());
    }
}

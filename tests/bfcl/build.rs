//! Compiles every tool of the BFCL corpus copy (`../data/bfcl/cases.jsonl`) with the schema
//! compiler: the distinct definitions, as arrays of schemas (one per layer, so that no file
//! holds a tool name twice), become `bfcl_tools_<layer>.rs` in modules `layer_<n>`
//! (`bfcl_tools.rs`), and `bfcl_index.rs` maps each corpus line to its type.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use serde_json::value::RawValue;

fn main() {
    // The schema goldens, compiled as any user's build.rs would, and a table of their tools
    // for the round trip.
    let golden_tools = toolgate_codegen::Builder::new()
        .schemas(Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas"))
        .out_file("golden_tools.rs")
        .compile_tools()
        .unwrap_or_else(|error| panic!("the schema compiler refused tests/schemas:\n{error}"));
    let mut golden_index = String::from(
        "/// The model of a generated type.\npub type ModelOf = fn() -> &'static ::toolgate::model::ToolModel;\n/// Each golden tool (and each result type, as `<tool>_output`): its name and the model of its generated type.\npub const TOOLS: &[(&str, ModelOf)] = &[\n",
    );
    for tool in &golden_tools {
        writeln!(
            golden_index,
            "    ({:?}, <{} as ::toolgate::Tool>::model),",
            tool.name, tool.rust_name
        )
        .unwrap();
        // The type of an MCP `outputSchema`, named after the tool with `_output`.
        if let (Some(output), Some(output_name)) = (&tool.output, &tool.output_name) {
            writeln!(
                golden_index,
                "    ({output_name:?}, <{output} as ::toolgate::Tool>::model),"
            )
            .unwrap();
        }
    }
    golden_index.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    toolgate_codegen::schema::write_if_changed(
        &Path::new(&out_dir).join("golden_index.rs"),
        &golden_index,
    )
    .expect("OUT_DIR is writable");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/bfcl/cases.jsonl");
    println!("cargo:rerun-if-changed={}", corpus.display());
    let text = std::fs::read_to_string(&corpus).expect("the corpus copy is in tests/data/bfcl");
    // Definitions are kept as written (a serde_json::Value would sort their properties, and
    // the generated fields follow the schema's order); identical ones share a type.
    let mut definitions: Vec<Box<RawValue>> = Vec::new();
    // Distinct definitions may share a tool name (the corpus holds several `calculate_bmi`),
    // and one generated file must not (two types would report one name): the n-th
    // definition of a name goes into layer n, a module and a generated file of its own.
    let mut layer_of: Vec<usize> = Vec::new();
    let mut names_seen: HashMap<String, usize> = HashMap::new();
    let mut index_of: HashMap<String, usize> = HashMap::new();
    let mut line_types = Vec::new();
    for line in text.lines() {
        let mut case: HashMap<String, Box<RawValue>> =
            serde_json::from_str(line).expect("a corpus line is a JSON object");
        let tool = case.remove("tool").expect("a corpus line has a tool");
        let key: serde_json::Value = serde_json::from_str(tool.get()).expect("raw JSON reads");
        let name = key["name"].as_str().unwrap_or_default().to_owned();
        let index = *index_of.entry(key.to_string()).or_insert_with(|| {
            let seen = names_seen.entry(name).or_insert(0);
            layer_of.push(*seen);
            *seen += 1;
            definitions.push(tool);
            definitions.len() - 1
        });
        line_types.push(index);
    }
    let layers = layer_of.iter().max().map_or(0, |last| last + 1);
    let mut type_paths = vec![String::new(); definitions.len()];
    let mut modules = String::new();
    for layer in 0..layers {
        let members: Vec<usize> = (0..definitions.len())
            .filter(|index| layer_of[*index] == layer)
            .collect();
        let file: Vec<&str> = members
            .iter()
            .map(|index| definitions[*index].get())
            .collect();
        // The corpus's schemas allow undeclared keys (none says `additionalProperties:
        // false`) and its valid cases send some: the generated structs keep them, as
        // `DynamicTool` does.
        let generated = toolgate_codegen::Builder::new()
            .keep_undeclared_keys(true)
            .generate_text_tools(
                format!("bfcl_tools_{layer}.json"),
                &format!("[{}]", file.join(",\n")),
            )
            .unwrap_or_else(|error| panic!("the schema compiler refused the corpus:\n{error}"));
        toolgate_codegen::schema::write_if_changed(
            &Path::new(&out_dir).join(format!("bfcl_tools_{layer}.rs")),
            &generated.code,
        )
        .expect("OUT_DIR is writable");
        for (member, tool) in members.iter().zip(&generated.tools) {
            type_paths[*member] = format!("layer_{layer}::{}", tool.rust_name);
        }
        writeln!(
            modules,
            "/// The corpus's tools, layer {layer}: each tool name once.\npub mod layer_{layer} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/bfcl_tools_{layer}.rs\"));\n}}"
        )
        .unwrap();
    }
    toolgate_codegen::schema::write_if_changed(
        &Path::new(&out_dir).join("bfcl_tools.rs"),
        &modules,
    )
    .expect("OUT_DIR is writable");
    let mut index =
        String::from("/// The type of each corpus line, as an index into [`decode`]'s table.\n");
    writeln!(
        index,
        "pub const LINE_TYPES: [usize; {}] = {line_types:?};",
        line_types.len()
    )
    .unwrap();
    writeln!(
        index,
        "/// How many distinct tools the corpus holds.\npub const TOOLS: usize = {};",
        definitions.len()
    )
    .unwrap();
    index.push_str("/// Decodes `arguments` with the generated type of tool `tool`.\n");
    index.push_str("pub fn decode(tool: usize, arguments: &str) -> Option<Result<::toolgate::Decoded<::serde_json::Value>, ::toolgate::Rejected>> {\n    Some(match tool {\n");
    for (number, path) in type_paths.iter().enumerate() {
        writeln!(index, "        {number} => typed::<{path}>(arguments),").unwrap();
    }
    index.push_str("        _ => return None,\n    })\n}\n");
    index.push_str("/// The model of the generated type of tool `tool`.\n");
    index.push_str("pub fn model(tool: usize) -> Option<&'static ::toolgate::model::ToolModel> {\n    Some(match tool {\n");
    for (number, path) in type_paths.iter().enumerate() {
        writeln!(
            index,
            "        {number} => <{path} as ::toolgate::Tool>::model(),"
        )
        .unwrap();
    }
    index.push_str("        _ => return None,\n    })\n}\n");
    toolgate_codegen::schema::write_if_changed(&Path::new(&out_dir).join("bfcl_index.rs"), &index)
        .expect("OUT_DIR is writable");
}

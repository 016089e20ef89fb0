//! Compiles every tool of the BFCL corpus copy (`../data/bfcl/cases.jsonl`) with the schema
//! compiler: the distinct definitions, as one array of schemas, become `bfcl_tools.rs`, and
//! `bfcl_index.rs` maps each corpus line to its type.

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
        if let Some(output) = &tool.output {
            writeln!(
                golden_index,
                "    (\"{}_output\", <{output} as ::toolgate::Tool>::model),",
                tool.name
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
    let mut index_of: HashMap<String, usize> = HashMap::new();
    let mut line_types = Vec::new();
    for line in text.lines() {
        let mut case: HashMap<String, Box<RawValue>> =
            serde_json::from_str(line).expect("a corpus line is a JSON object");
        let tool = case.remove("tool").expect("a corpus line has a tool");
        let key: serde_json::Value = serde_json::from_str(tool.get()).expect("raw JSON reads");
        let index = *index_of.entry(key.to_string()).or_insert_with(|| {
            definitions.push(tool);
            definitions.len() - 1
        });
        line_types.push(index);
    }
    let file: Vec<&str> = definitions.iter().map(|d| d.get()).collect();
    // The corpus's schemas allow undeclared keys (none says `additionalProperties: false`)
    // and its valid cases send some: the generated structs keep them, as `DynamicTool` does.
    let generated = toolgate_codegen::Builder::new()
        .keep_undeclared_keys(true)
        .generate_text_tools("bfcl_tools.json", &format!("[{}]", file.join(",\n")))
        .unwrap_or_else(|error| panic!("the schema compiler refused the corpus:\n{error}"));
    toolgate_codegen::schema::write_if_changed(
        &Path::new(&out_dir).join("bfcl_tools.rs"),
        &generated.code,
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
        generated.tools.len()
    )
    .unwrap();
    index.push_str("/// Decodes `arguments` with the generated type of tool `tool`.\n");
    index.push_str("pub fn decode(tool: usize, arguments: &str) -> Option<Result<::toolgate::Decoded<::serde_json::Value>, ::toolgate::Rejected>> {\n    Some(match tool {\n");
    for (number, tool) in generated.tools.iter().enumerate() {
        writeln!(
            index,
            "        {number} => typed::<{}>(arguments),",
            tool.rust_name
        )
        .unwrap();
    }
    index.push_str("        _ => return None,\n    })\n}\n");
    index.push_str("/// The model of the generated type of tool `tool`.\n");
    index.push_str("pub fn model(tool: usize) -> Option<&'static ::toolgate::model::ToolModel> {\n    Some(match tool {\n");
    for (number, tool) in generated.tools.iter().enumerate() {
        writeln!(
            index,
            "        {number} => <{} as ::toolgate::Tool>::model(),",
            tool.rust_name
        )
        .unwrap();
    }
    index.push_str("        _ => return None,\n    })\n}\n");
    toolgate_codegen::schema::write_if_changed(&Path::new(&out_dir).join("bfcl_index.rs"), &index)
        .expect("OUT_DIR is writable");
}

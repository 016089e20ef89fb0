//! Compiles every tool of the BFCL corpus copy (`../data/bfcl/cases.jsonl`) with the schema
//! compiler: the distinct definitions go to one schema file in `OUT_DIR`, the Builder turns
//! it into `bfcl_tools.rs`, and `bfcl_index.rs` maps each corpus line to its type.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let schemas_folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let goldens = toolgate_codegen::Builder::new()
        .schemas(&schemas_folder)
        .generate()
        .unwrap_or_else(|error| panic!("the schema compiler refused tests/schemas:\n{error}"));
    println!("cargo:rerun-if-changed={}", schemas_folder.display());
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    toolgate_codegen::schema::write_if_changed(&Path::new(&out).join("golden_tools.rs"), &goldens)
        .expect("OUT_DIR is writable");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/bfcl/cases.jsonl");
    println!("cargo:rerun-if-changed={}", corpus.display());
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let text = std::fs::read_to_string(&corpus).expect("the corpus copy is in tests/data/bfcl");
    let mut definitions: Vec<serde_json::Value> = Vec::new();
    let mut index_of: HashMap<String, usize> = HashMap::new();
    let mut line_types = Vec::new();
    for line in text.lines() {
        let case: serde_json::Value = serde_json::from_str(line).expect("a corpus line is JSON");
        let tool = case["tool"].clone();
        let key = tool.to_string();
        let index = *index_of.entry(key).or_insert_with(|| {
            definitions.push(tool);
            definitions.len() - 1
        });
        line_types.push(index);
    }
    let schemas = Path::new(&out_dir).join("bfcl_tools.json");
    std::fs::write(
        &schemas,
        serde_json::to_string(&definitions).expect("JSON values write"),
    )
    .expect("OUT_DIR is writable");
    let generated = toolgate_codegen::Builder::new()
        .schemas(&schemas)
        .generate_tools()
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

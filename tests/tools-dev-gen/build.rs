//! Runs every distinct tool of the tools-dev corpus copy (`../data/tools-dev/cases.jsonl.gz`:
//! real schemas from 24 public sources, see the NOTICE there) through the schema compiler.
//! Each tool is first generated alone: a tool the compiler refuses is listed with the
//! compiler's first error (`tools_dev_index.rs`, `REFUSED`) and left out; the others go, in
//! layers that hold each tool name once, into `tools_dev_<layer>.rs`, which the crate
//! compiles. `tools_dev_index.rs` maps each corpus line to its type.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;

use serde_json::value::RawValue;
use toolgate_codegen::Builder;

fn builder() -> Builder {
    // Real schemas allow undeclared keys unless they say otherwise: keep them, as
    // `DynamicTool` does.
    let mut builder = Builder::new();
    builder.keep_undeclared_keys(true);
    builder
}

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/tools-dev/cases.jsonl.gz");
    println!("cargo:rerun-if-changed={}", corpus.display());
    let bytes = std::fs::read(&corpus).expect("the corpus copy is in tests/data/tools-dev");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut text)
        .expect("the corpus copy is gzip text");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    // Definitions as written (a serde_json::Value would sort their properties); the variants
    // of one tool (`req`, `full`, `nested`) share a definition and a type.
    let mut definitions: Vec<(String, Box<RawValue>)> = Vec::new();
    let mut index_of: HashMap<String, usize> = HashMap::new();
    let mut line_definitions = Vec::new();
    for line in text.lines() {
        let mut case: HashMap<String, Box<RawValue>> =
            serde_json::from_str(line).expect("a corpus line is a JSON object");
        let tool = case.remove("tool").expect("a corpus line has a tool");
        let id: String = serde_json::from_str(case["id"].get()).expect("a corpus line has an id");
        let tool_id = id.split('#').next().unwrap_or_default().to_owned();
        let index = *index_of.entry(tool.get().to_owned()).or_insert_with(|| {
            definitions.push((tool_id, tool));
            definitions.len() - 1
        });
        line_definitions.push(index);
    }
    // Alone first: which tools the compiler takes.
    let mut refused = Vec::new();
    let mut compiled = Vec::new();
    for (index, (id, tool)) in definitions.iter().enumerate() {
        match builder().generate_text_tools(format!("{id}.json"), &format!("[{}]", tool.get())) {
            Ok(_) => compiled.push(index),
            Err(error) => {
                let first = error
                    .to_string()
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned();
                refused.push((id.clone(), first));
            }
        }
    }
    // Layers: the n-th compiled tool of a name goes into layer n.
    let mut names_seen: HashMap<String, usize> = HashMap::new();
    let mut layer_of: HashMap<usize, usize> = HashMap::new();
    for &index in &compiled {
        let name: serde_json::Value =
            serde_json::from_str(definitions[index].1.get()).expect("raw JSON reads");
        let name = name["name"].as_str().unwrap_or_default().to_owned();
        let seen = names_seen.entry(name).or_insert(0);
        layer_of.insert(index, *seen);
        *seen += 1;
    }
    let layers = layer_of.values().max().map_or(0, |last| last + 1);
    let mut type_paths: HashMap<usize, String> = HashMap::new();
    let mut modules = String::new();
    for layer in 0..layers {
        let members: Vec<usize> = compiled
            .iter()
            .copied()
            .filter(|index| layer_of[index] == layer)
            .collect();
        let file: Vec<&str> = members
            .iter()
            .map(|index| definitions[*index].1.get())
            .collect();
        let generated = builder()
            .generate_text_tools(
                format!("tools_dev_{layer}.json"),
                &format!("[{}]", file.join(",\n")),
            )
            .unwrap_or_else(|error| panic!("tools taken alone are refused together:\n{error}"));
        toolgate_codegen::schema::write_if_changed(
            &Path::new(&out_dir).join(format!("tools_dev_{layer}.rs")),
            &generated.code,
        )
        .expect("OUT_DIR is writable");
        for (member, tool) in members.iter().zip(&generated.tools) {
            type_paths.insert(*member, format!("layer_{layer}::{}", tool.rust_name));
        }
        writeln!(
            modules,
            "/// The corpus's tools, layer {layer}: each tool name once.\npub mod layer_{layer} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/tools_dev_{layer}.rs\"));\n}}"
        )
        .unwrap();
    }
    toolgate_codegen::schema::write_if_changed(&Path::new(&out_dir).join("tools_dev.rs"), &modules)
        .expect("OUT_DIR is writable");

    let mut index = String::new();
    writeln!(
        index,
        "/// How many distinct tools the corpus holds.\npub const TOOLS: usize = {};",
        definitions.len()
    )
    .unwrap();
    writeln!(
        index,
        "/// The tools the schema compiler refuses, with its first error.\npub const REFUSED: &[(&str, &str)] = &{refused:?};"
    )
    .unwrap();
    let line_types: Vec<Option<usize>> = line_definitions
        .iter()
        .map(|index| type_paths.contains_key(index).then_some(*index))
        .collect();
    writeln!(
        index,
        "/// The tool of each corpus line, when the compiler took it.\npub static LINE_TOOLS: [Option<usize>; {}] = {line_types:?};",
        line_types.len()
    )
    .unwrap();
    index.push_str("/// Decodes `arguments` with the generated type of tool `tool`.\n");
    index.push_str("pub fn decode(tool: usize, arguments: &str) -> Option<Result<::toolgate::Decoded<::serde_json::Value>, ::toolgate::Rejected>> {\n    Some(match tool {\n");
    let mut typed: Vec<(&usize, &String)> = type_paths.iter().collect();
    typed.sort();
    for (number, path) in &typed {
        writeln!(index, "        {number} => typed::<{path}>(arguments),").unwrap();
    }
    index.push_str("        _ => return None,\n    })\n}\n");
    index.push_str("/// The model of the generated type of tool `tool`.\n");
    index.push_str("pub fn model(tool: usize) -> Option<&'static ::toolgate::model::ToolModel> {\n    Some(match tool {\n");
    for (number, path) in &typed {
        writeln!(
            index,
            "        {number} => <{path} as ::toolgate::Tool>::model(),"
        )
        .unwrap();
    }
    index.push_str("        _ => return None,\n    })\n}\n");
    toolgate_codegen::schema::write_if_changed(
        &Path::new(&out_dir).join("tools_dev_index.rs"),
        &index,
    )
    .expect("OUT_DIR is writable");
}

//! Compiles the hostile schemas of `schemas/` as any user's build.rs would, and writes a
//! table of the generated types for the round trip.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let tools = toolgate_codegen::Builder::new()
        .schemas(Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas"))
        .compile_tools()
        .unwrap_or_else(|error| {
            panic!("the schema compiler refused the hostile schemas:\n{error}")
        });
    let mut index = String::from(
        "/// The model of a generated type.\npub type ModelOf = fn() -> &'static ::toolgate::model::ToolModel;\n/// Each generated tool (and result type, as `<tool>_output`): its file, its name and the model of its type.\npub const TOOLS: &[(&str, &str, ModelOf)] = &[\n",
    );
    for tool in &tools {
        let file = tool
            .file
            .file_name()
            .expect("a schema file")
            .to_string_lossy();
        writeln!(
            index,
            "    ({file:?}, {:?}, <crate::{} as ::toolgate::Tool>::model),",
            tool.name, tool.rust_name
        )
        .expect("writing to a String");
        if let (Some(output), Some(output_name)) = (&tool.output, &tool.output_name) {
            writeln!(
                index,
                "    ({file:?}, {output_name:?}, <crate::{output} as ::toolgate::Tool>::model),"
            )
            .expect("writing to a String");
        }
    }
    index.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    toolgate_codegen::schema::write_if_changed(&Path::new(&out_dir).join("tool_index.rs"), &index)
        .expect("OUT_DIR is writable");
}

//! Compiles the tool schemas in `schemas/` into `$OUT_DIR/tools.rs`.

fn main() {
    if let Err(error) = toolgate_codegen::Builder::new()
        .schemas("schemas")
        .out_file("tools.rs")
        .compile()
    {
        // Each problem names the file and the JSON pointer in it.
        panic!("the tool schemas do not compile:\n{error}");
    }
}

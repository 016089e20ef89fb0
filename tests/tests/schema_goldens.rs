//! Goldens of the schema compiler: the Rust it writes for each schema of `tests/schemas/`
//! (`goldens/gen__<file>.snap`). The same files are compiled, with warnings denied, by the
//! build script of `tests/bfcl` (module `goldens` there), so every golden compiles.
//!
//! Taken from the BFCL corpus copy (Apache-2.0, see `tests/data/bfcl/NOTICE`):
//! `bfcl_triangle_defaults` (multiple_0#0), `bfcl_itinerary_enum` (simple_python_34#0),
//! `bfcl_float_default` (parallel_multiple_12#1), `bfcl_tuple` (multiple_5#0),
//! `bfcl_java_any` (simple_java_0#0). The others are written for a keyword or naming case.

use std::path::Path;

#[test]
fn generated_code_of_every_schema() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 10, "only {} schemas", files.len());
    for file in files {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let code = toolgate_codegen::Builder::new()
            .schemas(&file)
            .generate()
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        let again = toolgate_codegen::Builder::new()
            .schemas(&file)
            .generate()
            .unwrap();
        assert_eq!(code, again, "{name}: the same input gave other bytes");
        insta::with_settings!({snapshot_path => "../../goldens", prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!(format!("gen__{name}"), code);
        });
    }
}

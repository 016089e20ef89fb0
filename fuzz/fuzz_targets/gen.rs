//! The schema compiler (`toolgate gen`, `toolgate_codegen::Builder`) on hostile tool
//! definitions, through `Builder::generate_text` (what the CLI and `build.rs` run, minus
//! the file read).
//!
//! Two input forms:
//! - text starting with `{` or `[`: a schema file as it is (the hand-written seeds);
//! - anything else: a definition built from the bytes (`toolgate_fuzz::hostile`): hostile
//!   descriptions (fences, indented lines, CR, bidi controls, URLs, HTML, attribute
//!   closers), names (`gen`, `Self`, `self`, prelude types, confusables, digits, empty),
//!   enum values, consts, defaults, `$defs`, unions, MCP `outputSchema`, several tools.
//!
//! Invariants:
//! - no panic;
//! - when code is generated: it parses with `syn::parse_file`; no doc attribute holds a
//!   Markdown code block rustdoc would compile as a doctest (`toolgate_fuzz::doc_check`), and
//!   every doc attribute is a string literal; `#[derive(Tool)]` (`toolgate_codegen::
//!   derive_tool`, run here on each generated type) writes no `compile_error!`; generating
//!   again gives the same bytes.
//!
//! `TOOLGATE_FUZZ_GEN_KEEP=<dir>`: every generated file that passes the checks is also
//! written to `<dir>` (named by a hash of the code, with the schema file beside it), for
//! compiling a sample afterwards (fuzz/README.md, "Compiling generated code").

#![no_main]

use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::OnceLock;

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use toolgate_codegen::Builder;
use toolgate_fuzz::doc_check::{derive_errors, doc_problems};
use toolgate_fuzz::hostile::definition_file;
use toolgate_fuzz::{check_known, print_inputs};

fn keep_dir() -> Option<&'static PathBuf> {
    static KEEP: OnceLock<Option<PathBuf>> = OnceLock::new();
    KEEP.get_or_init(|| std::env::var_os("TOOLGATE_FUZZ_GEN_KEEP").map(PathBuf::from))
        .as_ref()
}

fuzz_target!(|data: &[u8]| {
    let file = if matches!(data.first(), Some(b'{' | b'[')) {
        match std::str::from_utf8(data) {
            Ok(text) => text.to_owned(),
            Err(_) => return,
        }
    } else {
        definition_file(&mut Unstructured::new(data))
    };
    if print_inputs() {
        eprintln!("schema file: {file}");
    }
    let builder = Builder::new();
    let Ok(code) = builder.generate_text("fuzz.json", &file) else {
        return;
    };
    if print_inputs() {
        eprintln!("code:\n{code}");
    }
    let parsed = match syn::parse_file(&code) {
        Ok(parsed) => parsed,
        Err(error) => {
            panic!("the generated code does not parse: {error}\nschema file: {file}\ncode:\n{code}")
        }
    };
    let problems = doc_problems(&parsed);
    // Finding G1 (expected before fix/gen is merged, see fuzz/README.md): descriptions reach
    // doc comments with their Markdown, so fences and indented lines become doctests.
    // Checked unless TOOLGATE_FUZZ_SKIP_G1 is set (set it only on code without the fix).
    let skip_g1 = std::env::var_os("TOOLGATE_FUZZ_SKIP_G1").is_some() && !check_known();
    if !problems.is_empty() && !skip_g1 {
        let listed: Vec<String> = problems
            .iter()
            .map(|p| {
                format!(
                    "{}: {}\n--- markdown ---\n{}--- end ---",
                    p.owner, p.problem, p.markdown
                )
            })
            .collect();
        panic!(
            "the generated code holds doctests:\n{}\nschema file: {file}\ncode:\n{code}",
            listed.join("\n")
        );
    }
    // What rustc would say through `#[derive(Tool)]` on each generated type. Findings G3
    // (an enum value written twice), G4 (an `examples` value that does not fit its schema)
    // and G5 (a type named like one the derive reads by name: `Box`, `Vec`, `Option`...)
    // are fixed by issue 27 §9: no skip.
    let derive_errors: Vec<(String, String)> = derive_errors(&parsed);
    if !derive_errors.is_empty() {
        let listed: Vec<String> = derive_errors
            .iter()
            .map(|(item, message)| format!("{item}: {message}"))
            .collect();
        panic!(
            "#[derive(Tool)] refuses the generated code:\n{}\nschema file: {file}\ncode:\n{code}",
            listed.join("\n")
        );
    }
    let again = builder
        .generate_text("fuzz.json", &file)
        .expect("the same file generates again");
    assert!(
        again == code,
        "generating twice gives different code\nschema file: {file}"
    );
    if let Some(dir) = keep_dir() {
        // Only code that passed every check.
        std::fs::create_dir_all(dir).expect("keep folder");
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        code.hash(&mut hasher);
        let stem = format!("{:016x}", hasher.finish());
        std::fs::write(dir.join(format!("{stem}.rs")), &code).expect("keep the code");
        std::fs::write(dir.join(format!("{stem}.json")), &file).expect("keep the schema");
    }
});

//! Compile errors of `#[derive(Tool)]`: every misuse, with its reviewed `.stderr`.
//!
//! The `.stderr` files were recorded with [`RECORDED_WITH`]. The toolchain is not pinned by a
//! `rust-toolchain.toml`: the machines toolgate is built on carry one toolchain and can fetch
//! no other, so a pin naming one a machine lacks would stop every build there, not only this
//! test. Instead, when a case differs, the test says which compiler the files were recorded
//! with and which one ran, since another compiler words some errors differently.

use std::process::Command;

/// The compiler the `.stderr` files were recorded with, as `rustc --version` starts.
const RECORDED_WITH: &str = "rustc 1.95.0 ";

#[test]
fn ui() {
    let run = std::panic::catch_unwind(|| {
        let cases = trybuild::TestCases::new();
        cases.compile_fail("ui/fail/*.rs");
        cases.pass("ui/pass/*.rs");
        // The cases run when `cases` is dropped: here, inside the catch.
        drop(cases);
    });
    if let Err(failure) = run {
        let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
        let version = Command::new(rustc)
            .arg("--version")
            .output()
            .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
            .unwrap_or_default();
        if !version.starts_with(RECORDED_WITH) {
            eprintln!(
                "note: the .stderr files were recorded with {}; this compiler is {version:?}",
                RECORDED_WITH.trim_end()
            );
        }
        std::panic::resume_unwind(failure);
    }
}

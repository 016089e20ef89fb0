//! Compile errors of `#[derive(Tool)]`: every misuse, with its reviewed `.stderr`.
#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/fail/*.rs");
    cases.pass("ui/pass/*.rs");
}

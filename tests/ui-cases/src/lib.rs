//! Compile errors of `#[derive(Tool)]` (the cases are under `ui/`, run by `tests/ui.rs`).

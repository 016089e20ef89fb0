//! The package of toolgate's quickstart (`examples/quickstart.rs`): the README's first
//! command, `cargo run --example quickstart`, builds only what it uses. The library is
//! empty; a package needs a library or a binary to hold an example.

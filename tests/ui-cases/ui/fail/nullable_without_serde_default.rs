use toolgate::{Nullable, Tool};

// Without `#[serde(default)]`, serde would read an absent `text` as `null`.
#[derive(Tool, serde::Deserialize)]
struct Note {
    text: Nullable<String>,
    #[serde(default)]
    title: Nullable<String>,
}

fn main() {}

use std::collections::HashMap;
use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Paging {
    page: u32,
}

#[derive(Tool, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Search {
    query: String,
    // A struct is not flattened: its fields would merge into these.
    #[serde(flatten)]
    paging: Paging,
    // Beside `deny_unknown_fields`, and a second flattened field.
    #[serde(flatten)]
    #[tool(alias = "more")]
    extra: HashMap<String, String>,
}

#[derive(Tool, serde::Deserialize)]
#[serde(tag = "kind")]
enum Filter {
    Text {
        #[serde(flatten)]
        extra: HashMap<String, String>,
    },
}

fn main() {}

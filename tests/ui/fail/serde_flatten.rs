use std::collections::HashMap;
use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Search {
    query: String,
    #[serde(flatten)]
    extra: HashMap<String, String>,
}

fn main() {}

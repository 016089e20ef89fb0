use std::collections::{BTreeMap, HashMap};

use toolgate::Tool;

fn default_limit() -> u32 {
    10
}

/// Search the documentation.
#[derive(Tool, serde::Deserialize)]
#[tool(name = "docs.search", description = "Search the documentation by keywords")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SearchDocs {
    /// Words to look for
    #[tool(length(min = 1, max = 200), pattern = "^[^\n]+$", alias = "q", example = "retry hints")]
    query_text: String,
    #[tool(format = "email", description = "Who asks")]
    #[serde(alias = "mail")]
    requester: Option<String>,
    #[serde(default = "default_limit")]
    #[tool(range(min = 1, max = 50), multiple_of = 5, example = 10, example = 20)]
    max_results: u32,
    #[tool(exclusive_range(min = -1.5, max = 1e3))]
    threshold: f32,
    #[serde(default)]
    #[tool(length(max = 8), unique, items(length(min = 1), pattern = "^[a-z]+$"), example = ["guide", "howto"])]
    tags: Vec<String>,
    #[tool(items(items(range(min = -128, max = 127))))]
    matrix: Vec<Vec<i64>>,
    #[serde(default)]
    filters: HashMap<String, String>,
    weights: BTreeMap<String, f64>,
    backend: serde_json::Value,
    sort: Box<Sort>,
    #[serde(skip)]
    cache: Option<std::cell::Cell<u8>>,
    #[serde(rename = "id")]
    #[tool(range(min = 0, max = 18446744073709551615u64))]
    identifier: u64,
}

/// Sort order
#[derive(Tool, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Sort {
    Relevance,
    #[tool(alias = "newest")]
    #[serde(alias = "recent")]
    MostRecent,
}

fn main() {
    use toolgate::ToolArg as _;
    let _ = SearchDocs::model();
    let _ = Sort::Relevance.to_json_value();
}

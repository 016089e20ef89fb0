use std::collections::BTreeMap;

use toolgate::Tool;

/// Annotations are checked wherever they are written: on the type, on a field, on the
/// elements of a list or map; a flattened map takes none.
#[derive(Tool)]
#[tool(annotations = r#"{"minimum": 1}"#)]
struct Search {
    #[tool(annotations = "not json")]
    query: String,
    #[tool(items(annotations = r#"["title"]"#))]
    tags: Vec<String>,
    #[tool(values(annotations = r#"{"title": "Score", "maxLength": 3}"#))]
    scores: BTreeMap<String, u32>,
    #[serde(flatten)]
    #[tool(annotations = r#"{"title": "Rest"}"#)]
    rest: BTreeMap<String, String>,
}

fn main() {}

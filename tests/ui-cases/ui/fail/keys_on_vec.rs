use toolgate::Tool;

/// `keys(...)` (JSON Schema's `propertyNames`) belongs on maps.
#[derive(Tool, serde::Deserialize)]
struct Tags {
    #[tool(keys(pattern = "^[a-z]+$"))]
    tags: Vec<String>,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Move {
    #[tool(schema = r#"{"type": "string"}"#, length(max = 3))]
    parent: serde_json::Value,
}

fn main() {}

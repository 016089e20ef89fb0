use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Move {
    #[tool(schema = r#"{"type": "string"}"#, constant = "a")]
    parent: serde_json::Value,
}

fn main() {}

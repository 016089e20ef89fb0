use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Move {
    #[tool(schema = r#"{"type": "string", "maxLength": 3"#)]
    parent: serde_json::Value,
    #[tool(schema = r#"{"$ref": "https://example.com/parent.json"}"#)]
    other: serde_json::Value,
}

fn main() {}

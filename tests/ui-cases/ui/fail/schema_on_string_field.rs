use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Move {
    #[tool(schema = r#"{"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 2}]}"#)]
    parent: String,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[tool(schema = r#"{"type": "string"}"#)]
enum Cabin {
    Economy,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[tool(name = "purge_cache", schema = r#"{"anyOf": [{"type": "object"}, {"type": "object"}]}"#)]
struct PurgeCache {
    arguments: serde_json::Value,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Note {
    #[tool(nullable)]
    text: String,
}

fn main() {}

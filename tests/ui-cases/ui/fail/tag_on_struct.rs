use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[serde(tag = "kind")]
struct Search {
    query: String,
}

fn main() {}

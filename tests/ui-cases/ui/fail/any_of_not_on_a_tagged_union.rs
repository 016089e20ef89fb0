use toolgate::Tool;

/// `any_of` writes a tagged union `anyOf`: on anything else it means nothing.
#[derive(Tool, serde::Deserialize)]
#[tool(any_of)]
struct Search {
    query: String,
}

#[derive(Tool, serde::Deserialize)]
#[serde(untagged)]
#[tool(any_of)]
enum Either {
    Text(String),
    Number(f64),
}

fn main() {}

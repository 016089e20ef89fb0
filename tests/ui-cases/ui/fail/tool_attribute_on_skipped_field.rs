use toolgate::Tool;

#[derive(Tool)]
struct Cached {
    query: String,
    #[serde(skip)]
    #[tool(range(min = 10, max = 1), pattern = "^[")]
    cache: String,
}

fn main() {}

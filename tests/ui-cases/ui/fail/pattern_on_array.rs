use toolgate::Tool;

#[derive(Tool)]
struct Tag {
    #[tool(pattern = "^[a-z]+$")]
    labels: Vec<String>,
}

fn main() {}

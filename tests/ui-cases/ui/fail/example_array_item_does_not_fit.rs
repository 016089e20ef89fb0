use toolgate::Tool;

#[derive(Tool)]
struct Tag {
    #[tool(example = ["guide", 2])]
    labels: Vec<String>,
}

fn main() {}

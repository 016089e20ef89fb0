use toolgate::Tool;

#[derive(Tool)]
struct Tag {
    #[tool(example = None)]
    label: Option<String>,
}

fn main() {}

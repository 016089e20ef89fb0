use toolgate::Tool;

#[derive(Tool)]
struct Tag {
    #[tool(unique)]
    label: String,
}

fn main() {}

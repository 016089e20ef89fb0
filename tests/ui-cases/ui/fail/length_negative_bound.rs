use toolgate::Tool;

#[derive(Tool)]
struct Rename {
    #[tool(length(min = -1))]
    name: String,
}

fn main() {}

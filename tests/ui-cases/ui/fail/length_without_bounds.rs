use toolgate::Tool;

#[derive(Tool)]
struct Rename {
    #[tool(length())]
    name: String,
}

fn main() {}

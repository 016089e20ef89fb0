use toolgate::Tool;

#[derive(Tool)]
struct Rename {
    #[tool(length(min = 8, max = 4))]
    name: String,
}

fn main() {}

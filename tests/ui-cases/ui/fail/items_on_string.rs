use toolgate::Tool;

#[derive(Tool)]
struct Tag {
    #[tool(items(length(max = 3)))]
    label: String,
}

fn main() {}

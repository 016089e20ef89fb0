use toolgate::Tool;

#[derive(Tool)]
struct Tag {
    #[tool(items(range(min = 0)))]
    labels: Vec<String>,
}

fn main() {}

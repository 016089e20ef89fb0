use toolgate::Tool;

#[derive(Tool)]
struct Greet {
    #[tool(range(min = 1, max = 10))]
    name: String,
}

fn main() {}

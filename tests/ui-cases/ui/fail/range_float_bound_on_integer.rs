use toolgate::Tool;

#[derive(Tool)]
struct Fetch {
    #[tool(range(min = 0.5))]
    limit: i32,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
struct Fetch {
    #[tool(range(min = "1"))]
    limit: u32,
}

fn main() {}

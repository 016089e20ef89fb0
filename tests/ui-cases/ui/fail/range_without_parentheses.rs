use toolgate::Tool;

#[derive(Tool)]
struct Fetch {
    #[tool(range)]
    limit: u32,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
#[tool(name = "has space")]
struct Fetch {
    limit: u32,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
#[tool(nmae = "fetch")]
struct Fetch {
    limit: u32,
}

fn main() {}

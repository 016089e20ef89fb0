use toolgate::Tool;

#[derive(Tool)]
struct Limits {
    #[tool(alias = "max")]
    limit: u32,
    max: u32,
}

#[derive(Tool)]
enum Mode {
    Fast,
    #[tool(alias = "Fast")]
    Slow,
}

fn main() {}

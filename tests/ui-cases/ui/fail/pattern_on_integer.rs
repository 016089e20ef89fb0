use toolgate::Tool;

#[derive(Tool)]
struct SetLevel {
    #[tool(pattern = "^[0-9]+$")]
    level: u8,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
struct Examples {
    #[tool(example = 300)]
    byte: u8,
    #[tool(range(max = 10), example = 50)]
    small: u32,
    #[tool(pattern = "^[A-Z]{3}$", example = "cdg")]
    code: String,
}

fn main() {}

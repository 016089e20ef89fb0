use toolgate::Tool;

#[derive(Tool)]
struct Empty {
    #[tool(exclusive_range(min = 0, max = 1))]
    between: u32,
    #[tool(exclusive_range(min = 255))]
    above_the_top: u8,
}

fn main() {}

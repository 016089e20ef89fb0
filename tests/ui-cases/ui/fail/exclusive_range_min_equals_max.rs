use toolgate::Tool;

#[derive(Tool)]
struct Scale {
    #[tool(exclusive_range(min = 1, max = 1))]
    factor: f64,
}

fn main() {}

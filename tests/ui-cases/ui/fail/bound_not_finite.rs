use toolgate::Tool;

#[derive(Tool)]
struct Huge {
    #[tool(range(max = 1e400))]
    ratio: f64,
    #[tool(example = 1e400)]
    other: f64,
}

fn main() {}

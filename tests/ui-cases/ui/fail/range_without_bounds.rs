use toolgate::Tool;

#[derive(Tool)]
struct Scale {
    #[tool(range())]
    factor: f64,
}

fn main() {}

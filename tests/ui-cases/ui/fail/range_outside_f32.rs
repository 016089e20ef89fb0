use toolgate::Tool;

#[derive(Tool)]
struct Scale {
    #[tool(range(max = 1e39))]
    factor: f32,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
struct Wide {
    #[tool(range(max = 340282366920938463463374607431768211455))]
    value: u128,
}

fn main() {}

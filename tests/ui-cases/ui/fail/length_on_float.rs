use toolgate::Tool;

#[derive(Tool)]
struct SetPrice {
    #[tool(length(max = 10))]
    price: f64,
}

fn main() {}

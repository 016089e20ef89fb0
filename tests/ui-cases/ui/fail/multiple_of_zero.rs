use toolgate::Tool;

#[derive(Tool)]
struct Round {
    #[tool(multiple_of = 0)]
    step: u32,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
struct Toggle {
    #[tool(multiple_of = 2)]
    on: bool,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
struct Mixed {
    #[tool(lenght(max = 3))]
    name: String,
    #[tool(range(max = 300))]
    count: u8,
    #[tool(format = "email")]
    age: u32,
}

fn main() {}

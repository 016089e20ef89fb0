use toolgate::Tool;

#[derive(Tool)]
struct FindUser {
    #[tool(pattern = "a")]
    #[tool(pattern = "b")]
    code: String,
}

fn main() {}

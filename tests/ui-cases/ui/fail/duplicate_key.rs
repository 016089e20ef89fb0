use toolgate::Tool;

#[derive(Tool)]
struct FindUser {
    #[tool(pattern = "a", pattern = "b")]
    code: String,
}

fn main() {}

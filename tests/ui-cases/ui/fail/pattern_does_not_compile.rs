use toolgate::Tool;

#[derive(Tool)]
struct FindUser {
    #[tool(pattern = "^[A-Z")]
    code: String,
}

fn main() {}

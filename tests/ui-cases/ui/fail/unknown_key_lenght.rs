use toolgate::Tool;

#[derive(Tool)]
struct FindUser {
    #[tool(lenght(max = 3))]
    code: String,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
struct FindUser {
    #[tool(patern = "x")]
    code: String,
}

fn main() {}

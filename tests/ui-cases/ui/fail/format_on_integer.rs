use toolgate::Tool;

#[derive(Tool)]
struct Invite {
    #[tool(format = "email")]
    guest: i32,
}

fn main() {}

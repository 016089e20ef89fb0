use toolgate::Tool;

#[derive(Tool)]
struct Invite {
    #[tool(format = "emial")]
    guest: String,
}

fn main() {}

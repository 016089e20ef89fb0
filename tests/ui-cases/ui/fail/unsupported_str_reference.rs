use toolgate::Tool;

#[derive(Tool)]
struct Greet {
    name: &'static str,
}

fn main() {}

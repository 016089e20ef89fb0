use toolgate::Tool;

#[derive(Tool)]
struct Ping;

fn main() {}

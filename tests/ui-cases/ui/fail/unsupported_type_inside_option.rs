use toolgate::Tool;

#[derive(Tool)]
struct Press {
    key: Option<char>,
}

fn main() {}

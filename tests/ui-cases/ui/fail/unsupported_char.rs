use toolgate::Tool;

#[derive(Tool)]
struct Press {
    key: char,
}

fn main() {}

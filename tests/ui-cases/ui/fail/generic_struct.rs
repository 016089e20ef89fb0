use toolgate::Tool;

#[derive(Tool)]
struct Wrap<T> {
    value: T,
}

fn main() {}

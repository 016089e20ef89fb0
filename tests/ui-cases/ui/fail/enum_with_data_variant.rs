use toolgate::Tool;

#[derive(Tool)]
enum Shape {
    Dot,
    Circle { radius: f64 },
}

fn main() {}

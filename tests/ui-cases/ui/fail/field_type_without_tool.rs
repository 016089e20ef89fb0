use toolgate::Tool;

struct Point {
    x: f64,
    y: f64,
}

#[derive(Tool)]
struct MoveTo {
    target: Point,
}

fn main() {}

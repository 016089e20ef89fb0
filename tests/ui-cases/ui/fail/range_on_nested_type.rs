use toolgate::Tool;

#[derive(Tool)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Tool)]
struct MoveTo {
    #[tool(range(min = 0, max = 100))]
    target: Point,
}

fn main() {}

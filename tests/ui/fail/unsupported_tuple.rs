use toolgate::Tool;

#[derive(Tool)]
struct MoveTo {
    target: (f64, f64),
}

fn main() {}

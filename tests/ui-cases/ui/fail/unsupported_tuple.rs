use toolgate::Tool;

#[derive(Tool)]
struct MoveTo {
    target: (f64, &'static str),
}

fn main() {}

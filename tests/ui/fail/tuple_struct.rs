use toolgate::Tool;

#[derive(Tool)]
struct Point(f64, f64);

fn main() {}

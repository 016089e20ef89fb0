use toolgate::Tool;

#[derive(Tool)]
#[tool(name = "x")]
enum Units {
    Metric,
    Imperial,
}

fn main() {}

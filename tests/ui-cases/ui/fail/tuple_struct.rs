use toolgate::Tool;

// A tuple struct is an array: a value inside a tool's arguments, not the arguments.
#[derive(Tool)]
#[tool(name = "point")]
struct Point(f64, f64);

// One field is a newtype to serde, not an array.
#[derive(Tool)]
struct Meters(f64);

fn main() {}

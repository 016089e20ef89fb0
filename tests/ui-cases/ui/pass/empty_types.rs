use toolgate::Tool;

/// A tool without arguments.
#[derive(Tool)]
struct Ping {}

/// A string enum no value can take.
#[derive(Tool)]
enum Never {}

fn main() {
    assert_eq!(Ping::name(), "ping");
    let _ = <Never as toolgate::ToolArg>::to_json_value;
}

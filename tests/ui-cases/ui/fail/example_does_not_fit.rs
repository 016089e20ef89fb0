use toolgate::Tool;

#[derive(Tool)]
struct SetVolume {
    #[tool(example = "x")]
    volume: u8,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
struct SetVolume {
    #[tool(range(maximum = 10))]
    volume: u8,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool)]
struct SetVolume {
    #[tool(range(max = 300))]
    volume: u8,
}

fn main() {}

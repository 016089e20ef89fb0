use toolgate::Tool;

#[derive(Tool)]
struct SetAddress {
    octets: [u8; 4],
}

fn main() {}

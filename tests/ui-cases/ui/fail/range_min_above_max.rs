use toolgate::Tool;

#[derive(Tool)]
struct BookSeats {
    #[tool(range(min = 10, max = 1))]
    seats: u8,
}

fn main() {}

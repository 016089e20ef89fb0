use toolgate::Tool;

#[derive(Tool)]
struct BookFlight {
    #[tool(pattern = "^[A-Z")]
    origin: String,
    #[tool(range(max = 300))]
    passengers: u8,
    #[tool(unique)]
    max_price: f64,
    #[tool(format = "emial")]
    contact: String,
    #[tool(example = "x")]
    refundable: bool,
    seat: char,
}

fn main() {}

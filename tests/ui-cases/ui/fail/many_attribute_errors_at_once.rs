use toolgate::Tool;

#[derive(Tool)]
#[tool(nmae = "book_flight")]
struct BookFlight {
    #[tool(patern = "^[A-Z]{3}$")]
    origin: String,
    #[tool(range(min = 1), range(max = 9))]
    passengers: u8,
    #[tool(lenght(max = 500))]
    notes: String,
}

fn main() {}

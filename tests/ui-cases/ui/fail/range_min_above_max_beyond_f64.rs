use toolgate::Tool;

#[derive(Tool)]
struct Big {
    // Both bounds round to the same f64; compared as integers they are in the wrong order.
    #[tool(range(min = 9007199254740993, max = 9007199254740992))]
    id: u64,
}

fn main() {}

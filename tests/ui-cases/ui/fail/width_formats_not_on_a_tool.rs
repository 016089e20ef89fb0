use toolgate::Tool;

/// `width_formats` belongs to a tool, whose model writes the schema.
#[derive(Tool, serde::Deserialize)]
#[tool(width_formats)]
enum Cabin {
    Economy,
    Business,
}

#[derive(Tool, serde::Deserialize)]
struct Booking {
    /// A width's format names the field's own width.
    #[tool(format = "uint16")]
    seats: u8,
    cabin: Cabin,
}

fn main() {}

// A misused attribute is one error, at its tokens: the type's uses (its methods, a field of
// its type in another tool, an enum used as a field) raise no second one.
use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Booking {
    #[tool(range(min = 1, max = 9))]
    passengers: String,
    cabin: Cabin,
}

#[derive(Tool, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Cabin {
    #[tool(unknown_key)]
    Economy,
}

#[derive(Tool, serde::Deserialize)]
struct Trip {
    booking: Booking,
}

fn main() {
    let _ = Booking::decode("{}");
    let _ = Booking::model();
    let _ = Trip::json_schema();
}

use toolgate::Tool;

#[derive(Tool)]
struct FindRun {
    #[tool(pattern = "a.{2000}c")]
    run: String,
    #[tool(pattern = "a[ab]{1000}c")]
    other_run: String,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[serde(transparent)]
struct Limit {
    value: u32,
}

fn main() {}

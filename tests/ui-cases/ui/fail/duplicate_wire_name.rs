use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Fetch {
    limit: u32,
    #[serde(rename = "limit")]
    max: u32,
}

fn main() {}

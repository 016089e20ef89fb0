use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[serde(rename_all = "kebab")]
struct Fetch {
    max_results: u32,
}

fn main() {}

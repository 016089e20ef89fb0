use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[serde(tag = "type")]
enum Units {
    Metric,
    Imperial,
}

fn main() {}

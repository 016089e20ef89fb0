use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[serde(untagged)]
enum Units {
    Metric,
    Imperial,
}

fn main() {}

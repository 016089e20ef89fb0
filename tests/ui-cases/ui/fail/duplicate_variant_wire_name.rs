use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
enum Units {
    Metric,
    #[serde(rename = "metric")]
    Imperial,
}

fn main() {}

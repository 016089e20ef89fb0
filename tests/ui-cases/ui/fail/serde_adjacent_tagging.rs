use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[serde(tag = "type", content = "value")]
enum Units {
    Metric(u8),
    Imperial(u8),
}

fn main() {}

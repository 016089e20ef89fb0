use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
enum Mode {
    #[serde(default)]
    Fast,
}

fn main() {}

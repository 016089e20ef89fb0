use toolgate::Tool;

fn lenient<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u32, D::Error> {
    <u32 as serde::Deserialize>::deserialize(deserializer)
}

#[derive(Tool, serde::Deserialize)]
struct Fetch {
    #[serde(deserialize_with = "lenient")]
    limit: u32,
}

fn main() {}

use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
#[serde(tag = "kind")]
enum Shape {
    Circle(f64),
    Square { side: f64 },
    #[serde(alias = "pt")]
    Dot,
}

fn main() {}

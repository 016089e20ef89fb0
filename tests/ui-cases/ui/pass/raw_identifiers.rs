use toolgate::{Tool, ToolArg};

#[derive(Tool)]
struct r#Match {
    r#type: String,
    #[tool(range(max = 9))]
    r#fn: u8,
}

#[derive(Tool)]
enum Kind {
    r#Struct,
    r#Enum,
}

fn main() {
    // A raw identifier is named without its `r#`, as serde names it.
    assert_eq!(r#Match::name(), "match");
    let schema = r#Match::model().json_schema();
    assert!(schema.contains(r#""type""#) && schema.contains(r#""fn""#), "{schema}");
    assert_eq!(Kind::r#Struct.to_json_value(), "Struct");
    assert_eq!(Kind::r#Enum.to_json_value(), "Enum");
}

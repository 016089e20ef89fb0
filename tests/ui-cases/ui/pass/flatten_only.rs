use std::collections::BTreeMap;
use toolgate::Tool;

/// Any labels, and nothing else.
#[derive(Tool, serde::Deserialize)]
#[deny(warnings)]
struct Labels {
    #[serde(flatten)]
    #[tool(values(length(max = 8)))]
    labels: BTreeMap<String, String>,
}

/// Null only.
#[derive(Tool, serde::Deserialize)]
#[deny(warnings)]
struct Reserved {
    reserved: (),
    #[tool(constant = [1, 2])]
    pair: Vec<u8>,
}

fn main() {
    let decoded = Labels::decode(r#"{"a": "b"}"#).unwrap();
    assert_eq!(decoded.value.labels["a"], "b");
    assert!(Reserved::decode(r#"{"reserved": null, "pair": [1, 2]}"#).is_ok());
    assert!(Reserved::decode(r#"{"reserved": null, "pair": [2, 1]}"#).is_err());
}

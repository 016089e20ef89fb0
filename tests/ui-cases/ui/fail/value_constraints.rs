use std::collections::BTreeMap;
use toolgate::Tool;

#[derive(Tool, serde::Deserialize)]
struct Roll {
    #[tool(enum_values = [4, 6, -1])]
    sides: u8,
    #[tool(enum_values = 4)]
    count: u8,
    #[tool(range(min = 1), enum_values = [1, 2])]
    bonus: i32,
    #[tool(enum_values = [1, 1])]
    twice: i32,
    #[tool(enum_values = [])]
    none: i32,
    #[tool(constant = 3)]
    label: String,
    #[tool(values(length(max = 3)))]
    players: Vec<String>,
    #[tool(values(range(max = 3)))]
    scores: BTreeMap<String, String>,
    #[tool(enum_values = [1])]
    table: BTreeMap<String, i32>,
}

fn main() {}

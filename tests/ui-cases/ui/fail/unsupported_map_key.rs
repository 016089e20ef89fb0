use std::collections::HashMap;
use toolgate::Tool;

#[derive(Tool)]
struct Rank {
    names: HashMap<u32, String>,
}

fn main() {}

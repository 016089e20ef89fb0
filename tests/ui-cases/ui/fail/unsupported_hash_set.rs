use std::collections::HashSet;
use toolgate::Tool;

#[derive(Tool)]
struct Tag {
    labels: HashSet<String>,
}

fn main() {}

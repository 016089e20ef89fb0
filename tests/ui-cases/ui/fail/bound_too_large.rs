use toolgate::Tool;

// Integers beyond what a JSON value carries (i64::MIN..=u64::MAX), wherever the derive reads
// one: each is refused at its literal, all at once.
#[derive(Tool)]
struct Wide {
    #[tool(range(max = 340282366920938463463374607431768211455))]
    value: u128,
    #[tool(range(max = 18446744073709551616))]
    just_past: u128,
    #[tool(range(min = -9223372036854775809))]
    below: i128,
    #[tool(constant = 18446744073709551617)]
    fixed: u128,
    #[tool(enum_values = [1, 36893488147419103232])]
    picked: u128,
    #[tool(example = 18446744073709551616)]
    shown: u128,
}

fn main() {}

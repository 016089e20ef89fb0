//! Numbers and lengths (review `hostile-inputs.md`, F18–F20): the type holds every bound,
//! `multipleOf` of an integer is a whole number or dropped where every integer passes, and
//! bounds the derive would refuse are refused here, at the schema's file and pointer.

use super::{refusals, tool};
use crate::schema::Builder;

fn field(schema: &str) -> String {
    let code = Builder::new()
        .generate_text("t.json", &tool(&format!(r#"{{"n": {schema}}}"#)))
        .unwrap_or_else(|error| panic!("{schema}: {error}"));
    let start = code.find("pub struct T {\n").expect("the tool's struct") + 15;
    let end = start + code[start..].find("\n}").unwrap();
    code[start..end].to_owned()
}

fn refused(schema: &str) -> Vec<String> {
    refusals(&tool(&format!(r#"{{"n": {schema}}}"#)))
}

/// F18: an integer without `format` is the first of i64, u64, i128 that holds its bounds
/// and adds none the schema did not set (issue 43 §8; a bound the type's range implies is
/// left to the type); whole numbers written as floats are integer literals.
#[test]
fn an_integer_type_holds_every_bound() {
    // Bounds at the edges of the carried integers are the schema's own: kept as written
    // (the type's model does not write those edges back itself).
    assert_eq!(
        field(
            r#"{"type": "integer", "minimum": -9223372036854775808, "maximum": 18446744073709551615}"#
        ),
        "    #[tool(range(min = -9223372036854775808, max = 18446744073709551615))]\n    pub n: ::std::option::Option<i128>,"
    );
    assert_eq!(
        field(r#"{"type": "integer", "minimum": 1, "maximum": 18446744073709551615}"#),
        "    #[tool(range(min = 1, max = 18446744073709551615))]\n    pub n: ::std::option::Option<u64>,"
    );
    // Every value above i64::MAX: no i64 is one.
    assert_eq!(
        field(r#"{"type": "integer", "exclusiveMinimum": 9223372036854775807}"#),
        "    #[tool(exclusive_range(min = 9223372036854775807))]\n    pub n: ::std::option::Option<u64>,"
    );
    assert_eq!(
        field(r#"{"type": "integer", "exclusiveMaximum": -9223372036854775808}"#),
        "    #[tool(exclusive_range(max = -9223372036854775808))]\n    pub n: ::std::option::Option<i128>,"
    );
    // A whole number written as a float stays one: the model spells it as the schema did.
    assert_eq!(
        field(r#"{"type": "integer", "minimum": -1e20, "maximum": 100.0}"#),
        "    #[tool(range(min = -100000000000000000000.0, max = 100.0))]\n    pub n: ::std::option::Option<i128>,"
    );
    // A `format` is its type, whatever its range, and the type's model names it too.
    for (format, ty) in [
        ("int8", "i8"),
        ("uint64", "u64"),
        ("int128", "i128"),
        ("uint128", "u128"),
    ] {
        assert_eq!(
            field(&format!(r#"{{"type": "integer", "format": "{format}"}}"#)),
            format!("    #[tool(format = \"{format}\")]\n    pub n: ::std::option::Option<{ty}>,")
        );
    }
    assert_eq!(
        field(r#"{"type": "integer", "default": 5.0}"#),
        "    #[serde(default = \"default_t_n\")]\n    pub n: i64,"
    );
}

#[test]
fn integer_bounds_no_rust_type_takes_are_refused() {
    assert_eq!(
        refused(r#"{"type": "integer", "format": "int8", "minimum": -1000, "exclusiveMaximum": 128}"#),
        [
            "/parameters/properties/n/minimum: `minimum` -1000 is outside the range of `i8` (-128..=127), the type of `format: int8`",
            "/parameters/properties/n/exclusiveMaximum: `exclusiveMaximum` 128 is outside the range of `i8` (-128..=127), the type of `format: int8`",
        ]
    );
    assert_eq!(
        refused(r#"{"type": "integer", "maximum": 1e40, "minimum": 0.5}"#),
        [
            "/parameters/properties/n/minimum: `minimum` 0.5 of an integer is not a whole number: the generated field takes whole-number bounds only",
            "/parameters/properties/n/maximum: `maximum` 1e+40 is beyond the widest integer type the schema compiler writes (`i128`)",
        ]
    );
    assert_eq!(
        refused(r#"{"type": "number", "format": "float", "maximum": 1e39}"#),
        ["/parameters/properties/n/maximum: `maximum` 1e+39 is outside the range of `f32`, the type of `format: float`"]
    );
}

/// F19: `multipleOf` of an integer, and issue 27 §5: kept as written, whole or not.
#[test]
fn an_integer_multiple_of_is_kept_as_written() {
    // Every integer is a multiple of 0.5; the multiples of 1.5 are those of 3: the model
    // keeps the divisor either way.
    for divisor in ["0.5", "0.25", "0.001", "1.5", "2.0", "2", "1e2"] {
        let code = field(&format!(
            r#"{{"type": "integer", "multipleOf": {divisor}}}"#
        ));
        let written: f64 = divisor.parse().unwrap();
        let attribute = code.lines().next().unwrap();
        let literal = attribute
            .strip_prefix("    #[tool(multiple_of = ")
            .and_then(|rest| rest.strip_suffix(")]"))
            .unwrap_or_else(|| panic!("{divisor}: {code}"));
        assert_eq!(literal.parse::<f64>().unwrap(), written, "{code}");
        assert_eq!(
            literal.contains(['.', 'e']),
            divisor.contains(['.', 'e']),
            "{code}"
        );
        assert!(
            code.ends_with("pub n: ::std::option::Option<i64>,"),
            "{code}"
        );
    }
    // A number keeps its divisor as written.
    assert_eq!(
        field(r#"{"type": "number", "multipleOf": 0.5}"#),
        "    #[tool(multiple_of = 0.5)]\n    pub n: ::std::option::Option<f64>,"
    );
    assert_eq!(
        refused(r#"{"type": "integer", "format": "uint8", "multipleOf": 300}"#),
        ["/parameters/properties/n/multipleOf: `multipleOf` 300 is outside the range of `u8` (0..=255), the type of `format: uint8`"]
    );
}

/// F20: bounds no value meets are refused, each at the pointer of its schema.
#[test]
fn unsatisfiable_bounds_are_refused_at_their_pointer() {
    let cases = [
        (
            r#"{"type": "integer", "minimum": 10, "maximum": 1}"#,
            "/parameters/properties/n: no `i64` fits these bounds (`minimum` 10, `maximum` 1)",
        ),
        (
            r#"{"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 5}"#,
            "/parameters/properties/n: no `i64` fits these bounds (`exclusiveMinimum` 5, `exclusiveMaximum` 5)",
        ),
        (
            r#"{"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 6}"#,
            "/parameters/properties/n: no `i64` fits these bounds (`exclusiveMinimum` 5, `exclusiveMaximum` 6)",
        ),
        (
            r#"{"type": "integer", "format": "uint8", "exclusiveMaximum": 0}"#,
            "/parameters/properties/n: no `u8` fits these bounds (`exclusiveMaximum` 0)",
        ),
        (
            r#"{"type": "number", "minimum": 1.5, "maximum": 1.25}"#,
            "/parameters/properties/n: no value fits these bounds (`minimum` 1.5, `maximum` 1.25)",
        ),
        (
            r#"{"type": "number", "exclusiveMinimum": 5, "exclusiveMaximum": 5}"#,
            "/parameters/properties/n: no value fits these bounds (`exclusiveMinimum` 5, `exclusiveMaximum` 5)",
        ),
        (
            r#"{"type": "number", "minimum": 5, "exclusiveMaximum": 5}"#,
            "/parameters/properties/n: no value fits these bounds (`minimum` 5, `exclusiveMaximum` 5)",
        ),
        (
            r#"{"type": "string", "minLength": 5, "maxLength": 2}"#,
            "/parameters/properties/n: `minLength` 5 is greater than `maxLength` 2: no value fits",
        ),
        (
            r#"{"type": "array", "minItems": 3, "maxItems": 1}"#,
            "/parameters/properties/n: `minItems` 3 is greater than `maxItems` 1: no value fits",
        ),
        (
            r#"{"type": "array", "items": {"type": "string", "minLength": 2, "maxLength": 1}}"#,
            "/parameters/properties/n/items: `minLength` 2 is greater than `maxLength` 1: no value fits",
        ),
    ];
    for (schema, refusal) in cases {
        assert_eq!(refused(schema), [refusal], "{schema}");
    }
    // Bounds that leave one value are fine.
    assert_eq!(
        field(r#"{"type": "number", "minimum": 5, "maximum": 5}"#),
        "    #[tool(range(min = 5, max = 5))]\n    pub n: ::std::option::Option<f64>,"
    );
}

/// A `const` the schema's other constraints refuse leaves no value either.
#[test]
fn a_constant_its_own_constraints_refuse_is_refused() {
    assert_eq!(
        refused(r#"{"type": "integer", "maximum": 3, "const": 5}"#),
        ["/parameters/properties/n/const: the `const` value 5 does not meet the schema's other constraints, so no value fits: 5 is greater than the maximum 3"]
    );
    assert_eq!(
        field(r#"{"type": "integer", "maximum": 5, "const": 5.0}"#),
        "    #[tool(range(max = 5), constant = 5.0)]\n    pub n: ::std::option::Option<i64>,"
    );
}

/// Issue 43 §4: an integer literal beyond what a JSON value carries is refused at its file
/// and pointer, wherever it is (it is not read through a float).
#[test]
fn an_integer_beyond_what_a_value_carries_is_refused_at_its_pointer() {
    for (schema, at) in [
        (
            r#"{"type": "integer", "maximum": 18446744073709551616}"#,
            "/maximum",
        ),
        (
            r#"{"type": "integer", "const": -9223372036854775809}"#,
            "/const",
        ),
        (
            r#"{"type": "integer", "enum": [1, 36893488147419103232]}"#,
            "/enum/1",
        ),
        (
            r#"{"type": "string", "x-size": 100000000000000000000000000000}"#,
            "/x-size",
        ),
    ] {
        let refusals = refused(schema);
        assert_eq!(refusals.len(), 1, "{refusals:?}");
        assert!(
            refusals[0].starts_with(&format!("/parameters/properties/n{at}: the integer ")),
            "{refusals:?}"
        );
    }
}

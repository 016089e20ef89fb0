use super::*;
use std::cmp::Ordering::{Equal, Greater, Less};
use Num::{Float as F, Int as I};

fn mult(a: impl Into<Num>, b: impl Into<Num>) -> bool {
    a.into().is_multiple_of(b.into())
}

fn cmp(a: Num, b: Num) -> Option<Ordering> {
    a.partial_cmp(&b)
}

fn json(n: Num) -> String {
    serde_json::to_string(&n).unwrap_or_default()
}

#[test]
fn constructors_normalise() {
    assert!(matches!(Num::from_i128(INT_MIN), I(_)));
    assert!(matches!(Num::from_i128(INT_MIN - 1), F(f) if f == -(2f64.powi(63))));
    assert!(matches!(Num::from_i128(INT_MAX), I(_)));
    assert!(matches!(Num::from_i128(INT_MAX + 1), F(f) if f == 2f64.powi(64)));
    assert!(matches!(Num::from(i128::MIN), F(f) if f == -TWO_POW_127));
    assert!(matches!(Num::from(u128::MAX), F(f) if f == 2f64.powi(128)));
    assert!(matches!(Num::from(5u128), I(5)));
    assert!(matches!(Num::from(-3i8), I(-3)));
    assert!(matches!(Num::from(7u16), I(7)));
    assert!(matches!(Num::from(-1isize), I(-1)));
    assert!(matches!(Num::from(usize::MAX), I(_)));
    assert!(matches!(Num::from(2.0), F(_)));
    assert!(matches!(Num::from_f64(2.0), F(_)));
    assert!(matches!(Num::from(0.1f32), F(f) if f == 0.1));
    assert!(matches!(Num::from(1.1f32), F(f) if f == 1.1));
    assert!(matches!(Num::from(16_777_216f32), F(f) if f == 16_777_216.0));
    assert!(Num::from(f32::NAN).as_f64().is_nan());
    assert_eq!(Num::from(f32::NEG_INFINITY).as_f64(), f64::NEG_INFINITY);
}

#[test]
fn predicates() {
    assert!(Num::from(3).is_integral());
    assert!(Num::from(-0.0).is_integral());
    assert!(Num::from(1e300).is_integral());
    assert!(!Num::from(0.5).is_integral());
    assert!(!Num::from(f64::NAN).is_integral());
    assert!(Num::from(3).is_finite());
    assert!(!Num::from(f64::INFINITY).is_finite());
    assert_eq!(Num::from(u64::MAX).as_f64(), 2f64.powi(64));
}

#[test]
fn json_numbers() {
    let parse = |s: &str| Num::from_json(&serde_json::from_str(s).unwrap_or(0.into()));
    assert!(matches!(parse("18446744073709551615"), I(INT_MAX)));
    assert!(matches!(parse("-12"), I(-12)));
    assert!(matches!(parse("2.5"), F(2.5)));
    assert!(matches!(parse("3.0"), F(3.0)));
    assert_eq!(I(INT_MAX).to_json(), Some(u64::MAX.into()));
    assert_eq!(I(-5).to_json(), Some((-5).into()));
    let big = I(i128::MAX).to_json().and_then(|n| n.as_f64());
    assert_eq!(big, Some(TWO_POW_127));
    assert_eq!(
        F(2.5).to_json().map(|n| n.to_string()).as_deref(),
        Some("2.5")
    );
    assert_eq!(F(f64::INFINITY).to_json(), None);
    assert_eq!(F(f64::NAN).to_json(), None);
}

#[test]
fn serde_impls() {
    assert_eq!(json(Num::from(-5)), "-5");
    assert_eq!(json(Num::from(u64::MAX)), "18446744073709551615");
    assert_eq!(json(I(i128::MAX)), "1.7014118346046923e+38");
    assert_eq!(json(Num::from(5.0)), "5.0");
    assert_eq!(json(Num::from(0.5)), "0.5");
    let v: Vec<Num> = serde_json::from_str("[1, -2, 18446744073709551615, 2.5, 1e3]").unwrap();
    assert!(matches!(
        v[..],
        [I(1), I(-2), I(INT_MAX), F(2.5), F(1000.0)]
    ));
    assert!(serde_json::from_str::<Num>("\"1\"").is_err());
    assert!(serde_json::from_str::<Num>("null").is_err());
}

#[test]
fn display() {
    assert_eq!(Num::from(-42).to_string(), "-42");
    assert_eq!(Num::from(u64::MAX).to_string(), "18446744073709551615");
    assert_eq!(Num::from(5.0).to_string(), "5");
    assert_eq!(Num::from(0.5).to_string(), "0.5");
    assert_eq!(Num::from(0.1f32).to_string(), "0.1");
    assert_eq!(Num::from(f64::NAN).to_string(), "NaN");
    assert_eq!(Num::from(f64::INFINITY).to_string(), "inf");
    assert_eq!(Num::from(f64::NEG_INFINITY).to_string(), "-inf");
}

#[test]
fn equality_across_variants() {
    assert_eq!(I(5), F(5.0));
    assert_eq!(F(5.0), I(5));
    assert_eq!(I(0), F(-0.0));
    assert_ne!(I(5), F(5.5));
    assert_ne!(I(9007199254740993), F(9007199254740992.0));
    let nan = F(f64::NAN);
    assert_ne!(nan, nan);
    assert_ne!(nan, I(0));
    assert_eq!(cmp(nan, I(0)), None);
    assert_eq!(cmp(I(0), nan), None);
}

#[test]
fn ordering_across_variants() {
    assert_eq!(
        cmp(I(9007199254740993), F(9007199254740992.0)),
        Some(Greater)
    );
    assert_eq!(cmp(F(9007199254740992.0), I(9007199254740993)), Some(Less));
    assert_eq!(cmp(I(INT_MAX), F(2f64.powi(64))), Some(Less));
    assert_eq!(cmp(I(i128::MAX), F(TWO_POW_127)), Some(Less));
    assert_eq!(cmp(I(i128::MIN), F(-TWO_POW_127)), Some(Equal));
    assert_eq!(cmp(I(i128::MIN), F(-1e300)), Some(Greater));
    assert_eq!(cmp(I(3), F(3.5)), Some(Less));
    assert_eq!(cmp(I(4), F(3.5)), Some(Greater));
    assert_eq!(cmp(I(-3), F(-3.5)), Some(Greater));
    assert_eq!(cmp(I(-4), F(-3.5)), Some(Less));
    assert_eq!(cmp(I(INT_MIN), F(f64::NEG_INFINITY)), Some(Greater));
    assert_eq!(cmp(I(INT_MAX), F(f64::INFINITY)), Some(Less));
    assert_eq!(cmp(F(1.5), F(2.5)), Some(Less));
    assert_eq!(cmp(I(-1), I(1)), Some(Less));
    assert!(Num::from(1) < Num::from(1.0000001));
    assert!(Num::from(2.0) >= Num::from(2));
}

#[test]
fn multiple_of_listed_cases() {
    assert!(mult(0.0075, 0.0001));
    assert!(!mult(0.00751, 0.0001));
    assert!(mult(19.99, 0.01));
    assert!(mult(4.5, 1.5));
    assert!(!mult(35, 1.5));
    assert!(mult(0, 1.5));
    assert!(mult(0.3, 0.1));
    assert!(!mult(1e308, 0.123456789));
    assert!(mult(12391239123_i64, 1e-8));
    assert!(mult(10, 2));
    assert!(!mult(7, 2));
    assert!(mult(-10, 5));
    assert!(mult(-4.5, 1.5));
}

#[test]
fn multiple_of_mixed_and_extreme() {
    assert!(mult(1e308, 1));
    assert!(mult(1e308, 1e-300));
    assert!(!mult(1e-300, 1e308));
    assert!(!mult(1, 1e308));
    assert!(mult(1e300, 1e299));
    assert!(mult(1000, 100.0));
    assert!(mult(1000.0, 8));
    assert!(!mult(1000.0, 7));
    assert!(mult(u64::MAX, u64::MAX));
    assert!(!mult(I(i128::MIN), I(i128::MAX)));
    assert!(mult(I(i128::MIN), I(1 << 100)));
    assert!(!mult(1e308, I(i128::MAX)));
    assert!(mult(5e-324, 5e-324));
    assert!(mult(f64::MAX, f64::MAX));
    assert!(mult(0.1f32, 0.1));
}

#[test]
fn multiple_of_rejects_bad_inputs() {
    assert!(!mult(4, 0));
    assert!(!mult(4, -2));
    assert!(!mult(4, 0.0));
    assert!(!mult(4, -0.5));
    assert!(!mult(4, f64::NAN));
    assert!(!mult(4, f64::INFINITY));
    assert!(!mult(f64::NAN, 1));
    assert!(!mult(f64::INFINITY, 1));
    assert!(!mult(f64::NEG_INFINITY, 0.5));
}

#[test]
fn modular_helpers() {
    let naive = (0..317).fold(1u128, |r, _| r * 10 % 123456789);
    assert_eq!(pow_mod(10, 317, 123456789), naive);
    assert_eq!(pow_mod(10, 0, 1), 0);
    let m = u128::MAX - 4;
    assert_eq!(mul_mod(m - 1, m - 1, m), 1);
    assert_eq!(mul_mod(m - 1, 2, m), m - 2);
    assert_eq!(F(1.25e-7).to_decimal(), Some((125, -9)));
    assert_eq!(F(-3e20).to_decimal(), Some((3, 20)));
    assert_eq!(F(0.0).to_decimal(), Some((0, 0)));
    assert_eq!(F(f64::NAN).to_decimal(), None);
}

proptest::proptest! {
    /// The shortcut for integers of at most 53 bits orders as the exact comparison by floor.
    #[test]
    fn small_integers_compare_with_floats_as_the_exact_rule_does(
        i in -(1i128 << 53)..=(1i128 << 53),
        f in proptest::num::f64::ANY,
        near in -3i64..=3,
    ) {
        proptest::prop_assert_eq!(cmp_int_float(i, f), cmp_int_float_by_floor(i, f));
        // Floats a few steps from the integer, where rounding would show.
        let close = i as f64 + near as f64 * 0.5;
        proptest::prop_assert_eq!(cmp_int_float(i, close), cmp_int_float_by_floor(i, close));
        let next = f64::from_bits((i as f64).to_bits().wrapping_add(near as u64));
        proptest::prop_assert_eq!(cmp_int_float(i, next), cmp_int_float_by_floor(i, next));
    }
}

/// The digits and exponent as the `{:e}` text gives them, read as `to_decimal` read them
/// before it wrote that text on the stack.
fn decimal_by_format(f: f64) -> Option<(u128, i64)> {
    let text = format!("{:e}", f.abs());
    let (mantissa, exp) = text.split_once('e')?;
    let exp: i64 = exp.parse().ok()?;
    let (int_part, frac_part) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: u128 = format!("{int_part}{frac_part}").parse().ok()?;
    Some((digits, exp - i64::try_from(frac_part.len()).ok()?))
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(4096))]

    #[test]
    #[allow(clippy::cast_precision_loss)]
    fn a_float_has_the_decimal_its_shortest_text_says(
        f in proptest::prop_oneof![
            proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL | proptest::num::f64::ZERO,
            proptest::strategy::Strategy::prop_map((-1_000_000i64..1_000_000, 0u32..12), |(m, e)| m as f64 / 10f64.powi(e as i32)),
        ]
    ) {
        proptest::prop_assert_eq!(Num::Float(f).to_decimal(), decimal_by_format(f));
    }
}

//! Integers taken from a number's digits, never through a float.
//!
//! A JSON number written with a fraction or an exponent (`9007199254740993.0`,
//! `9.007199254740993e15`) is read by every JSON reader as the nearest 64-bit float, which
//! holds integers exactly only up to 2^53. Where an integer must be made of such a number
//! (an integer field, an integer `enum` or `const`), [`decimal_integer`] takes it from the
//! digits: the decimal mantissa and exponent give the integer exactly, or say that the
//! digits are not an integer, or that it is beyond 128 bits. Linear in the text, whatever
//! the exponent (`1e-999999999999` and `1e999999999999` cost their length).

/// What the digits of a decimal number say it is, as an integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalInteger {
    /// An integer whose magnitude fits a `u128`: its sign and magnitude (`-0` is
    /// `{ negative: true, magnitude: 0 }`, the integer 0).
    Integer {
        /// Written with a leading `-`.
        negative: bool,
        /// The absolute value.
        magnitude: u128,
    },
    /// An integer whose magnitude is beyond `u128::MAX` (`1e39`, `-4e40`).
    Huge {
        /// Written with a leading `-`.
        negative: bool,
    },
    /// Not an integer: a digit other than 0 after the decimal point (`5.5`,
    /// `1.0000000000000001`, `1e-400`).
    Fraction,
}

impl DecimalInteger {
    /// The integer as an `i128`, when it is one that fits.
    ///
    /// ```
    /// use toolgate_core::num::{decimal_integer, DecimalInteger};
    ///
    /// let read = |text| decimal_integer(text).and_then(DecimalInteger::to_i128);
    /// assert_eq!(read("-170141183460469231731687303715884105728"), Some(i128::MIN));
    /// assert_eq!(read("170141183460469231731687303715884105728"), None);
    /// assert_eq!(read("-0.0"), Some(0));
    /// ```
    pub fn to_i128(self) -> Option<i128> {
        match self {
            DecimalInteger::Integer {
                negative: false,
                magnitude,
            } => i128::try_from(magnitude).ok(),
            DecimalInteger::Integer {
                negative: true,
                magnitude,
            } => 0i128.checked_sub_unsigned(magnitude),
            DecimalInteger::Huge { .. } | DecimalInteger::Fraction => None,
        }
    }
}

/// The integer a JSON number's text denotes, taken from its digits; `None` when `text` is
/// not JSON number syntax (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`: no `+`, no
/// leading zeros, no `5.`, no spaces).
///
/// ```
/// use toolgate_core::num::{decimal_integer, DecimalInteger};
///
/// let integer = |negative, magnitude| Some(DecimalInteger::Integer { negative, magnitude });
/// assert_eq!(decimal_integer("9007199254740993.0"), integer(false, 9_007_199_254_740_993));
/// assert_eq!(decimal_integer("9.007199254740993e15"), integer(false, 9_007_199_254_740_993));
/// assert_eq!(decimal_integer("-184467440737095516170e-1"), integer(true, 18_446_744_073_709_551_617));
/// assert_eq!(decimal_integer("1e38"), integer(false, 10u128.pow(38)));
/// assert_eq!(decimal_integer("1e39"), Some(DecimalInteger::Huge { negative: false }));
/// assert_eq!(decimal_integer("4.9999999999999999"), Some(DecimalInteger::Fraction));
/// assert_eq!(decimal_integer("1e-400"), Some(DecimalInteger::Fraction));
/// assert_eq!(decimal_integer("0e-400"), integer(false, 0));
/// assert_eq!(decimal_integer("05"), None);
/// assert_eq!(decimal_integer("+5"), None);
/// ```
pub fn decimal_integer(text: &str) -> Option<DecimalInteger> {
    let parts = DecimalParts::of(text)?;
    let digits = || parts.whole.bytes().chain(parts.fraction.bytes());
    let count = parts.whole.len() + parts.fraction.len();
    // The first digit that is not 0; none: the number is 0.
    let Some(first) = digits().position(|digit| digit != b'0') else {
        return Some(DecimalInteger::Integer {
            negative: parts.negative,
            magnitude: 0,
        });
    };
    // The decimal point sits after `point` of the digits (it may be far outside them).
    let point = i64::try_from(parts.whole.len())
        .unwrap_or(i64::MAX)
        .saturating_add(parts.exponent);
    let after_point = |at: usize| i64::try_from(at).map_or(true, |at| at >= point);
    if digits()
        .enumerate()
        .any(|(at, digit)| digit != b'0' && after_point(at))
    {
        return Some(DecimalInteger::Fraction);
    }
    // Integral: the digits `first..point` (zeros past the last digit) make the integer,
    // which has `point - first` digits; `u128::MAX` has 39.
    let huge = Some(DecimalInteger::Huge {
        negative: parts.negative,
    });
    let length = point.saturating_sub(i64::try_from(first).unwrap_or(i64::MAX));
    if length > 39 {
        return huge;
    }
    let written = usize::try_from(point).map_or(count, |point| point.min(count));
    let zeros = usize::try_from(point).map_or(0, |point| point.saturating_sub(count));
    let mut magnitude: u128 = 0;
    let shifted = digits()
        .take(written)
        .skip(first)
        .map(|digit| u128::from(digit - b'0'))
        .chain(std::iter::repeat_n(0, zeros));
    for digit in shifted {
        match magnitude.checked_mul(10).and_then(|m| m.checked_add(digit)) {
            Some(next) => magnitude = next,
            None => return huge,
        }
    }
    Some(DecimalInteger::Integer {
        negative: parts.negative,
        magnitude,
    })
}

/// The float `text` denotes, when that float keeps its digits: the float, written back as
/// serde_json writes floats (its shortest text), is the same decimal number. `None` when
/// the float would change the number (`18446744073709551617` becomes `1.8446744073709552e19`,
/// `1.0000000000000001` becomes `1.0`), and for text that is not a finite decimal number.
/// Lenient about spelling, as other libraries write numbers: a sign, leading zeros, `5.`
/// and `.5` are read.
///
/// ```
/// use toolgate_core::num::float_keeping_digits;
///
/// assert_eq!(float_keeping_digits("0.1"), Some(0.1));
/// assert_eq!(float_keeping_digits("+2.50e3"), Some(2500.0));
/// assert_eq!(float_keeping_digits("9007199254740992"), Some(9007199254740992.0));
/// assert_eq!(float_keeping_digits("9007199254740993"), None);
/// assert_eq!(float_keeping_digits("18446744073709551617"), None);
/// assert_eq!(float_keeping_digits("1.0000000000000001"), None);
/// assert_eq!(float_keeping_digits("inf"), None);
/// ```
pub fn float_keeping_digits(text: &str) -> Option<f64> {
    let float: f64 = text.parse().ok().filter(|f: &f64| f.is_finite())?;
    let written = ryu::Buffer::new().format_finite(float).to_owned();
    (normal_decimal(text)? == normal_decimal(&written)?).then_some(float)
}

/// A decimal number as (negative, significant digits without leading or trailing zeros,
/// the exponent of the last of them); zero is `(false, "", 0)`. Lenient spelling.
fn normal_decimal(text: &str) -> Option<(bool, String, i128)> {
    let (negative, unsigned) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits_only = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits_only(whole) || !digits_only(fraction) {
        return None;
    }
    let exponent: i128 = match exponent {
        None => 0,
        Some(exponent) => exponent
            .strip_prefix('+')
            .unwrap_or(exponent)
            .parse::<i64>()
            .ok()?
            .into(),
    };
    let all = format!("{whole}{fraction}");
    let significant = all.trim_start_matches('0');
    let trimmed = significant.trim_end_matches('0');
    if trimmed.is_empty() {
        return Some((false, String::new(), 0));
    }
    let dropped = (significant.len() - trimmed.len()) as i128;
    let exponent = exponent - fraction.len() as i128 + dropped;
    Some((negative, trimmed.to_owned(), exponent))
}

/// A JSON number's text in parts.
struct DecimalParts<'t> {
    negative: bool,
    /// The digits before the point (never empty).
    whole: &'t str,
    /// The digits after the point (empty without one).
    fraction: &'t str,
    /// The exponent, saturated to `i64`.
    exponent: i64,
}

impl<'t> DecimalParts<'t> {
    /// The parts of `text`, or `None` when it is not JSON number syntax.
    fn of(text: &'t str) -> Option<Self> {
        let all_digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
            Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
            None => (unsigned, None),
        };
        let (whole, fraction) = match mantissa.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (mantissa, None),
        };
        let leading_zero = whole.len() > 1 && whole.starts_with('0');
        if !all_digits(whole) || leading_zero || fraction.is_some_and(|f| !all_digits(f)) {
            return None;
        }
        let exponent = match exponent {
            None => 0,
            Some(exponent) => {
                let (sign, digits) = match exponent.strip_prefix('-') {
                    Some(digits) => (-1, digits),
                    None => (1, exponent.strip_prefix('+').unwrap_or(exponent)),
                };
                if !all_digits(digits) {
                    return None;
                }
                sign * digits.bytes().fold(0i64, |e, digit| {
                    e.saturating_mul(10).saturating_add(i64::from(digit - b'0'))
                })
            }
        };
        Some(DecimalParts {
            negative,
            whole,
            fraction: fraction.unwrap_or(""),
            exponent,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(text: &str) -> Option<i128> {
        decimal_integer(text).and_then(DecimalInteger::to_i128)
    }

    #[test]
    fn every_spelling_of_an_integer_gives_its_digits() {
        for (text, want) in [
            ("0", 0),
            ("-0", 0),
            ("-0.000e5", 0),
            ("7", 7),
            ("7.0", 7),
            ("7.000", 7),
            ("7e0", 7),
            ("70e-1", 7),
            ("0.7e1", 7),
            ("0.07E+2", 7),
            ("700E-2", 7),
            ("9007199254740993.0", 9_007_199_254_740_993),
            ("9007199254740993e0", 9_007_199_254_740_993),
            ("90071992547409930e-1", 9_007_199_254_740_993),
            ("9.007199254740993e15", 9_007_199_254_740_993),
            ("-9223372036854775809.00", -9_223_372_036_854_775_809),
            ("18446744073709551617.0", 18_446_744_073_709_551_617),
            ("1.8446744073709551617e19", 18_446_744_073_709_551_617),
            ("170141183460469231731687303715884105727.0", i128::MAX),
            ("-1.70141183460469231731687303715884105728e38", i128::MIN),
            ("1e38", 10i128.pow(38)),
        ] {
            assert_eq!(int(text), Some(want), "{text}");
        }
    }

    #[test]
    fn magnitudes_up_to_u128_then_huge() {
        let max = u128::MAX.to_string();
        assert_eq!(
            decimal_integer(&format!("{max}.0")),
            Some(DecimalInteger::Integer {
                negative: false,
                magnitude: u128::MAX
            })
        );
        let above = "340282366920938463463374607431768211456";
        assert_eq!(
            decimal_integer(above),
            Some(DecimalInteger::Huge { negative: false })
        );
        assert_eq!(
            decimal_integer(&format!("-{above}e0")),
            Some(DecimalInteger::Huge { negative: true })
        );
        assert_eq!(
            decimal_integer("1e999999999999999999999"),
            Some(DecimalInteger::Huge { negative: false })
        );
        assert_eq!(int("170141183460469231731687303715884105728"), None);
        assert_eq!(int("-170141183460469231731687303715884105729"), None);
    }

    #[test]
    fn fractions_and_other_text() {
        for text in [
            "5.5",
            "1.0000000000000001",
            "4.9999999999999999",
            "1e-400",
            "1e-999999999999999999999",
            "12345e-1",
        ] {
            assert_eq!(
                decimal_integer(text),
                Some(DecimalInteger::Fraction),
                "{text}"
            );
        }
        for text in [
            "", "-", "+5", "05", "5.", ".5", "5e", "5e+", "1_000", " 5", "5 ", "0x10", "NaN",
            "--5", "5..0", "5e1.0", "٥",
        ] {
            assert_eq!(decimal_integer(text), None, "{text:?}");
        }
    }
}

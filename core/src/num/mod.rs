//! Numbers as the tool model holds them: exact integers or floats.
//!
//! [`Num`] compares numerically and exactly across its two variants, prints
//! the way JSON writers do, and answers JSON Schema `multipleOf` exactly on
//! the decimal values as written.
//!
//! ```
//! use toolgate_core::num::Num;
//!
//! assert_eq!(Num::from(5), Num::from(5.0));
//! assert!(Num::from(9007199254740993_i64) > Num::from(9007199254740992.0));
//! assert!(Num::from(19.99).is_multiple_of(Num::from(0.01)));
//! assert_eq!(Num::from(0.1f32).to_string(), "0.1");
//! ```

use std::cmp::Ordering;
use std::fmt;

mod decimal;
pub use decimal::{decimal_integer, float_keeping_digits, DecimalInteger};

/// The integers toolgate carries exactly: those a `serde_json::Value` holds (`i64` and
/// `u64`; serde_json's `arbitrary_precision` is not assumed, as it changes every `Value` in
/// the user's build). One rule for every place an integer is written (issue 43 §4):
/// - arguments: an integer beyond it is refused with a `limit` issue (an `integer` schema
///   names the bound it passes; a string field takes the digits as text), never rounded;
/// - schemas: an integer literal beyond it (`"const": 18446744073709551617`) is a schema
///   error at its pointer, in schema text, the derive's attributes and the schema compiler's
///   files; a number written with a fraction or an exponent is a float, read as every JSON
///   reader reads it;
/// - written schemas: a 128-bit width's range is this range (its part of it), so no writer
///   states a bound the gate does not hold, and an edge of it is not written as a width's
///   bound ([`is_carried_edge`]);
/// - foreign error texts: a number beyond it is kept as its text.
///
/// ```
/// use toolgate_core::num::CARRIED_INTEGERS;
/// assert_eq!(*CARRIED_INTEGERS.end(), u64::MAX as i128);
/// ```
pub const CARRIED_INTEGERS: std::ops::RangeInclusive<i128> = INT_MIN..=INT_MAX;

/// Whether `n` is an edge of [`CARRIED_INTEGERS`] (`-9223372036854775808` or
/// `18446744073709551615`, as integers): a width's range there adds no bound, since every
/// road refuses what lies past it.
///
/// ```
/// use toolgate_core::num::{is_carried_edge, Num};
/// assert!(is_carried_edge(Num::Int(u64::MAX as i128)));
/// assert!(!is_carried_edge(Num::Int(i64::MAX as i128)));
/// ```
pub fn is_carried_edge(n: Num) -> bool {
    matches!(n, Num::Int(v) if v == *CARRIED_INTEGERS.start() || v == *CARRIED_INTEGERS.end())
}

/// Whether `digits` are an integer written as one (`-?[0-9]+`) beyond [`CARRIED_INTEGERS`].
///
/// ```
/// use toolgate_core::num::is_uncarried_integer;
/// assert!(is_uncarried_integer("18446744073709551616"));
/// assert!(is_uncarried_integer("-9223372036854775809"));
/// assert!(!is_uncarried_integer("18446744073709551615"));
/// assert!(!is_uncarried_integer("1e30"));
/// ```
pub fn is_uncarried_integer(digits: &str) -> bool {
    let unsigned = digits.strip_prefix('-').unwrap_or(digits);
    !unsigned.is_empty()
        && unsigned.bytes().all(|b| b.is_ascii_digit())
        && digits
            .parse::<i128>()
            .map_or(true, |n| !CARRIED_INTEGERS.contains(&n))
}

/// Whether the decimal number `text` (JSON number syntax, an optional sign) denotes an
/// integer exactly, judged on its digits: `5`, `5.0`, `1.2e1` and `1e400` are integers;
/// `5.5`, `1.0000000000000001` and `1e-400` are not, though a float rounds the last two to
/// one. Text that is not a number gives `false`. Linear in the text; the exponent may be of
/// any size.
///
/// ```
/// use toolgate_core::num::decimal_is_integral;
///
/// assert!(decimal_is_integral("-12.000e0"));
/// assert!(decimal_is_integral("0.05e2"));
/// assert!(!decimal_is_integral("4.9999999999999999"));
/// assert!(!decimal_is_integral("1e-400"));
/// assert!(decimal_is_integral("0e-400"));
/// ```
pub fn decimal_is_integral(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], &unsigned[at + 1..]),
        None => (unsigned, "0"),
    };
    let (exponent_sign, exponent_digits) = match exponent.strip_prefix('-') {
        Some(digits) => (-1i64, digits),
        None => (1, exponent.strip_prefix('+').unwrap_or(exponent)),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || exponent_digits.is_empty()
        || !all_digits(whole)
        || !all_digits(fraction)
        || !all_digits(exponent_digits)
    {
        return false;
    }
    let exponent = exponent_digits.bytes().fold(0i64, |e, digit| {
        e.saturating_mul(10).saturating_add(i64::from(digit - b'0'))
    }) * exponent_sign;
    // The decimal point sits after this many of the digits `whole ++ fraction`; every digit
    // at or after it must be 0.
    let point = (whole.len() as i64).saturating_add(exponent);
    whole
        .bytes()
        .chain(fraction.bytes())
        .enumerate()
        .all(|(at, digit)| digit == b'0' || (at as i64) < point)
}

/// A JSON number: an integer (exactly) or a float.
///
/// # Invariant
///
/// `Int` only holds values in `i64::MIN..=u64::MAX`, the integers a JSON
/// number in `serde_json` can hold exactly. The constructors
/// ([`Num::from_i128`] and the `From` impls) turn larger integers into the
/// nearest `Float`. A `Num::Int` built by hand outside that range is still
/// handled without panicking: it compares exactly, and serialises as a float.
///
/// Equality and ordering are numeric and exact across variants
/// (`Int(5) == Float(5.0)`); NaN is unordered and unequal to everything,
/// itself included.
///
/// ```
/// use toolgate_core::num::Num;
///
/// assert!(matches!(Num::from(u64::MAX), Num::Int(_)));
/// assert!(matches!(Num::from(u128::MAX), Num::Float(_)));
/// assert!(matches!(Num::from(3.0), Num::Float(_)));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Num {
    /// An integer, in `i64::MIN..=u64::MAX`.
    Int(i128),
    /// A float (possibly integral, possibly NaN or infinite).
    Float(f64),
}

/// The smallest and largest integers an `Int` may hold.
const INT_MIN: i128 = i64::MIN as i128;
const INT_MAX: i128 = u64::MAX as i128;
/// 2^127 as an `f64`: the first float above every `i128`.
const TWO_POW_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;

impl Num {
    /// An integer, normalised: outside `i64::MIN..=u64::MAX` it becomes the
    /// nearest `Float`.
    ///
    /// ```
    /// use toolgate_core::num::Num;
    /// assert!(matches!(Num::from_i128(-7), Num::Int(-7)));
    /// assert!(matches!(Num::from_i128(1 << 70), Num::Float(f) if f == 2f64.powi(70)));
    /// ```
    pub fn from_i128(v: i128) -> Num {
        if (INT_MIN..=INT_MAX).contains(&v) {
            Num::Int(v)
        } else {
            Num::Float(v as f64)
        }
    }

    /// A float; it stays `Float` even when integral.
    ///
    /// ```
    /// use toolgate_core::num::Num;
    /// assert!(matches!(Num::from_f64(2.0), Num::Float(_)));
    /// ```
    pub fn from_f64(v: f64) -> Num {
        Num::Float(v)
    }

    /// The value as an `f64` (the nearest one, for large integers).
    pub fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    /// Whether the value is a whole number: any `Int`, or a finite `Float`
    /// without a fractional part.
    ///
    /// ```
    /// use toolgate_core::num::Num;
    /// assert!(Num::from(3.0).is_integral());
    /// assert!(!Num::from(3.5).is_integral());
    /// assert!(!Num::from(f64::INFINITY).is_integral());
    /// ```
    pub fn is_integral(self) -> bool {
        match self {
            Num::Int(_) => true,
            Num::Float(f) => f.is_finite() && f.fract() == 0.0,
        }
    }

    /// Whether the value is neither NaN nor infinite.
    pub fn is_finite(self) -> bool {
        match self {
            Num::Int(_) => true,
            Num::Float(f) => f.is_finite(),
        }
    }

    /// The value of a `serde_json` number: `Int` when it is an `i64` or a
    /// `u64`, else `Float`.
    ///
    /// ```
    /// use toolgate_core::num::Num;
    /// let n = serde_json::Number::from(u64::MAX);
    /// assert!(matches!(Num::from_json(&n), Num::Int(i) if i == u64::MAX as i128));
    /// ```
    pub fn from_json(n: &serde_json::Number) -> Num {
        if let Some(i) = n.as_i64() {
            Num::Int(i128::from(i))
        } else if let Some(u) = n.as_u64() {
            Num::Int(i128::from(u))
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// The value as a `serde_json` number; `None` for NaN and infinities.
    ///
    /// ```
    /// use toolgate_core::num::Num;
    /// assert_eq!(Num::from(-3).to_json(), Some((-3).into()));
    /// assert_eq!(Num::from(f64::NAN).to_json(), None);
    /// ```
    pub fn to_json(self) -> Option<serde_json::Number> {
        match self {
            Num::Int(i) => {
                if let Ok(v) = i64::try_from(i) {
                    Some(v.into())
                } else if let Ok(v) = u64::try_from(i) {
                    Some(v.into())
                } else {
                    serde_json::Number::from_f64(i as f64)
                }
            }
            Num::Float(f) => serde_json::Number::from_f64(f),
        }
    }

    /// JSON Schema `multipleOf`: whether `self / divisor` is an integer,
    /// decided exactly on the decimal values as written (the shortest
    /// round-trip text of each float), so `0.3` is a multiple of `0.1`.
    ///
    /// False when the divisor is not finite or not positive, or the value
    /// is not finite. The sign of the value is ignored.
    ///
    /// ```
    /// use toolgate_core::num::Num;
    /// assert!(Num::from(0.0075).is_multiple_of(Num::from(0.0001)));
    /// assert!(Num::from(4.5).is_multiple_of(Num::from(1.5)));
    /// assert!(!Num::from(35).is_multiple_of(Num::from(1.5)));
    /// assert!(!Num::from(1e308).is_multiple_of(Num::from(0.123456789)));
    /// ```
    pub fn is_multiple_of(self, divisor: Num) -> bool {
        if !self.is_finite() || !divisor.is_finite() || divisor <= Num::Int(0) {
            return false;
        }
        if let (Num::Int(a), Num::Int(b)) = (self, divisor) {
            return a.unsigned_abs() % b.unsigned_abs() == 0;
        }
        let (Some((m1, e1)), Some((m2, e2))) = (self.to_decimal(), divisor.to_decimal()) else {
            return false;
        };
        if m1 == 0 {
            return true;
        }
        if m2 == 0 {
            return false;
        }
        if e1 >= e2 {
            // Is m1 * 10^(e1 - e2) divisible by m2?
            let gap = u128::try_from(e1 - e2).unwrap_or(u128::MAX);
            mul_mod(m1 % m2, pow_mod(10, gap, m2), m2) == 0
        } else {
            // Is m1 divisible by m2 * 10^(e2 - e1)?
            let scale = u32::try_from(e2 - e1)
                .ok()
                .and_then(|gap| 10u128.checked_pow(gap));
            match scale {
                Some(scale) => m1 % scale == 0 && (m1 / scale) % m2 == 0,
                // 10^gap exceeds every u128, so it exceeds m1 > 0.
                None => false,
            }
        }
    }

    /// The absolute value as `digits × 10^exp`, exactly as written in the
    /// shortest round-trip text. `None` when not finite.
    ///
    /// The text is Rust's `{:e}`, written into a buffer on the stack (`multipleOf` is
    /// checked on every number of a field that has it: no allocation per check). Not
    /// ryu's: where two shortest texts are as near (`1108868467860394.3`: `…943e15` and
    /// `…942e15`), ryu and Rust pick differently, and the verdict must not change with
    /// the writer.
    fn to_decimal(self) -> Option<(u128, i64)> {
        match self {
            Num::Int(i) => Some((i.unsigned_abs(), 0)),
            Num::Float(f) if f.is_finite() => {
                let mut text = StackText::default();
                fmt::Write::write_fmt(&mut text, format_args!("{:e}", f.abs())).ok()?;
                decimal_digits(text.as_str())
            }
            Num::Float(_) => None,
        }
    }
}

/// Text written on the stack: a float's `{:e}` (at most 24 bytes,
/// `2.2250738585072014e-308`).
#[derive(Default)]
struct StackText {
    bytes: [u8; 32],
    len: usize,
}

impl StackText {
    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or_default()
    }
}

impl fmt::Write for StackText {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        let end = self.len + text.len();
        let room = self.bytes.get_mut(self.len..end).ok_or(fmt::Error)?;
        room.copy_from_slice(text.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// `digits × 10^exp` of a finite, non-negative float's text (`4.505e2`, `1e-7`, `450.5`):
/// the digits of the mantissa without its point and its trailing zeros, the exponent to
/// match (`0` for zero).
fn decimal_digits(text: &str) -> Option<(u128, i64)> {
    let (mantissa, exp) = match text.split_once(['e', 'E']) {
        Some((mantissa, exp)) => (mantissa, exp.parse::<i64>().ok()?),
        None => (text, 0),
    };
    let mut digits: u128 = 0;
    let mut after_point: i64 = 0;
    let mut seen_point = false;
    for byte in mantissa.bytes() {
        match byte {
            b'.' => seen_point = true,
            b'0'..=b'9' => {
                digits = digits
                    .checked_mul(10)?
                    .checked_add(u128::from(byte - b'0'))?;
                after_point += i64::from(seen_point);
            }
            _ => return None,
        }
    }
    let mut exp = exp - after_point;
    // `{:e}` writes no trailing zero (`5e0`); a text written otherwise (`5.0`) may.
    if digits == 0 {
        return Some((0, 0));
    }
    while digits.is_multiple_of(10) {
        digits /= 10;
        exp += 1;
    }
    Some((digits, exp))
}

/// `a * b mod m` without overflow (`a, b < m`, `m > 0`).
fn mul_mod(a: u128, b: u128, m: u128) -> u128 {
    if let Some(p) = a.checked_mul(b) {
        return p % m;
    }
    // Double-and-add; `m <= u128::MAX` so reduce before every addition.
    let (mut acc, mut a, mut b) = (0u128, a % m, b);
    while b > 0 {
        if b & 1 == 1 {
            acc = add_mod(acc, a, m);
        }
        a = add_mod(a, a, m);
        b >>= 1;
    }
    acc
}

/// `a + b mod m` without overflow (`a, b < m`).
fn add_mod(a: u128, b: u128, m: u128) -> u128 {
    if a >= m - b {
        a - (m - b)
    } else {
        a + b
    }
}

/// `base^exp mod m` by square-and-multiply (`m > 0`).
fn pow_mod(base: u128, mut exp: u128, m: u128) -> u128 {
    let mut result = 1 % m;
    let mut base = base % m;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, base, m);
        }
        base = mul_mod(base, base, m);
        exp >>= 1;
    }
    result
}

/// Exact comparison of an integer with a float.
fn cmp_int_float(i: i128, f: f64) -> Option<Ordering> {
    // An integer of at most 53 bits is a float exactly, and floats compare exactly: the
    // common case (a bound of `0` or `100` against a float sent) needs no more.
    const EXACT_IN_F64: u64 = 1 << f64::MANTISSA_DIGITS;
    if let Ok(small) = i64::try_from(i) {
        if small.unsigned_abs() <= EXACT_IN_F64 {
            return (small as f64).partial_cmp(&f);
        }
    }
    cmp_int_float_by_floor(i, f)
}

/// [`cmp_int_float`] for any integer: by the float's floor, in `i128`.
fn cmp_int_float_by_floor(i: i128, f: f64) -> Option<Ordering> {
    if f.is_nan() {
        return None;
    }
    if f >= TWO_POW_127 {
        return Some(Ordering::Less);
    }
    if f < -TWO_POW_127 {
        return Some(Ordering::Greater);
    }
    // Here f is finite and its floor fits in an i128 (exactly, as every
    // float of this magnitude with a fraction is far below 2^127).
    let floor = f.floor();
    let floor_i = floor as i128;
    Some(match i.cmp(&floor_i) {
        Ordering::Equal if f == floor => Ordering::Equal,
        Ordering::Equal => Ordering::Less,
        other => other,
    })
}

impl PartialEq for Num {
    fn eq(&self, other: &Num) -> bool {
        self.partial_cmp(other) == Some(Ordering::Equal)
    }
}

impl PartialOrd for Num {
    fn partial_cmp(&self, other: &Num) -> Option<Ordering> {
        match (*self, *other) {
            (Num::Int(a), Num::Int(b)) => Some(a.cmp(&b)),
            (Num::Float(a), Num::Float(b)) => a.partial_cmp(&b),
            (Num::Int(a), Num::Float(b)) => cmp_int_float(a, b),
            (Num::Float(a), Num::Int(b)) => cmp_int_float(b, a).map(Ordering::reverse),
        }
    }
}

impl fmt::Display for Num {
    /// `Int` in decimal; `Float` as Rust prints an `f64` (`5`, `0.5`, `NaN`,
    /// `inf`, `-inf`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Nearly every integer fits an `i64`, whose formatting is cheaper than `i128`'s.
            Num::Int(i) => match i64::try_from(*i) {
                Ok(small) => write!(f, "{small}"),
                Err(_) => write!(f, "{i}"),
            },
            Num::Float(x) => write!(f, "{x}"),
        }
    }
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl From<$t> for Num {
            fn from(v: $t) -> Num {
                Num::from_i128(i128::from(v))
            }
        }
    )*};
}
from_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl From<i128> for Num {
    fn from(v: i128) -> Num {
        Num::from_i128(v)
    }
}

impl From<isize> for Num {
    fn from(v: isize) -> Num {
        // isize is at most 64 bits on every supported target.
        i64::try_from(v).map_or(Num::Float(v as f64), Num::from)
    }
}

impl From<usize> for Num {
    fn from(v: usize) -> Num {
        u64::try_from(v).map_or(Num::Float(v as f64), Num::from)
    }
}

impl From<u128> for Num {
    fn from(v: u128) -> Num {
        i128::try_from(v).map_or(Num::Float(v as f64), Num::from_i128)
    }
}

impl From<f64> for Num {
    fn from(v: f64) -> Num {
        Num::Float(v)
    }
}

impl From<f32> for Num {
    /// Through the `f32`'s shortest decimal text, so `0.1f32` becomes `0.1`.
    fn from(v: f32) -> Num {
        Num::Float(v.to_string().parse().unwrap_or(f64::from(v)))
    }
}

impl serde::Serialize for Num {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Num::Int(i) => {
                if let Ok(v) = i64::try_from(i) {
                    serializer.serialize_i64(v)
                } else if let Ok(v) = u64::try_from(i) {
                    serializer.serialize_u64(v)
                } else {
                    serializer.serialize_f64(i as f64)
                }
            }
            Num::Float(f) => serializer.serialize_f64(f),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Num, D::Error> {
        struct NumVisitor;

        impl serde::de::Visitor<'_> for NumVisitor {
            type Value = Num;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Num, E> {
                Ok(Num::from(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Num, E> {
                Ok(Num::from(v))
            }
            fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<Num, E> {
                Ok(Num::from(v))
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Num, E> {
                Ok(Num::from(v))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Num, E> {
                Ok(Num::Float(v))
            }
        }

        deserializer.deserialize_any(NumVisitor)
    }
}

#[cfg(test)]
mod tests;

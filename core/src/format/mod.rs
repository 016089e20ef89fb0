//! String formats of JSON Schema 2020-12 (the `format` keyword).
//!
//! Every check is hand-written, ASCII-only and never panics. The rules follow
//! the JSON Schema 2020-12 format definitions and the expectations of the
//! JSON-Schema-Test-Suite; see [`Format`] for each one.
//!
//! ```
//! use toolgate_core::format::Format;
//!
//! let f: Format = "date".parse().unwrap();
//! assert!(f.matches("2024-02-29"));
//! assert!(!f.matches("2023-02-29"));
//! assert_eq!(f.describe(), "a date (YYYY-MM-DD)");
//! ```

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

/// A string format that toolgate checks (the JSON Schema `format` keyword).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// `email`: an RFC 5321 mailbox (`local@domain`), ASCII only: a dot-atom
    /// or quoted-string local part of at most 64 octets, and a hostname
    /// (without a trailing dot) or a bracketed IP literal (`[127.0.0.1]`,
    /// `[IPv6:::1]`) as the domain.
    Email,
    /// `uri`: an RFC 3986 absolute URI (a scheme is required), ASCII only.
    Uri,
    /// `date`: an RFC 3339 `full-date`, `YYYY-MM-DD`, checked against the
    /// Gregorian calendar (leap years included).
    Date,
    /// `date-time`: an RFC 3339 `date-time`: a full date, `T` (or `t`) and a
    /// full time with a required offset.
    DateTime,
    /// `time`: an RFC 3339 `full-time`: `HH:MM:SS[.frac]` plus a required
    /// offset `Z`/`z`/`+HH:MM`/`-HH:MM`; second 60 only as a leap second
    /// (23:59:60 in UTC).
    Time,
    /// `uuid`: an RFC 4122 UUID, `8-4-4-4-12` hex digits with hyphens.
    Uuid,
    /// `ipv4`: a dotted quad of decimal octets 0-255 without leading zeros.
    Ipv4,
    /// `ipv6`: an RFC 4291 IPv6 address in text form, without a zone id.
    Ipv6,
    /// `hostname`: an RFC 1123 host name.
    Hostname,
}

/// The error of [`Format::from_str`]: the name is not a format toolgate knows.
///
/// ```
/// use toolgate_core::format::{Format, UnknownFormat};
///
/// let err = "regex".parse::<Format>().unwrap_err();
/// assert_eq!(err, UnknownFormat("regex".to_string()));
/// assert_eq!(err.to_string(), "unknown string format `regex`");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown string format `{0}`")]
pub struct UnknownFormat(pub String);

impl Format {
    /// Every format, in declaration order.
    pub const ALL: [Format; 9] = [
        Format::Email,
        Format::Uri,
        Format::Date,
        Format::DateTime,
        Format::Time,
        Format::Uuid,
        Format::Ipv4,
        Format::Ipv6,
        Format::Hostname,
    ];

    /// The name used by the `format` keyword, e.g. `"date-time"`.
    ///
    /// ```
    /// use toolgate_core::format::Format;
    /// assert_eq!(Format::DateTime.as_str(), "date-time");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Email => "email",
            Format::Uri => "uri",
            Format::Date => "date",
            Format::DateTime => "date-time",
            Format::Time => "time",
            Format::Uuid => "uuid",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Hostname => "hostname",
        }
    }

    /// The format with this exact (case-sensitive) name, if toolgate knows it.
    ///
    /// ```
    /// use toolgate_core::format::Format;
    /// assert_eq!(Format::from_name("ipv4"), Some(Format::Ipv4));
    /// assert_eq!(Format::from_name("IPv4"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// Whether `s` is a valid instance of this format.
    ///
    /// ```
    /// use toolgate_core::format::Format;
    /// assert!(Format::Email.matches("joe.bloggs@example.com"));
    /// assert!(!Format::Email.matches("a..b@c.com"));
    /// assert!(Format::Time.matches("23:59:60Z"));
    /// assert!(!Format::Time.matches("12:00:00"));
    /// ```
    pub fn matches(self, s: &str) -> bool {
        match self {
            Format::Email => is_email(s),
            Format::Uri => is_uri(s),
            Format::Date => is_date(s.as_bytes()),
            Format::DateTime => is_date_time(s.as_bytes()),
            Format::Time => is_time(s.as_bytes()),
            Format::Uuid => is_uuid(s.as_bytes()),
            Format::Ipv4 => is_ipv4(s),
            Format::Ipv6 => is_ipv6(s),
            Format::Hostname => is_hostname(s),
        }
    }

    /// A valid value of the format, to show what one looks like (prompt rules, examples).
    ///
    /// ```
    /// use toolgate_core::format::Format;
    /// assert_eq!(Format::Date.example(), "2026-11-24");
    /// assert!(Format::ALL.iter().all(|format| format.matches(format.example())));
    /// ```
    pub fn example(self) -> &'static str {
        match self {
            Format::Email => "name@example.com",
            Format::Uri => "https://example.com/page",
            Format::Date => "2026-11-24",
            Format::DateTime => "2026-11-24T14:30:00Z",
            Format::Time => "14:30:00Z",
            Format::Uuid => "123e4567-e89b-12d3-a456-426614174000",
            Format::Ipv4 => "192.0.2.1",
            Format::Ipv6 => "2001:db8::1",
            Format::Hostname => "api.example.com",
        }
    }

    /// A short description for messages, e.g. `"an email address"`.
    ///
    /// ```
    /// use toolgate_core::format::Format;
    /// assert_eq!(Format::Uuid.describe(), "a UUID");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            Format::Email => "an email address",
            Format::Uri => "an absolute URI",
            Format::Date => "a date (YYYY-MM-DD)",
            Format::DateTime => "a date-time (RFC 3339, e.g. 2026-11-22T14:30:00Z)",
            Format::Time => "a time (RFC 3339, e.g. 14:30:00Z)",
            Format::Uuid => "a UUID",
            Format::Ipv4 => "an IPv4 address",
            Format::Ipv6 => "an IPv6 address",
            Format::Hostname => "a hostname",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::from_name(s).ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// The value of two ASCII digits, or `None`.
fn two_digits(b: &[u8]) -> Option<u32> {
    match b {
        [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => {
            Some(u32::from(a - b'0') * 10 + u32::from(b - b'0'))
        }
        _ => None,
    }
}

fn is_date(b: &[u8]) -> bool {
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let (Some(y_hi), Some(y_lo), Some(month), Some(day)) = (
        two_digits(&b[0..2]),
        two_digits(&b[2..4]),
        two_digits(&b[5..7]),
        two_digits(&b[8..10]),
    ) else {
        return false;
    };
    let year = y_hi * 100 + y_lo;
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn is_time(b: &[u8]) -> bool {
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(hour), Some(minute), Some(second)) = (
        two_digits(&b[0..2]),
        two_digits(&b[3..5]),
        two_digits(&b[6..8]),
    ) else {
        return false;
    };
    if hour > 23 || minute > 59 || second > 60 {
        return false;
    }
    let mut rest = &b[8..];
    if let Some(frac) = rest.strip_prefix(b".") {
        let digits = frac.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            return false;
        }
        rest = &frac[digits..];
    }
    // The offset, in minutes east of UTC.
    let offset: i64 = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let (Some(oh), Some(om)) = (two_digits(&[*h1, *h2]), two_digits(&[*m1, *m2])) else {
                return false;
            };
            if oh > 23 || om > 59 {
                return false;
            }
            let minutes = i64::from(oh * 60 + om);
            if *sign == b'-' {
                -minutes
            } else {
                minutes
            }
        }
        _ => return false,
    };
    if second == 60 {
        let utc = (i64::from(hour * 60 + minute) - offset).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

fn is_date_time(b: &[u8]) -> bool {
    b.len() > 11 && matches!(b[10], b'T' | b't') && is_date(&b[..10]) && is_time(&b[11..])
}

fn is_uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// std's parser is RFC 6943's strict dotted-decimal form: four decimal octets 0-255, no
/// leading zeros (`087` could be octal), nothing before or after.
fn is_ipv4(s: &str) -> bool {
    s.parse::<Ipv4Addr>().is_ok()
}

fn is_ipv6(s: &str) -> bool {
    !s.contains('%') && !s.chars().any(char::is_whitespace) && s.parse::<Ipv6Addr>().is_ok()
}

fn is_hostname(s: &str) -> bool {
    let name = s.strip_suffix('.').unwrap_or(s).as_bytes();
    if name.is_empty() || name.len() > 253 {
        return false;
    }
    // One pass: labels of 1 to 63 letters, digits and hyphens, not starting or ending with
    // a hyphen, between dots.
    let mut label = 0usize;
    let mut last = b'.';
    for &c in name {
        if c == b'.' {
            if label == 0 || last == b'-' {
                return false;
            }
            label = 0;
        } else {
            let allowed = c.is_ascii_alphanumeric() || (c == b'-' && label > 0);
            label += 1;
            if !allowed || label > 63 {
                return false;
            }
        }
        last = c;
    }
    label > 0 && last != b'-'
}

/// Whether `b` is a dot-atom of RFC 5322: runs of `atext`, each non-empty, between dots.
fn is_dot_atom(b: &[u8]) -> bool {
    let mut empty = true;
    for &c in b {
        if c == b'.' {
            if empty {
                return false;
            }
            empty = true;
        } else if is_atext(c) {
            empty = false;
        } else {
            return false;
        }
    }
    !empty
}

/// `atext` of RFC 5322: the characters of a dot-atom besides the dots.
fn is_atext(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c)
}

fn is_email(s: &str) -> bool {
    let b = s.as_bytes();
    let (local_len, domain) = if b.first() == Some(&b'"') {
        // Quoted string: qtextSMTP (printable ASCII but `"` and `\`) or a
        // quoted pair (`\` and a printable ASCII character).
        let mut i = 1;
        loop {
            match b.get(i) {
                Some(b'"') => break,
                Some(b'\\') if b.get(i + 1).is_some_and(|c| (32..=126).contains(c)) => i += 2,
                Some(c) if (32..=126).contains(c) && *c != b'\\' => i += 1,
                _ => return false,
            }
        }
        if b.get(i + 1) != Some(&b'@') {
            return false;
        }
        (i + 1, &s[i + 2..])
    } else {
        let Some(at) = b.iter().position(|&c| c == b'@') else {
            return false;
        };
        if !is_dot_atom(&b[..at]) {
            return false;
        }
        (at, &s[at + 1..])
    };
    if local_len > 64 {
        return false;
    }
    if let Some(literal) = domain.strip_prefix('[') {
        let Some(literal) = literal.strip_suffix(']') else {
            return false;
        };
        // The "IPv6:" tag is case-insensitive, like every ABNF literal.
        match literal.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => is_ipv6(&literal[5..]),
            _ => is_ipv4(literal),
        }
    } else {
        // A mailbox domain is a hostname without the root's trailing dot.
        !domain.ends_with('.') && is_hostname(domain)
    }
}

fn is_unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~')
}

fn is_sub_delim(c: u8) -> bool {
    matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// Whether every byte is unreserved, a sub-delimiter, one of `extra`, or part
/// of a valid percent-encoding.
fn uri_chars_ok(b: &[u8], extra: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            let hex = |j: usize| b.get(j).is_some_and(u8::is_ascii_hexdigit);
            if !(hex(i + 1) && hex(i + 2)) {
                return false;
            }
            i += 3;
            continue;
        }
        if !(is_unreserved(c) || is_sub_delim(c) || extra.contains(&c)) {
            return false;
        }
        i += 1;
    }
    true
}

/// RFC 3986 `host`: an IP literal in brackets, or a reg-name.
fn is_uri_host(host: &[u8]) -> bool {
    let Some(inner) = host.strip_prefix(b"[").and_then(|h| h.strip_suffix(b"]")) else {
        return uri_chars_ok(host, b"");
    };
    if let Some(future) = inner
        .strip_prefix(b"v")
        .or_else(|| inner.strip_prefix(b"V"))
    {
        // IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
        let hex = future.iter().take_while(|c| c.is_ascii_hexdigit()).count();
        return match future[hex..].split_first() {
            Some((b'.', tail)) if hex > 0 && !tail.is_empty() => tail
                .iter()
                .all(|c| is_unreserved(*c) || is_sub_delim(*c) || *c == b':'),
            _ => false,
        };
    }
    std::str::from_utf8(inner).is_ok_and(is_ipv6)
}

fn is_uri(s: &str) -> bool {
    let b = s.as_bytes();
    // scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ), then ":".
    let Some(colon) = b.iter().position(|c| *c == b':') else {
        return false;
    };
    let scheme = &b[..colon];
    let scheme_ok = scheme.first().is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
    if !scheme_ok {
        return false;
    }
    let rest = &b[colon + 1..];
    // Split off the fragment, then the query; what is left is hier-part.
    let (rest, fragment) = match rest.iter().position(|c| *c == b'#') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b""[..]),
    };
    let (hier, query) = match rest.iter().position(|c| *c == b'?') {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &b""[..]),
    };
    if !uri_chars_ok(fragment, b":@/?") || !uri_chars_ok(query, b":@/?") {
        return false;
    }
    let path = match hier.strip_prefix(b"//") {
        Some(after) => {
            let end = after.iter().position(|c| *c == b'/').unwrap_or(after.len());
            let (authority, path) = after.split_at(end);
            let (userinfo, host_port) = match authority.iter().rposition(|c| *c == b'@') {
                Some(i) => (&authority[..i], &authority[i + 1..]),
                None => (&b""[..], authority),
            };
            if !uri_chars_ok(userinfo, b":") {
                return false;
            }
            // The port follows the last ':' that is not inside an IP literal.
            let host_end = match host_port.iter().rposition(|c| *c == b':') {
                Some(i) if !host_port[i..].contains(&b']') => i,
                _ => host_port.len(),
            };
            let (host, port) = host_port.split_at(host_end);
            let port_ok = port.iter().skip(1).all(u8::is_ascii_digit);
            if !port_ok || !is_uri_host(host) {
                return false;
            }
            path
        }
        None => hier,
    };
    uri_chars_ok(path, b":@/")
}

#[cfg(test)]
mod tests;

//! ECMA-262's character classes, as sets of Unicode scalar values.

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

fn set_of(ranges: &[(char, char)]) -> ClassUnicode {
    ClassUnicode::new(
        ranges
            .iter()
            .map(|&(low, high)| ClassUnicodeRange::new(low, high)),
    )
}

/// `\d`: the ASCII digits.
pub(super) fn digit() -> ClassUnicode {
    set_of(&[('0', '9')])
}

/// `\w`: ASCII letters, digits and `_`.
pub(super) fn word() -> ClassUnicode {
    set_of(&[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')])
}

/// `\s`: ECMA-262's WhiteSpace and LineTerminator: tab, line feed, vertical tab, form feed,
/// carriage return, space, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
/// U+3000 and U+FEFF.
pub(super) fn white_space() -> ClassUnicode {
    set_of(&[
        ('\t', '\r'),
        (' ', ' '),
        ('\u{A0}', '\u{A0}'),
        ('\u{1680}', '\u{1680}'),
        ('\u{2000}', '\u{200A}'),
        ('\u{2028}', '\u{2029}'),
        ('\u{202F}', '\u{202F}'),
        ('\u{205F}', '\u{205F}'),
        ('\u{3000}', '\u{3000}'),
        ('\u{FEFF}', '\u{FEFF}'),
    ])
}

/// Any character at all (a lone `[^]`).
pub(super) fn any_character() -> ClassUnicode {
    set_of(&[('\0', char::MAX)])
}

/// `.`: any character but the line terminators `\n`, `\r`, U+2028 and U+2029.
pub(super) fn dot() -> ClassUnicode {
    let mut class = set_of(&[('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')]);
    class.negate();
    class
}

//! ECMA-262 regular expressions, JSON Schema's `pattern` dialect, read into regex-syntax's
//! [`Hir`] with ECMA-262's meaning of every class and assertion.
//!
//! This is a parser, not a rewrite of the text: escapes and classes are read as ECMA-262
//! reads them (`\\d` is a backslash then `d`, `[\d.]` holds the digits and `.`), and each
//! construct becomes the `Hir` of its ECMA-262 meaning. See the [`Pattern`](super::Pattern)
//! documentation for the dialect.

use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, HirKind, Look, Repetition};

use super::classes::{digit, dot, white_space, word};
use super::Pattern;

/// Reads `source` as an ECMA-262 pattern. The error names what is wrong and where (the
/// 1-based position of the character, counted in Unicode scalar values).
pub(super) fn parse(source: &str) -> Result<Hir, String> {
    let mut parser = Parser {
        chars: source.chars().collect(),
        at: 0,
        depth: 0,
    };
    let hir = parser.disjunction()?;
    match parser.peek() {
        None => Ok(hir),
        Some(_) => Err(parser.error(parser.at, "unmatched `)`")),
    }
}

/// What an escape stands for, where the escape is not an assertion.
enum Escaped {
    Char(char),
    Set(ClassUnicode),
}

/// Where an escape appears: some escapes mean something else inside a class.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Atom,
    Class,
}

/// A quantifier's bounds: `min` and `max` repetitions (`None`: no upper bound).
type Bounds = (u32, Option<u32>);

struct Parser {
    chars: Vec<char>,
    at: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.at + offset).copied()
    }

    fn next_char(&mut self) -> Option<char> {
        let next = self.peek()?;
        self.at += 1;
        Some(next)
    }

    fn eat(&mut self, expected: char) -> bool {
        let found = self.peek() == Some(expected);
        if found {
            self.at += 1;
        }
        found
    }

    fn error(&self, position: usize, message: impl std::fmt::Display) -> String {
        format!("{message} (at character {})", position + 1)
    }

    /// `a|b|c`, up to a `)` or the end.
    fn disjunction(&mut self) -> Result<Hir, String> {
        let mut alternatives = vec![self.alternative()?];
        while self.eat('|') {
            alternatives.push(self.alternative()?);
        }
        Ok(Hir::alternation(alternatives))
    }

    /// A sequence of terms, up to a `|`, a `)` or the end.
    fn alternative(&mut self) -> Result<Hir, String> {
        let mut terms = Vec::new();
        while !matches!(self.peek(), None | Some('|' | ')')) {
            terms.push(self.term()?);
        }
        Ok(Hir::concat(terms))
    }

    /// An assertion, or an atom with its quantifier.
    fn term(&mut self) -> Result<Hir, String> {
        if let Some(look) = self.assertion() {
            if self.quantifier_ahead() {
                return Err(self.error(self.at, "an assertion cannot be repeated"));
            }
            return Ok(Hir::look(look));
        }
        let atom = self.atom()?;
        self.quantified(atom)
    }

    /// `^` and `$` (the start and end of the whole text: no multiline flag) and the ASCII word
    /// boundaries `\b` and `\B`.
    fn assertion(&mut self) -> Option<Look> {
        let (look, length) = match (self.peek()?, self.peek_at(1)) {
            ('^', _) => (Look::Start, 1),
            ('$', _) => (Look::End, 1),
            ('\\', Some('b')) => (Look::WordAscii, 2),
            ('\\', Some('B')) => (Look::WordAsciiNegate, 2),
            _ => return None,
        };
        self.at += length;
        Some(look)
    }

    fn atom(&mut self) -> Result<Hir, String> {
        let position = self.at;
        let Some(first) = self.next_char() else {
            return Err(self.error(position, "the pattern ends where an atom is expected"));
        };
        match first {
            '.' => Ok(class_hir(dot())),
            '(' => self.group(position),
            '[' => self.class(position).map(class_hir),
            '\\' => match self.escape(position, Context::Atom)? {
                Escaped::Char(c) => Ok(literal(c)),
                Escaped::Set(set) => Ok(class_hir(set)),
            },
            '*' | '+' | '?' => {
                Err(self.error(position, format!("nothing to repeat before `{first}`")))
            }
            '{' if self.braced_quantifier(position).is_some() => {
                Err(self.error(position, "nothing to repeat before `{`"))
            }
            // A `{` that starts no quantifier, a `}` and a `]` are literals (ECMA-262 Annex B).
            other => Ok(literal(other)),
        }
    }

    /// A group after its `(`: `(...)`, `(?:...)` or `(?<name>...)`. Captures play no part in
    /// whether a text matches, so every group becomes its contents.
    fn group(&mut self, open: usize) -> Result<Hir, String> {
        if self.depth == Pattern::MAX_NESTING {
            return Err(self.error(
                open,
                format!("groups nest deeper than {}", Pattern::MAX_NESTING),
            ));
        }
        if self.eat('?') {
            match (self.peek(), self.peek_at(1)) {
                (Some(':'), _) => self.at += 1,
                (Some('=' | '!'), _) => {
                    return Err(self.error(open, "lookahead (`(?=`, `(?!`) is not supported"));
                }
                (Some('<'), Some('=' | '!')) => {
                    return Err(self.error(open, "lookbehind (`(?<=`, `(?<!`) is not supported"));
                }
                (Some('<'), _) => {
                    self.at += 1;
                    self.group_name(open)?;
                }
                _ => {
                    return Err(self.error(
                        open,
                        "`(?` must start `(?:` or `(?<name>`; modifiers such as `(?i)` are not supported",
                    ));
                }
            }
        }
        self.depth += 1;
        let contents = self.disjunction()?;
        self.depth -= 1;
        if !self.eat(')') {
            return Err(self.error(open, "unclosed group `(`"));
        }
        Ok(contents)
    }

    /// The `name>` of a named group: an identifier (letters, digits, `$`, `_`; not a digit
    /// first).
    fn group_name(&mut self, open: usize) -> Result<(), String> {
        let start = self.at;
        loop {
            match self.next_char() {
                Some('>') if self.at - 1 > start => return Ok(()),
                Some(c) if c.is_alphabetic() || c == '$' || c == '_' => {}
                Some(c) if c.is_alphanumeric() && self.at - 1 > start => {}
                _ => return Err(self.error(open, "a group name must be an identifier")),
            }
        }
    }

    /// The quantifier at the current position, consumed; `None` (nothing consumed) if there is
    /// none.
    fn quantifier(&mut self) -> Result<Option<Bounds>, String> {
        let bounds = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => match self.braced_quantifier(self.at) {
                Some((bounds, end)) => {
                    let bounds = bounds?;
                    self.at = end - 1;
                    bounds
                }
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        self.at += 1;
        Ok(Some(bounds))
    }

    fn quantifier_ahead(&self) -> bool {
        match self.peek() {
            Some('*' | '+' | '?') => true,
            Some('{') => self.braced_quantifier(self.at).is_some(),
            _ => false,
        }
    }

    /// Reads `{n}`, `{n,}` or `{n,m}` starting at `open` (a `{`), without consuming it:
    /// the bounds (or why they cannot be used) and the position after the `}`. `None` if the
    /// text there is not of that form (then the `{` is a literal).
    fn braced_quantifier(&self, open: usize) -> Option<(Result<Bounds, String>, usize)> {
        let digits_from = |from: usize| {
            let count = self.chars[from..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            (
                from + count,
                self.chars[from..from + count].iter().collect::<String>(),
            )
        };
        let (after_min, min) = digits_from(open + 1);
        if min.is_empty() {
            return None;
        }
        let (end, max) = match self.chars.get(after_min) {
            Some('}') => (after_min + 1, Some(min.clone())),
            Some(',') => {
                let (after_max, max) = digits_from(after_min + 1);
                if self.chars.get(after_max) != Some(&'}') {
                    return None;
                }
                (after_max + 1, (!max.is_empty()).then_some(max))
            }
            _ => return None,
        };
        let count = |digits: &str| {
            digits
                .parse::<u32>()
                .map_err(|_| self.error(open, format!("the count {digits} is too large")))
        };
        let bounds = count(&min).and_then(|min| {
            let max = max.as_deref().map(count).transpose()?;
            match max {
                Some(max) if max < min => Err(self.error(
                    open,
                    format!("the quantifier {{{min},{max}}} has its bounds out of order"),
                )),
                _ => Ok((min, max)),
            }
        });
        Some((bounds, end))
    }

    fn quantified(&mut self, atom: Hir) -> Result<Hir, String> {
        let Some((min, max)) = self.quantifier()? else {
            return Ok(atom);
        };
        // A lazy quantifier matches the same texts; only the match found differs.
        let greedy = !self.eat('?');
        if self.quantifier_ahead() {
            return Err(self.error(
                self.at,
                "nothing to repeat: a quantifier follows a quantifier",
            ));
        }
        Ok(Hir::repetition(Repetition {
            min,
            max,
            greedy,
            sub: Box::new(atom),
        }))
    }

    /// A class after its `[`: `[abc]`, `[^a-z]`, `[\d.]`; `[]` matches nothing, `[^]`
    /// anything.
    fn class(&mut self, open: usize) -> Result<ClassUnicode, String> {
        let negated = self.eat('^');
        let mut class = ClassUnicode::empty();
        loop {
            match self.peek() {
                None => return Err(self.error(open, "unclosed character class `[`")),
                Some(']') => {
                    self.at += 1;
                    break;
                }
                Some(_) => {}
            }
            let first = self.class_atom()?;
            let is_range = self.peek() == Some('-') && !matches!(self.peek_at(1), None | Some(']'));
            if !is_range {
                add(&mut class, first);
                continue;
            }
            let dash = self.at;
            self.at += 1;
            let last = self.class_atom()?;
            match (first, last) {
                (Escaped::Char(low), Escaped::Char(high)) => {
                    if low > high {
                        return Err(
                            self.error(dash, format!("the range {low}-{high} is out of order"))
                        );
                    }
                    class.push(ClassUnicodeRange::new(low, high));
                }
                // A class escape at either end: the `-` is a literal (ECMA-262 Annex B), so
                // `[\w-.]` holds the word characters, `-` and `.`.
                (first, last) => {
                    add(&mut class, first);
                    add(&mut class, Escaped::Char('-'));
                    add(&mut class, last);
                }
            }
        }
        if negated {
            class.negate();
        }
        Ok(class)
    }

    fn class_atom(&mut self) -> Result<Escaped, String> {
        let position = self.at;
        match self.next_char() {
            Some('\\') => self.escape(position, Context::Class),
            Some(c) => Ok(Escaped::Char(c)),
            None => Err(self.error(position, "unclosed character class `[`")),
        }
    }

    /// An escape after its `\` (assertions are read before: [`Parser::assertion`]).
    fn escape(&mut self, backslash: usize, context: Context) -> Result<Escaped, String> {
        let Some(escaped) = self.next_char() else {
            return Err(self.error(backslash, "the pattern ends with a lone `\\`"));
        };
        let set = |set: ClassUnicode, negated: bool| {
            let mut set = set;
            if negated {
                set.negate();
            }
            Ok(Escaped::Set(set))
        };
        let character = |c: char| Ok(Escaped::Char(c));
        match escaped {
            'd' | 'D' => set(digit(), escaped == 'D'),
            'w' | 'W' => set(word(), escaped == 'W'),
            's' | 'S' => set(white_space(), escaped == 'S'),
            'p' | 'P' => set(self.property(backslash)?, escaped == 'P'),
            't' => character('\t'),
            'n' => character('\n'),
            'v' => character('\u{B}'),
            'f' => character('\u{C}'),
            'r' => character('\r'),
            'b' if context == Context::Class => character('\u{8}'),
            'c' => match self.next_char() {
                Some(letter) if letter.is_ascii_alphabetic() => {
                    character(char::from(letter as u8 % 32))
                }
                _ => Err(self.error(backslash, "`\\c` must be followed by a letter")),
            },
            '0' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => character('\0'),
            '0'..='9' if context == Context::Class || escaped == '0' => {
                Err(self.error(backslash, "octal escapes (`\\1`, `\\01`) are not supported"))
            }
            '1'..='9' => Err(self.error(backslash, "backreferences (`\\1`) are not supported")),
            'k' => Err(self.error(
                backslash,
                "named backreferences (`\\k<name>`) are not supported",
            )),
            'x' => self.hex_escape(backslash, 2).map(Escaped::Char),
            'u' => self.unicode_escape(backslash).map(Escaped::Char),
            // Rust's `\A`, `\z`, `\a`, Perl's `\Q`: each means something else elsewhere, and
            // ECMA-262 with the `u` flag refuses them.
            letter if letter.is_ascii_alphanumeric() => {
                Err(self.error(backslash, format!("`\\{letter}` is not an ECMA-262 escape")))
            }
            // `\.`, `\/`, `\-`, `\$`...: the character itself.
            other => character(other),
        }
    }

    /// `digits` hex digits after `\x` or `\u`: the character they name.
    fn hex_escape(&mut self, backslash: usize, digits: usize) -> Result<char, String> {
        let value = self.hex_value(digits).ok_or_else(|| {
            self.error(
                backslash,
                format!("`\\x` must be followed by {digits} hex digits"),
            )
        })?;
        char::from_u32(value).ok_or_else(|| self.error(backslash, "not a character"))
    }

    fn hex_value(&mut self, digits: usize) -> Option<u32> {
        let text: String = self.chars.get(self.at..self.at + digits)?.iter().collect();
        let value = u32::from_str_radix(&text, 16).ok()?;
        // `from_str_radix` takes a sign; hex digits do not.
        if !text.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        self.at += digits;
        Some(value)
    }

    /// After `\u`: `HHHH` (a UTF-16 code unit; a surrogate pair `\uD83D\uDE00` is one
    /// character) or `{H...}` (a code point, as with the `u` flag).
    fn unicode_escape(&mut self, backslash: usize) -> Result<char, String> {
        let malformed = |parser: &Self| {
            parser.error(
                backslash,
                "`\\u` must be followed by 4 hex digits or by hex digits in braces",
            )
        };
        if self.eat('{') {
            let count = self.chars[self.at..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .count();
            if !(1..=6).contains(&count) || self.peek_at(count) != Some('}') {
                return Err(malformed(self));
            }
            let value = self.hex_value(count).ok_or_else(|| malformed(self))?;
            self.at += 1;
            return char::from_u32(value)
                .ok_or_else(|| self.error(backslash, "not a Unicode scalar value"));
        }
        let unit = self.hex_value(4).ok_or_else(|| malformed(self))?;
        if let Some(c) = char::from_u32(unit) {
            return Ok(c);
        }
        // A high surrogate, to be followed by `\u` and a low one.
        let after_high = self.at;
        if (0xD800..0xDC00).contains(&unit) && self.eat('\\') && self.eat('u') {
            if let Some(low @ 0xDC00..=0xDFFF) = self.hex_value(4) {
                let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                return char::from_u32(scalar).ok_or_else(|| malformed(self));
            }
        }
        self.at = after_high;
        Err(self.error(
            backslash,
            "a lone surrogate matches nothing: JSON text holds no lone surrogates",
        ))
    }

    /// After `\p` or `\P`: `{Name}` or `{Name=Value}`, a Unicode property (the `u` flag's
    /// property escapes; names are looked up by regex-syntax, which also takes loose
    /// spellings such as `digit`).
    fn property(&mut self, backslash: usize) -> Result<ClassUnicode, String> {
        let malformed = |parser: &Self| {
            parser.error(
                backslash,
                "`\\p` must be followed by `{Name}` or `{Name=Value}`",
            )
        };
        if !self.eat('{') {
            return Err(malformed(self));
        }
        let length = self.chars[self.at..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '='))
            .count();
        if length == 0 || self.peek_at(length) != Some('}') {
            return Err(malformed(self));
        }
        let name: String = self.chars[self.at..self.at + length].iter().collect();
        self.at += length + 1;
        match regex_syntax::parse(&format!("\\p{{{name}}}")).map(Hir::into_kind) {
            Ok(HirKind::Class(Class::Unicode(class))) => Ok(class),
            _ => Err(self.error(backslash, format!("unknown Unicode property `{name}`"))),
        }
    }
}

fn add(class: &mut ClassUnicode, item: Escaped) {
    match item {
        Escaped::Char(c) => class.push(ClassUnicodeRange::new(c, c)),
        Escaped::Set(set) => class.union(&set),
    }
}

fn literal(c: char) -> Hir {
    Hir::literal(c.to_string().into_bytes())
}

fn class_hir(class: ClassUnicode) -> Hir {
    Hir::class(Class::Unicode(class))
}

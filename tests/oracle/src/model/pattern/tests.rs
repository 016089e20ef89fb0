use super::*;

fn matches(pattern: &str, text: &str) -> bool {
    let compiled = Pattern::new(pattern);
    match compiled.is_match(text) {
        Some(answer) => answer,
        None => panic!("{pattern:?} cannot be used: {:?}", compiled.error()),
    }
}

fn refusal(pattern: &str) -> String {
    let compiled = Pattern::new(pattern);
    assert_eq!(compiled.is_match("anything"), None, "{pattern:?}");
    compiled.error().expect(pattern).to_owned()
}

#[test]
fn digits_are_ascii_only() {
    assert!(matches(r"^\d{5}$", "75001"));
    for text in ["١٢٣٤٥", "߀߀߀߀߀", "৪২৪২৪", "１２３４５"] {
        assert!(!matches(r"^\d{5}$", text), "{text}");
        assert!(matches(r"^\D+$", text), "{text}");
    }
    assert!(!matches(r"^[\d.]+$", "١.٢"));
    assert!(matches(r"^[\d.]+$", "1.2"));
    assert!(!matches(r"^[^\d]$", "7"));
    assert!(matches(r"^[^\d]$", "٧"));
}

#[test]
fn word_characters_are_ascii_only() {
    assert!(matches(r"^\w+$", "snake_case_42"));
    for text in ["été", "日本", "ß", "ǅ"] {
        assert!(!matches(r"^\w+$", text), "{text}");
        assert!(!matches(r"^[\w.]+$", text), "{text}");
    }
    for text in ["é", "日本", "ß", "ǅ"] {
        assert!(matches(r"^\W+$", text), "{text}");
    }
    assert!(!matches(r"\wcole", "l'école"));
    assert!(matches(r"\wcole", "l'ecole"));
}

#[test]
fn white_space_is_ecma_262_white_space_and_line_terminators() {
    let white = [
        '\t', '\n', '\u{B}', '\u{C}', '\r', ' ', '\u{A0}', '\u{1680}', '\u{2000}', '\u{2003}',
        '\u{200A}', '\u{2028}', '\u{2029}', '\u{202F}', '\u{205F}', '\u{3000}', '\u{FEFF}',
    ];
    for c in white {
        let text = c.to_string();
        assert!(matches(r"^\s$", &text), "{c:?}");
        assert!(matches(r"^[\s]$", &text), "{c:?}");
        assert!(!matches(r"^\S$", &text), "{c:?}");
    }
    for c in ['\u{1}', '\u{85}', '\u{180E}', '\u{200B}', '\u{2013}', 'a'] {
        let text = c.to_string();
        assert!(!matches(r"^\s$", &text), "{c:?}");
        assert!(matches(r"^\S$", &text), "{c:?}");
    }
}

#[test]
fn word_boundaries_are_ascii() {
    // `é` is not a word character, so there is a boundary between `f` and `é`.
    assert!(matches(r"^caf\b", "café"));
    assert!(!matches(r"^caf\B", "café"));
    assert!(!matches(r"\bcafé\b", "café!"));
    assert!(matches(r"\bcafe\b", "un cafe!"));
    // Never tried between the bytes of `é`: ECMA-262 finds no `\B` in "aéa".
    assert!(!matches(r"\B", "aéa"));
    assert!(matches(r"\B", "é"));
}

#[test]
fn dot_is_any_character_but_line_terminators() {
    for text in ["a", "é", "😀", "\u{85}", "\u{FEFF}"] {
        assert!(matches("^.$", text), "{text:?}");
    }
    for text in ["\n", "\r", "\u{2028}", "\u{2029}", ""] {
        assert!(!matches("^.$", text), "{text:?}");
    }
    assert!(matches("^[^]$", "\n"));
    assert!(!matches("[]", "anything"));
}

#[test]
fn anchors_are_the_ends_of_the_whole_string() {
    assert!(matches("^abc$", "abc"));
    assert!(!matches("^abc$", "abc\n"));
    assert!(!matches("^abc$", "\nabc"));
    assert!(matches("b", "abc"));
    assert!(matches("(?:^a|c)", "xc"));
    assert!(!matches("(?:^a|c)", "xa"));
    assert!(matches("^$", ""));
}

#[test]
fn escapes_name_characters() {
    assert!(matches(r"^\t$", "\t"));
    assert!(!matches(r"^\t$", "\\t"));
    assert!(matches(r"^\cC$", "\u{3}"));
    assert!(matches(r"^\cc$", "\u{3}"));
    assert!(matches(r"^\x41\u0042\u{43}$", "ABC"));
    assert!(matches(r"^\u{1F600}$", "😀"));
    assert!(matches(r"^\uD83D\uDE00$", "😀"));
    assert!(matches(r"^\0$", "\0"));
    assert!(matches(r"^[\b]$", "\u{8}"));
    assert!(matches(r"^\v\f$", "\u{B}\u{C}"));
    // `\\d` is a backslash, then `d`.
    assert!(matches(r"^\\d$", "\\d"));
    assert!(!matches(r"^\\d$", "5"));
    assert!(matches(r"^[\\d]+$", "\\d"));
    assert!(matches(r"^\.\/\-\$$", "./-$"));
}

#[test]
fn annex_b_literals_are_read_as_ecma_262_reads_them() {
    assert!(matches(r"^\$\{[A-Z_]+}$", "${HOME}"));
    assert!(matches("^a{$", "a{"));
    assert!(matches("^a{,5}$", "a{,5}"));
    assert!(matches("^]$", "]"));
    assert!(matches(r"^[\w-.]+$", "a-b.c"));
    assert!(!matches(r"^[\w-.]+$", "a,b"));
    assert!(matches("^[a-]$", "-"));
    assert!(matches("^[[]$", "["));
    assert!(!matches("^[[:alpha:]]$", "b"));
    assert!(matches("^[a&&b]+$", "&&"));
}

#[test]
fn quantifiers_groups_and_alternation() {
    assert!(matches("^(?:ab)+$", "ababab"));
    assert!(matches("^(ab){2,3}$", "ababab"));
    assert!(!matches("^(ab){2,3}$", "ab"));
    assert!(matches("^(?<year>[0-9]{4})-[0-9]{2}$", "2024-05"));
    assert!(matches("^a*?b+?c??$", "aabb"));
    assert!(matches("^(?:a|)$", ""));
    assert!(matches("^x{0}$", ""));
}

#[test]
fn unicode_properties_follow_the_u_flag() {
    assert!(matches(r"\p{Letter}cole", "l'école"));
    assert!(matches(r"^\p{digit}+$", "৪২"));
    assert!(matches(r"^\p{Script=Greek}+$", "αβγ"));
    assert!(matches(r"^\P{L}+$", "123"));
    assert!(!matches(r"^[^\p{L}]+$", "abc"));
}

#[test]
fn unsupported_features_are_refused_with_a_reason() {
    let cases = [
        ("(?=a)", "lookahead"),
        ("a(?!b)", "lookahead"),
        ("(?<=a)b", "lookbehind"),
        ("(?<!a)b", "lookbehind"),
        (r"(a)\1", "backreferences"),
        (r"(?<n>a)\k<n>", "named backreferences"),
        ("(?i)abc", "modifiers"),
        ("(?i:abc)", "modifiers"),
        (r"\a", "not an ECMA-262 escape"),
        (r"\Aabc", "not an ECMA-262 escape"),
        (r"abc\z", "not an ECMA-262 escape"),
        (r"[\B]", "not an ECMA-262 escape"),
        (r"\01", "octal"),
        (r"[\1]", "octal"),
        (r"\uD800", "lone surrogate"),
        (r"\u{110000}", "not a Unicode scalar value"),
        (r"\p{NotAProperty}", "unknown Unicode property"),
        (r"\pL", "`\\p` must be followed by"),
        (r"\c1", "`\\c` must be followed by a letter"),
        (r"\x4", "hex digits"),
    ];
    for (pattern, reason) in cases {
        let error = refusal(pattern);
        assert!(error.contains(reason), "{pattern:?}: {error}");
        assert!(!Pattern::new(pattern).is_too_costly(), "{pattern:?}");
    }
}

#[test]
fn syntax_errors_name_the_position() {
    let cases = [
        ("(x", "unclosed group `(` (at character 1)"),
        ("ab)", "unmatched `)` (at character 3)"),
        ("^[A-Z", "unclosed character class `[` (at character 2)"),
        ("*a", "nothing to repeat before `*` (at character 1)"),
        ("a**", "a quantifier follows a quantifier (at character 3)"),
        (
            "a{2}{3}",
            "a quantifier follows a quantifier (at character 5)",
        ),
        ("{3}", "nothing to repeat before `{` (at character 1)"),
        ("^*", "an assertion cannot be repeated (at character 2)"),
        ("[z-a]", "the range z-a is out of order (at character 3)"),
        ("a{3,2}", "bounds out of order (at character 2)"),
        ("a{99999999999}", "the count 99999999999 is too large"),
        ("abc\\", "lone `\\` (at character 4)"),
        ("(?<1>a)", "a group name must be an identifier"),
    ];
    for (pattern, expected) in cases {
        let error = refusal(pattern);
        assert!(error.contains(expected), "{pattern:?}: {error}");
    }
}

#[test]
fn nesting_is_bounded() {
    let deep = |depth: usize| format!("{}a{}", "(".repeat(depth), ")".repeat(depth));
    assert!(matches(&deep(Pattern::MAX_NESTING), "a"));
    let error = refusal(&deep(Pattern::MAX_NESTING + 1));
    assert!(error.contains("groups nest deeper than 64"), "{error}");
    // Far deeper: refused, not a stack overflow.
    assert!(Pattern::new(deep(100_000)).error().is_some());
}

/// Patterns seen in real tool schemas keep working, each with a small DFA.
#[test]
fn real_world_patterns_compile_within_the_limits() {
    let cases = [
        (r"^[A-Z]{3}$", "CDG", "cdg"),
        (r"^\d{4}-\d{2}-\d{2}$", "2024-05-01", "2024-5-1"),
        (r"^[a-zA-Z0-9_-]{1,64}$", "get_weather-v2", "get weather"),
        (
            r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$",
            "a.b@c.io",
            "a@b",
        ),
        (
            r"^https?://[^\s/$.?#].[^\s]*$",
            "https://example.com/x",
            "http:// x",
        ),
        (r"^\+[1-9][0-9]{6,14}$", "+33612345678", "0612"),
        (
            r"arn:aws[-a-z0-9]*:[a-z0-9]+:[-a-z0-9]*:[0-9]{12}:bucket/[a-z0-9_-]{3,63}",
            "arn:aws:s3:us-east-1:123456789012:bucket/my-bucket",
            "arn:aws:s3",
        ),
        (r"[a-z0-9][a-z0-9-]{1,61}[a-z0-9]", "my-bucket", "-"),
        (
            r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
            "123e4567-e89b-12d3-a456-426614174000",
            "123e4567",
        ),
        (r"^(?:\d{1,3}\.){3}\d{1,3}$", "192.168.0.1", "192.168.0"),
        (
            r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$",
            "FR7630006000011234567890189",
            "FR76",
        ),
        (r"^\p{Letter}+$", "Zoë", "Zoë1"),
        (r"^.{0,255}$", "short", "two\nlines"),
        (r"^[^/]+$", "name", "a/b"),
    ];
    for (pattern, good, bad) in cases {
        let compiled = Pattern::new(pattern);
        assert_eq!(compiled.error(), None, "{pattern:?}");
        assert!(compiled.memory_usage() <= Pattern::MAX_DFA_BYTES);
        assert_eq!(compiled.is_match(good), Some(true), "{pattern:?} {good:?}");
        assert_eq!(compiled.is_match(bad), Some(false), "{pattern:?} {bad:?}");
    }
}

#[test]
fn costly_patterns_are_refused_as_too_costly() {
    for pattern in [
        "a.{2000}c",
        "a[ab]{1000}c",
        "(a{1000}){1000}",
        "(?:a|b)*a(?:a|b){30}",
        r"^\p{L}{1,64}$",
    ] {
        let compiled = Pattern::new(pattern);
        assert!(
            compiled.is_too_costly(),
            "{pattern:?}: {:?}",
            compiled.error()
        );
        let error = compiled.error().unwrap();
        assert!(error.starts_with("it is too costly: its "), "{error}");
        assert_eq!(compiled.is_match("ab"), None);
    }
}

#[test]
fn a_schemas_patterns_share_one_budget() {
    let mut patterns = SchemaPatterns::default();
    let first = patterns.compile("^.{0,255}$".to_owned());
    assert!(first.memory_usage() > 100_000, "{first:?}");
    let spent = patterns.spent;
    assert!(spent > first.memory_usage(), "the NFA counts too");
    // Written again: the same DFA, not charged twice.
    let again = patterns.compile("^.{0,255}$".to_owned());
    assert!(Arc::ptr_eq(
        first.compiled.as_ref().unwrap(),
        again.compiled.as_ref().unwrap()
    ));
    assert_eq!(patterns.spent, spent);
    let refused = (0..Pattern::MAX_SCHEMA_AUTOMATA_BYTES / spent + 1)
        .map(|count| patterns.compile(format!("^.{{0,{}}}$", 254 - count)))
        .find(|pattern| pattern.error().is_some())
        .expect("the budget runs out");
    assert!(refused.is_too_costly());
    assert_eq!(
        refused.error(),
        Some("it is too costly: the automata of the schema's patterns together would need more than 4 MiB")
    );
    assert_eq!(patterns.spent, Pattern::MAX_SCHEMA_AUTOMATA_BYTES);
    // Alone, the same pattern is within the limits.
    assert_eq!(Pattern::new(refused.as_str()).error(), None);
    // Once the budget is spent, even the cheapest pattern is refused, without being built;
    // a syntax error is still named as such.
    assert!(patterns.compile("^a$".to_owned()).is_too_costly());
    let broken = patterns.compile("(a".to_owned());
    assert!(!broken.is_too_costly());
    assert!(broken.error().unwrap().starts_with("unclosed group"));
}

#[test]
fn sizes_are_written_for_people() {
    assert_eq!(bytes(1 << 20), "1 MiB");
    assert_eq!(bytes(256 * 1024), "256 KiB");
    assert_eq!(bytes(1000), "1000 bytes");
}

/// Huge counts on empty or assertion-only groups fold away; on anything that consumes
/// characters they reach the NFA limit at once (and never spin through the count).
#[test]
fn huge_repetition_counts_fold_or_are_refused() {
    for pattern in [
        "(?:){4294967295}",
        "(?:^){4294967295}",
        r"(?:\b){4294967295}",
        "(?:(?:){4294967295}){4294967295}",
    ] {
        assert_eq!(Pattern::new(pattern).error(), None, "{pattern}");
    }
    for pattern in [
        "a{4294967295}",
        "a{4294967295,}",
        "a{0,4294967295}",
        "(?:a?){4294967295}",
        "[^]{4294967295}",
    ] {
        assert!(Pattern::new(pattern).is_too_costly(), "{pattern}");
    }
}

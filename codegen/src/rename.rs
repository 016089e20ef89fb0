//! serde's `#[serde(rename_all = "...")]` rules, applied exactly as
//! `serde_derive` applies them, so generated schemas use serde's wire names.
//!
//! serde treats fields and variants differently: a field is assumed to be
//! written in `snake_case` and a variant in `PascalCase`, and each rule is
//! defined from that starting point. Names that break the convention are
//! renamed the same (sometimes surprising) way serde renames them, e.g. the
//! variant `HTTPServer` becomes `h_t_t_p_server` under `snake_case`.
//!
//! Callers pass identifiers with any `r#` prefix already removed.
//!
//! Why not `serde_derive_internals` (serde's own attribute model, which schemars uses)?
//! Its 0.30 release is built on syn 3, and this derive (with darling) on syn 2: adopting it
//! would compile a second syn into every build that uses the derive. And its model keeps no
//! span for the serde keys the derive refuses (`flatten`, `default`, `tag`, `untagged`), so
//! those errors would point at a whole field instead of the key. The rules are instead
//! checked against it: `tests/rename_agrees_with_serde.rs` renames fixed and random field
//! and variant names by every rule both ways and compares (serde's `camelCase` panics on a
//! name starting with a non-ASCII letter; these rules do not).
//!
//! | rule                   | field `loyalty_ids` | variant `HTTPServer` |
//! |------------------------|---------------------|----------------------|
//! | `lowercase`            | `loyalty_ids`       | `httpserver`         |
//! | `UPPERCASE`            | `LOYALTY_IDS`       | `HTTPSERVER`         |
//! | `PascalCase`           | `LoyaltyIds`        | `HTTPServer`         |
//! | `camelCase`            | `loyaltyIds`        | `hTTPServer`         |
//! | `snake_case`           | `loyalty_ids`       | `h_t_t_p_server`     |
//! | `SCREAMING_SNAKE_CASE` | `LOYALTY_IDS`       | `H_T_T_P_SERVER`     |
//! | `kebab-case`           | `loyalty-ids`       | `h-t-t-p-server`     |
//! | `SCREAMING-KEBAB-CASE` | `LOYALTY-IDS`       | `H-T-T-P-SERVER`     |

/// A `#[serde(rename_all = "...")]` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    /// `"lowercase"`.
    Lower,
    /// `"UPPERCASE"`.
    Upper,
    /// `"PascalCase"`.
    Pascal,
    /// `"camelCase"`.
    Camel,
    /// `"snake_case"`.
    Snake,
    /// `"SCREAMING_SNAKE_CASE"`.
    ScreamingSnake,
    /// `"kebab-case"`.
    Kebab,
    /// `"SCREAMING-KEBAB-CASE"`.
    ScreamingKebab,
}

impl RenameRule {
    /// The names serde accepts for `rename_all`, in the order of [`RenameRule::ALL`].
    pub const NAMES: [&'static str; 8] = [
        "lowercase",
        "UPPERCASE",
        "PascalCase",
        "camelCase",
        "snake_case",
        "SCREAMING_SNAKE_CASE",
        "kebab-case",
        "SCREAMING-KEBAB-CASE",
    ];

    /// Every rule, in the order of [`RenameRule::NAMES`].
    pub const ALL: [RenameRule; 8] = [
        RenameRule::Lower,
        RenameRule::Upper,
        RenameRule::Pascal,
        RenameRule::Camel,
        RenameRule::Snake,
        RenameRule::ScreamingSnake,
        RenameRule::Kebab,
        RenameRule::ScreamingKebab,
    ];

    /// The rule with this exact (case-sensitive) name, as serde spells it.
    pub fn from_name(s: &str) -> Option<RenameRule> {
        Self::NAMES
            .iter()
            .position(|name| *name == s)
            .map(|i| Self::ALL[i])
    }

    /// The name serde uses for this rule, e.g. `"camelCase"`.
    pub fn name(self) -> &'static str {
        match self {
            RenameRule::Lower => Self::NAMES[0],
            RenameRule::Upper => Self::NAMES[1],
            RenameRule::Pascal => Self::NAMES[2],
            RenameRule::Camel => Self::NAMES[3],
            RenameRule::Snake => Self::NAMES[4],
            RenameRule::ScreamingSnake => Self::NAMES[5],
            RenameRule::Kebab => Self::NAMES[6],
            RenameRule::ScreamingKebab => Self::NAMES[7],
        }
    }

    /// How serde renames a struct field (written in snake_case in Rust).
    ///
    /// `lowercase` and `snake_case` keep the name; `UPPERCASE` and
    /// `SCREAMING_SNAKE_CASE` upper-case it (ASCII); `PascalCase` upper-cases
    /// the first character and each one after a `_`, dropping the `_`s;
    /// `camelCase` is `PascalCase` with the first character lower-cased;
    /// the kebab rules are the snake ones with `-` for `_`.
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut out = String::with_capacity(field.len());
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        out.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        out.push(ch);
                    }
                }
                out
            }
            RenameRule::Camel => lower_first(&RenameRule::Pascal.apply_to_field(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// How serde renames an enum variant (written in PascalCase in Rust).
    ///
    /// `PascalCase` keeps the name; `lowercase`/`UPPERCASE` change its ASCII
    /// case; `camelCase` lower-cases the first character; `snake_case` puts a
    /// `_` before every upper-case character but the first and lower-cases
    /// (ASCII) the result; the screaming and kebab rules derive from it.
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => {
                let mut out = String::with_capacity(variant.len() + 4);
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        out.push('_');
                    }
                    out.push(ch.to_ascii_lowercase());
                }
                out
            }
            RenameRule::ScreamingSnake => RenameRule::Snake
                .apply_to_variant(variant)
                .to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake
                .apply_to_variant(variant)
                .replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }
}

/// `s` with its first character ASCII-lower-cased.
fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => {
            let mut out = String::with_capacity(s.len());
            out.push(first.to_ascii_lowercase());
            out.push_str(chars.as_str());
            out
        }
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::{self, *};

    fn fields(rule: RenameRule, cases: &[(&str, &str)]) {
        for (input, expected) in cases {
            assert_eq!(
                rule.apply_to_field(input),
                *expected,
                "{rule:?} field {input:?}"
            );
        }
    }

    fn variants(rule: RenameRule, cases: &[(&str, &str)]) {
        for (input, expected) in cases {
            assert_eq!(
                rule.apply_to_variant(input),
                *expected,
                "{rule:?} variant {input:?}"
            );
        }
    }

    #[test]
    fn names() {
        for (i, name) in RenameRule::NAMES.iter().enumerate() {
            assert_eq!(RenameRule::from_name(name), Some(RenameRule::ALL[i]));
            assert_eq!(RenameRule::ALL[i].name(), *name);
        }
        assert_eq!(RenameRule::from_name("snake-case"), None);
        assert_eq!(RenameRule::from_name("Lowercase"), None);
        assert_eq!(RenameRule::from_name(""), None);
    }

    #[test]
    fn field_lower_and_snake_keep() {
        let same = [
            ("outcome", "outcome"),
            ("very_tasty", "very_tasty"),
            ("loyalty_ids", "loyalty_ids"),
            ("a", "a"),
            ("mixed_Case", "mixed_Case"),
            ("", ""),
        ];
        fields(Lower, &same);
        fields(Snake, &same);
    }

    #[test]
    fn field_upper_and_screaming_snake() {
        let cases = [
            ("outcome", "OUTCOME"),
            ("very_tasty", "VERY_TASTY"),
            ("loyalty_ids", "LOYALTY_IDS"),
            ("a", "A"),
            ("x2_y", "X2_Y"),
            ("caf\u{e9}", "CAF\u{e9}"),
        ];
        fields(Upper, &cases);
        fields(ScreamingSnake, &cases);
    }

    #[test]
    fn field_pascal() {
        fields(
            Pascal,
            &[
                ("outcome", "Outcome"),
                ("very_tasty", "VeryTasty"),
                ("loyalty_ids", "LoyaltyIds"),
                ("a", "A"),
                ("_leading", "Leading"),
                ("double__under", "DoubleUnder"),
                ("trailing_", "Trailing"),
                ("x_2", "X2"),
                ("", ""),
            ],
        );
    }

    #[test]
    fn field_camel() {
        fields(
            Camel,
            &[
                ("outcome", "outcome"),
                ("very_tasty", "veryTasty"),
                ("loyalty_ids", "loyaltyIds"),
                ("a", "a"),
                ("_leading", "leading"),
                ("http_url", "httpUrl"),
                ("", ""),
            ],
        );
    }

    #[test]
    fn field_kebab() {
        fields(
            Kebab,
            &[
                ("outcome", "outcome"),
                ("very_tasty", "very-tasty"),
                ("loyalty_ids", "loyalty-ids"),
                ("a", "a"),
                ("_x_", "-x-"),
            ],
        );
        fields(
            ScreamingKebab,
            &[
                ("outcome", "OUTCOME"),
                ("very_tasty", "VERY-TASTY"),
                ("loyalty_ids", "LOYALTY-IDS"),
                ("a", "A"),
                ("_x_", "-X-"),
            ],
        );
    }

    #[test]
    fn variant_pascal_lower_upper() {
        variants(
            Pascal,
            &[
                ("Outcome", "Outcome"),
                ("VeryTasty", "VeryTasty"),
                ("HTTPServer", "HTTPServer"),
                ("A", "A"),
            ],
        );
        variants(
            Lower,
            &[
                ("Outcome", "outcome"),
                ("VeryTasty", "verytasty"),
                ("HTTPServer", "httpserver"),
                ("A", "a"),
                ("\u{c9}t\u{e9}", "\u{c9}t\u{e9}"),
            ],
        );
        variants(
            Upper,
            &[
                ("Outcome", "OUTCOME"),
                ("VeryTasty", "VERYTASTY"),
                ("HTTPServer", "HTTPSERVER"),
                ("A", "A"),
            ],
        );
    }

    #[test]
    fn variant_camel() {
        variants(
            Camel,
            &[
                ("Outcome", "outcome"),
                ("VeryTasty", "veryTasty"),
                ("HTTPServer", "hTTPServer"),
                ("A", "a"),
                ("\u{c9}t\u{e9}", "\u{c9}t\u{e9}"),
                ("", ""),
            ],
        );
    }

    #[test]
    fn variant_snake_and_screaming() {
        variants(
            Snake,
            &[
                ("Outcome", "outcome"),
                ("VeryTasty", "very_tasty"),
                ("PremiumEconomy", "premium_economy"),
                ("HTTPServer", "h_t_t_p_server"),
                ("A", "a"),
                ("Ipv4", "ipv4"),
                ("Under_Score", "under__score"),
                ("", ""),
            ],
        );
        variants(
            ScreamingSnake,
            &[
                ("Outcome", "OUTCOME"),
                ("VeryTasty", "VERY_TASTY"),
                ("PremiumEconomy", "PREMIUM_ECONOMY"),
                ("HTTPServer", "H_T_T_P_SERVER"),
                ("A", "A"),
            ],
        );
    }

    #[test]
    fn variant_kebab() {
        variants(
            Kebab,
            &[
                ("Outcome", "outcome"),
                ("VeryTasty", "very-tasty"),
                ("PremiumEconomy", "premium-economy"),
                ("HTTPServer", "h-t-t-p-server"),
                ("A", "a"),
            ],
        );
        variants(
            ScreamingKebab,
            &[
                ("Outcome", "OUTCOME"),
                ("VeryTasty", "VERY-TASTY"),
                ("PremiumEconomy", "PREMIUM-ECONOMY"),
                ("HTTPServer", "H-T-T-P-SERVER"),
                ("A", "A"),
            ],
        );
    }

    #[test]
    fn unicode_upper_case_in_variant_snake() {
        // serde tests `char::is_uppercase` but only lower-cases ASCII.
        assert_eq!(Snake.apply_to_variant("Caf\u{c9}"), "caf_\u{c9}");
    }
}

//! Rust names for what JSON Schema names: types from tool names and paths, fields from
//! property names, variants from enum values. Every name is a valid identifier; clashes are
//! numbered in the order names are asked for, so the same input gives the same names.
//!
//! | wire | Rust |
//! | --- | --- |
//! | tool `math.factorial` | type `MathFactorial` |
//! | tool `Self` | type `ToolSelf` (the prefix, as for names that cannot start a type) |
//! | property `Content-Type` | field `content_type`, `#[serde(rename = "Content-Type")]` |
//! | property `type`, `move`, `gen` | field `r#type`, `r#move`, `r#gen` (serde strips `r#`: no rename) |
//! | property `self` | field `self_` (cannot be raw) |
//! | property `2fa`, `` (empty) | field `field_2fa`, `field` |
//! | property `año_vehiculo`, `城市` | field `ano_vehiculo`, `cheng_shi` (transliterated) |
//! | values `AA`, `Aa`, `aa` | variants `Aa`, `Aa2`, `Aa3` |
//! | value `1.5`, ``, `Self` | variants `V1_5`, `Empty`, `VSelf` |
//!
//! Names are written so that no rustc lint fires on them under `-D warnings`, since the
//! schema's author picks the words and the user's crate holds the code:
//! - they are ASCII: letters of other scripts are transliterated (`deunicode`). rustc's
//!   lints on non-ASCII identifiers (`uncommon_codepoints`, `confusable_idents`,
//!   `mixed_script_confusables`) look at the whole crate and are only silenced at its root,
//!   which generated code cannot reach;
//! - types and variants are UpperCamelCase and fields snake_case: a clash is numbered
//!   without doubling an underscore (`self_`, then `self_2`, not `self__2`), and no type
//!   name ends in `_` (a nested type's name starts with its owner's).

use std::collections::HashSet;

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Keywords of Rust 2021 (strict and reserved) and 2024's `gen`: a field of that name is
/// written as a raw identifier.
const KEYWORDS: [&str; 52] = [
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: [&str; 5] = ["self", "Self", "super", "crate", "_"];

/// `text` in ASCII: a letter or digit of another script becomes its transliteration
/// (`ñ` → `n`, `城` → `Cheng`, `𝔞` → `a`), anything else that is not ASCII a word break.
fn transliterate(text: &str) -> String {
    let mut ascii = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else if unicode_ident::is_xid_continue(c) {
            ascii.push_str(deunicode::deunicode_char(c).unwrap_or(" "));
        } else {
            ascii.push(' ');
        }
    }
    ascii
}

/// Keeps the characters an identifier may hold (ASCII letters, digits and `_`).
fn identifier_characters(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect()
}

fn starts_identifier(text: &str) -> bool {
    text.chars()
        .next()
        .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
}

/// `math.factorial` → `MathFactorial`; `3d_render` → `Tool3dRender`; empty → `Tool`;
/// `self` → `ToolSelf`.
pub fn type_name(raw: &str, prefix: &str) -> String {
    let name = identifier_characters(&transliterate(raw).to_upper_camel_case());
    match name.as_str() {
        "" => prefix.to_owned(),
        _ if name == "Self" || !starts_identifier(&name) || name.starts_with('_') => {
            format!("{prefix}{name}")
        }
        _ => name,
    }
}

/// `Content-Type` → `content_type`; `type` → `r#type`; `2fa` → `field_2fa`.
pub fn field_name(raw: &str) -> String {
    let name = identifier_characters(&transliterate(raw).to_snake_case());
    let name = name.trim_start_matches('_').to_owned();
    if name.is_empty() {
        return "field".to_owned();
    }
    if !starts_identifier(&name) {
        return format!("field_{name}");
    }
    if NOT_RAW.contains(&name.as_str()) {
        return format!("{name}_");
    }
    if KEYWORDS.contains(&name.as_str()) {
        return format!("r#{name}");
    }
    name
}

/// An enum variant for a value: `premium_economy` → `PremiumEconomy`, `1.5` → `V1_5`.
pub fn variant_name(value: &str) -> String {
    // Each run of letters and digits in UpperCamelCase, the runs joined; an underscore only
    // between two digits, so `1.5` is not `15`.
    let mut name = String::new();
    let value = transliterate(value);
    for run in value.split(|c: char| !c.is_alphanumeric()) {
        let part = identifier_characters(&run.to_upper_camel_case());
        let digits_meet = name.ends_with(|c: char| c.is_ascii_digit())
            && part.starts_with(|c: char| c.is_ascii_digit());
        if digits_meet {
            name.push('_');
        }
        name.push_str(&part);
    }
    match name.as_str() {
        "" => "Empty".to_owned(),
        _ if name == "Self" || !starts_identifier(&name) => format!("V{name}"),
        _ => name,
    }
}

/// Names already given in one scope; a clash gets the first free number from 2.
#[derive(Default)]
pub struct Taken {
    names: HashSet<String>,
}

impl Taken {
    /// `base`, or `base` with the first free number (`separator` between them; a `_` that
    /// ends `base` is the separator already, so `self_` is followed by `self_2`).
    pub fn claim(&mut self, base: &str, separator: &str) -> String {
        if self.names.insert(base.to_owned()) {
            return base.to_owned();
        }
        let stem = base.strip_prefix("r#").unwrap_or(base);
        let stem = stem.strip_suffix('_').unwrap_or(stem);
        (2..)
            .map(|n| format!("{stem}{separator}{n}"))
            .find(|candidate| self.names.insert(candidate.clone()))
            .expect("an unbounded range has a free number")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::tests::hostile::{rustc_camel_case, rustc_snake_case};

    #[test]
    fn types() {
        assert_eq!(type_name("math.factorial", "Tool"), "MathFactorial");
        assert_eq!(type_name("get_weather", "Tool"), "GetWeather");
        assert_eq!(type_name("3d_render", "Tool"), "Tool3dRender");
        assert_eq!(type_name("", "Tool"), "Tool");
        assert_eq!(type_name("!!!", "Tool"), "Tool");
        assert_eq!(type_name("self", "Tool"), "ToolSelf");
        assert_eq!(type_name("Self", "Field"), "FieldSelf");
        assert_eq!(type_name("año", "Tool"), "Ano");
        assert_eq!(type_name("城市", "Tool"), "ChengShi");
    }

    #[test]
    fn fields() {
        assert_eq!(field_name("Content-Type"), "content_type");
        assert_eq!(field_name("type"), "r#type");
        assert_eq!(field_name("move"), "r#move");
        assert_eq!(field_name("gen"), "r#gen");
        assert_eq!(field_name("self"), "self_");
        assert_eq!(field_name("Self"), "self_");
        assert_eq!(field_name("crate"), "crate_");
        assert_eq!(field_name("2fa"), "field_2fa");
        assert_eq!(field_name(""), "field");
        assert_eq!(field_name("_"), "field");
        assert_eq!(field_name("año_vehiculo"), "ano_vehiculo");
        assert_eq!(field_name("userID"), "user_id");
        assert_eq!(field_name("$ref"), "r#ref");
        for name in [
            "type",
            "Content-Type",
            "2fa",
            "año_vehiculo",
            "self",
            "",
            "x y",
        ] {
            let ident = field_name(name);
            assert!(
                syn::parse_str::<syn::Ident>(&ident).is_ok(),
                "{name} → {ident}"
            );
        }
    }

    #[test]
    fn variants() {
        assert_eq!(variant_name("premium_economy"), "PremiumEconomy");
        assert_eq!(variant_name("AA"), "Aa");
        assert_eq!(variant_name("1.5"), "V1_5");
        assert_eq!(variant_name("15"), "V15");
        assert_eq!(variant_name(""), "Empty");
        assert_eq!(variant_name("Self"), "VSelf");
        assert_eq!(variant_name("en-US"), "EnUs");
        assert_eq!(variant_name("°C"), "C");
        assert_eq!(variant_name("+"), "Empty");
        assert_eq!(variant_name("ǅemal"), "Dzemal");
    }

    #[test]
    fn clashes_are_numbered_in_order() {
        let mut taken = Taken::default();
        assert_eq!(taken.claim("Aa", ""), "Aa");
        assert_eq!(taken.claim("Aa", ""), "Aa2");
        assert_eq!(taken.claim("Aa", ""), "Aa3");
        let mut fields = Taken::default();
        assert_eq!(fields.claim("r#type", "_"), "r#type");
        assert_eq!(fields.claim("r#type", "_"), "type_2");
        assert_eq!(fields.claim("self_", "_"), "self_");
        assert_eq!(fields.claim("self_", "_"), "self_2");
    }

    /// Names the review found tripping rustc's lints, each asked for twice (the second is
    /// numbered): every name is ASCII (no lint on non-ASCII identifiers can fire) and in the
    /// case its kind of item wants.
    #[test]
    fn names_trip_no_lint() {
        let hostile = [
            "Self",
            "self",
            "SELF",
            "self_",
            "a",
            "а",
            "𝔞",
            "ǅ",
            "ﬁ",
            "Ⅻ",
            "café",
            "cafe\u{301}",
            "ﬁle_name",
            "x_output",
            "__",
            "_1",
            "1_",
            "Ⅻ_2",
            "名前",
            "ß",
            "İ",
        ];
        let (mut types, mut fields, mut variants) =
            (Taken::default(), Taken::default(), Taken::default());
        for raw in hostile.iter().chain(&hostile) {
            let ty = types.claim(&type_name(raw, "Tool"), "");
            let field = fields.claim(&field_name(raw), "_");
            let variant = variants.claim(&variant_name(raw), "");
            for name in [&ty, &field, &variant] {
                assert!(name.is_ascii(), "{raw:?} → {name}");
                assert!(
                    syn::parse_str::<syn::Ident>(name).is_ok(),
                    "{raw:?} → {name}"
                );
            }
            assert!(rustc_camel_case(&ty), "{raw:?} → type {ty}");
            assert!(
                rustc_camel_case(&format!("{ty}Item")),
                "{raw:?} → type {ty}Item"
            );
            assert!(rustc_camel_case(&variant), "{raw:?} → variant {variant}");
            assert!(rustc_snake_case(&field), "{raw:?} → field {field}");
        }
    }
}

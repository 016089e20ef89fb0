//! toolgate's `rename_all` rules against serde's own attribute model (`serde_derive_internals`,
//! the crate serde's derive is built from): for every rule, field and variant names of every
//! shape get the same wire name from both.

use proptest::prelude::*;
use serde_derive_internals::ast::{Container, Data};
use serde_derive_internals::{Ctxt, Derive};
use toolgate_codegen::rename::RenameRule;

/// The deserialize-side wire names serde gives the fields of `struct` or the variants of
/// `enum` written under `rename_all = rule`; `None` where serde's rule panics (it slices the
/// first byte of a name for `camelCase`, so a name starting with a non-ASCII letter, or one
/// that is all underscores once converted, makes serde's derive fail to compile the item:
/// toolgate's rules only need to not panic there).
fn serde_names(rule: &str, item: &str, members: &[&str]) -> Option<Vec<String>> {
    std::panic::set_hook(Box::new(|_| {}));
    let names = std::panic::catch_unwind(|| names_by_serde(rule, item, members)).ok();
    let _ = std::panic::take_hook();
    names
}

fn names_by_serde(rule: &str, item: &str, members: &[&str]) -> Vec<String> {
    let body = match item {
        "struct" => members
            .iter()
            .map(|m| format!("{m}: u8"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => members.join(", "),
    };
    let source = format!("#[serde(rename_all = \"{rule}\")] {item} Item {{ {body} }}");
    let input: syn3::DeriveInput = syn3::parse_str(&source).expect("the test writes valid items");
    let context = Ctxt::new();
    let private = syn3::Ident::new("__private", proc_macro2::Span::call_site());
    let container = Container::from_ast(&context, &input, Derive::Deserialize, &private)
        .expect("serde reads the item");
    context.check().expect("serde accepts the item");
    match container.data {
        Data::Struct(_, fields) => fields
            .iter()
            .map(|f| f.attrs.name().deserialize_name().to_string())
            .collect(),
        Data::Enum(variants) => variants
            .iter()
            .map(|v| v.attrs.name().deserialize_name().to_string())
            .collect(),
    }
}

/// What toolgate's derive passes the rules: the identifier without `r#`.
fn unraw(ident: &str) -> &str {
    ident.strip_prefix("r#").unwrap_or(ident)
}

const FIELDS: [&str; 12] = [
    "loyalty_ids",
    "a",
    "max_price_2",
    "x_y_z",
    "_private",
    "trailing_",
    "double__underscore",
    "HTTPServer",
    "camelCase",
    "r#type",
    "r#match_case",
    "ünicode_näme",
];

const VARIANTS: [&str; 10] = [
    "HTTPServer",
    "Business",
    "PremiumEconomy",
    "A",
    "V2Beta",
    "snake_variant",
    "R2D2",
    "r#Type",
    "ÜnicodeName",
    "X_Y",
];

#[test]
fn every_rule_names_fields_and_variants_as_serde_does() {
    let mut compared = 0;
    for rule in RenameRule::ALL {
        for field in FIELDS {
            let ours = rule.apply_to_field(unraw(field));
            if let Some(serde) = serde_names(rule.name(), "struct", &[field]) {
                assert_eq!(ours, serde[0], "{rule:?} {field}");
                compared += 1;
            }
        }
        for variant in VARIANTS {
            let ours = rule.apply_to_variant(unraw(variant));
            if let Some(serde) = serde_names(rule.name(), "enum", &[variant]) {
                assert_eq!(ours, serde[0], "{rule:?} {variant}");
                compared += 1;
            }
        }
    }
    // Only camelCase on the two names starting with a non-ASCII letter panics in serde.
    assert_eq!(compared, 8 * (FIELDS.len() + VARIANTS.len()) - 2);
}

proptest! {
    /// Any identifier made of letters, digits and underscores.
    #[test]
    fn any_identifier_is_renamed_as_serde_renames_it(
        field in "[a-z_][a-zA-Z0-9_]{0,12}",
        variant in "[A-Z][a-zA-Z0-9_]{0,12}",
    ) {
        // `_` alone is not an identifier.
        prop_assume!(field != "_");
        for rule in RenameRule::ALL {
            let ours = rule.apply_to_field(&field);
            if let Some(serde) = serde_names(rule.name(), "struct", &[&field]) {
                prop_assert_eq!(&ours, &serde[0], "{:?}", rule);
            }
            let ours = rule.apply_to_variant(&variant);
            if let Some(serde) = serde_names(rule.name(), "enum", &[&variant]) {
                prop_assert_eq!(&ours, &serde[0], "{:?}", rule);
            }
        }
    }
}

//! Golden snapshots in `goldens/` (review changes with `cargo insta review`): the formatted
//! expansion of every fixture type, each fixture tool's JSON Schema, and the retry hint (JSON
//! and text) of each failing sample.

use serde_json::json;
use toolgate::hint::HintReason;
use toolgate::{Constraint, Issue, Path, Report, RetryHint, Tool};
use toolgate_tests::fixtures::flight::BookFlight;

macro_rules! golden {
    ($name:expr, $content:expr) => {
        insta::with_settings!({snapshot_path => "../../goldens", prepend_module_to_snapshot => false, omit_expression => true}, {
            insta::assert_snapshot!($name, $content);
        })
    };
}

/// The items of a fixture file that derive `Tool`.
fn derived_items(source: &str) -> Vec<(String, String)> {
    let file = syn::parse_file(source).expect("fixture files parse");
    file.items
        .iter()
        .filter_map(|item| {
            let (ident, attrs) = match item {
                syn::Item::Struct(item) => (&item.ident, &item.attrs),
                syn::Item::Enum(item) => (&item.ident, &item.attrs),
                _ => return None,
            };
            let derives_tool = attrs.iter().any(|attr| {
                attr.path().is_ident("derive") && quote::quote!(#attr).to_string().contains("Tool")
            });
            derives_tool.then(|| (ident.to_string(), quote::quote!(#item).to_string()))
        })
        .collect()
}

#[test]
fn expansions() {
    let mut count = 0;
    for (file, source) in toolgate_tests::SOURCES {
        for (type_name, item) in derived_items(source) {
            let expanded = toolgate_codegen::expand_derive_to_string(&item).unwrap();
            assert!(
                !expanded.contains("compile_error"),
                "{file}/{type_name}: {expanded}"
            );
            golden!(format!("expand__{type_name}"), expanded);
            count += 1;
        }
    }
    assert!(count >= 8, "only {count} fixture types");
}

#[test]
fn schemas() {
    for case in toolgate_tests::catalogue() {
        golden!(
            format!("schema__{}", case.type_name),
            case.model.json_schema_pretty()
        );
    }
}

#[test]
fn hints_of_failing_samples() {
    for case in toolgate_tests::catalogue() {
        for (index, sample) in case.invalid.iter().enumerate() {
            let report = sample
                .validation
                .as_ref()
                .expect_err("invalid samples fail");
            let hint = RetryHint::build(case.model, report, HintReason::InvalidArguments);
            let content = format!(
                "sample: {}\n\nissues:\n{report}\n\njson:\n{}\n\ntext:\n{hint}\n",
                sample.label,
                serde_json::to_string_pretty(&hint).unwrap()
            );
            golden!(format!("hint__{}_{index}", case.type_name), content);
        }
    }
}

/// Issues as the decoder reports them for arguments with absent fields and a wrong enum
/// value (a Rust value cannot lack a field, so the report is written out here).
#[test]
fn hint_with_missing_fields() {
    let mut report = Report::new();
    report.push(Issue::new(
        Path::root().key("origin"),
        Constraint::Required,
        "is required",
    ));
    report.push(Issue::new(
        Path::root().key("date"),
        Constraint::Required,
        "is required",
    ));
    report.push(
        Issue::new(Path::root().key("cabin"), Constraint::Enum, "\"buisness\" is not one of economy, premium_economy, business, first (did you mean \"business\"?)")
            .with_expected(json!(["economy", "premium_economy", "business", "first"]))
            .with_got(json!("buisness")),
    );
    report.push(Issue::new(
        Path::root().key("contact").key("email"),
        Constraint::Required,
        "is required",
    ));
    report.push(Issue::new(
        Path::root().key("refundable"),
        Constraint::Required,
        "is required",
    ));
    report.push(Issue::new(
        Path::root().key("seat"),
        Constraint::AdditionalProperties,
        "unknown field \"seat\"",
    ));
    let hint = RetryHint::build(BookFlight::model(), &report, HintReason::InvalidArguments);
    assert_eq!(hint.missing_fields.len(), 3);
    assert_eq!(hint.omitted, 1);
    // The compact JSON reads back into the same hint.
    assert_eq!(
        serde_json::from_str::<RetryHint>(&hint.to_json()).unwrap(),
        hint
    );
    golden!(
        "hint__BookFlight_missing",
        format!(
            "json:\n{}\n\ntext:\n{hint}\n",
            serde_json::to_string_pretty(&hint).unwrap()
        )
    );
}

#[test]
fn prompt_rules_of_each_tool_and_of_all_within_a_tight_budget() {
    let cases = toolgate_tests::catalogue();
    for case in &cases {
        let rules = toolgate::prompt::prompt_rules([case.model]);
        golden!(format!("prompt__{}", case.type_name), rules.text);
    }
    // Every tool at once in 900 characters: the lightest rules are left out, and counted.
    let all = toolgate::prompt::prompt_rules_within(cases.iter().map(|case| case.model), 900);
    assert!(all.left_out > 0);
    assert!(all.text.chars().count() <= 900);
    golden!("prompt__all_within_900", all.text);
}

/// The derive's expansion of a struct of 10 plain fields stays small (issue 44: the
/// generated reader dispatches and calls core, deciding nothing): measured in tokens of
/// the expansion, the bound about 10% over what it is today.
#[test]
fn a_ten_field_struct_expands_to_a_bounded_size() {
    let item = quote::quote! {
        /// Ten fields.
        struct Ten {
            /// a
            a: String,
            /// b
            b: String,
            /// c
            c: u8,
            /// d
            d: u64,
            /// e
            e: f64,
            /// f
            f: bool,
            /// g
            g: Vec<String>,
            /// h
            h: Option<String>,
            /// i
            #[tool(range(min = 1, max = 9))]
            i: i32,
            /// j
            #[tool(pattern = "^[a-z]+$")]
            j: String,
        }
    };
    let expanded = toolgate_codegen::expand_derive_to_string(&item.to_string()).unwrap();
    let tokens: proc_macro2::TokenStream = expanded.parse().unwrap();
    fn count(tokens: proc_macro2::TokenStream) -> usize {
        tokens
            .into_iter()
            .map(|tree| match tree {
                proc_macro2::TokenTree::Group(group) => 1 + count(group.stream()),
                _ => 1,
            })
            .sum()
    }
    let size = count(tokens);
    assert!(size <= MOST_TOKENS_OF_TEN_FIELDS, "{size} tokens");
}

/// The bound of [`a_ten_field_struct_expands_to_a_bounded_size`]: 1,836 tokens at `issue 44`.
const MOST_TOKENS_OF_TEN_FIELDS: usize = 2_000;

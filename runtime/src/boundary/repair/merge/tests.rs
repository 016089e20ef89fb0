use serde_json::json;

use super::*;

fn path(text: &str) -> Path {
    text.split('.')
        .filter(|key| !key.is_empty())
        .fold(Path::root(), |path, key| match key.parse::<usize>() {
            Ok(index) => path.index(index),
            Err(_) => path.key(key),
        })
}

fn strings(paths: &[Path]) -> Vec<String> {
    paths.iter().map(Path::to_string).collect()
}

#[test]
fn only_the_named_fields_are_taken_and_a_changed_valid_field_is_refused() {
    let original = json!({"amount": 0, "currency": "dollars", "to": "EUR"});
    let corrected = json!({"amount": 0, "currency": "USD", "to": "GBP"});
    let merged = merge(
        Some(&original),
        &corrected,
        &[path("currency")],
        WideChanges::Refuse,
    );
    assert_eq!(
        merged.value,
        json!({"amount": 0, "currency": "USD", "to": "EUR"})
    );
    assert_eq!(strings(&merged.taken), ["currency"]);
    assert_eq!(strings(&merged.wide), ["to"]);
}

#[test]
fn accepted_wide_changes_are_applied_and_still_reported() {
    let original = json!({"currency": "dollars", "to": "EUR", "note": "x"});
    let corrected = json!({"currency": "USD", "to": "GBP"});
    let merged = merge(
        Some(&original),
        &corrected,
        &[path("currency")],
        WideChanges::AcceptAndLog,
    );
    assert_eq!(merged.value, json!({"currency": "USD", "to": "GBP"}));
    assert_eq!(strings(&merged.wide), ["note", "to"]);
}

#[test]
fn a_missing_field_is_added_with_its_missing_parents_and_an_unknown_key_removed() {
    let original = json!({"origin": "CDG", "extra": 1});
    let corrected = json!({"origin": "CDG", "contact": {"email": "a@b.co"}});
    let named = [path("contact.email"), path("extra")];
    let merged = merge(Some(&original), &corrected, &named, WideChanges::Refuse);
    assert_eq!(
        merged.value,
        json!({"origin": "CDG", "contact": {"email": "a@b.co"}})
    );
    assert!(merged.wide.is_empty(), "{:?}", merged.wide);
}

#[test]
fn nested_and_indexed_paths_are_taken_alone() {
    let original = json!({"legs": [{"from": "cdg", "to": "JFK"}, {"from": "JFK", "to": "LHR"}]});
    let corrected = json!({"legs": [{"from": "CDG", "to": "JFK"}, {"from": "JFK", "to": "LGW"}]});
    let merged = merge(
        Some(&original),
        &corrected,
        &[path("legs.0.from")],
        WideChanges::Refuse,
    );
    assert_eq!(
        merged.value,
        json!({"legs": [{"from": "CDG", "to": "JFK"}, {"from": "JFK", "to": "LHR"}]})
    );
    assert_eq!(strings(&merged.wide), ["legs[1].to"]);
}

#[test]
fn a_root_issue_or_arguments_that_were_no_object_take_the_correction_whole() {
    let corrected = json!({"a": 1});
    for (original, named) in [
        (Some(json!({"a": "x", "b": 2})), vec![Path::root()]),
        (Some(json!([1, 2])), vec![path("a")]),
        (None, vec![path("a")]),
    ] {
        let merged = merge(original.as_ref(), &corrected, &named, WideChanges::Refuse);
        assert_eq!(merged.value, corrected);
        assert_eq!(strings(&merged.taken), [""]);
    }
}

#[test]
fn numbers_equal_in_value_are_no_change() {
    let original = json!({"a": 1.0, "b": "x"});
    let corrected = json!({"a": 1, "b": "y"});
    let merged = merge(
        Some(&original),
        &corrected,
        &[path("b")],
        WideChanges::Refuse,
    );
    assert!(merged.wide.is_empty());
    assert_eq!(merged.value, json!({"a": 1.0, "b": "y"}));
}

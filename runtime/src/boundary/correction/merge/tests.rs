use serde_json::json;

use super::*;
use toolgate_core::model::ToolModel;

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
        None,
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
        None,
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
    let merged = merge(
        None,
        Some(&original),
        &corrected,
        &named,
        WideChanges::Refuse,
    );
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
        None,
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
        let merged = merge(
            None,
            original.as_ref(),
            &corrected,
            &named,
            WideChanges::Refuse,
        );
        assert_eq!(merged.value, corrected);
        assert_eq!(strings(&merged.taken), [""]);
    }
}

#[test]
fn numbers_equal_in_value_are_no_change() {
    let original = json!({"a": 1.0, "b": "x"});
    let corrected = json!({"a": 1, "b": "y"});
    let merged = merge(
        None,
        Some(&original),
        &corrected,
        &[path("b")],
        WideChanges::Refuse,
    );
    assert!(merged.wide.is_empty());
    assert_eq!(merged.value, json!({"a": 1.0, "b": "y"}));
}

fn model(schema: Value) -> ToolModel {
    ToolModel::from_json_schema(&schema.to_string()).unwrap()
}

#[test]
fn a_field_sent_under_another_spelling_is_replaced_not_doubled() {
    // Issue 27 §3: the issue says `passengers`, the arguments said `Passengers`; the merge
    // used to keep both (then a tie, or a stale undeclared key).
    let model = model(json!({"title": "t", "type": "object", "properties": {
        "passengers": {"type": "integer", "maximum": 9, "x-aliases": ["pax"]},
        "origin": {"type": "string"},
        "contact": {"type": "object", "properties": {"email": {"type": "string"}}}}}));
    let cases = [
        (
            json!({"Passengers": 12, "origin": "CDG"}),
            json!({"passengers": 3, "origin": "CDG"}),
            "passengers",
            json!({"passengers": 3, "origin": "CDG"}),
        ),
        (
            json!({"passengers": 12, "origin": "CDG"}),
            json!({"PAX": 3, "origin": "CDG"}),
            "passengers",
            json!({"PAX": 3, "origin": "CDG"}),
        ),
        (
            json!({"Contact": {"EMAIL": "x"}, "origin": "CDG"}),
            json!({"contact": {"email": "a@b.co"}, "origin": "CDG"}),
            "contact.email",
            json!({"Contact": {"email": "a@b.co"}, "origin": "CDG"}),
        ),
        // The correction left the field out: every spelling of it goes.
        (
            json!({"Passengers": 12, "pax": 12, "origin": "CDG"}),
            json!({"origin": "CDG"}),
            "passengers",
            json!({"origin": "CDG"}),
        ),
    ];
    for (original, corrected, named, expected) in cases {
        let merged = merge(
            Some(&model),
            Some(&original),
            &corrected,
            &[path(named)],
            WideChanges::Refuse,
        );
        assert_eq!(merged.value, expected, "{original} with {corrected}");
    }
    // Without the model, keys are only what they spell.
    let merged = merge(
        None,
        Some(&json!({"Passengers": 12})),
        &json!({"passengers": 3}),
        &[path("passengers")],
        WideChanges::Refuse,
    );
    assert_eq!(merged.value, json!({"Passengers": 12, "passengers": 3}));
}

#[test]
fn the_merge_finds_fields_in_linear_work() {
    let work = |count: usize, wide: WideChanges| {
        use toolgate_core::model::{Field, Schema};
        let fields = (0..count)
            .map(|i| Field::optional(format!("field_{i}"), Schema::string()))
            .collect();
        let model = ToolModel::new("t", None, Schema::object(fields), Default::default());
        let sent = |key: &dyn Fn(usize) -> String| -> Value {
            (0..count)
                .map(|i| (key(i), json!("v")))
                .collect::<serde_json::Map<_, _>>()
                .into()
        };
        let original = sent(&|i| format!("FIELD-{i}"));
        let corrected = sent(&|i| format!("field_{i}"));
        // Half the fields (a resolver's issues are not capped by a report).
        let named: Vec<Path> = (0..count / 2)
            .map(|i| path(&format!("field_{i}")))
            .collect();
        let (merged, steps) = toolgate_core::plan::work::steps_in(|| {
            merge(Some(&model), Some(&original), &corrected, &named, wide)
        });
        assert_eq!(merged.value["field_7"], "v");
        assert!(merged.value.get("FIELD-7").is_none());
        let last = count - 1;
        let taken_whole = wide == WideChanges::AcceptAndLog;
        assert_eq!(
            merged.value.get(format!("field_{last}")).is_some(),
            taken_whole
        );
        steps
    };
    for wide in [WideChanges::Refuse, WideChanges::AcceptAndLog] {
        let (small, large) = (work(2_000, wide), work(20_000, wide));
        assert!(large <= 12 * small, "{wide:?}: {small} then {large} steps");
    }
}

proptest::proptest! {
    /// Issue 28 §5: the items of an array the issues name, corrected into an array of
    /// another length, give the corrected array (indices no longer name the same items);
    /// of the same length, the named items are the correction's and the others the
    /// original's.
    #[test]
    fn arrays_are_merged_by_index_only_while_their_length_holds(
        original in proptest::collection::vec(0u8..5, 0..8),
        corrected in proptest::collection::vec(0u8..5, 0..8),
        named in proptest::collection::btree_set(0usize..8, 1..4),
    ) {
        let named: Vec<usize> = named.into_iter().filter(|index| *index < original.len()).collect();
        proptest::prop_assume!(!named.is_empty());
        let paths: Vec<Path> = named.iter().map(|index| Path::root().key("l").index(*index)).collect();
        let merged = merge(
            None,
            Some(&json!({"l": original, "k": 1})),
            &json!({"l": corrected, "k": 1}),
            &paths,
            WideChanges::Refuse,
        );
        let wanted: Vec<u8> = if original.len() == corrected.len() {
            original
                .iter()
                .zip(&corrected)
                .enumerate()
                .map(|(index, (old, new))| if named.contains(&index) { *new } else { *old })
                .collect()
        } else {
            corrected.clone()
        };
        proptest::prop_assert_eq!(&merged.value, &json!({"l": wanted, "k": 1}));
    }
}

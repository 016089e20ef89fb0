//! Issue 27 §3: keys are matched to fields by the model's one lookup on every road, in work
//! linear in the keys and the fields (counted, not timed): at 2,000 and at 20,000 fields and
//! keys, each key sent in another case (`key_case`), the count grows ten times, not a
//! hundred. The count is the lookup's own ([`crate::plan::work`]: names compared,
//! folded, probed, indexed) plus every fold made anywhere ([`crate::suggest::work`]).

use super::*;
use crate::plan::work::steps_in;
use crate::suggest::work::folds_in;
use crate::RetryHint;

/// The lookup steps and the folds of `run`.
fn work_of(run: impl FnOnce()) -> u64 {
    let mut steps = 0;
    let folds = folds_in(|| steps = steps_in(run).1);
    steps + folds as u64
}

/// `count` optional fields `field_0`... of `schema`, open or closed.
fn wide(count: usize, schema: Schema, closed: bool) -> ToolModel {
    let fields = (0..count)
        .map(|i| Field::optional(format!("field_{i}"), schema.clone()))
        .collect();
    let object = Schema::object(fields);
    let object = if closed {
        object.deny_unknown_fields()
    } else {
        object
    };
    ToolModel::new("t", None, object, Default::default())
}

/// `{"FIELD-0": value, ...}`: every key in another case and with another separator.
fn folded_keys(count: usize, value: &str, trailing_comma: bool) -> String {
    let members: Vec<String> = (0..count)
        .map(|i| format!("\"FIELD-{i}\": {value}"))
        .collect();
    let comma = if trailing_comma { "," } else { "" };
    format!("{{{}{comma}}}", members.join(", "))
}

/// The work of `road` at 2,000 and at 20,000 fields and keys; fails unless it grows about
/// ten times (at most twelve) and stays within a constant per key and field.
fn linear(road: &str, work_at: impl FnMut(usize) -> u64) {
    linear_with(road, 0, work_at);
}

/// [`linear`], where each of the issues the report keeps may also fold every declared name
/// once (its "did you mean"): `suggestions` per field.
fn linear_with(road: &str, suggestions: u64, mut work_at: impl FnMut(usize) -> u64) {
    let (small, large) = (work_at(2_000), work_at(20_000));
    assert!(
        large <= 12 * small,
        "{road}: {small} steps at 2,000, {large} at 20,000"
    );
    assert!(
        large <= (40 + suggestions) * 20_000,
        "{road}: {large} steps at 20,000"
    );
}

#[test]
fn the_stream_matches_folded_keys_in_linear_work() {
    linear("stream", |count| {
        let model = wide(count, Schema::string(), false);
        let text = folded_keys(count, "\"v\"", false);
        work_of(|| {
            let decided = decode_text_by_stream(&model, text.as_bytes(), &Options::default());
            let decoded = decided.expect("the stream decides").unwrap();
            assert_eq!(decoded.repairs.len() + decoded.repairs_left_out, count);
        })
    });
}

#[test]
fn the_tree_walk_of_lenient_text_matches_folded_keys_in_linear_work() {
    linear("tree (lenient text)", |count| {
        let model = wide(count, Schema::string(), false);
        let text = folded_keys(count, "\"v\"", true);
        work_of(|| {
            let decoded = accept_text(&model, &text);
            // `json_text`, then one `key_case` per key.
            assert_eq!(decoded.repairs.len() + decoded.repairs_left_out, count + 1);
        })
    });
}

#[test]
fn decode_value_and_check_value_match_keys_in_linear_work() {
    linear("decode_value", |count| {
        let model = wide(count, Schema::string(), false);
        let value: Value = serde_json::from_str(&folded_keys(count, "\"v\"", false)).unwrap();
        work_of(|| {
            let decoded = accept(&model, value);
            assert_eq!(decoded.repairs.len() + decoded.repairs_left_out, count);
        })
    });
    linear("check_value", |count| {
        let model = wide(count, Schema::string(), false);
        let value: Value = serde_json::from_str(&folded_keys(count, "\"v\"", false)).unwrap();
        work_of(|| {
            // No `key_case` in the checker: each key is an undeclared key, allowed here.
            assert!(model.check_against(model.input(), &value).is_ok());
        })
    });
    // Closed: each key is an issue, and the issues the report keeps name the nearest field.
    let suggestions = Report::DEFAULT_CAP as u64 + 1;
    linear_with("check_value (closed)", suggestions, |count| {
        let model = wide(count, Schema::string(), true);
        let value: Value = serde_json::from_str(&folded_keys(count, "\"v\"", false)).unwrap();
        work_of(|| {
            let report = model.check_against(model.input(), &value).unwrap_err();
            assert_eq!(report.len(), Report::DEFAULT_CAP + 1);
        })
    });
}

#[test]
fn a_refusal_of_such_keys_and_its_hint_take_linear_work() {
    linear("refusal and hint", |count| {
        let model = wide(count, Schema::integer(), false);
        // Every key folds to a field and every value is of the wrong type.
        let text = folded_keys(count, "\"x\"", false);
        work_of(|| {
            let rejected = refuse_text(&model, &text);
            assert_eq!(rejected.report.len(), Report::DEFAULT_CAP + 1);
            let hint = RetryHint::build(&model, &rejected.report, HintReason::InvalidArguments);
            assert_eq!(hint.fields.len(), 3);
            assert!(hint.fields[0].path.to_string().starts_with("field_"));
        })
    });
}

/// `{"field_0": "a", "Field_0": "b", ...}`: each field by its name, and again in another case.
fn each_field_twice(count: usize) -> String {
    let members: Vec<String> = (0..count)
        .flat_map(|i| {
            [
                format!("\"field_{i}\": \"a\""),
                format!("\"Field_{i}\": \"b\""),
            ]
        })
        .collect();
    format!("{{{}}}", members.join(", "))
}

#[test]
fn ties_in_a_wide_object_are_found_in_linear_work() {
    linear("ties", |count| {
        let model = wide(count, Schema::string(), true);
        let text = each_field_twice(count);
        work_of(|| {
            let rejected = refuse_text(&model, &text);
            assert_eq!(rejected.report.len(), Report::DEFAULT_CAP + 1);
            assert_eq!(rejected.report.issues()[0].constraint, Constraint::Syntax);
        })
    });
    // Where undeclared keys are taken, the keys in another case are undeclared keys.
    linear("undeclared beside their fields", |count| {
        let model = wide(count, Schema::string(), false);
        let text = each_field_twice(count);
        work_of(|| {
            let decoded = accept_text(&model, &text);
            assert!(decoded.repairs.is_empty());
        })
    });
}

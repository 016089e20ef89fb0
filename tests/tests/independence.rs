//! Independence check: the `jsonschema` crate, given each fixture's emitted JSON Schema,
//! accepts the JSON of the samples `validate` accepts and refuses the others, with the same
//! paths and keywords.

mod common;

use common::{jsonschema_issues, our_issues};

#[test]
fn jsonschema_agrees_with_validate_on_every_sample() {
    let mut compared = 0;
    for case in toolgate_tests::catalogue() {
        for sample in case.valid.iter().chain(&case.invalid) {
            let theirs = jsonschema_issues(case.model, &sample.tool_json);
            let ours = our_issues(&sample.validation);
            assert_eq!(
                ours, theirs,
                "{} / {}: {}",
                case.type_name, sample.label, sample.tool_json
            );
            compared += 1;
        }
    }
    assert!(compared >= 20, "only {compared} samples compared");
}

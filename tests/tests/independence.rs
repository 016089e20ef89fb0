//! Independence check: the `jsonschema` crate, given each fixture's emitted JSON Schema,
//! accepts the JSON of the samples `validate` accepts and refuses the others, with the same
//! paths and keywords.

use std::collections::BTreeSet;

use serde_json::Value;
use toolgate::model::ToolModel;
use toolgate::Report;

/// (JSON pointer, keyword) of every error jsonschema finds.
pub fn jsonschema_issues(model: &ToolModel, instance: &Value) -> BTreeSet<(String, String)> {
    let schema: Value = serde_json::from_str(model.json_schema()).unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap_or_else(|error| panic!("{}: jsonschema refuses the schema: {error}", model.name()));
    validator
        .iter_errors(instance)
        .map(|error| {
            (
                error.instance_path().as_str().to_owned(),
                error.kind().keyword().to_owned(),
            )
        })
        .collect()
}

fn our_issues(validation: &Result<(), Report>) -> BTreeSet<(String, String)> {
    match validation {
        Ok(()) => BTreeSet::new(),
        Err(report) => report
            .issues()
            .iter()
            .map(|i| (i.path.to_json_pointer(), i.constraint.as_str().to_owned()))
            .collect(),
    }
}

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

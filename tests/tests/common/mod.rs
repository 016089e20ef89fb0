//! What several suites share: the issues the `jsonschema` crate finds, and ours, as sets of
//! (JSON pointer, keyword) so the two can be compared.

use std::collections::BTreeSet;

use serde_json::Value;
use toolgate::model::ToolModel;
use toolgate::Report;

/// (JSON pointer, keyword) of every error jsonschema finds in `instance` under the model's
/// JSON Schema, with format validation on.
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

/// (JSON pointer, keyword) of every issue of a validation.
pub fn our_issues(validation: &Result<(), Report>) -> BTreeSet<(String, String)> {
    match validation {
        Ok(()) => BTreeSet::new(),
        Err(report) => report
            .issues()
            .iter()
            .map(|i| (i.path.to_json_pointer(), i.constraint.as_str().to_owned()))
            .collect(),
    }
}

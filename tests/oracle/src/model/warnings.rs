//! The warnings a model keeps from its reading ([`read::keywords`](super::read::keywords)):
//! reported, not part of equality, turned into errors on request.

use super::{SchemaError, SchemaErrors, SchemaWarning, ToolModel};

impl ToolModel {
    /// The model with these warnings (see [`ToolModel::schema_warnings`]).
    pub fn with_schema_warnings(mut self, warnings: Vec<SchemaWarning>) -> Self {
        self.warnings = warnings;
        self
    }

    /// What the reader read past in the schema this model was read from, each at its JSON
    /// pointer: unknown keywords (ignored), keywords of other types (they constrain
    /// nothing), unknown formats (kept as annotations), contradictions (values that can
    /// never be valid). At most [`MAX_WARNINGS`](super::read::keywords::MAX_WARNINGS), then one counting the
    /// rest. Empty for models built by hand or by the derive.
    ///
    /// ```
    /// use toolgate_core::model::{ToolModel, WarningKind};
    ///
    /// let model = ToolModel::from_json_schema(
    ///     r#"{"type": "object", "discriminator": {"propertyName": "kind"}, "properties": {}}"#,
    /// ).unwrap();
    /// assert_eq!(model.schema_warnings()[0].kind, WarningKind::UnknownKeyword);
    /// assert_eq!(model.schema_warnings()[0].pointer, "/discriminator");
    /// assert!(model.clone().deny_warnings().is_err());
    /// ```
    pub fn schema_warnings(&self) -> &[SchemaWarning] {
        &self.warnings
    }

    /// The model, or its warnings as errors (for those who want every keyword of a schema
    /// understood): each error has the warning's pointer and says it is a warning denied.
    pub fn deny_warnings(self) -> Result<ToolModel, SchemaErrors> {
        if self.warnings.is_empty() {
            return Ok(self);
        }
        Err(SchemaErrors(
            self.warnings
                .iter()
                .map(|warning| SchemaError {
                    pointer: warning.pointer.clone(),
                    message: format!("{} (warnings are denied)", warning.message),
                })
                .collect(),
        ))
    }
}

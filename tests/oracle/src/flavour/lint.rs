//! What a flavour loses of a tool, for the build lint of the schema compiler
//! (`Builder::flavour`) and the derive's test helper (`toolgate::assert_flavour`).

use std::fmt;

use super::{Flavour, FlavourError};
use crate::model::ToolModel;

/// What a build does when a flavour loses something of a tool: a constraint the provider no
/// longer sees (the gate still enforces it), or the whole tool, which the flavour cannot
/// express.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lint {
    /// Nothing.
    Allow,
    /// A warning for each loss (`cargo:warning=` from a build script).
    #[default]
    Warn,
    /// An error for each loss: the build fails.
    Deny,
}

/// One thing a flavour loses of a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// The flavour.
    pub flavour: Flavour,
    /// The JSON pointer of the schema node, in the flavoured schema (`""` for the root).
    pub path: String,
    /// What is lost, and how.
    pub message: String,
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(f, "{path}: {}", self.message)
    }
}

impl ToolModel {
    /// What `flavour` loses of this tool: each constraint it takes out of the schema (a
    /// rewrite that says the same thing another way, and an annotation, lose nothing), or
    /// the one reason it cannot express the tool. Empty when the flavour keeps everything.
    ///
    /// ```
    /// use toolgate_core::flavour::Flavour;
    /// use toolgate_core::model::ToolModel;
    ///
    /// let model = ToolModel::from_json_schema(r#"{"title": "note", "type": "object",
    ///     "properties": {"text": {"type": "string", "maxLength": 500}}, "required": ["text"]}"#).unwrap();
    /// let losses = model.flavour_losses(Flavour::OpenAiStrict);
    /// assert_eq!(losses[0].to_string(), "/properties/text: openai-strict drops `maxLength: 500` (moved to the description); the gate still enforces it");
    /// assert!(model.flavour_losses(Flavour::Mcp).is_empty());
    /// ```
    pub fn flavour_losses(&self, flavour: Flavour) -> Vec<Loss> {
        match self.schema_for(flavour) {
            Ok(flavoured) => flavoured
                .dropped
                .iter()
                .filter(|dropped| dropped.loses_constraint())
                .map(|dropped| {
                    let how = match dropped.action {
                        super::Action::MovedToDescription => "moved to the description",
                        _ => "removed",
                    };
                    let value = crate::issue::shorten_text(&dropped.value.to_string(), 60);
                    Loss {
                        flavour,
                        path: dropped.path.clone(),
                        message: format!(
                            "{flavour} drops `{}: {value}` ({how}); the gate still enforces it",
                            dropped.keyword
                        ),
                    }
                })
                .collect(),
            Err(error) => {
                let path = match &error {
                    FlavourError::Inexpressible { path, .. } => path.clone(),
                    FlavourError::OverLimit { .. } | FlavourError::OverRequestLimit { .. } => {
                        String::new()
                    }
                };
                vec![Loss {
                    flavour,
                    path,
                    message: error.to_string(),
                }]
            }
        }
    }
}

//! [`Finalizer`]: a model's final structured answer, checked like a tool's arguments.

use std::fmt;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde_json::Value;
use toolgate_core::model::ToolModel;
use toolgate_core::{Decoded, DynamicTool, HintReason, Rejected, Report, RetryHint, Tool};

use super::registry::RegistryError;

/// Retries a [`Finalizer`] allows unless told otherwise.
pub const DEFAULT_FINAL_RETRIES: u32 = 2;

type Decode<T> = Arc<dyn Fn(&str) -> Result<Decoded<T>, Rejected> + Send + Sync>;

/// Checks a model's final structured answer (its text) against a [`Tool`] type or a JSON
/// Schema, with the same repairs as arguments, and gives the retry prompt while retries are
/// left. The caller (or a repair loop) sends the prompt and passes the next answer to
/// [`Finalizer::check`] again.
///
/// ```
/// use toolgate::boundary::{Finalized, Finalizer};
///
/// /// The answer.
/// #[derive(toolgate::Tool, serde::Deserialize, Debug)]
/// struct Answer {
///     #[tool(range(min = 0, max = 100))]
///     score: u8,
///     verdict: String,
/// }
///
/// let mut finalizer = Finalizer::<Answer>::for_tool().with_retries(1);
/// let Finalized::Retry { prompt, retries_left, .. } = finalizer.check(r#"{"score": 140}"#) else {
///     panic!("refused")
/// };
/// assert_eq!(retries_left, 0);
/// assert!(prompt.starts_with("Your final answer does not fit its schema"));
/// let Finalized::Accepted(answer) = finalizer.check("```json\n{\"score\": \"90\", \"verdict\": \"good\"}\n```") else {
///     panic!("accepted")
/// };
/// assert_eq!(answer.value.score, 90);
/// assert_eq!(answer.repairs.len(), 2);
/// ```
pub struct Finalizer<T = Value> {
    decode: Decode<T>,
    model: FinalModel,
    retries: u32,
    attempts: u32,
    refused: u32,
}

#[derive(Clone)]
enum FinalModel {
    Static(&'static ToolModel),
    Shared(Arc<DynamicTool>),
}

impl FinalModel {
    fn get(&self) -> &ToolModel {
        match self {
            FinalModel::Static(model) => model,
            FinalModel::Shared(tool) => tool.model(),
        }
    }
}

/// What a [`Finalizer`] made of an answer.
#[derive(Debug)]
pub enum Finalized<T> {
    /// The answer fits (repaired where lossless).
    Accepted(Decoded<T>),
    /// The answer was refused and a retry is left: send `prompt` to the model.
    Retry {
        /// Every issue.
        report: Report,
        /// The capped hint (reason `malformed_response`).
        hint: Box<RetryHint>,
        /// The text to send back: the hint, and what to send.
        prompt: String,
        /// Retries left after this one.
        retries_left: u32,
    },
    /// The answer was refused and no retry is left.
    Exhausted {
        /// Every issue of the last answer.
        report: Report,
        /// The capped hint.
        hint: Box<RetryHint>,
    },
}

impl<T> fmt::Debug for Finalizer<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Finalizer")
            .field("schema", &self.model.get().name())
            .field("retries", &self.retries)
            .field("attempts", &self.attempts)
            .finish_non_exhaustive()
    }
}

impl<T: Tool + DeserializeOwned + 'static> Finalizer<T> {
    /// Checks answers against the [`Tool`] type `T`.
    pub fn for_tool() -> Self {
        Finalizer {
            decode: Arc::new(|text: &str| T::decode(text)),
            model: FinalModel::Static(T::model()),
            retries: DEFAULT_FINAL_RETRIES,
            attempts: 0,
            refused: 0,
        }
    }
}

impl Finalizer<Value> {
    /// Checks answers against a JSON Schema (a bare schema, or a tool definition).
    pub fn from_schema(schema: &Value) -> Result<Self, RegistryError> {
        let tool = Arc::new(DynamicTool::from_definition(schema)?);
        let decoding = Arc::clone(&tool);
        Ok(Finalizer {
            decode: Arc::new(move |text: &str| decoding.decode(text)),
            model: FinalModel::Shared(tool),
            retries: DEFAULT_FINAL_RETRIES,
            attempts: 0,
            refused: 0,
        })
    }
}

impl<T> Finalizer<T> {
    /// The same finalizer allowing `retries` refused answers to be retried (default
    /// [`DEFAULT_FINAL_RETRIES`]).
    pub fn with_retries(mut self, retries: u32) -> Self {
        self.retries = retries;
        self
    }

    /// How many answers were checked.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Checks one answer.
    pub fn check(&mut self, text: &str) -> Finalized<T> {
        self.attempts = self.attempts.saturating_add(1);
        let rejected = match (self.decode)(text) {
            Ok(decoded) => return Finalized::Accepted(decoded),
            Err(rejected) => rejected,
        };
        let hint = Box::new(RetryHint::build(
            self.model.get(),
            &rejected.report,
            HintReason::MalformedResponse,
        ));
        // Only refused answers use up retries: an accepted one before does not.
        let retries_used = self.refused;
        self.refused = self.refused.saturating_add(1);
        if retries_used >= self.retries {
            return Finalized::Exhausted {
                report: rejected.report,
                hint,
            };
        }
        let prompt = format!(
            "Your final answer does not fit its schema ({} found).\n{hint}\nSend the whole answer again, as JSON only.",
            issues(rejected.report.len())
        );
        Finalized::Retry {
            report: rejected.report,
            hint,
            prompt,
            retries_left: self.retries - retries_used - 1,
        }
    }
}

fn issues(count: usize) -> String {
    if count == 1 {
        "1 issue".to_owned()
    } else {
        format!("{count} issues")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn retries_run_out_then_the_answer_is_refused_for_good() {
        let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
        let mut finalizer = Finalizer::from_schema(&schema).unwrap();
        for left in [1, 0] {
            match finalizer.check("{}") {
                Finalized::Retry {
                    retries_left,
                    prompt,
                    hint,
                    ..
                } => {
                    assert_eq!(retries_left, left);
                    assert_eq!(hint.reason, HintReason::MalformedResponse);
                    assert!(prompt.contains("missing required field city"), "{prompt}");
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(matches!(finalizer.check("{}"), Finalized::Exhausted { .. }));
        assert!(matches!(
            finalizer.check(r#"{"city": "Lyon"}"#),
            Finalized::Accepted(_)
        ));
        assert_eq!(finalizer.attempts(), 4);
    }
}

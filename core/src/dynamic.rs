//! [`DynamicTool`]: a tool built at run time from a schema that arrives over the wire (tools
//! discovered from an MCP server or a registry), decoding into `serde_json::Value` with the
//! same rules, repairs and issues as generated code; and [`ToolCache`], so a hot path does
//! not rebuild the same tool.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::decode::{decode_text, decode_value, Decoded, Options, Rejected};
use crate::model::{SchemaErrors, ToolModel};
use crate::{Constraint, Issue, Path, Report};

/// A tool whose schema is known only at run time.
///
/// ```
/// use toolgate_core::DynamicTool;
///
/// let tool = DynamicTool::from_definition(&serde_json::json!({
///     "name": "get_weather",
///     "inputSchema": {"type": "object", "properties": {
///         "lat": {"type": "number", "minimum": -90, "maximum": 90},
///         "units": {"type": "string", "enum": ["metric", "imperial"]}},
///         "required": ["lat"]}
/// })).unwrap();
/// let decoded = tool.decode(r#"```json
/// {"lat": "48.85", "units": "Metric", "extra": 1}
/// ```"#).unwrap();
/// assert_eq!(decoded.value, serde_json::json!({"lat": 48.85, "units": "metric", "extra": 1}));
/// let rules: Vec<&str> = decoded.repairs.iter().map(|r| r.rule.as_str()).collect();
/// assert_eq!(rules, ["json_text", "string_to_number", "enum_case"]);
/// ```
#[derive(Clone, Debug)]
pub struct DynamicTool {
    model: Arc<ToolModel>,
    options: Options,
}

impl DynamicTool {
    /// A tool from its definition (OpenAI, MCP, Anthropic or BFCL) or a bare schema.
    pub fn from_definition(definition: &Value) -> Result<Self, SchemaErrors> {
        Ok(Self::from_model(ToolModel::from_definition(definition)?))
    }

    /// A tool from a model.
    pub fn from_model(model: ToolModel) -> Self {
        DynamicTool {
            model: Arc::new(model),
            options: Options::default(),
        }
    }

    /// The same tool with other decoding options.
    pub fn with_options(mut self, options: Options) -> Self {
        self.options = options;
        self
    }

    /// The tool model.
    pub fn model(&self) -> &ToolModel {
        &self.model
    }

    /// Decodes argument text: repaired where lossless, every issue otherwise.
    pub fn decode(&self, text: &str) -> Result<Decoded<Value>, Rejected> {
        self.decode_bytes(text.as_bytes())
    }

    /// Decodes argument bytes.
    pub fn decode_bytes(&self, bytes: &[u8]) -> Result<Decoded<Value>, Rejected> {
        decode_text(&self.model, bytes, &self.options)
    }

    /// Decodes arguments already parsed as JSON.
    pub fn decode_value(&self, value: &Value) -> Result<Decoded<Value>, Rejected> {
        decode_value(&self.model, value, &self.options)
    }
}

/// The refusal for a schema that cannot be used: one issue with constraint `schema`, naming
/// the keyword's JSON pointer (in `expected`) and the reason.
pub fn schema_refusal(errors: &SchemaErrors) -> Report {
    let mut report = Report::new();
    let first = errors.0.first();
    let more = errors.0.len().saturating_sub(1);
    let mut message = match first {
        Some(error) => format!("the tool's schema cannot be used: {error}"),
        None => "the tool's schema cannot be used".to_owned(),
    };
    if more > 0 {
        message.push_str(&format!(" (and {more} more)"));
    }
    let mut issue = Issue::new(Path::root(), Constraint::Schema, message);
    if let Some(error) = first {
        issue = issue.with_expected(Value::String(error.pointer.clone()));
    }
    report.push(issue);
    report
}

/// Tools built from definitions, kept by the definition's text so each is built once (a
/// definition that cannot be used is kept too, with its errors).
///
/// ```
/// use toolgate_core::ToolCache;
///
/// let cache = ToolCache::new();
/// let text = r#"{"name": "ping", "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}}}"#;
/// let first = cache.get_text(text).unwrap();
/// let again = cache.get_text(text).unwrap();
/// assert!(std::sync::Arc::ptr_eq(&first, &again));
/// assert_eq!(cache.len(), 1);
/// ```
#[derive(Debug, Default)]
pub struct ToolCache {
    tools: Mutex<HashMap<String, Result<Arc<DynamicTool>, SchemaErrors>>>,
}

impl ToolCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The tool for this definition text, built on first use (properties keep the text's
    /// order).
    pub fn get_text(&self, definition: &str) -> Result<Arc<DynamicTool>, SchemaErrors> {
        self.get_or_build(definition, || ToolModel::from_definition_text(definition))
    }

    /// The tool for this definition, built on first use.
    pub fn get(&self, definition: &Value) -> Result<Arc<DynamicTool>, SchemaErrors> {
        self.get_or_build(&definition.to_string(), || {
            ToolModel::from_definition(definition)
        })
    }

    fn get_or_build(
        &self,
        key: &str,
        build: impl FnOnce() -> Result<ToolModel, SchemaErrors>,
    ) -> Result<Arc<DynamicTool>, SchemaErrors> {
        let mut tools = self
            .tools
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(built) = tools.get(key) {
            return built.clone();
        }
        let built = build().map(|model| Arc::new(DynamicTool::from_model(model)));
        tools.insert(key.to_owned(), built.clone());
        built
    }

    /// How many definitions are cached.
    pub fn len(&self) -> usize {
        self.tools
            .lock()
            .map(|tools| tools.len())
            .unwrap_or_default()
    }

    /// Whether nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

//! The tools of one request together: each tool's definition in the provider's shape, and
//! the limits a flavour sets over all the tools sent at once.

use super::{Flavour, FlavourError, FlavouredSchema};
use crate::model::read::tool_description;
use crate::model::{Json, ToolModel};
use crate::provider::anthropic::strict as anthropic_strict;

impl FlavouredSchema {
    /// The tool's definition as the flavour's first provider (see [`Flavour::providers`])
    /// takes it, around this schema; [`Provider::definition`](crate::provider::Provider::definition)
    /// writes it for another (OpenAI Responses' flat function):
    /// - OpenAI Chat Completions: `{"type": "function", "function": {name, description,
    ///   parameters}}`, with `"strict": true` in strict mode;
    /// - Anthropic: `{name, description, input_schema}`, with `"strict": true` for strict tool
    ///   use;
    /// - Gemini: a function declaration `{name, description, parameters}`, or
    ///   `{name, description, parametersJsonSchema}`;
    /// - MCP: `{name, description, inputSchema}`;
    /// - plain JSON Schema: the schema itself.
    ///
    /// The tool's name and description are sent once, beside the schema: where the schema's
    /// root repeats them (the model writes the tool's description and name into the root's
    /// `description` and `title`), the root's copy is left out of the definition, and what a
    /// flavour added to the root's description (a dropped constraint, `(maxProperties: 3)`)
    /// stays there alone. A root description or title that says something else stays as it
    /// is. The plain JSON Schema is the schema itself, unchanged.
    ///
    /// ```
    /// use toolgate_core::flavour::Flavour;
    /// use toolgate_core::model::ToolModel;
    ///
    /// let model = ToolModel::from_json_schema(r#"{"title": "ping", "type": "object", "properties": {}}"#).unwrap();
    /// let flavoured = model.schema_for(Flavour::AnthropicStrict).unwrap();
    /// let definition = flavoured.definition(model.name(), model.description()).to_value();
    /// assert_eq!(definition["name"], "ping");
    /// assert_eq!(definition["strict"], true);
    /// assert_eq!(definition["input_schema"]["additionalProperties"], false);
    /// ```
    pub fn definition(&self, name: &str, description: Option<&str>) -> Json {
        match self.flavour.providers().first() {
            Some(provider) => provider
                .definition(self, name, description)
                .unwrap_or(Json::Null),
            None => self.schema.clone(),
        }
    }

    /// The schema without the root's copies of the tool's name and description (see
    /// [`FlavouredSchema::definition`]).
    pub(crate) fn schema_without_repeats(&self, name: &str, description: Option<&str>) -> Json {
        without_repeats(&self.schema, name, description)
    }
}

impl ToolModel {
    /// The JSON Schema of the arguments as a tool definition holds it beside the tool's name
    /// and description: [`ToolModel::json_schema`] without the root's copies of them (as
    /// [`FlavouredSchema::definition`] leaves them out), so each is sent once.
    ///
    /// ```
    /// use toolgate_core::model::ToolModel;
    ///
    /// let model = ToolModel::from_json_schema(r#"{"title": "ping", "description": "Ping a host.",
    ///     "type": "object", "properties": {}}"#).unwrap();
    /// assert_eq!(model.arguments_schema(), serde_json::json!({"type": "object", "properties": {}}));
    /// ```
    pub fn arguments_schema(&self) -> serde_json::Value {
        // The model writes its schema as JSON: reading it back cannot fail.
        let written: Json = serde_json::from_str(self.json_schema()).unwrap_or(Json::Null);
        without_repeats(&written, self.name(), self.description()).to_value()
    }
}

/// The schema without the root's copies of the tool's name (`title`) and description (see
/// [`FlavouredSchema::definition`]).
fn without_repeats(schema: &Json, name: &str, description: Option<&str>) -> Json {
    let Json::Object(root) = schema else {
        return schema.clone();
    };
    let mut root = root.clone();
    if super::get(&root, "title").and_then(Json::as_str) == Some(name) {
        super::remove(&mut root, "title");
    }
    // The root's text without the tool's, where reading the definition joins them again to
    // the root's text (so a definition reads back as its schema); else the root keeps it all.
    let rest = match (super::get(&root, "description"), description) {
        (Some(Json::String(text)), Some(tool)) if !tool.is_empty() => text
            .strip_prefix(tool)
            .map(str::trim_start)
            .filter(|rest| {
                let read_back = match rest.is_empty() {
                    true => Some(tool.to_owned()),
                    false => tool_description(Some(tool.to_owned()), Some(rest)),
                };
                read_back.as_deref() == Some(text.as_str())
            })
            .map(str::to_owned),
        _ => None,
    };
    match rest {
        Some(rest) if rest.is_empty() => {
            super::remove(&mut root, "description");
        }
        Some(rest) => super::insert(&mut root, "description", Json::String(rest)),
        None => {}
    }
    Json::Object(root)
}

/// The definitions of the tools sent in one request, each in `flavour`'s shape
/// ([`FlavouredSchema::definition`]), or the first tool the flavour cannot express, or the
/// limit the tools pass together.
///
/// Anthropic's strict tool use limits a request's strict tools together: at most 20 tools,
/// 24 optional properties and 16 properties with a union type in all (each tool on its own
/// is held to the last two by [`ToolModel::schema_for`]). The other flavours document no
/// limit over a request.
///
/// ```
/// use toolgate_core::flavour::{request_definitions, Flavour, FlavourError};
/// use toolgate_core::model::ToolModel;
///
/// // Two tools of 15 optional properties each: each passes alone, not together.
/// let tool = |name: &str| {
///     let properties: Vec<String> = (0..15).map(|i| format!(r#""p{i}": {{"type": "string"}}"#)).collect();
///     ToolModel::from_json_schema(&format!(r#"{{"title": "{name}", "type": "object", "properties": {{{}}}}}"#, properties.join(", "))).unwrap()
/// };
/// let (a, b) = (tool("a"), tool("b"));
/// assert_eq!(request_definitions(Flavour::AnthropicStrict, [&a]).unwrap().len(), 1);
/// let error = request_definitions(Flavour::AnthropicStrict, [&a, &b]).unwrap_err();
/// assert_eq!(error.to_string(), "2 tools sent together: anthropic-strict allows at most 24 optional properties over a request; they have 30");
/// ```
pub fn request_definitions<'m>(
    flavour: Flavour,
    models: impl IntoIterator<Item = &'m ToolModel>,
) -> Result<Vec<Json>, FlavourError> {
    let mut definitions = Vec::new();
    let (mut optional, mut unions) = (0, 0);
    for model in models {
        let flavoured = model.schema_for(flavour)?;
        if flavour == Flavour::AnthropicStrict {
            let (tool_optional, tool_unions) = anthropic_strict::limited_counts(&flavoured.schema);
            optional += tool_optional;
            unions += tool_unions;
        }
        definitions.push(flavoured.definition(model.name(), model.description()));
    }
    if flavour == Flavour::AnthropicStrict {
        let tools = definitions.len();
        let over = |limit: &'static str, max: usize, found: usize| match found > max {
            true => Err(FlavourError::OverRequestLimit {
                tools,
                flavour,
                limit,
                max,
                found,
            }),
            false => Ok(()),
        };
        over("strict tools", anthropic_strict::MAX_TOOLS, tools)?;
        over(
            anthropic_strict::OPTIONAL,
            anthropic_strict::MAX_OPTIONAL,
            optional,
        )?;
        over(
            anthropic_strict::UNIONS,
            anthropic_strict::MAX_UNIONS,
            unions,
        )?;
    }
    Ok(definitions)
}

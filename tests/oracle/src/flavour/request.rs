//! The tools of one request together: each tool's definition in the provider's shape, and
//! the limits a flavour sets over all the tools sent at once.

use super::{anthropic_strict, Flavour, FlavourError, FlavouredSchema};
use crate::model::{Json, ToolModel};

impl FlavouredSchema {
    /// The tool's definition as the provider's API takes it, around this schema:
    /// - OpenAI: `{"type": "function", "function": {name, description, parameters}}`, with
    ///   `"strict": true` in strict mode;
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
        let text = |text: &str| Json::String(text.to_owned());
        let mut named = vec![("name".to_owned(), text(name))];
        if let Some(description) = description {
            named.push(("description".to_owned(), text(description)));
        }
        let schema = match self.flavour {
            Flavour::JsonSchema => self.schema.clone(),
            _ => without_repeats(&self.schema, name, description),
        };
        let strict = ("strict".to_owned(), Json::Bool(true));
        match self.flavour {
            Flavour::OpenAiStrict | Flavour::OpenAi => {
                named.push(("parameters".to_owned(), schema));
                if self.flavour == Flavour::OpenAiStrict {
                    named.push(strict);
                }
                Json::Object(vec![
                    ("type".to_owned(), text("function")),
                    ("function".to_owned(), Json::Object(named)),
                ])
            }
            Flavour::Anthropic | Flavour::AnthropicStrict => {
                named.push(("input_schema".to_owned(), schema));
                if self.flavour == Flavour::AnthropicStrict {
                    named.push(strict);
                }
                Json::Object(named)
            }
            Flavour::Gemini => {
                named.push(("parameters".to_owned(), schema));
                Json::Object(named)
            }
            Flavour::GeminiJson => {
                named.push(("parametersJsonSchema".to_owned(), schema));
                Json::Object(named)
            }
            Flavour::Mcp => {
                named.push(("inputSchema".to_owned(), schema));
                Json::Object(named)
            }
            Flavour::JsonSchema => schema,
        }
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
    let rest = match (super::get(&root, "description"), description) {
        (Some(Json::String(text)), Some(tool)) if !tool.is_empty() => text
            .strip_prefix(tool)
            .map(|rest| rest.trim_start().to_owned()),
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

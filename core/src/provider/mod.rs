//! One home per provider: what toolgate knows of each provider's API, by provider.
//!
//! | provider | its module holds | its schema flavours |
//! | --- | --- | --- |
//! | OpenAI (Chat Completions, Responses) | [`openai`]: the definition envelopes, strict mode's rewrite (`openai/strict.rs`) | [`Flavour::OpenAi`], [`Flavour::OpenAiStrict`] |
//! | Anthropic (Messages) | [`anthropic`]: the definition envelope, strict tool use's rewrite and request limits (`anthropic/strict.rs`) | [`Flavour::Anthropic`], [`Flavour::AnthropicStrict`] |
//! | Gemini | [`gemini`]: the function declaration, the `parameters` and `parametersJsonSchema` rewrites (`gemini/schema.rs`) | [`Flavour::Gemini`], [`Flavour::GeminiJson`] |
//! | MCP | [`mcp`]: the tool as `tools/list` gives it | [`Flavour::Mcp`] |
//!
//! What the providers share is written once beside them: the flavours' walk and their one
//! node rewrite ([`crate::flavour`], where each flavour's rules are listed side by side),
//! and the definition reader ([`unwrap_definition`], here), which reads every envelope
//! written here by the keys and shapes these modules name. The message shapes (tool calls
//! read from an answer, results written back) are the boundary's, in
//! `toolgate::boundary::messages`, one file per provider, each with room for the provider's
//! streaming adapter.
//!
//! Two axes, so two enums: a [`Flavour`] is a dialect of JSON Schema, a [`Provider`] an API's
//! envelope and messages. OpenAI's Chat Completions and Responses take the same flavours in
//! different envelopes; Gemini takes two flavours in one.
//!
//! ```
//! use toolgate_core::flavour::Flavour;
//! use toolgate_core::model::ToolModel;
//! use toolgate_core::provider::Provider;
//!
//! let model = ToolModel::from_json_schema(r#"{"title": "ping", "type": "object", "properties": {}}"#).unwrap();
//! let strict = model.schema_for(Flavour::OpenAiStrict).unwrap();
//! let chat = Provider::OpenAiChat.definition(&strict, "ping", None).unwrap().to_value();
//! let responses = Provider::OpenAiResponses.definition(&strict, "ping", None).unwrap().to_value();
//! assert_eq!(chat["function"]["name"], "ping");
//! assert_eq!(responses["name"], "ping");
//! assert_eq!(Flavour::OpenAiStrict.providers(), [Provider::OpenAiChat, Provider::OpenAiResponses]);
//! assert_eq!(Provider::Anthropic.definition(&strict, "ping", None), None);
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::flavour::{Flavour, FlavouredSchema};
use crate::model::Json;

pub mod anthropic;
pub mod gemini;
pub mod mcp;
pub mod openai;

/// A provider's API: the envelope its tool definitions go in, and the shapes of its
/// messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Provider {
    /// OpenAI Chat Completions: tools `{"type": "function", "function": {...}}`;
    /// `message.tool_calls`, answered by `role: "tool"` messages.
    OpenAiChat,
    /// OpenAI Responses: tools `{"type": "function", "name": ...}`; `function_call` output
    /// items, answered by `function_call_output` input items.
    OpenAiResponses,
    /// Anthropic Messages: tools `{name, description, input_schema}`; `tool_use` content
    /// blocks, answered by `tool_result` blocks in a `user` message.
    Anthropic,
    /// Gemini (the Gemini API and Vertex AI): function declarations; `functionCall` parts,
    /// answered by `functionResponse` parts.
    Gemini,
    /// MCP: tools as `tools/list` gives them; calls as `tools/call` params, answered by
    /// `CallToolResult`s.
    Mcp,
}

impl Provider {
    /// Every provider.
    pub const ALL: [Provider; 5] = [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Mcp,
    ];

    /// The provider's name: `openai-chat`, `openai-responses`, `anthropic`, `gemini`, `mcp`.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
            Provider::Mcp => "mcp",
        }
    }

    /// The schema flavours the provider takes, the usual one first.
    pub fn flavours(self) -> &'static [Flavour] {
        match self {
            Provider::OpenAiChat | Provider::OpenAiResponses => {
                &[Flavour::OpenAiStrict, Flavour::OpenAi]
            }
            Provider::Anthropic => &[Flavour::Anthropic, Flavour::AnthropicStrict],
            Provider::Gemini => &[Flavour::GeminiJson, Flavour::Gemini],
            Provider::Mcp => &[Flavour::Mcp],
        }
    }

    /// The tool's definition in this provider's envelope around `flavoured` (see
    /// [`FlavouredSchema::definition`]), or `None` when the provider does not take that
    /// flavour.
    pub fn definition(
        self,
        flavoured: &FlavouredSchema,
        name: &str,
        description: Option<&str>,
    ) -> Option<Json> {
        if !self.flavours().contains(&flavoured.flavour) {
            return None;
        }
        let named = named(name, description);
        let schema = flavoured.schema_without_repeats(name, description);
        let strict = matches!(
            flavoured.flavour,
            Flavour::OpenAiStrict | Flavour::AnthropicStrict
        );
        Some(match self {
            Provider::OpenAiChat => openai::chat_definition(named, schema, strict),
            Provider::OpenAiResponses => openai::responses_definition(named, schema, strict),
            Provider::Anthropic => anthropic::definition(named, schema, strict),
            Provider::Gemini => gemini::declaration(named, schema, flavoured.flavour),
            Provider::Mcp => mcp::definition(named, schema),
        })
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Flavour {
    /// The providers that take this flavour (none for plain JSON Schema).
    pub fn providers(self) -> &'static [Provider] {
        match self {
            Flavour::OpenAiStrict | Flavour::OpenAi => {
                &[Provider::OpenAiChat, Provider::OpenAiResponses]
            }
            Flavour::Anthropic | Flavour::AnthropicStrict => &[Provider::Anthropic],
            Flavour::Gemini | Flavour::GeminiJson => &[Provider::Gemini],
            Flavour::Mcp => &[Provider::Mcp],
            Flavour::JsonSchema => &[],
        }
    }
}

/// The keys a definition envelope holds its arguments schema under, as the providers'
/// modules name them: what the definition reader looks for.
const ARGUMENTS_KEYS: [&str; 4] = [
    openai::PARAMETERS,
    mcp::INPUT_SCHEMA,
    anthropic::INPUT_SCHEMA,
    gemini::PARAMETERS_JSON_SCHEMA,
];

/// A tool definition taken apart: see [`unwrap_definition`].
#[derive(Clone, Debug, PartialEq)]
pub struct Unwrapped {
    /// The tool's `name`, if the definition has one.
    pub name: Option<String>,
    /// The tool's `description`, if the definition has one.
    pub description: Option<String>,
    /// The arguments schema (the whole input, for a bare schema).
    pub schema: Json,
    /// Where the arguments schema is in the definition: `""` (bare schema), `/parameters`,
    /// `/function/parameters`, `/inputSchema` or `/input_schema`.
    pub pointer: String,
    /// An MCP definition's `outputSchema`, with its pointer.
    pub output_schema: Option<(String, Json)>,
}

/// A tool definition's name, description and argument schema; a bare schema is its own
/// arguments schema (named by its `title`, if any).
///
/// ```
/// use toolgate_core::model::{read::unwrap_definition, Json};
///
/// let definition: Json = serde_json::from_str(
///     r#"{"type": "function", "function": {"name": "ping", "parameters": {"type": "object"}}}"#,
/// ).unwrap();
/// let parts = unwrap_definition(definition);
/// assert_eq!(parts.name.as_deref(), Some("ping"));
/// assert_eq!(parts.pointer, "/function/parameters");
/// ```
pub fn unwrap_definition(json: Json) -> Unwrapped {
    let bare = |json| Unwrapped {
        name: None,
        description: None,
        schema: json,
        pointer: String::new(),
        output_schema: None,
    };
    let Json::Object(mut members) = json else {
        return bare(json);
    };
    if let Some(function) = openai::chat_function(&mut members) {
        let mut inner = unwrap_definition(function);
        inner.pointer = format!("/{}{}", openai::FUNCTION, inner.pointer);
        if let Some((pointer, _)) = &mut inner.output_schema {
            *pointer = format!("/{}{pointer}", openai::FUNCTION);
        }
        return inner;
    }
    // Every envelope `Provider::definition` writes is read back here, by the keys the
    // providers' modules name (its round trip is tested in
    // `core/tests/definition_round_trip.rs`): OpenAI's and Gemini's `parameters` (Chat's
    // inside `function`, Responses' flat), MCP's `inputSchema`, Anthropic's
    // `input_schema`, Gemini's `parametersJsonSchema`. A definition's `strict` is the provider's business: the gate
    // enforces the whole schema either way.
    for key in ARGUMENTS_KEYS {
        if let Some(schema) = take(&mut members, key) {
            let name = take(&mut members, "name").and_then(|n| n.as_str().map(str::to_owned));
            let description =
                take(&mut members, "description").and_then(|d| d.as_str().map(str::to_owned));
            let output_schema = take(&mut members, crate::provider::mcp::OUTPUT_SCHEMA)
                .map(|o| (format!("/{}", crate::provider::mcp::OUTPUT_SCHEMA), o));
            return Unwrapped {
                name,
                description,
                schema,
                pointer: format!("/{key}"),
                output_schema,
            };
        }
    }
    bare(Json::Object(members))
}

/// A member of an object, taken out.
fn take(members: &mut Vec<(String, Json)>, key: &str) -> Option<Json> {
    let index = members.iter().position(|(k, _)| k == key)?;
    Some(members.remove(index).1)
}

/// A definition's `name` and `description` members.
fn named(name: &str, description: Option<&str>) -> Vec<(String, Json)> {
    let text = |text: &str| Json::String(text.to_owned());
    let mut named = vec![("name".to_owned(), text(name))];
    if let Some(description) = description {
        named.push(("description".to_owned(), text(description)));
    }
    named
}

/// `"strict": true`.
fn strict_member() -> (String, Json) {
    ("strict".to_owned(), Json::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_flavour_names_the_providers_that_name_it() {
        for provider in Provider::ALL {
            for flavour in provider.flavours() {
                assert!(
                    flavour.providers().contains(&provider),
                    "{provider} {flavour}"
                );
            }
        }
        for flavour in Flavour::ALL {
            for provider in flavour.providers() {
                assert!(
                    provider.flavours().contains(&flavour),
                    "{provider} {flavour}"
                );
            }
        }
    }
}

//! Provider schema flavours: a tool's JSON Schema as one provider accepts it, with a report
//! of every keyword the flavour removed, moved into a description or rewrote.
//!
//! The model itself never changes: a call made against a flavoured schema is decoded by the
//! full model, so every dropped constraint stays enforced (and the flavour's own rewrites
//! are undone by the repair rules: `null` for an optional field that OpenAI's strict mode
//! made required-and-nullable is `null_as_absent`).
//!
//! The flavours:
//! - [`Flavour::JsonSchema`]: plain JSON Schema 2020-12, [`ToolModel::json_schema`] as it is.
//! - [`Flavour::Mcp`]: an MCP `inputSchema` under the 2025-11-25 specification, which makes
//!   2020-12 the default dialect and wants `type: object` at the root: the schema as it is,
//!   with `type: object` written at the root of a union of objects (reported as rewritten).
//! - [`Flavour::OpenAi`]: OpenAI function calling without `strict`. Every keyword is sent
//!   and taken as advice (the model may break any of it; the gate checks it all); the root
//!   must be `type: object`, written at the root of a union of objects as for MCP. Source:
//!   <https://platform.openai.com/docs/guides/function-calling> and the keyword table of
//!   `../shared/reviews/provider-flavours.md` (column OA-N).
//! - [`Flavour::Anthropic`]: Anthropic's `input_schema` without strict tool use. Every keyword
//!   is sent and taken as advice (Anthropic's docs say a model may send `"2"` for an
//!   integer); a union at the root (`anyOf`, `oneOf`, `allOf`) is refused by the API with a
//!   400 (anthropics/claude-code#5973), so such a tool is refused here with that reason.
//!   Source: <https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use>
//!   and the review's column AN.
//! - [`Flavour::OpenAiStrict`]: OpenAI's structured outputs (`strict: true`), rules from
//!   <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>
//!   (re-checked 2026-11 against `../shared/reviews/provider-flavours.md` and its sources):
//!   every object has `additionalProperties: false` and lists every property in `required`
//!   (an optional property becomes required and nullable); supported keywords only (strings:
//!   `pattern`, `format` of date-time, time, date, duration, email, hostname, ipv4, ipv6,
//!   uuid; numbers: the bounds and `multipleOf`; arrays: `items`, `prefixItems`, `minItems`,
//!   `maxItems`; `anyOf` but not at the root; local `$ref`/`$defs`, recursion allowed);
//!   `oneOf` is rewritten to `anyOf`; a `$ref` stands alone (a description beside it is kept
//!   by wrapping the reference in a one-branch `anyOf`, as pydantic-ai does); at most 5,000
//!   properties, 10 levels of nesting, 1,000 enum values and 120,000 characters of property
//!   names, definition names and enum and const values. Free-form keys
//!   (`additionalProperties` with a schema or `true`, `patternProperties`, an object below
//!   the root that declares no property) and untyped values cannot be said in it: the tool
//!   is refused with the path, wherever the node sits (a property, array items, a tuple
//!   element, a union branch, a nullable wrapper, a definition, a map's values).
//! - [`Flavour::AnthropicStrict`]: Anthropic's strict tool use (`strict: true`), rules from
//!   <https://platform.claude.com/docs/en/build-with-claude/structured-outputs> ("JSON Schema
//!   limitations") and the Python SDK's `transform_schema`
//!   (anthropics/anthropic-sdk-python `src/anthropic/lib/_parse/_transform.py`): every object
//!   has `additionalProperties: false` (optional properties stay optional); kept are `type`,
//!   `enum` (no arrays or objects among the values), `const`, `anyOf`, `allOf` (without
//!   `$ref` in it), local `$ref`/`$defs`, `items`, `minItems` of 0 or 1, `pattern` without
//!   backreferences, lookaround or `\b`, `format` of date-time, time, date, duration, email,
//!   hostname, uri, ipv4, ipv6, uuid, and the annotations; `oneOf` is rewritten to `anyOf`
//!   (as the SDK does), and a `$ref` is sent alone (its description removed, as the SDK
//!   sends it); numeric bounds, `multipleOf`, string lengths, `maxItems`, larger `minItems`
//!   and the rest are moved into the description, and so is a pattern with a `{n,m}` bound
//!   over 100 (the docs refuse "complex `{n,m}` quantifiers with large ranges" without a
//!   number: 100 is this crate's line). A recursive definition, a root union, free-form keys
//!   (as for OpenAI's strict mode, in every position) and a value of any type (the SDK refuses a schema with no `type`, `enum` or union) are
//!   refused; so is a tool over the limits of a request's strict tools (24 optional
//!   properties, 16 properties with `anyOf` or a list of types). Those limits, and the 20
//!   strict tools, count over every strict tool of a request: a toolbox's sum is not checked
//!   here.
//! - [`Flavour::Gemini`]: Gemini's `parameters`, an OpenAPI 3.0 `Schema` object, rules from
//!   <https://ai.google.dev/api/caching#Schema> and
//!   <https://cloud.google.com/vertex-ai/docs/reference/rest/v1/Schema> (its fields), with
//!   the keyword table's column GM-P: the object's own fields are kept (as advice: Gemini
//!   does not enforce them); definitions are inlined (`$ref` and `$defs` rewritten; a
//!   recursive definition is refused, and inlining stops at [`MAX_INLINED_NODES`] nodes or
//!   [`MAX_INLINED_DEPTH`] levels); a
//!   `[T, "null"]` type, or an `anyOf` branch `{"type": "null"}`, becomes `nullable: true`;
//!   `oneOf` becomes `anyOf`, `const` a one-value `enum`; an enum holds strings only, so a
//!   numeric enum is written as text with `type: string` (the gate's `string_to_number`
//!   repair reads `"2"` back as `2`; a boolean enum, or numbers whose text would not read
//!   back exactly, go into the description); `format` only as the Schema knows it (date-time
//!   and enum on strings, int32 and int64 on integers, float and double on numbers); every
//!   other keyword (`additionalProperties`, `exclusiveMinimum`, `multipleOf`, `uniqueItems`,
//!   `prefixItems`, ...) is moved into the description, annotations removed. A value of any
//!   type (no `type`) and a list of several types are refused: the Schema wants one type.
//!   Types are written in lower case, as JSON Schema spells them and as the Vercel AI SDK
//!   sends them to the API (the API's enum is `OBJECT`, `STRING`..., and Google's own SDKs
//!   upper-case them; the API's documentation does not say which case it reads, and the
//!   lower case works in that SDK's use).
//! - [`Flavour::GeminiJson`]: Gemini's `parametersJsonSchema`, rules from
//!   <https://ai.google.dev/gemini-api/docs/structured-output> (the supported keywords:
//!   `$id`, `$defs`, `$ref`, `$anchor`, `type`, `format`, `title`, `description`, `enum`,
//!   `items`, `prefixItems`, `minItems`, `maxItems`, `minimum`, `maximum`, `anyOf`, `oneOf`
//!   read as `anyOf`, `properties`, `additionalProperties`, `required`; others are ignored):
//!   `oneOf` is rewritten to `anyOf` and `const` to a one-value `enum`, so what Gemini reads is
//!   what is sent; a format other than date-time, date and time and every constraint Gemini
//!   ignores (string lengths, `pattern`, `exclusiveMinimum`, `multipleOf`, `uniqueItems`, ...)
//!   are moved into the description, where the model reads them; annotations stay; a `$ref`
//!   keeps only `$` keywords beside it (the SDKs' documentation: "If `$ref` is set on a
//!   sub-schema, no other properties, except for those starting as a `$`, may be set").
//!   Recursion is sent as it is: Gemini unrolls it "to a limited degree".
//!
//! Gemini documents no size limits for a declaration ("may reject very large or deeply
//! nested schemas"), MCP none at all; none of theirs is checked. Every flavour's output is
//! held to [`MAX_FLAVOURED_BYTES`] (1 MiB of compact JSON), enforced while it is written.
//!
//! Every rewriting flavour recurses by one walk (`walk::each_child`), which visits every
//! subschema wherever it sits, so no position is left unwritten; and the definition of a
//! tool ([`FlavouredSchema::definition`]) sends its name and description once.
//!
//! ```
//! use toolgate_core::flavour::{Action, Flavour};
//! use toolgate_core::model::ToolModel;
//!
//! let model = ToolModel::from_json_schema(r#"{"title": "note", "type": "object",
//!     "properties": {"text": {"type": "string", "maxLength": 500}, "tag": {"type": "string"}},
//!     "required": ["text"]}"#).unwrap();
//! let strict = model.schema_for(Flavour::OpenAiStrict).unwrap();
//! let schema = strict.schema.to_value();
//! assert_eq!(schema["required"], serde_json::json!(["text", "tag"]));
//! assert_eq!(schema["properties"]["tag"]["type"], serde_json::json!(["string", "null"]));
//! let dropped = &strict.dropped.iter().find(|d| d.keyword == "maxLength").unwrap();
//! assert_eq!(dropped.path, "/properties/text");
//! assert_eq!(dropped.action, Action::MovedToDescription);
//! assert!(schema["properties"]["text"]["description"].as_str().unwrap().contains("maxLength: 500"));
//! ```

mod lint;
pub(crate) mod node;
mod request;
pub(crate) mod walk;

pub use crate::provider::gemini::{MAX_INLINED_DEPTH, MAX_INLINED_NODES};
pub use lint::{Lint, Loss};
pub use request::request_definitions;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::model::{Json, ToolModel};
use crate::provider;

/// A provider's dialect of JSON Schema for tool parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Flavour {
    /// OpenAI function calling with `strict: true` (structured outputs).
    OpenAiStrict,
    /// OpenAI function calling without `strict`: every keyword is sent, and is advice only.
    OpenAi,
    /// Anthropic `input_schema` without strict tool use: every keyword is sent, and is advice
    /// only; no union at the root.
    Anthropic,
    /// Anthropic strict tool use (`strict: true`): grammar-constrained, a subset of JSON
    /// Schema.
    AnthropicStrict,
    /// Gemini `parameters`: an OpenAPI 3.0 `Schema` (no references, `nullable`, string enums).
    Gemini,
    /// Gemini `parametersJsonSchema`: JSON Schema, of which Gemini reads a subset.
    GeminiJson,
    /// MCP `inputSchema`, specification 2025-11-25 (JSON Schema 2020-12).
    Mcp,
    /// Plain JSON Schema 2020-12: the model's own schema.
    JsonSchema,
}

impl Flavour {
    /// Every flavour.
    pub const ALL: [Flavour; 8] = [
        Flavour::OpenAiStrict,
        Flavour::OpenAi,
        Flavour::Anthropic,
        Flavour::AnthropicStrict,
        Flavour::Gemini,
        Flavour::GeminiJson,
        Flavour::Mcp,
        Flavour::JsonSchema,
    ];

    /// The flavour's name (`openai-strict`, `openai`, `anthropic`, `anthropic-strict`,
    /// `gemini`, `gemini-json`, `mcp`, `json-schema`).
    pub fn name(self) -> &'static str {
        match self {
            Flavour::OpenAiStrict => "openai-strict",
            Flavour::OpenAi => "openai",
            Flavour::Anthropic => "anthropic",
            Flavour::AnthropicStrict => "anthropic-strict",
            Flavour::Gemini => "gemini",
            Flavour::GeminiJson => "gemini-json",
            Flavour::Mcp => "mcp",
            Flavour::JsonSchema => "json-schema",
        }
    }
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Flavour {
    type Err = String;

    fn from_str(name: &str) -> Result<Flavour, String> {
        Flavour::ALL
            .into_iter()
            .find(|flavour| flavour.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Flavour::ALL.iter().map(|f| f.name()).collect();
                format!("no flavour named {name:?} (there are {})", names.join(", "))
            })
    }
}

/// What a flavour did with a keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Taken out (an annotation, or a constraint with nowhere to go).
    Removed,
    /// Taken out, and written into the node's `description` as `(keyword: value)`.
    MovedToDescription,
    /// Written another way the provider accepts (`oneOf` → `anyOf`, an optional property
    /// made required and nullable, a width `format` made bounds).
    Rewritten,
}

impl Action {
    /// The action's name (`removed`, `moved_to_description`, `rewritten`).
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Removed => "removed",
            Action::MovedToDescription => "moved_to_description",
            Action::Rewritten => "rewritten",
        }
    }
}

/// One keyword a flavour dropped or rewrote.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dropped {
    /// The JSON pointer of the schema node that held it, in the flavoured schema (`""` for
    /// the root).
    pub path: String,
    /// The keyword.
    pub keyword: String,
    /// Its value (for a property made required: the property's name).
    pub value: Value,
    /// What was done.
    pub action: Action,
}

impl fmt::Display for Dropped {
    /// `path keyword action`, the one-line form of the CLI's report (`/ required rewritten
    /// (tag)` names the property a `required` rewrite is about).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(f, "{path} {} {}", self.keyword, self.action.as_str())?;
        // Which property a `required` rewrite made required.
        match (self.keyword.as_str(), &self.value) {
            ("required", Value::String(property)) => write!(f, " ({property})"),
            _ => Ok(()),
        }
    }
}

impl Dropped {
    /// Whether the provider no longer sees a constraint of the tool's (it was removed or
    /// moved into a description, and is not an annotation): the gate still enforces it, and
    /// the build lint ([`Lint`]) reports it. A rewrite says the same
    /// thing another way and loses nothing.
    pub fn loses_constraint(&self) -> bool {
        self.action != Action::Rewritten && constrains(&self.keyword, &self.value)
    }
}

/// The size of a flavoured schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SchemaSize {
    /// Bytes of its compact JSON.
    pub bytes: usize,
    /// A token estimate: a token per 4 bytes, rounded up (the rule of thumb the providers
    /// give for English and JSON text; real tokenisers differ by model).
    pub tokens: usize,
}

impl SchemaSize {
    fn of(bytes: usize) -> SchemaSize {
        SchemaSize {
            bytes,
            tokens: bytes.div_ceil(4),
        }
    }
}

/// The most bytes of compact JSON a flavour writes for one tool's schema: 1 MiB, some
/// 260,000 tokens, more than any provider's context takes for a tool. Every flavour's
/// output is held to it ([`FlavourError::OverLimit`], limit `bytes of schema`), so that no
/// schema (a definition with a long description used by many properties, which Gemini's
/// inlining copies into each) makes a flavour write more than this: Gemini's inlining counts
/// the bytes it copies as it copies them and stops as soon as they pass the bound (before
/// the copy is made), and the other flavours, which write at most a bounded amount per node
/// of the schema they read, are measured once written, without building the text.
pub const MAX_FLAVOURED_BYTES: usize = 1 << 20;

/// What [`MAX_FLAVOURED_BYTES`] counts.
const FLAVOURED_BYTES: &str = "bytes of schema";

/// The length of a value's compact JSON, counted without writing it anywhere.
pub(crate) fn json_bytes(value: &Json) -> usize {
    crate::values::compact_json_len(value)
}

/// A tool's schema in a flavour, with what the flavour dropped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlavouredSchema {
    /// The flavour.
    pub flavour: Flavour,
    /// The schema to send, members in the model's order (a provider generates arguments in
    /// the order of the properties; [`Json::to_value`] gives a `serde_json::Value`).
    pub schema: Json,
    /// Every keyword removed, moved or rewritten, in document order.
    pub dropped: Vec<Dropped>,
    /// Its size.
    pub size: SchemaSize,
}

/// Why a tool's schema cannot be written in a flavour.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FlavourError {
    /// The schema passes one of the flavour's size limits.
    #[error("{tool}: {flavour} allows at most {max} {limit}; the schema has {found}")]
    OverLimit {
        /// The tool.
        tool: String,
        /// The flavour.
        flavour: Flavour,
        /// What is limited (`properties`, `levels of nesting`, ...).
        limit: &'static str,
        /// The limit.
        max: usize,
        /// What the schema has.
        found: usize,
    },
    /// The tools of one request pass a limit the flavour sets over them all.
    #[error("{tools} tools sent together: {flavour} allows at most {max} {limit} over a request; they have {found}")]
    OverRequestLimit {
        /// How many tools.
        tools: usize,
        /// The flavour.
        flavour: Flavour,
        /// What is limited (`strict tools`, `optional properties`, ...).
        limit: &'static str,
        /// The limit.
        max: usize,
        /// What the tools have together.
        found: usize,
    },
    /// Something of the schema has no form in the flavour.
    #[error("{tool}: {flavour} cannot express {what} (at {path})")]
    Inexpressible {
        /// The tool.
        tool: String,
        /// The flavour.
        flavour: Flavour,
        /// The JSON pointer of the node.
        path: String,
        /// What cannot be expressed.
        what: String,
    },
}

impl ToolModel {
    /// The tool's schema in `flavour`, with constraints the flavour drops moved into
    /// descriptions (as the providers' SDKs do).
    pub fn schema_for(&self, flavour: Flavour) -> Result<FlavouredSchema, FlavourError> {
        self.schema_for_with(flavour, true)
    }

    /// The tool's schema in `flavour`; `describe_dropped` says whether a dropped constraint
    /// is written into its node's description (capped at [`MAX_DESCRIBED_CHARS`] a node) or
    /// only removed.
    pub fn schema_for_with(
        &self,
        flavour: Flavour,
        describe_dropped: bool,
    ) -> Result<FlavouredSchema, FlavourError> {
        // The model writes its schema as JSON; only a schema nested deeper than serde_json
        // reads (128 levels) does not read back.
        let Ok(schema) = serde_json::from_str::<Json>(self.json_schema()) else {
            return Err(FlavourError::Inexpressible {
                tool: self.name().to_owned(),
                flavour,
                path: String::new(),
                what: "a schema nested deeper than 128 levels".to_owned(),
            });
        };
        flavoured(self.name(), flavour, schema, describe_dropped)
    }
}

/// A schema written by the model (`schema`, read back) in `flavour`: the rewrite, then the
/// byte bound.
pub(crate) fn flavoured(
    name: &str,
    flavour: Flavour,
    mut schema: Json,
    describe_dropped: bool,
) -> Result<FlavouredSchema, FlavourError> {
    let mut dropped = Vec::new();
    let mut walk = walk::Walk::new(name, flavour, &mut dropped, describe_dropped);
    match flavour {
        Flavour::JsonSchema => {}
        Flavour::Mcp | Flavour::OpenAi => walk.object_root(&mut schema)?,
        Flavour::Anthropic => {
            walk.no_root_union(&schema)?;
            walk.object_root(&mut schema)?;
        }
        Flavour::OpenAiStrict => provider::openai::strict::rewrite(&mut walk, &mut schema)?,
        Flavour::AnthropicStrict => provider::anthropic::strict::rewrite(&mut walk, &mut schema)?,
        Flavour::Gemini => provider::gemini::schema::rewrite(&mut walk, &mut schema)?,
        Flavour::GeminiJson => {
            provider::gemini::schema::rewrite_json_schema(&mut walk, &mut schema)?
        }
    }
    let bytes = json_bytes(&schema);
    walk.over(FLAVOURED_BYTES, MAX_FLAVOURED_BYTES, bytes)?;
    Ok(FlavouredSchema {
        flavour,
        schema,
        dropped,
        size: SchemaSize::of(bytes),
    })
}

/// Whether a keyword only annotates (a description, a title, an example, a vendor `x-`
/// keyword): taking it out of a schema loses no constraint, so a flavour removes it rather
/// than moving it into the description, and [`Dropped::loses_constraint`] is false for it.
///
/// ```
/// assert!(toolgate_core::flavour::is_annotation("title"));
/// assert!(toolgate_core::flavour::is_annotation("x-order"));
/// assert!(!toolgate_core::flavour::is_annotation("maxLength"));
/// ```
pub fn is_annotation(keyword: &str) -> bool {
    const OTHERS: [&str; 6] = [
        "description",
        "default",
        "examples",
        "$schema",
        "$id",
        "$anchor",
    ];
    crate::model::read::keywords::ANNOTATIONS.contains(&keyword)
        || OTHERS.contains(&keyword)
        || keyword.starts_with("x-")
}

/// Whether a keyword with this value constrains values: not an annotation, and not the
/// `format` `double` (a 64-bit float takes every number a JSON parser reads).
pub(crate) fn constrains(keyword: &str, value: &Value) -> bool {
    let any_number = keyword == "format" && value.as_str() == Some("double");
    !is_annotation(keyword) && !any_number
}

/// The most characters a flavour adds to one node's description.
pub const MAX_DESCRIBED_CHARS: usize = 200;

/// Appends `(keyword: value; ...)` for the moved keywords to a node's description.
pub(crate) fn describe(node: &mut Members, moved: &[(String, Value)]) {
    if moved.is_empty() {
        return;
    }
    let parts: Vec<String> = moved
        .iter()
        .map(|(keyword, value)| format!("{keyword}: {value}"))
        .collect();
    let note = crate::issue::shorten_text(&format!("({})", parts.join("; ")), MAX_DESCRIBED_CHARS);
    let text = match get(node, "description").and_then(Json::as_str) {
        Some(description) if !description.is_empty() => format!("{description} {note}"),
        _ => note,
    };
    insert(node, "description", Json::String(text));
}

/// An object's members, in order.
pub(crate) type Members = Vec<(String, Json)>;

pub(crate) fn get<'m>(members: &'m Members, key: &str) -> Option<&'m Json> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

pub(crate) fn get_mut<'m>(members: &'m mut Members, key: &str) -> Option<&'m mut Json> {
    members.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
}

pub(crate) fn contains(members: &Members, key: &str) -> bool {
    members.iter().any(|(k, _)| k == key)
}

/// Takes a member out, the others keeping their order.
pub(crate) fn remove(members: &mut Members, key: &str) -> Option<Json> {
    let at = members.iter().position(|(k, _)| k == key)?;
    Some(members.remove(at).1)
}

/// Sets a member in its place, or last when it is new.
pub(crate) fn insert(members: &mut Members, key: &str, value: Json) {
    match get_mut(members, key) {
        Some(slot) => *slot = value,
        None => members.push((key.to_owned(), value)),
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod bounds_tests;

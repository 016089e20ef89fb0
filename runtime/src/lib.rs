//! # toolgate
//!
//! Make LLM tool calls land. toolgate is the one gate at the tool boundary: it checks the
//! arguments a model sent against the tool's schema, refuses what is wrong with **every**
//! issue as structured data ([`Issue`]: path, constraint, expected, got), and turns those
//! issues into a short, capped [`RetryHint`] the model can act on.
//!
//! The gate is generated from the tool's own Rust type with `#[derive(Tool)]`. Its main job
//! is [`Tool::decode`]: the text a model sent, repaired where that loses nothing (each repair
//! logged), or refused with every issue and a retry hint:
//!
//! ```
//! use toolgate::Tool;
//!
//! /// Current weather at a place.
//! #[derive(Tool, serde::Deserialize, Debug)]
//! struct GetWeather {
//!     /// Latitude in degrees
//!     #[tool(range(min = -90.0, max = 90.0))]
//!     lat: f64,
//!     /// Longitude in degrees
//!     #[tool(range(min = -180.0, max = 180.0))]
//!     lon: f64,
//!     /// Unit system of the answer
//!     units: Option<Units>,
//! }
//!
//! /// Unit system
//! #[derive(Tool, serde::Deserialize, Debug)]
//! #[serde(rename_all = "snake_case")]
//! enum Units { Metric, Imperial }
//!
//! // What a model sent: in a markdown fence, a number as a string, the enum capitalised.
//! let sent = "```json\n{\"lat\": \"48.85\", \"lon\": 2.35, \"units\": \"Metric\"}\n```";
//! let decoded = GetWeather::decode(sent).unwrap();
//! assert_eq!(decoded.value.lat, 48.85);
//! let rules: Vec<&str> = decoded.repairs.iter().map(|r| r.rule.as_str()).collect();
//! assert_eq!(rules, ["json_text", "string_to_number", "enum_case"]);
//!
//! // What no repair can fix is refused: every issue as data, and a short hint for the model.
//! let rejected = GetWeather::decode(r#"{"lat": 123, "units": "kelvin"}"#).unwrap_err();
//! let broken: Vec<String> = rejected.report.iter().map(|i| i.to_string()).collect();
//! assert_eq!(broken.len(), 3); // `lat` over its maximum, `lon` left out, `units` unknown
//! let hint = rejected.hint_json(); // the tool result's text
//! assert!(hint.contains(r#""missing_fields":["lon"]"#));
//! ```
//!
//! A value built in Rust is checked by the same rules with `validate()`, and its issues make
//! the same hint:
//!
//! ```
//! use toolgate::hint::HintReason;
//! use toolgate::{RetryHint, Tool};
//!
//! #[derive(Tool)]
//! struct GetWeather {
//!     #[tool(range(min = -90.0, max = 90.0))]
//!     lat: f64,
//!     #[tool(range(min = -180.0, max = 180.0))]
//!     lon: f64,
//! }
//!
//! assert_eq!(GetWeather::name(), "get_weather");
//! let report = GetWeather { lat: 123.0, lon: 2.35 }.validate().unwrap_err();
//! assert_eq!(report.to_string(), "lat: 123 is greater than the maximum 90");
//! let hint = RetryHint::build(GetWeather::model(), &report, HintReason::InvalidArguments);
//! assert_eq!(hint.fields[0].max.unwrap().to_string(), "90");
//! ```
//!
//! ## `#[derive(Tool)]`
//!
//! On a struct with named fields it implements [`ToolArg`] and [`Tool`]; on an enum of unit
//! variants (a string enum) it implements [`ToolArg`], so the enum can be a field type.
//!
//! Field types: `bool`; every integer type (its range is a constraint too); `f32`, `f64`;
//! `String`; `Option<T>` (an optional field; `None` is absent); `Vec<T>`;
//! `HashMap<String, T>`, `BTreeMap<String, T>`; `Box<T>`; `serde_json::Value`; `()` (only
//! `null`); and types that derive `Tool`. Generic types are not supported: a tool's schema is one fixed type.
//!
//! A type that derives `Tool` and is used once in a tool is written inline where it is used;
//! one used more than once, or that contains itself, is written once under `$defs` and
//! referenced (`{"$ref": "#/$defs/Name"}`, with the field's own description beside it), so
//! a schema grows with the number of types, not with the number of paths through them (see
//! [`model::Definitions`]).
//!
//! Container attributes: `#[tool(name = "...", description = "...")]` (defaults: the type's
//! name in snake_case, the doc comment); `#[tool(width_formats)]` writes every number's
//! Rust width as its `format` (`"uint8"`, `"double"`), as schemars does.
//!
//! **Values held as JSON.** `#[tool(schema = "...")]` on a `serde_json::Value` field (or an
//! `Option` of one, for an optional field) gives the field's whole schema as JSON Schema
//! text (draft 2020-12, with its own `$defs`), read at compile time by the same reader as
//! [`DynamicTool`]: decoding repairs and checks the value against it as the run-time road
//! does, and `validate()` checks it with the run-time value checker. The text holds every
//! constraint, `null`, the default, the examples and the description (no other key beside
//! it; the doc comment is for readers). On `struct Name(serde_json::Value);` with `name`,
//! the same key gives the schema of the whole arguments: a tool whose arguments are a union
//! of object shapes, say. The schema compiler writes these where serde cannot read a shape
//! as a Rust type; a model that holds such a value always decodes through the decoder
//! (serde alone would not see a repeated key inside it).
//!
//! ```
//! use toolgate::Tool;
//!
//! /// Move a page.
//! #[derive(Tool, serde::Deserialize)]
//! struct MovePage {
//!     /// The new parent: a page or a database, told apart by their keys only.
//!     #[tool(schema = r#"{"anyOf": [
//!         {"type": "object", "properties": {"page_id": {"type": "string"}}, "required": ["page_id"], "additionalProperties": false},
//!         {"type": "object", "properties": {"database_id": {"type": "string"}}, "required": ["database_id"], "additionalProperties": false}]}"#)]
//!     parent: serde_json::Value,
//! }
//!
//! let moved = MovePage::decode(r#"{"parent": {"database_id": "d"}}"#).unwrap();
//! assert_eq!(moved.value.parent["database_id"], "d");
//! assert!(MovePage::decode(r#"{"parent": {"block_id": "b"}}"#).is_err());
//!
//! /// Purge cached content: by tags or by files.
//! #[derive(Tool, serde::Deserialize)]
//! #[tool(name = "purge_cache", schema = r#"{"anyOf": [
//!     {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}, "required": ["tags"]},
//!     {"type": "object", "properties": {"files": {"type": "array", "items": {"type": "string"}}}, "required": ["files"]}]}"#)]
//! struct PurgeCache(serde_json::Value);
//!
//! assert!(PurgeCache::decode(r#"{"files": "[\"a\"]"}"#).is_ok()); // json_string
//! assert!(PurgeCache(serde_json::json!({"urls": []})).validate().is_err());
//! ```
//!
//! Field attributes, in the vocabulary of garde, validator and schemars:
//!
//! | attribute | applies to | JSON Schema |
//! | --- | --- | --- |
//! | `range(min = .., max = ..)` | numbers | `minimum`, `maximum` |
//! | `exclusive_range(min = .., max = ..)` | numbers | `exclusiveMinimum`, `exclusiveMaximum` |
//! | `multiple_of = ..` | numbers | `multipleOf` |
//! | `length(min = .., max = ..)` | strings (characters), arrays (elements) | `minLength`/`maxLength`, `minItems`/`maxItems` |
//! | `pattern = ".."` | strings | `pattern` (ECMA-262, as JSON Schema says; checked when the derive runs, see [`model::Pattern`]) |
//! | `format = ".."` | strings | `format`: `email`, `uri`, `date`, `date-time`, `time`, `uuid`, `ipv4`, `ipv6`, `hostname` |
//! | `format = ".."` | numbers | `format` naming the Rust width (`"int32"` on an `i32`, `"double"` on an `f64`); written only when asked for, since the bounds say the range |
//! | `unique` | arrays | `uniqueItems` |
//! | `items(..)` | arrays | the same constraints, on the elements (and their `description`) |
//! | `values(..)` | maps | the same constraints, on the values (and their `description`) |
//! | `enum_values = [..]` | numbers, strings, bools, `serde_json::Value` | `enum` (alone: the values say it all) |
//! | `constant = ..` | any | `const` (a literal or an array of literals) |
//! | `nullable` | `Option<T>` | `null` is a value; the field is required unless it has a default |
//! | `alias = ".."` | any | `x-aliases` |
//! | `description = ".."` | any | `description` (default: the doc comment) |
//! | `example = ..` | any | `examples` (a literal or an array of literals) |
//! | `schema = ".."` | `serde_json::Value` | the whole schema, as JSON Schema text (above) |
//!
//! The derive reads `#[serde(rename, rename_all, alias, default, skip, skip_deserializing,
//! deny_unknown_fields, tag, untagged, flatten)]` so wire names, defaults and the
//! unknown-field policy agree with serde's: `tag` and `untagged` make an enum with data a
//! union (`oneOf` of tagged objects, `anyOf` of types); `flatten` on a map field collects the
//! keys the struct does not declare (`additionalProperties` with the map's value schema).
//! Serde attributes that change the wire form in ways a schema cannot follow (`with`,
//! `deserialize_with`, external and adjacent tagging, `flatten` on a struct, ...) are
//! compile errors.
//!
//! A constraint that does not fit the field's type, a bound outside the type's range,
//! `min > max`, a pattern that does not compile, an unknown format, an unknown or duplicate
//! key, and an unsupported type are compile errors at the span of the offending tokens, all
//! reported at once.
//!
//! ## Features
//!
//! Each module a feature brings is labelled with it in these docs.
//!
//! - `derive` (default): `#[derive(Tool)]`.
//! - `schemars`: the derive also implements `schemars::JsonSchema`, so the types plug into
//!   schemars-based frameworks (rmcp's `Parameters<T>`).
//! - `foreign`: error texts of other libraries (pydantic, zod, AJV, serde, Go, RFC 9457...)
//!   read as issues (`toolgate::foreign`).
//! - `boundary`: the tool boundary (`toolgate::boundary`): a `Toolbox` registry gating every
//!   call, one result `Envelope`, budgets, middleware and `tracing` telemetry.
//! - `mcp`: a `Toolbox` served as an MCP server with rmcp 3 (`toolgate::mcp`).
//! - `mcp-proxy`: `mcp::Proxy`, the gate in front of an MCP server started as a child
//!   process (what `toolgate mcp-proxy` runs).
//! - `axum`: an axum extractor that gates a request body, answering `422` with
//!   `application/problem+json`, and a `Toolbox` served over HTTP (`toolgate::http`).
//! - `openai`: an OpenAI-compatible Chat Completions client that drives agent turns through
//!   a `Toolbox` and corrects calls (`toolgate::openai`).

#![warn(missing_docs)]
// docs.rs builds with every feature and `--cfg docsrs`: each feature-gated item is labelled
// with the feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

// The names a user types (issue 30 §5): the traits a tool implements, what a decode gives,
// what a refusal holds, the run-time tool and the two field wrappers. The rest is one
// module down, under a name that says what it holds. `toolgate-core` is the implementation
// these re-export; its helpers are not this crate's API.
pub use toolgate_core::{Constraint, Issue, Path, Report, RetryHint};
pub use toolgate_core::{Decoded, Rejected, Repair, Rule};
pub use toolgate_core::{DynamicTool, Lenient, Nullable};
pub use toolgate_core::{Tool, ToolArg, ToolOutput};

pub mod check;
pub mod decode;
pub mod flavour;
pub mod hint;
pub mod issue;
pub mod model;
pub mod path;
pub mod streaming;

/// Reference pages: every rule of what the gate repairs and refuses, and every limit it
/// keeps. The README gives the short of them and links here.
pub mod reference {
    #[doc = include_str!("../docs/repairs.md")]
    pub mod repairs {}
    #[doc = include_str!("../docs/limits.md")]
    pub mod limits {}
}

/// The `serde_json` toolgate is built with. Code written by the schema compiler names its
/// types through this path (`::toolgate::serde_json::Value` for a field of any value), so a
/// crate using generated tools needs no `serde_json` dependency of its own, and the version
/// always matches.
pub use serde_json;

#[cfg(feature = "derive")]
pub use toolgate_macros::Tool;

pub mod prompt;

#[cfg(feature = "boundary")]
pub mod boundary;

#[cfg(feature = "foreign")]
pub mod foreign;

#[cfg(feature = "mcp")]
pub mod mcp;

/// The rmcp (3.x) that [`mcp`] serves with, with its `server` feature: `use
/// toolgate::rmcp::ServiceExt;` needs no `rmcp` line of your own. Add one (the same major
/// version) for features toolgate does not turn on; Cargo builds one rmcp for both.
#[cfg(feature = "mcp")]
pub use rmcp;

#[cfg(feature = "axum")]
pub mod http;

/// The axum (0.8) that [`http`] extracts for, with its `json`, `tokio` and `http1`
/// features: routes, handlers and `axum::serve` need no `axum` line of your own. Add one
/// (the same major version) for features toolgate does not turn on; Cargo builds one axum
/// for both.
#[cfg(feature = "axum")]
pub use axum;

#[cfg(feature = "openai")]
pub mod openai;

/// What generated code uses; not a public API.
#[doc(hidden)]
pub mod __private {
    // The schema compiler's code derives serde's traits through this path
    // (`#[serde(crate = "::toolgate::__private::serde")]`): a `build.rs` user needs no
    // dependency on serde of their own.
    pub use serde;
    pub use serde_json;
    pub use toolgate_core::ObjectWriter;
    // The typed reader generated code calls (`ToolArg::read_arg`).
    pub use toolgate_core::__typed::{Read, Reader, Unread};
    pub use toolgate_core::plan::NodeId;

    /// The types a field with `#[tool(schema = "...")]` may have: it holds a JSON value.
    #[diagnostic::on_unimplemented(
        message = "a field with `#[tool(schema = ...)]` holds a JSON value, not `{Self}`",
        label = "write `serde_json::Value` (`Option` or `toolgate::Nullable` of it for an optional field)"
    )]
    pub trait JsonValueField {}

    impl JsonValueField for serde_json::Value {}

    /// The schema of a value of type `T` held as JSON, read from its JSON Schema text
    /// ([`crate::model::Definitions::schema_text`]).
    pub fn schema_text<T: JsonValueField>(
        definitions: &mut crate::model::Definitions,
        text: &str,
    ) -> crate::model::Schema {
        definitions.schema_text(text)
    }

    /// The annotations of `#[tool(annotations = "...")]`, keyword and value in the order of
    /// the text. The derive checked that the text is a JSON object.
    pub fn annotations(json: &str) -> Vec<(String, serde_json::Value)> {
        toolgate_core::model::annotation_members(json)
    }

    /// The default of a field written by the schema compiler, read from its JSON. The
    /// compiler checked the value against the field's schema, and serde reads the type the
    /// same way, so this does not fail on generated code.
    pub fn from_json_default<T: serde::de::DeserializeOwned>(json: &str) -> T {
        match serde_json::from_str(json) {
            Ok(value) => value,
            Err(error) => {
                panic!("toolgate: the default {json} does not fit its Rust type: {error}")
            }
        }
    }

    #[cfg(feature = "schemars")]
    pub use schemars;

    /// The schemars schema of a toolgate type: our schema, inline, with our definitions added
    /// to the generator's (references rewritten to its definitions path).
    #[cfg(feature = "schemars")]
    pub fn schemars_schema<T: crate::ToolArg>(
        generator: &mut schemars::SchemaGenerator,
    ) -> schemars::Schema {
        use serde_json::Value;

        let model = crate::model::ToolModel::of::<T>("", None);
        let path = generator
            .settings()
            .definitions_path
            .trim_start_matches('#')
            .trim_matches('/')
            .to_owned();
        let prefix = format!("#/{path}/");
        /// Points `#/$defs/<name>` references at the generator's definitions, renamed.
        fn rewrite(
            value: &mut Value,
            prefix: &str,
            names: &std::collections::BTreeMap<String, String>,
        ) {
            match value {
                Value::Object(members) => {
                    for (key, member) in members.iter_mut() {
                        match member {
                            Value::String(target) if key == "$ref" => {
                                if let Some(name) = target.strip_prefix("#/$defs/") {
                                    let name = names.get(name).map_or(name, String::as_str);
                                    *target = format!("{prefix}{name}");
                                }
                            }
                            other => rewrite(other, prefix, names),
                        }
                    }
                }
                Value::Array(items) => items
                    .iter_mut()
                    .for_each(|item| rewrite(item, prefix, names)),
                _ => {}
            }
        }
        // Our definitions keep their names unless the generator holds another schema under
        // one (two types of the same Rust name in different modules): then they are numbered.
        let same_names = std::collections::BTreeMap::new();
        let mut names = std::collections::BTreeMap::new();
        for (name, schema) in model.definitions() {
            let mut body = schema.to_json_value();
            rewrite(&mut body, &prefix, &same_names);
            let taken = |candidate: &str| {
                generator
                    .definitions()
                    .get(candidate)
                    .is_some_and(|existing| *existing != body)
            };
            let mut chosen = name.clone();
            let mut number = 2;
            while taken(&chosen) {
                chosen = format!("{name}{number}");
                number += 1;
            }
            names.insert(name.clone(), chosen);
        }
        for (name, schema) in model.definitions() {
            let mut body = schema.to_json_value();
            rewrite(&mut body, &prefix, &names);
            generator
                .definitions_mut()
                .entry(names[name].clone())
                .or_insert(body);
        }
        let mut value = model.input().to_json_value();
        rewrite(&mut value, &prefix, &names);
        if let (Some(description), Value::Object(members)) = (model.description(), &mut value) {
            members.insert("description".into(), Value::from(description));
        }
        schemars::Schema::try_from(value).unwrap_or_default()
    }
}

/// Implements `schemars::JsonSchema` for a derived type when the `schemars` feature is on;
/// expands to nothing otherwise. Generated code calls it; not a public API.
#[cfg(feature = "schemars")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_json_schema {
    ($ty:ident, $name:literal) => {
        #[automatically_derived]
        impl $crate::__private::schemars::JsonSchema for $ty {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed($name)
            }

            fn schema_id() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed(::core::concat!(::core::module_path!(), "::", $name))
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(
                generator: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::schemars_schema::<Self>(generator)
            }
        }
    };
}

/// Implements `schemars::JsonSchema` for a derived type when the `schemars` feature is on;
/// expands to nothing otherwise. Generated code calls it; not a public API.
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_json_schema {
    ($ty:ident, $name:literal) => {};
}

/// The README's code, compiled and run as a doc test so it cannot rot. Its snippets use the
/// features they show (an MCP server, an axum handler, the boundary) without hiding a
/// `cfg` in what crates.io renders, so they are tested where those features are on
/// (`cargo test --workspace` turns every feature on).
#[cfg(all(doctest, feature = "mcp", feature = "axum"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

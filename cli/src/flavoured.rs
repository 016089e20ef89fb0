//! `toolgate schema FILE --flavour NAME`: a tool's definition as one provider accepts it on
//! stdout, and what the flavour dropped on stderr, one line each (`path keyword action`).
//!
//! Exit codes: 0 when the tool is written (also with drops, unless `--deny-dropped`); 1 when
//! the tool cannot be expressed in the flavour (the reason on stderr) or, with
//! `--deny-dropped`, when anything was dropped; 2 when the file cannot be read or is not a
//! tool.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context;
use toolgate_core::flavour::{Flavour, FlavouredSchema};
use toolgate_core::model::{Json, ToolModel};

use crate::SchemaArgs;

pub fn run(
    args: &SchemaArgs,
    mut out: impl Write,
    mut err: impl Write,
) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let model = ToolModel::from_definition_text(&text)
        .with_context(|| format!("{}: not a usable tool definition", args.file.display()))?;
    let flavoured = match model.schema_for_with(args.flavour, !args.no_describe) {
        Ok(flavoured) => flavoured,
        Err(error) => {
            writeln!(err, "toolgate: {error}")?;
            return Ok(ExitCode::from(1));
        }
    };
    let definition = definition(&model, args.flavour, &flavoured);
    writeln!(out, "{}", serde_json::to_string_pretty(&definition)?)?;
    for dropped in &flavoured.dropped {
        writeln!(err, "{dropped}")?;
    }
    if args.deny_dropped && !flavoured.dropped.is_empty() {
        writeln!(
            err,
            "toolgate: {} dropped {} keyword(s) of {} (--deny-dropped)",
            args.flavour,
            flavoured.dropped.len(),
            model.name()
        )?;
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// The tool's definition in the provider's shape: OpenAI's `{"type": "function", "function":
/// {...}}` (with `strict: true` for strict mode), Anthropic's `{name, description,
/// input_schema}` (with `strict: true` for strict tool use), a Gemini function declaration
/// `{name, description, parameters}` or `{name, description, parametersJsonSchema}`, MCP's
/// `{name, description, inputSchema}`, or the bare schema.
fn definition(model: &ToolModel, flavour: Flavour, flavoured: &FlavouredSchema) -> Json {
    let text = |text: &str| Json::String(text.to_owned());
    let mut named = vec![("name".to_owned(), text(model.name()))];
    if let Some(description) = model.description() {
        named.push(("description".to_owned(), text(description)));
    }
    let schema = flavoured.schema.clone();
    match flavour {
        Flavour::OpenAiStrict | Flavour::OpenAi => {
            named.push(("parameters".to_owned(), schema));
            if flavour == Flavour::OpenAiStrict {
                named.push(("strict".to_owned(), Json::Bool(true)));
            }
            Json::Object(vec![
                ("type".to_owned(), text("function")),
                ("function".to_owned(), Json::Object(named)),
            ])
        }
        Flavour::Anthropic | Flavour::AnthropicStrict => {
            named.push(("input_schema".to_owned(), schema));
            if flavour == Flavour::AnthropicStrict {
                named.push(("strict".to_owned(), Json::Bool(true)));
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
        _ => schema,
    }
}

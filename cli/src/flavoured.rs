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
use toolgate_core::model::ToolModel;

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
    let definition = flavoured.definition(model.name(), model.description());
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

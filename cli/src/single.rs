//! `toolgate check --schema FILE [ARGS | -]`: one check, as text for people or as the batch
//! protocol's answer with `--json`.
//!
//! Arguments read from stdin are read up to the decoder's limit (1 MiB) and one byte more:
//! longer arguments are refused with a `limit` issue and the rest is never read. Bytes that
//! are not UTF-8 are refused with a `syntax` issue, in the answer like any other issue.

use std::io::{Read, Write};
use std::process::ExitCode;

use anyhow::Context;
use serde_json::Value;
use toolgate_core::decode::{Decoded, Options, Rejected};
use toolgate_core::model::ToolModel;
use toolgate_core::{
    schema_refusal, Constraint, DynamicTool, HintReason, Issue, Path, Repair, Report, RetryHint,
};

use crate::CheckArgs;

/// What checking the arguments came to.
enum Outcome {
    /// The arguments were read and decoded.
    Decoded(Result<Decoded<Value>, Rejected>),
    /// The arguments on stdin are longer than the decoder's limit: refused before the end.
    TooLong { report: Report, hint: RetryHint },
}

pub fn run(args: &CheckArgs, stdin: impl Read, mut out: impl Write) -> anyhow::Result<ExitCode> {
    let path = args.schema.as_ref().context("--schema FILE is needed")?;
    let definition =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let read = ToolModel::from_definition_text(&definition).and_then(|model| {
        if !args.deny_warnings {
            let mut stderr = std::io::stderr().lock();
            for warning in model.schema_warnings() {
                let shown = crate::warning_line(&path.display().to_string(), warning);
                // A closed stderr loses the warnings, not the answer.
                let _ = writeln!(stderr, "warning: {shown}");
            }
            return Ok(model);
        }
        model.deny_warnings()
    });
    let tool = match read {
        Ok(model) => DynamicTool::from_model(model),
        Err(errors) => {
            if args.json {
                let answer = crate::batch::refusal(Value::Null, &schema_refusal(&errors), None);
                writeln!(out, "{answer}").context("cannot write to stdout")?;
                return Ok(ExitCode::FAILURE);
            }
            anyhow::bail!("{}: the schema cannot be used:\n{errors}", path.display());
        }
    };
    let outcome = match args.arguments.as_deref() {
        Some(text) if text != "-" => Outcome::Decoded(tool.decode(text)),
        _ => check_stdin(&tool, stdin)?,
    };
    let accepted = matches!(outcome, Outcome::Decoded(Ok(_)));
    if args.json {
        write_json(&mut out, &outcome)
    } else {
        write_text(&mut out, &outcome)
    }
    .context("cannot write to stdout")?;
    Ok(if accepted {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Reads at most the decoder's limit and one byte more from stdin, and checks it.
fn check_stdin(tool: &DynamicTool, stdin: impl Read) -> anyhow::Result<Outcome> {
    let max_bytes = Options::default().max_bytes;
    let mut bytes = Vec::new();
    stdin
        .take(max_bytes as u64 + 1)
        .read_to_end(&mut bytes)
        .context("cannot read the arguments from stdin")?;
    if bytes.len() <= max_bytes {
        return Ok(Outcome::Decoded(tool.decode_bytes(&bytes)));
    }
    let message = format!(
        "the arguments are more than the limit of {max_bytes} bytes; the rest was not read"
    );
    let mut report = Report::new();
    report
        .push(Issue::new(Path::root(), Constraint::Limit, message).with_expected(max_bytes.into()));
    let hint = RetryHint::build(tool.model(), &report, HintReason::InvalidArguments);
    Ok(Outcome::TooLong { report, hint })
}

fn write_json(out: &mut impl Write, outcome: &Outcome) -> std::io::Result<()> {
    let answer = match outcome {
        Outcome::Decoded(result) => crate::batch::answer(Value::Null, result),
        Outcome::TooLong { report, hint } => crate::batch::refusal(Value::Null, report, Some(hint)),
    };
    writeln!(out, "{answer}")
}

fn write_text(out: &mut impl Write, outcome: &Outcome) -> std::io::Result<()> {
    match outcome {
        Outcome::Decoded(Ok(decoded)) => {
            let value = serde_json::to_string_pretty(&decoded.value).unwrap_or_default();
            writeln!(out, "ok: {value}")?;
            write_repairs(out, &decoded.repairs)
        }
        Outcome::Decoded(Err(rejected)) => {
            write_refusal(out, &rejected.report, &rejected.repairs, rejected.hint())
        }
        Outcome::TooLong { report, hint } => write_refusal(out, report, &[], hint),
    }
}

fn write_refusal(
    out: &mut impl Write,
    report: &Report,
    repairs: &[Repair],
    hint: &RetryHint,
) -> std::io::Result<()> {
    writeln!(out, "refused: {} issue(s)", report.len())?;
    for issue in report.issues() {
        writeln!(out, "  {issue}")?;
    }
    write_repairs(out, repairs)?;
    writeln!(out, "\nretry hint:\n{hint}")
}

fn write_repairs(out: &mut impl Write, repairs: &[Repair]) -> std::io::Result<()> {
    if !repairs.is_empty() {
        writeln!(out, "repairs:")?;
        for repair in repairs {
            writeln!(out, "  {repair}")?;
        }
    }
    Ok(())
}

//! `toolgate check --schema FILE [ARGS | -]`: one check, as text for people or as the batch
//! protocol's answer with `--json`.

use std::io::Read;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::Value;
use toolgate_core::model::ToolModel;
use toolgate_core::{schema_refusal, DynamicTool};

use crate::CheckArgs;

pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let path = args.schema.as_ref().context("--schema FILE is needed")?;
    let definition =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let arguments = match args.arguments.as_deref() {
        Some(text) if text != "-" => text.to_owned(),
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("cannot read the arguments from stdin")?;
            text
        }
    };
    let tool = match ToolModel::from_definition_text(&definition) {
        Ok(model) => DynamicTool::from_model(model),
        Err(errors) => {
            if args.json {
                let report = schema_refusal(&errors);
                let answer = serde_json::json!({"id": null, "ok": false, "value": null, "repairs": [], "issues": report, "hint": null});
                println!("{answer}");
                return Ok(ExitCode::FAILURE);
            }
            anyhow::bail!("{}: the schema cannot be used:\n{errors}", path.display());
        }
    };
    let result = tool.decode(&arguments);
    if args.json {
        println!("{}", crate::batch::answer(Value::Null, &result));
    } else {
        match &result {
            Ok(decoded) => {
                println!("ok: {}", serde_json::to_string_pretty(&decoded.value)?);
                print_repairs(&decoded.repairs);
            }
            Err(rejected) => {
                println!("refused: {} issue(s)", rejected.report.len());
                for issue in rejected.report.issues() {
                    println!("  {issue}");
                }
                print_repairs(&rejected.repairs);
                println!("\nretry hint:\n{}", rejected.hint());
            }
        }
    }
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn print_repairs(repairs: &[toolgate_core::Repair]) {
    if !repairs.is_empty() {
        println!("repairs:");
        for repair in repairs {
            println!("  {repair}");
        }
    }
}

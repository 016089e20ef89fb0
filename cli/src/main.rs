//! `toolgate`: check tool-call arguments against tool schemas from the command line.
//!
//! - `toolgate check --schema FILE [ARGS | -]`: one check, for people (`--json` for machines).
//! - `toolgate check --batch`: the check protocol of DESIGN.md, one JSON object per line on
//!   stdin and stdout; what external scorers speak.

mod batch;
mod single;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Make LLM tool calls land: lossless repairs, every issue, capped retry hints.
#[derive(Parser)]
#[command(name = "toolgate", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check arguments against a tool's schema.
    Check(CheckArgs),
}

#[derive(clap::Args)]
struct CheckArgs {
    /// Read requests from stdin, one JSON object per line (`{"id", "tool", "arguments"}`), and
    /// answer each on stdout in the same order.
    #[arg(long, conflicts_with_all = ["schema", "arguments", "json"])]
    batch: bool,
    /// The tool: a definition (OpenAI `parameters`, MCP `inputSchema`, Anthropic
    /// `input_schema`) or a bare JSON Schema.
    #[arg(long, required_unless_present = "batch")]
    schema: Option<PathBuf>,
    /// The argument text; `-` or nothing reads it from stdin.
    arguments: Option<String>,
    /// Answer as one JSON object (the batch protocol's answer) instead of text.
    #[arg(long)]
    json: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) if args.batch => {
            batch::run(std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Check(args) => single::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("toolgate: {error:#}");
            ExitCode::from(2)
        }
    }
}

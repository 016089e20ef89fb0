//! `toolgate`: check tool-call arguments against tool schemas from the command line.
//!
//! - `toolgate check --schema FILE [ARGS | -]`: one check, for people (`--json` for machines).
//! - `toolgate check --batch`: the check protocol of DESIGN.md, one JSON object per line on
//!   stdin and stdout; what external scorers speak.
//! - `toolgate gen FILE... [-o OUT]`: the schema compiler of `build.rs`, for people without
//!   one: JSON Schema tool files → Rust types (stdout, or the file `OUT`).
//! - `toolgate schema FILE --flavour NAME [--deny-dropped]`: the tool's definition as a
//!   provider accepts it (stdout) and what the flavour dropped (stderr).
//! - `toolgate mcp-proxy [OPTIONS] -- COMMAND [ARGS...]`: the gate in front of an MCP server
//!   that COMMAND starts on stdio, served on stdin and stdout.
//! - `toolgate stream --provider P --tools FILE [--max-tokens N]`: a provider's raw stream of
//!   one answer on stdin, each tool call decided as its arguments stream in (`stream.rs`).
//!
//! A schema's warnings (keywords JSON Schema does not define, unknown formats, `enum` values
//! that `type` rules out) go to stderr as `warning: <file or tool>: <pointer>: <message>`;
//! `--deny-warnings` makes them errors.

mod batch;
mod flavoured;
mod proxy;
mod single;
mod stream;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
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
    /// Compile JSON Schema tool files into Rust types (what `toolgate_codegen::Builder`
    /// does in build.rs).
    Gen(GenArgs),
    /// Write a tool's definition as a provider accepts it, and report what that drops.
    Schema(SchemaArgs),
    /// Put the gate in front of an MCP server: start COMMAND (an MCP server on stdio) and
    /// serve MCP on stdin and stdout, each tools/call gated on its arguments' text.
    McpProxy(proxy::ProxyArgs),
    /// Read a provider's raw stream of one answer on stdin and decide each tool call as its
    /// arguments stream in: one JSON line per call, then one for the message.
    Stream(stream::StreamArgs),
}

#[derive(clap::Args)]
struct SchemaArgs {
    /// The tool: a definition (OpenAI `parameters`, MCP `inputSchema`, Anthropic
    /// `input_schema`, BFCL's dialect) or a bare JSON Schema.
    file: PathBuf,
    /// The flavour: openai-strict, openai, anthropic, anthropic-strict, gemini, gemini-json,
    /// mcp or json-schema.
    #[arg(long, value_parser = |name: &str| name.parse::<toolgate_core::flavour::Flavour>())]
    flavour: toolgate_core::flavour::Flavour,
    /// Exit with 1 when the flavour dropped or rewrote anything.
    #[arg(long)]
    deny_dropped: bool,
    /// Remove dropped constraints without writing them into the descriptions.
    #[arg(long)]
    no_describe: bool,
}

#[derive(clap::Args)]
struct GenArgs {
    /// Schema files, or folders of `.json` files: bare JSON Schemas, tool definitions of
    /// OpenAI, MCP or Anthropic, or arrays of those.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the code to this file (only when it changes) instead of stdout.
    #[arg(short = 'o', long = "out")]
    out: Option<PathBuf>,
    /// Remove this keyword from the schemas before reading them (repeatable).
    #[arg(long = "ignore-keyword", value_name = "KEYWORD")]
    ignore_keywords: Vec<String>,
    /// Make the schemas' warnings (unknown keywords, unknown formats, contradictions) errors.
    #[arg(long)]
    deny_warnings: bool,
    /// Refuse, at the file and JSON pointer, every value that would be held as a checked
    /// JSON value because serde cannot read it as a Rust type (`Builder::typed_only`).
    #[arg(long)]
    typed_only: bool,
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
    /// With --batch: the longest request line read, in bytes (default 8 MiB, room for 1 MiB
    /// of arguments however they are escaped). A longer line is answered with a `limit`
    /// issue, and the rest of it is dropped unread.
    #[arg(long, value_name = "BYTES", conflicts_with_all = ["schema", "arguments", "json"])]
    max_line: Option<usize>,
    /// Refuse a tool whose schema has warnings (a keyword JSON Schema does not define, an
    /// unknown format, an `enum` value its `type` rules out) instead of printing them on stderr.
    #[arg(long)]
    deny_warnings: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) if args.batch => {
            let max_line = args.max_line.unwrap_or(batch::DEFAULT_MAX_LINE_BYTES);
            batch::Batch::new(max_line)
                .deny_warnings(args.deny_warnings)
                .run(std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Check(args) => {
            single::run(&args, std::io::stdin().lock(), std::io::stdout().lock())
        }
        Command::Gen(args) => generate(&args),
        Command::Schema(args) => {
            flavoured::run(&args, std::io::stdout().lock(), std::io::stderr().lock())
        }
        Command::McpProxy(args) => proxy::run(&args),
        Command::Stream(args) => stream::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            // Not eprintln!: it panics when stderr is closed too.
            let _ = writeln!(std::io::stderr(), "toolgate: {error:#}");
            ExitCode::from(2)
        }
    }
}

/// A schema warning as one line: `<where>: <pointer>: <message>`, line ends made spaces.
fn warning_line(place: &str, warning: &toolgate_core::model::SchemaWarning) -> String {
    let place = if place.is_empty() {
        "(unnamed tool)"
    } else {
        place
    };
    format!("{place}: {warning}").replace(['\r', '\n'], " ")
}

/// `toolgate gen`: errors name the file, the JSON pointer and the reason, one a line.
fn generate(args: &GenArgs) -> anyhow::Result<ExitCode> {
    let mut builder = toolgate_codegen::Builder::new();
    for file in &args.files {
        builder.schemas(file);
    }
    for keyword in &args.ignore_keywords {
        builder.ignore_keyword(keyword);
    }
    builder.deny_warnings(args.deny_warnings);
    builder.typed_only(args.typed_only);
    let code = match builder.generate_tools() {
        Ok(generated) => {
            let mut stderr = std::io::stderr().lock();
            for warning in &generated.warnings {
                let _ = writeln!(stderr, "warning: {warning}");
            }
            generated.code
        }
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "{error}");
            return Ok(ExitCode::from(1));
        }
    };
    match &args.out {
        Some(path) => toolgate_codegen::schema::write_if_changed(path, &code)?,
        None => {
            // Not print!: it panics when stdout is closed; this is an error, exit 2.
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(code.as_bytes())
                .and_then(|()| stdout.flush())
                .context("cannot write the code to stdout")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

//! `toolgate mcp-proxy [OPTIONS] -- COMMAND [ARGS...]`: the gate in front of an unmodified
//! MCP server ([`toolgate::mcp::Proxy`]; its notes say what is gated and what passes).

use std::process::ExitCode;

use toolgate::boundary::Budgets;
use toolgate::mcp::Proxy;

#[derive(clap::Args)]
pub struct ProxyArgs {
    /// Check each result's `structuredContent` against the tool's `outputSchema`: a result
    /// that breaks it becomes an `isError` result with a `malformed_response` envelope.
    #[arg(long)]
    check_output: bool,
    /// The most calls of each tool in a session.
    #[arg(long, value_name = "N")]
    calls_per_tool: Option<u32>,
    /// The most calls of all tools in a session.
    #[arg(long, value_name = "N")]
    calls_total: Option<u32>,
    /// The most refused calls of each tool in a session.
    #[arg(long, value_name = "N")]
    invalid_arguments_per_tool: Option<u32>,
    /// The longest message line read, both ways, in bytes (default 16 MiB). A longer
    /// request is answered and the rest of its line skipped.
    #[arg(long, value_name = "BYTES")]
    max_line_bytes: Option<usize>,
    /// The MCP server to start, and its arguments (after `--`).
    #[arg(required = true, last = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// Runs the proxy until the client or the upstream closes.
pub fn run(args: &ProxyArgs) -> anyhow::Result<ExitCode> {
    let mut budgets = Budgets::new();
    if let Some(limit) = args.calls_per_tool {
        budgets = budgets.calls_per_tool(limit);
    }
    if let Some(limit) = args.calls_total {
        budgets = budgets.calls_total(limit);
    }
    if let Some(limit) = args.invalid_arguments_per_tool {
        budgets = budgets.invalid_arguments_per_tool(limit);
    }
    let (program, arguments) = args
        .command
        .split_first()
        .ok_or_else(|| anyhow::anyhow!("no upstream command after --"))?;
    let mut upstream = tokio::process::Command::new(program);
    upstream.args(arguments);
    let mut proxy = Proxy::new(upstream)
        .check_output(args.check_output)
        .with_budgets(budgets);
    if let Some(max) = args.max_line_bytes {
        proxy = proxy.with_max_line_bytes(max);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime
        .block_on(proxy.run(tokio::io::stdin(), tokio::io::stdout()))
        .map_err(|error| anyhow::anyhow!("mcp-proxy: {error}"))?;
    Ok(ExitCode::SUCCESS)
}

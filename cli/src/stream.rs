//! `toolgate stream --provider P --tools FILE [--max-tokens N]`: a provider's raw stream of
//! one answer on stdin (server-sent events, or the JSON array Gemini sends), one JSON line
//! per tool call on stdout once the message has ended, then one line for the message:
//!
//! ```text
//! {"call_id": .., "index": 0, "tool": .., "end": "call" | "message" | "cut", "ok": .., "value": ..,
//!  "repairs": [..], "issues": [..], "hint": .., "early": {"event": n, "issue": {..}} | null}
//! {"message_end": "<finish reason>" | null, "cut": "<why>" | null, "calls": n, "log": [..]}
//! ```
//!
//! Each call's arguments are fed, as they arrive, to the streaming decoder of the tool it
//! names (`early`: the first issue it sent before the end, and the stream's event it came in,
//! counting from 0); every call is decided at the message's end (the default policy): on
//! the whole of its text, or, in a cut message, refused with `end` `cut` even where its text
//! parses. `end` is `call` for a call whose own end event came (Responses, Anthropic,
//! Gemini), `message` for one the message's end ended (Chat Completions). A call that names
//! no tool, or a tool not in FILE, is refused with its reason. FILE is a JSON array of tool
//! definitions in any form `DynamicTool` reads.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::{json, Value};
use toolgate::boundary::messages::{Following, Provider, StreamedMessage};
use toolgate::streaming::Cut;
use toolgate::DynamicTool;

#[derive(clap::Args)]
pub(crate) struct StreamArgs {
    /// The provider whose stream stdin holds: openai-chat, openai-responses, anthropic,
    /// gemini or vertex.
    #[arg(long, value_parser = provider)]
    provider: Provider,
    /// The tools: a JSON array of definitions (OpenAI, MCP, Anthropic, Gemini or BFCL).
    #[arg(long)]
    tools: PathBuf,
    /// The output token cap the request set, for a stream that does not say it was cut.
    #[arg(long)]
    max_tokens: Option<u64>,
}

fn provider(name: &str) -> Result<Provider, String> {
    Ok(match name {
        "openai-chat" => Provider::OpenAiChat,
        "openai-responses" => Provider::OpenAiResponses,
        "anthropic" => Provider::Anthropic,
        "gemini" | "vertex" => Provider::Gemini,
        other => {
            return Err(format!(
                "no provider {other:?} (there are openai-chat, openai-responses, anthropic, gemini, vertex)"
            ))
        }
    })
}

pub(crate) fn run(args: &StreamArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.tools)
        .with_context(|| format!("reading {}", args.tools.display()))?;
    let definitions: Vec<Value> = serde_json::from_str(&text).with_context(|| {
        format!(
            "{}: not a JSON array of tool definitions",
            args.tools.display()
        )
    })?;
    let mut tools = Vec::new();
    for (at, definition) in definitions.iter().enumerate() {
        let tool = DynamicTool::from_definition(definition)
            .map_err(|errors| anyhow::anyhow!("{}: tool {at}: {errors}", args.tools.display()))?;
        tools.push(tool);
    }
    let mut output = std::io::stdout().lock();
    for line in stream_lines(
        args.provider,
        &tools,
        args.max_tokens,
        std::io::stdin().lock(),
    )? {
        writeln!(output, "{line}")?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The lines `toolgate stream` prints for the stream `input` of `provider`.
pub(crate) fn stream_lines(
    provider: Provider,
    tools: &[DynamicTool],
    max_tokens: Option<u64>,
    mut input: impl Read,
) -> anyhow::Result<Vec<String>> {
    let mut message = StreamedMessage::new(provider, max_tokens);
    let mut following = Following::new();
    let decoder_for = |name: &str| {
        tools
            .iter()
            .find(|tool| tool.model().name() == name)
            .map(DynamicTool::stream_decoder)
    };
    let mut buffer = vec![0; 8192];
    loop {
        let read = input.read(&mut buffer).context("reading the stream")?;
        if read == 0 {
            message.close();
            break;
        }
        for update in message.feed(&buffer[..read]) {
            following.update(&message, update, decoder_for);
        }
    }
    // A call whose tool was named after its last text, or that sent none, is made its
    // decoder now, and fed what it has not been.
    following.catch_up(&message, decoder_for);
    let cut = message.cut();
    let mut lines = Vec::new();
    for (index, call) in message.calls().iter().enumerate() {
        let end = match (&cut, call.ended) {
            (Some(_), _) => "cut",
            (None, true) => "call",
            (None, false) => "message",
        };
        let early = following
            .early(index)
            .map(|(event, issue)| json!({"event": event, "issue": issue}));
        let mut line = json!({
            "call_id": call.call_id, "index": index, "tool": call.tool, "end": end, "early": early,
        });
        let outcome = match (following.take(index), &cut, &call.garbled) {
            (None, _, _) => refusal(match &call.tool {
                Some(tool) => format!("no tool named {tool:?}"),
                None => format!("tool call {index} names no tool"),
            }),
            (Some(decoder), Some(cut), _) => answer(&Err(decoder.cut(cut.clone()))),
            (Some(decoder), None, Some(garbled)) => {
                answer(&Err(decoder.cut(Cut::Garbled(garbled.clone()))))
            }
            (Some(decoder), None, None) => answer(&decoder.finish()),
        };
        if let (Value::Object(line), Value::Object(outcome)) = (&mut line, outcome) {
            line.extend(outcome);
        }
        lines.push(line.to_string());
    }
    lines.push(
        json!({
            "message_end": message.finish_reason(),
            "cut": cut.map(|cut| cut.to_string()),
            "calls": message.calls().len(),
            "log": message.log(),
        })
        .to_string(),
    );
    Ok(lines)
}

/// The answer's members (`ok`, `value`, `repairs`, `issues`, `hint`) of a decided call: the
/// batch protocol's answer without its `id`.
fn answer(result: &Result<toolgate::Decoded<Value>, toolgate::Rejected>) -> Value {
    members(crate::batch::answer_of(Value::Null, result, None))
}

/// The answer's members of a call refused before any decoding: one `syntax` issue.
fn refusal(message: String) -> Value {
    let report = crate::batch::syntax_report(message);
    members(crate::batch::refusal_of(Value::Null, &report, None))
}

fn members(answer: crate::batch::Answer<'_>) -> Value {
    let mut value = serde_json::to_value(&answer).unwrap_or(Value::Null);
    if let Value::Object(members) = &mut value {
        members.remove("id");
    }
    value
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;

//! One incoming message made ready for rmcp, on every served road (stdio, Streamable HTTP):
//! a `tools/call`'s arguments kept as sent, and every request rmcp could not read answered.

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, GetExtensions, JsonRpcMessage,
};
use serde_json::Value;
use toolgate_core::{Constraint, Issue, Path};

use super::lines::{Line, Lines};
use super::message::{
    error_answer, locate, result_answer, Located, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR,
    TOOLS_CALL,
};
use crate::boundary::{Envelope, Failure, Reason};

/// The text of a `tools/call`'s `arguments`, as the client sent it: put in the request's
/// extensions by toolgate's transports, read by [`McpServer`]'s `call_tool`.
#[derive(Clone, Debug)]
pub(crate) struct ArgumentsText(pub(crate) String);

/// What one message's text gives.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A message for rmcp (a call's arguments' text in its extensions), and the text it was
    /// read from when that is not the text given (a call's, with `{}` for its arguments:
    /// what Streamable HTTP hands rmcp).
    Message(
        Box<ClientJsonRpcMessage>,
        #[cfg_attr(not(feature = "axum"), allow(dead_code))] Option<Vec<u8>>,
    ),
    /// toolgate's own answer to a request rmcp could not read: a JSON-RPC response line.
    Answer(Vec<u8>),
    /// Nothing to hand on or answer: a notification or a response that cannot be read (no
    /// one waits for an answer to it; answering unreadable input could start an echo loop).
    Dropped,
}

/// Longest part of a parse error's text an answer repeats, in characters: serde's messages
/// can quote the value they met.
const MAX_ERROR_CHARS: usize = 300;

/// The next message a reader of lines gives: `Ok(None)` when the input ends. Blank lines
/// are skipped; a line past the cap is answered from the part kept ([`too_long`]).
pub(crate) async fn next<R: tokio::io::AsyncBufRead + Unpin>(
    lines: &mut Lines<R>,
) -> std::io::Result<Option<Incoming>> {
    loop {
        return match lines.next().await {
            Line::Whole if lines.text().iter().all(u8::is_ascii_whitespace) => continue,
            Line::Whole => Ok(Some(read(lines.text()))),
            Line::Cut => Ok(Some(too_long(lines.text(), lines.max()))),
            Line::End => Ok(None),
            Line::Failed(error) => Err(error),
        };
    }
}

/// Reads one whole message.
pub(crate) fn read(text: &[u8]) -> Incoming {
    let located = locate(text);
    let Ok(_) = std::str::from_utf8(text) else {
        return answer(text, &located, PARSE_ERROR, "the message is not UTF-8");
    };
    let parsed = match located.spliced(text) {
        Some((spliced, arguments)) => {
            parse(&spliced).map(|message| (with_arguments(message, text, arguments), Some(spliced)))
        }
        None => parse(text).map(|message| (message, None)),
    };
    match parsed {
        Ok((message, spliced)) => match misread_call(&message) {
            Some(error) => answer(text, &located, INVALID_PARAMS, &error),
            None => Incoming::Message(Box::new(message), spliced),
        },
        Err(error) => {
            let code = match error.classify() {
                serde_json::error::Category::Data => INVALID_REQUEST,
                _ => PARSE_ERROR,
            };
            let message = toolgate_core::issue::shorten_text(&error.to_string(), MAX_ERROR_CHARS);
            answer(text, &located, code, &message)
        }
    }
}

/// Why a `tools/call` rmcp read as a request of its own (its fallback for a method it does
/// not know, answered `-32601 Method not found`) is not a call: its params are not one.
fn misread_call(message: &ClientJsonRpcMessage) -> Option<String> {
    let JsonRpcMessage::Request(request) = message else {
        return None;
    };
    let ClientRequest::CustomRequest(custom) = &request.request else {
        return None;
    };
    if custom.method != TOOLS_CALL {
        return None;
    }
    let params = custom.params.clone().unwrap_or(Value::Null);
    let error = match serde_json::from_value::<CallToolRequestParams>(params) {
        Ok(_) => "the params are not a call".to_owned(),
        Err(error) => error.to_string(),
    };
    Some(toolgate_core::issue::shorten_text(
        &format!("the params of tools/call are not a call: {error}"),
        MAX_ERROR_CHARS,
    ))
}

fn parse(text: &[u8]) -> Result<ClientJsonRpcMessage, serde_json::Error> {
    serde_json::from_slice(text)
}

/// The message with the arguments' text (valid UTF-8: the whole text is) in its extensions.
fn with_arguments(
    mut message: ClientJsonRpcMessage,
    text: &[u8],
    arguments: std::ops::Range<usize>,
) -> ClientJsonRpcMessage {
    if let JsonRpcMessage::Request(request) = &mut message {
        let arguments = String::from_utf8_lossy(&text[arguments]).into_owned();
        request
            .request
            .extensions_mut()
            .insert(ArgumentsText(arguments));
    }
    message
}

/// The kept arguments' text of a message [`read`] gave.
#[cfg(any(feature = "axum", feature = "mcp-proxy"))]
pub(crate) fn arguments_of(message: &ClientJsonRpcMessage) -> Option<ArgumentsText> {
    match message {
        JsonRpcMessage::Request(request) => request.request.extensions().get().cloned(),
        _ => None,
    }
}

/// A JSON-RPC error answer, when the text is a request whose id can be read.
fn answer(text: &[u8], located: &Located, code: i64, message: &str) -> Incoming {
    if !located.is_request(text) {
        tracing::debug!(
            code,
            message,
            "an unreadable message that is not a request, dropped"
        );
        return Incoming::Dropped;
    }
    let id = located.id(text).unwrap_or(Value::Null);
    Incoming::Answer(error_answer(id, code, message))
}

/// The answer to a message longer than `max` bytes, of which `kept` was read: a
/// `tools/call` whose id and tool name are in the part kept gets an `isError` result with
/// the envelope of a `limit` refusal (as the gate refuses any text over its limit), another
/// request a JSON-RPC error; anything else is dropped.
pub(crate) fn too_long(kept: &[u8], max: usize) -> Incoming {
    let located = locate(kept);
    let message = format!("the message is longer than the limit of {max} bytes");
    let (Some(id), Some(name), true) = (
        located.id(kept),
        located.name(kept),
        located.is_tools_call(kept),
    ) else {
        return answer(kept, &located, INVALID_REQUEST, &message);
    };
    let issue =
        Issue::new(Path::root(), Constraint::Limit, message.clone()).with_expected(max.into());
    let failure = Failure::new(Reason::InvalidArguments, message).with_issues(vec![issue]);
    let envelope = Envelope::failure(crate::boundary::echoed(&name).into_owned(), failure, None);
    Incoming::Answer(result_answer(id, &envelope))
}

//! One incoming message made ready for rmcp, on every served road (stdio, Streamable HTTP):
//! a `tools/call`'s arguments kept as sent, and every request rmcp could not read answered.

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, GetExtensions, JsonRpcMessage,
};
use serde_json::Value;
use toolgate_core::{Constraint, Issue, Path};

use super::batch::is_batch;
use super::ids::{too_many_in_flight, InFlight, SentId, MAX_IN_FLIGHT};
use super::message::{
    error_answer, locate, result_answer, splice, Located, INVALID_PARAMS, INVALID_REQUEST,
    PARSE_ERROR, REPEATED_MEMBER, TOOLS_CALL,
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

/// The ids of the requests handed to rmcp, each under a substitute (see [`super::ids`]):
/// rmcp reads an id as an `i64` or a string, and answers with its own writing of it; the
/// substitute is what rmcp knows, and the answer gets the id as it was sent back. Each
/// request keeps the batch it came in, if any.
pub(crate) type Handed = InFlight<Option<u64>>;

/// How a road hands rmcp a request's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ids {
    /// Every request under a substitute: the road keeps every request in flight, and maps a
    /// cancellation to the substitute it names (the stdio transport: one table a connection).
    Substituted,
    /// An id rmcp writes back as it was sent (an integer as JSON writers write it, a string
    /// without escapes) as it is; any other under a substitute (Streamable HTTP, where each
    /// POST is read alone: a later cancellation, or a stream resumed by `GET`, names the id
    /// as sent).
    WhereNeeded,
}

/// Reads one whole message (of batch `batch`, if it came in one). A request is handed to
/// rmcp under a substitute id kept in `handed`, as `ids` says; a cancellation names the
/// substitute of the request it cancels.
pub(crate) fn read(text: &[u8], handed: &mut Handed, batch: Option<u64>, ids: Ids) -> Incoming {
    let located = locate(text);
    let Ok(_) = std::str::from_utf8(text) else {
        return answer(text, &located, PARSE_ERROR, "the message is not UTF-8");
    };
    if located.repeated {
        return answer(text, &located, INVALID_REQUEST, REPEATED_MEMBER);
    }
    let mut replaced: Vec<(std::ops::Range<usize>, Vec<u8>)> = Vec::new();
    let mut admitted = None;
    let handed_on = located.id(text).filter(|id| {
        located.method.is_some() && (ids == Ids::Substituted || !id.written_back_as_sent())
    });
    if let (Some(id), Some(range)) = (handed_on, located.id.clone()) {
        if handed.len() >= MAX_IN_FLIGHT {
            return Incoming::Answer(too_many_in_flight(&id));
        }
        let (substitute, at) = handed.admit(id, batch, true);
        admitted = Some(at);
        replaced.push((range, substitute.unwrap_or_default().into_bytes()));
    }
    if located.method(text).as_deref() == Some(CANCELLED) {
        let named = located.request_id.clone().and_then(|range| {
            let id = SentId::read(&text[range.clone()])?;
            Some((range, handed.handed_on_for(&id)?))
        });
        if let Some((range, substitute)) = named {
            replaced.push((range, substitute.into_bytes()));
        }
    }
    let arguments = located.spliced(text).map(|(_, range)| range);
    if let Some(range) = arguments.clone() {
        replaced.push((range, b"{}".to_vec()));
    }
    let parsed = if replaced.is_empty() {
        parse(text).map(|message| (message, None))
    } else {
        let spliced = splice(text, replaced);
        parse(&spliced).map(|message| {
            let message = match arguments {
                Some(range) => with_arguments(message, text, range),
                None => message,
            };
            (message, Some(spliced))
        })
    };
    let refused = match parsed {
        Ok((message, spliced)) => match misread_call(&message) {
            Some(error) => (INVALID_PARAMS, error),
            None => return Incoming::Message(Box::new(message), spliced),
        },
        Err(error) => {
            let code = match error.classify() {
                serde_json::error::Category::Data => INVALID_REQUEST,
                _ => PARSE_ERROR,
            };
            let message = toolgate_core::issue::shorten_text(&error.to_string(), MAX_ERROR_CHARS);
            (code, message)
        }
    };
    // Answered here, not by rmcp: the request is no longer in flight.
    if let Some(at) = admitted {
        handed.remove(&at);
    }
    answer(text, &located, refused.0, &refused.1)
}

/// The method by which a peer cancels a request it sent.
pub(crate) const CANCELLED: &str = "notifications/cancelled";

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
#[cfg(feature = "axum")]
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
    Incoming::Answer(error_answer(located.id(text).as_ref(), code, message))
}

/// The answer to a message longer than `max` bytes, of which `kept` was read: a
/// `tools/call` whose id and tool name are in the part kept gets an `isError` result with
/// the envelope of a `limit` refusal (as the gate refuses any text over its limit), another
/// request a JSON-RPC error, a batch one JSON-RPC error without an id; anything else is
/// dropped.
///
/// `id`: the line's id wherever it was in the line ([`super::lines::Lines::cut_id`]), for a
/// line whose id comes after the cut.
pub(crate) fn too_long(kept: &[u8], id: Option<&[u8]>, max: usize) -> Incoming {
    if is_batch(kept) {
        // Its requests' ids cannot all be read: one error answers the batch.
        let message = format!("the batch is longer than the limit of {max} bytes");
        return Incoming::Answer(error_answer(None, INVALID_REQUEST, &message));
    }
    let located = locate(kept);
    let message = format!("the message is longer than the limit of {max} bytes");
    let id = located.id(kept).or_else(|| SentId::read(id?));
    let Some(id) = id.filter(|_| located.method.is_some()) else {
        tracing::debug!(
            max,
            "a message past the limit that is not a request, dropped"
        );
        return Incoming::Dropped;
    };
    let (Some(name), true) = (located.name(kept), located.is_tools_call(kept)) else {
        return Incoming::Answer(error_answer(Some(&id), INVALID_REQUEST, &message));
    };
    let issue =
        Issue::new(Path::root(), Constraint::Limit, message.clone()).with_expected(max.into());
    let failure = Failure::new(Reason::InvalidArguments, message).with_issues(vec![issue]);
    let envelope = Envelope::failure(crate::boundary::echoed(&name).into_owned(), failure, None);
    let stateless = located.is_stateless_era(kept);
    Incoming::Answer(result_answer(&id, &envelope, stateless))
}

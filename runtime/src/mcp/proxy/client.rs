//! The client's lines: each `tools/call` gated, every other line forwarded as it came.

use std::sync::Arc;

use toolgate_core::Decoded;

use super::listing::Ready;
use super::{lock, Flight, Pending, Shared};
use crate::boundary::{Call, Envelope, Failure, Reason};
use crate::mcp::batch::{is_batch, not_a_message, split, Split};
use crate::mcp::ids::{too_many_in_flight, SentId, MAX_IN_FLIGHT};
use crate::mcp::incoming::{self, Incoming, CANCELLED};
use crate::mcp::lines::{Line, Lines};
use crate::mcp::message::{
    error_answer, locate, result_answer, result_line, splice, Located, INTERNAL_ERROR,
    INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, REPEATED_MEMBER, TOOLS_CALL,
};

/// Reads the client's lines until its input ends.
pub(super) async fn read<R: tokio::io::AsyncBufRead + Unpin>(
    shared: Arc<Shared>,
    mut lines: Lines<R>,
) -> std::io::Result<()> {
    loop {
        match lines.next().await {
            Line::Whole => {
                let text = lines.text();
                if text.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                if is_batch(text) {
                    let text = text.to_vec();
                    batch(&shared, &text).await;
                } else {
                    let text = text.to_vec();
                    message(&shared, text, None).await;
                }
            }
            Line::Cut => {
                let cut = Cut {
                    id: lines.cut_id(),
                    has_method: lines.cut_has_method(),
                    max: lines.max(),
                };
                too_long(&shared, lines.text(), cut).await;
            }
            Line::End => return Ok(()),
            Line::Failed(error) => return Err(error),
        }
    }
}

/// What the reader found of a line past the cap.
struct Cut<'l> {
    /// Its `id`, wherever it was in the line.
    id: Option<&'l [u8]>,
    /// It has a `method`, wherever it was.
    has_method: bool,
    max: usize,
}

/// A line past the cap: a request is answered (as every road answers it,
/// [`incoming::too_long`]); the client's answer to an upstream request becomes an error answer to the upstream (which
/// would wait for it otherwise).
async fn too_long(shared: &Shared, kept: &[u8], cut: Cut<'_>) {
    let max = cut.max;
    let located = locate(kept);
    if located.method.is_none() && !cut.has_method && !is_batch(kept) {
        if let Some(id) = located.id(kept).or_else(|| SentId::read(cut.id?)) {
            let message = format!("the client's answer is longer than the limit of {max} bytes");
            shared.queue_to_upstream(error_answer(Some(&id), INTERNAL_ERROR, &message));
        }
        return;
    }
    if let Incoming::Answer(answer) = incoming::too_long(kept, cut.id, max) {
        shared.answer_client(None, answer).await;
    }
}

/// A batch line: each message taken as if it came on its own line, the answers to its
/// requests gathered into one.
async fn batch(shared: &Arc<Shared>, text: &[u8]) {
    let messages = match split(text) {
        Split::Messages(messages) => messages,
        Split::Answer(answer) => return shared.answer_client(None, answer).await,
    };
    // Counted as `message` takes them: a request has a method that is a string and an id.
    let is_answered = |message: &[u8]| {
        let located = locate(message);
        let request = located.method(message).is_some() && located.id(message).is_some();
        !message.starts_with(b"{") || (request && !located.repeated)
    };
    let requests = messages
        .iter()
        .filter(|range| is_answered(&text[(*range).clone()]))
        .count();
    let number = lock(&shared.batches).open(requests);
    for range in messages {
        let item = &text[range];
        if item.starts_with(b"{") {
            message(shared, item.to_vec(), number).await;
        } else {
            shared.answer_client(number, not_a_message()).await;
        }
    }
}

/// One message of the client's.
async fn message(shared: &Arc<Shared>, text: Vec<u8>, batch: Option<u64>) {
    let located = locate(&text);
    let method = located.method(&text);
    let id = located.id(&text);
    if located.repeated {
        // Readers disagree on which of two members counts: the gate could read one call and
        // the upstream run another. Refused (a request), or not passed on.
        if let (Some(id), Some(_)) = (id, &method) {
            let answer = error_answer(Some(&id), INVALID_REQUEST, REPEATED_MEMBER);
            shared.answer_client(batch, answer).await;
        }
        return;
    }
    shared.tools.saw_client(&text, &located, method.as_deref());
    if shared.bridged().is_some() {
        // The stateless era has no `ping` and no `notifications/initialized`.
        match (method.as_deref(), &id) {
            (Some("ping"), Some(id)) => {
                return shared.answer_client(batch, result_line(id, "{}")).await;
            }
            (Some("notifications/initialized"), None) => {
                return shared.tools.client_initialized(shared).await;
            }
            _ => {}
        }
    }
    match (method.as_deref(), id) {
        (Some(TOOLS_CALL), Some(id)) => call(shared, text, located, id, batch).await,
        (Some(CANCELLED), None) => cancel(shared, &text, &located).await,
        (Some(_), Some(id)) => {
            forward(shared, &text, &located, id, Vec::new(), batch, None).await;
            shared.tools.after_client_request(shared).await;
        }
        _ => {
            // A notification (or an answer to the upstream) while bridged carries the
            // envelope too.
            let bridged = shared.bridged().and_then(|members| {
                let method = located.method.is_some();
                method.then(|| super::bridge::with_envelope(&text, &located, &members))?
            });
            match bridged {
                Some(replaced) => {
                    shared
                        .to_upstream
                        .line(&splice(&text, vec![replaced]))
                        .await
                }
                None => shared.to_upstream.line(&text).await,
            }
            if method.as_deref() == Some("notifications/initialized") {
                shared.tools.client_initialized(shared).await;
            }
        }
    }
}

/// Hands a client request on to the upstream: `replaced` (ranges of `text` and what goes
/// there) and, where its id cannot go as sent, a substitute id; kept in flight with `call`.
async fn forward(
    shared: &Shared,
    text: &[u8],
    located: &Located,
    id: SentId,
    mut replaced: Vec<(std::ops::Range<usize>, Vec<u8>)>,
    batch: Option<u64>,
    call: Option<Pending>,
) {
    let admitted = {
        let mut flights = lock(&shared.flights);
        let stateless = located.is_stateless_era(text).then(|| {
            let method = located.method(text);
            super::result::is_cacheable(method.as_deref().unwrap_or_default())
        });
        let initialize = (located.method(text).as_deref() == Some("initialize")).then(|| {
            let params = crate::mcp::message::member(text, 0..text.len(), b"params");
            params.map_or(b"{}".to_vec(), |range| text[range].to_vec())
        });
        let flight = Flight {
            batch,
            call,
            stateless,
            initialize,
        };
        (flights.len() < MAX_IN_FLIGHT).then(|| flights.admit(id.clone(), flight, false))
    };
    let Some((substitute, _)) = admitted else {
        return shared.answer_client(batch, too_many_in_flight(&id)).await;
    };
    if let (Some(substitute), Some(range)) = (substitute, located.id.clone()) {
        replaced.push((range, substitute.into_bytes()));
    }
    if let Some(members) = shared.bridged() {
        replaced.extend(super::bridge::with_envelope(text, located, &members));
    }
    if replaced.is_empty() {
        shared.to_upstream.line(text).await;
    } else {
        shared.to_upstream.line(&splice(text, replaced)).await;
    }
}

/// A cancellation: it names the request as the upstream knows it, and a call still waiting
/// for its gate is dropped.
async fn cancel(shared: &Shared, text: &[u8], located: &Located) {
    let named = located
        .request_id
        .clone()
        .and_then(|range| Some((range.clone(), SentId::read(&text[range])?)));
    let Some((range, id)) = named else {
        return shared.to_upstream.line(text).await;
    };
    if shared.tools.cancel_waiting(&id) {
        return;
    }
    let (substitute, batch) = {
        let mut flights = lock(&shared.flights);
        let substitute = flights.handed_on_for(&id);
        // The upstream may send no answer now: the request is not held for one.
        let at = match &substitute {
            Some(substitute) => flights.find(substitute.as_bytes()),
            None => id.plain_key().map(crate::mcp::ids::HandedOn::AsSent),
        };
        let batch = at
            .and_then(|at| flights.remove(&at))
            .and_then(|(_, flight)| flight.batch);
        (substitute, batch)
    };
    match substitute {
        Some(substitute) => {
            let line = splice(text, vec![(range, substitute.into_bytes())]);
            shared.to_upstream.line(&line).await;
        }
        None => shared.to_upstream.line(text).await,
    }
    shared.unanswered(batch).await;
}

/// A `tools/call`: gated now when the tools are listed, else in a task of its own that waits
/// for the listing while the client's other lines flow.
async fn call(
    shared: &Arc<Shared>,
    text: Vec<u8>,
    located: Located,
    id: SentId,
    batch: Option<u64>,
) {
    if let Some(answer) = unreadable_call(&text, &located, &id) {
        return shared.answer_client(batch, answer).await;
    }
    match shared.tools.ready(shared).await {
        Ready::Now(gates) => gate(shared, &text, &located, id, batch, &gates).await,
        Ready::Later => {
            // A waiting call holds its line: waiting calls count with those in flight.
            let held = shared.tools.waiting() + lock(&shared.flights).len();
            if held >= MAX_IN_FLIGHT {
                return shared.answer_client(batch, too_many_in_flight(&id)).await;
            }
            let shared = Arc::clone(shared);
            shared.tools.wait_started(&id);
            tokio::spawn(async move {
                let waited = shared.tools.wait(&shared, &id).await;
                match waited {
                    Ok(Some(gates)) => gate(&shared, &text, &located, id, batch, &gates).await,
                    // Cancelled while it waited.
                    Ok(None) => shared.unanswered(batch).await,
                    Err(reason) => {
                        let message = format!(
                            "the upstream's tools could not be listed, so the call cannot be gated: {reason}"
                        );
                        let answer = error_answer(Some(&id), INTERNAL_ERROR, &message);
                        shared.answer_client(batch, answer).await;
                    }
                }
            });
        }
    }
}

/// The answer to a call whose message toolgate cannot take: not UTF-8, no tool named, or not
/// JSON around its arguments.
fn unreadable_call(text: &[u8], located: &Located, id: &SentId) -> Option<Vec<u8>> {
    if std::str::from_utf8(text).is_err() {
        return Some(error_answer(
            Some(id),
            PARSE_ERROR,
            "the message is not UTF-8",
        ));
    }
    if located.name(text).is_none() {
        let message = "the params of tools/call name no tool (`name` must be a string)";
        return Some(error_answer(Some(id), INVALID_PARAMS, message));
    }
    let around = match located.arguments.clone() {
        Some(range) => splice(text, vec![(range, b"{}".to_vec())]),
        None => text.to_vec(),
    };
    let read = serde_json::from_slice::<serde::de::IgnoredAny>(&around);
    let error = read.err()?;
    let code = match error.classify() {
        serde_json::error::Category::Data => INVALID_REQUEST,
        _ => PARSE_ERROR,
    };
    let message = toolgate_core::issue::shorten_text(&error.to_string(), 300);
    Some(error_answer(Some(id), code, &message))
}

/// Gates a call: answered by the proxy when refused, else forwarded (as sent, or with its
/// repaired members written again).
async fn gate(
    shared: &Shared,
    text: &[u8],
    located: &Located,
    id: SentId,
    batch: Option<u64>,
    gates: &super::listing::Gates,
) {
    let stateless = located.is_stateless_era(text);
    let name = located.name(text).unwrap_or_default();
    let arguments = match located.arguments.clone() {
        Some(range) => String::from_utf8_lossy(&text[range]).into_owned(),
        None => "{}".to_owned(),
    };
    if let Some(refusal) = gates.refusal(&name) {
        return shared
            .answer_client(batch, result_answer(&id, &refusal, stateless))
            .await;
    }
    let mut envelope = gates
        .toolbox
        .call_with(Call::new(name.clone(), arguments.as_str()))
        .await;
    if !envelope.ok {
        envelope.call_id = None;
        return shared
            .answer_client(batch, result_answer(&id, &envelope, stateless))
            .await;
    }
    let decoded = Decoded {
        value: envelope.value.take().unwrap_or_default(),
        repairs: std::mem::take(&mut envelope.repairs),
        repairs_left_out: 0,
    };
    let mut replaced = Vec::new();
    if decoded.is_repaired() {
        let written = gates
            .input(&name)
            .and_then(|tool| tool.repaired_text(&arguments, &decoded))
            .unwrap_or_else(|| {
                tracing::warn!(
                    tool = %name,
                    "the repaired arguments could not be written into the text sent; they are written whole"
                );
                decoded.value.to_string()
            });
        if let Some(range) = located.arguments.clone() {
            replaced.push((range, written.into_bytes()));
        }
    }
    let repairs: Vec<_> = decoded
        .repairs
        .into_iter()
        .filter(|repair| repair.rule.is_repair())
        .collect();
    let output = gates.output(&name).filter(|_| shared.check_output);
    let call = (!repairs.is_empty() || output.is_some()).then(|| Pending {
        tool: name,
        repairs,
        output,
        stateless,
    });
    forward(shared, text, located, id, replaced, batch, call).await;
}

/// The envelope of a call to a tool whose schema the proxy cannot read.
pub(super) fn schema_refusal(tool: &str, errors: &toolgate_core::model::SchemaErrors) -> Envelope {
    let report = toolgate_core::schema_refusal(errors);
    let message = format!(
        "the upstream's schema of {} cannot be used, so the proxy refuses its calls",
        crate::boundary::echoed(tool)
    );
    let failure =
        Failure::new(Reason::InvalidArguments, message).with_issues(report.issues().to_vec());
    Envelope::failure(crate::boundary::echoed(tool).into_owned(), failure, None)
}

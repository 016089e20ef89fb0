//! The upstream's lines: answers to the proxy's own requests kept, answers to the client's
//! requests given back their ids as sent (and, for a gated call, its repairs and its output's
//! check), the rest forwarded as it came.

use std::sync::Arc;

use super::{result, Shared};
use crate::mcp::ids::SentId;
use crate::mcp::lines::{Line, Lines};
use crate::mcp::message::{error_answer, locate, INTERNAL_ERROR, INVALID_REQUEST};

/// Reads the upstream's lines until its output ends.
pub(super) async fn read<R: tokio::io::AsyncBufRead + Unpin>(
    shared: Arc<Shared>,
    mut lines: Lines<R>,
) {
    loop {
        match lines.next().await {
            Line::Whole => {
                let text = lines.text();
                if !text.iter().all(u8::is_ascii_whitespace) {
                    let text = text.to_vec();
                    message(&shared, &text).await;
                }
            }
            Line::Cut => too_long(&shared, lines.text(), lines.cut_id(), lines.max()).await,
            Line::End | Line::Failed(_) => return,
        }
    }
}

/// One line of the upstream's.
async fn message(shared: &Shared, text: &[u8]) {
    let located = locate(text);
    let method = located.method(text);
    let id = located.id.clone().filter(|_| method.is_none());
    let Some(range) = id else {
        shared.to_client.line(text).await;
        if method.as_deref() == Some("notifications/tools/list_changed") {
            shared.tools.changed(shared).await;
        }
        return;
    };
    let (sent, flight) = match shared.answered(&text[range.clone()]) {
        Ok(answered) => answered,
        // The proxy's own (answered, or superseded), or a cancelled request's: never the
        // client's.
        Err(Some(number)) => {
            if !super::bridge::answered(shared, number, text).await {
                shared.tools.answered(shared, number, text).await;
            }
            return;
        }
        Err(None) => return shared.to_client.line(text).await,
    };
    if let (Some(params), true) = (&flight.initialize, is_error(text)) {
        // The upstream refused the handshake: it may speak only the stateless era.
        let initialize = super::bridge::Initialize {
            id: sent,
            batch: flight.batch,
            params: params.clone(),
            refusal: text.to_vec(),
        };
        return super::bridge::refused_initialize(shared, initialize);
    }
    let answer = result::for_client(text, range, &sent, &flight);
    shared.answer_client(flight.batch, answer).await;
}

/// Whether an answer is an error.
fn is_error(text: &[u8]) -> bool {
    crate::mcp::message::member(text, 0..text.len(), b"error").is_some()
}

/// A line past the cap: an answer becomes an error answer for its id (found wherever it is
/// in the line); a request of the upstream's is answered so, to the upstream.
async fn too_long(shared: &Shared, kept: &[u8], id: Option<&[u8]>, max: usize) {
    let located = locate(kept);
    let id_text = located
        .id
        .clone()
        .map(|range| kept[range].to_vec())
        .or_else(|| id.map(<[u8]>::to_vec));
    let Some(id_text) = id_text else {
        tracing::warn!(
            max,
            "a line of the upstream's past the limit, without an id: dropped"
        );
        return;
    };
    if located.method.is_some() {
        if let Some(id) = SentId::read(&id_text) {
            let message = format!("the request is longer than the proxy's limit of {max} bytes");
            shared.queue_to_upstream(error_answer(Some(&id), INVALID_REQUEST, &message));
        }
        return;
    }
    match shared.answered(&id_text) {
        Ok((sent, flight)) => {
            let message = format!("the upstream's answer is longer than the limit of {max} bytes");
            let answer = error_answer(Some(&sent), INTERNAL_ERROR, &message);
            shared.answer_client(flight.batch, answer).await;
        }
        Err(Some(number)) => shared.tools.too_long(number, max),
        Err(None) => {
            tracing::warn!(
                max,
                "an answer of the upstream's past the limit, for no request in flight: dropped"
            );
        }
    }
}

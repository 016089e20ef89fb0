//! A toolbox's streaming turn: a model's answer read as its provider streams it, each call's
//! arguments fed to the gate's streaming decoder as they arrive, so a refusal is heard early;
//! every call decided at the message's end.
//!
//! Decisions written down here:
//! - Calls run at the message's end, in the order they opened, through
//!   [`Toolbox::call_answer`]: the gate decides each on the whole of its text (what a whole
//!   answer's call gets, whatever the pieces), the budgets count each call once, and a cut
//!   message (its token cap, an error in the stream, a closed connection, a garbled call) runs
//!   none.
//! - An early issue is recorded and given to the caller as it comes ([`OnEarlyIssue::Record`],
//!   the default), or, with [`OnEarlyIssue::Cancel`], ends the reading: the call is refused
//!   with the issues it sent and a root issue saying reading stopped, and every other call
//!   of the message is refused as cut (none runs: the caller stopped the answer). A toolbox
//!   with middleware reads with [`OnEarlyIssue::Record`] whatever is asked: a hook may
//!   rewrite a call's text before the gate, so only the end can say it is refused.

use toolgate_core::streaming::StreamDecoder;
use toolgate_core::Issue;

use super::messages::{refuse_cut, Cut, Following, MessageError, Provider, StreamedMessage};
use super::{Envelope, Toolbox};

/// What a streaming turn does when a call's arguments bring an issue no continuation can
/// mend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnEarlyIssue {
    /// Tell the caller and read on; decide every call at the message's end.
    #[default]
    Record,
    /// Stop reading: refuse that call now and run no other call of the message.
    Cancel,
}

/// An issue a streamed call sent before its end.
#[derive(Clone, Debug, PartialEq)]
pub struct EarlyIssue {
    /// The call's place among the message's calls.
    pub call: usize,
    /// The call's id, where the provider gave it.
    pub call_id: Option<String>,
    /// The tool it calls.
    pub tool: String,
    /// The stream's event it came in (from 0).
    pub event: usize,
    /// The issue (also in the call's final refusal: see `toolgate::streaming`).
    pub issue: Issue,
}

/// One model answer read as it streams (see the module's documentation);
/// [`Toolbox::stream_turn`] makes one.
pub struct StreamingTurn<'t> {
    toolbox: &'t Toolbox,
    message: StreamedMessage,
    following: Following<'t>,
    on_issue: OnEarlyIssue,
    /// The call whose early issue cancelled the turn.
    cancelled: Option<usize>,
}

impl Toolbox {
    /// A streaming turn over this toolbox for an answer of `provider`'s stream; `max_tokens`:
    /// the output token cap the request set, for a stream that does not say it was cut.
    pub fn stream_turn(
        &self,
        provider: Provider,
        max_tokens: Option<u64>,
        on_issue: OnEarlyIssue,
    ) -> StreamingTurn<'_> {
        StreamingTurn {
            toolbox: self,
            message: StreamedMessage::new(provider, max_tokens),
            following: Following::new(),
            on_issue: match self.has_middleware() {
                false => on_issue,
                true => OnEarlyIssue::Record,
            },
            cancelled: None,
        }
    }
}

impl StreamingTurn<'_> {
    /// Reads the stream's next bytes; the early issues they brought (none once cancelled).
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<EarlyIssue> {
        if self.cancelled.is_some() {
            return Vec::new();
        }
        let toolbox = self.toolbox;
        let decoder_for = |name: &str| -> Option<StreamDecoder<'_>> {
            toolbox.registered(name).map(|tool| tool.stream_decoder())
        };
        let mut issues = Vec::new();
        for update in self.message.feed(bytes) {
            let Some(issue) = self.following.update(&self.message, update, decoder_for) else {
                continue;
            };
            let call = &self.message.calls()[update.call];
            issues.push(EarlyIssue {
                call: update.call,
                call_id: call.call_id.clone(),
                tool: call.tool.clone().unwrap_or_default(),
                event: update.event,
                issue: issue.clone(),
            });
            if self.on_issue == OnEarlyIssue::Cancel {
                self.cancelled = Some(update.call);
                break;
            }
        }
        issues
    }

    /// The message as read so far.
    pub fn message(&self) -> &StreamedMessage {
        &self.message
    }

    /// Whether an early issue cancelled the turn ([`OnEarlyIssue::Cancel`]).
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.is_some()
    }

    /// The stream is over (closed, or cancelled): every call decided, in the order they
    /// opened (see the module's documentation). A call that names no tool, or (Chat
    /// Completions, Responses) has no id, is the error naming its place.
    pub async fn finish(mut self) -> Result<Vec<Envelope>, MessageError> {
        self.message.close();
        let answer = self.message.answer_calls()?;
        let Some(cancelled) = self.cancelled else {
            return Ok(self.toolbox.call_answer(&answer).await);
        };
        let because = format!("the caller stopped the answer at call {cancelled}'s early issue");
        let mut envelopes = refuse_cut(&answer.calls, &Cut { because });
        if let (Some(decoder), Some(call)) =
            (self.following.take(cancelled), answer.calls.get(cancelled))
        {
            let refused = decoder.refuse_now();
            envelopes[cancelled] = super::stopped::invalid_arguments(&call.tool, &refused)
                .with_call_id(call.call_id.clone());
        }
        Ok(envelopes)
    }
}

//! A toolbox's streaming turn: a model's answer read as its provider streams it, each call's
//! arguments fed to the gate's streaming decoder as they arrive, so a refusal is heard early;
//! each call run at the message's end, or at its own end.
//!
//! Decisions written down here:
//! - By default ([`StartCalls::AtMessageEnd`]) calls run at the message's end, in the order
//!   they opened, through [`Toolbox::call_answer`]: the gate decides each on the whole of its
//!   text (what a whole answer's call gets, whatever the pieces), the budgets count each call
//!   once, and a cut message (its token cap, an error in the stream, a closed connection, a
//!   garbled call) runs none.
//! - With [`StartCalls::AtCallEnd`] a call the provider ends on its own (Responses' `.done`,
//!   Anthropic's `content_block_stop`, Gemini's whole call) is begun at that end, while the
//!   stream goes on: its end says its text is whole, so a cut that comes later does not
//!   refuse it (it refuses the calls still open) — nor does more of the same call after its
//!   end (garbled: a Responses `output_item.done` unlike the text that ran), which the
//!   message's log and cut then name for the others. Chat Completions' calls end with the
//!   message, so they run at its end either way. A begun call runs as the turn is polled:
//!   while [`StreamingTurn::read`] reads the stream, and in [`StreamingTurn::finish`]; a
//!   caller that feeds the turn itself ([`StreamingTurn::feed`]) begins them there. Each
//!   counts once against the budgets, as a call of [`Toolbox::call_with`].
//! - An early issue is recorded and given to the caller as it comes ([`OnEarlyIssue::Record`],
//!   the default), or, with [`OnEarlyIssue::Cancel`], ends the reading: the call is refused
//!   with the issues it sent and a root issue saying reading stopped, and every other call
//!   of the message not begun is refused as cut (none of them runs: the caller stopped the
//!   answer). A toolbox with middleware reads with [`OnEarlyIssue::Record`] whatever is
//!   asked: a hook may rewrite a call's text before the gate, so only the end can say it is
//!   refused.
//! - Every envelope is given in the order the calls opened, begun ones among them; a call
//!   begun is awaited to its end before [`StreamingTurn::finish`] answers, even where the
//!   message turns out garbled (a tool is never dropped half-run).

use futures_util::future::{BoxFuture, Either, FutureExt};
use futures_util::stream::{FuturesUnordered, Stream, StreamExt};
use toolgate_core::streaming::StreamDecoder;
use toolgate_core::Issue;

use super::messages::{
    refuse_cut, AnswerCalls, Cut, Following, MessageError, Provider, StreamUpdate, StreamedCall,
    StreamedMessage,
};
use super::{Envelope, Toolbox};

/// What a streaming turn does when a call's arguments bring an issue no continuation can
/// mend.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnEarlyIssue {
    /// Tell the caller and read on; decide every call at its end.
    #[default]
    Record,
    /// Stop reading: refuse that call now and run no other call not begun.
    Cancel,
}

/// When a streaming turn runs a call (see the module's documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StartCalls {
    /// Every call at the message's end, together: a cut message runs none.
    #[default]
    AtMessageEnd,
    /// A call the provider ends on its own at that end, while the stream goes on; the others
    /// at the message's end.
    AtCallEnd,
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
    start: StartCalls,
    /// The call whose early issue cancelled the turn.
    cancelled: Option<usize>,
    /// The calls begun at their own end and still running, each with its place.
    running: FuturesUnordered<BoxFuture<'t, (usize, Envelope)>>,
    /// The places of the calls begun.
    begun: Vec<usize>,
    /// The envelopes of begun calls that ended, with their places.
    ran: Vec<(usize, Envelope)>,
}

impl Toolbox {
    /// A streaming turn over this toolbox for an answer of `provider`'s stream; `max_tokens`:
    /// the output token cap the request set, for a stream that does not say it was cut.
    /// Calls run at the message's end unless [`StreamingTurn::start_calls`] says otherwise.
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
            start: StartCalls::AtMessageEnd,
            cancelled: None,
            running: FuturesUnordered::new(),
            begun: Vec::new(),
            ran: Vec::new(),
        }
    }
}

impl<'t> StreamingTurn<'t> {
    /// This turn, running calls when `start` says.
    pub fn start_calls(mut self, start: StartCalls) -> Self {
        self.start = start;
        self
    }

    /// Reads the stream's next bytes; the early issues they brought (none once cancelled).
    /// With [`StartCalls::AtCallEnd`], a call they end is begun (it runs as the turn is
    /// polled: [`StreamingTurn::read`], [`StreamingTurn::finish`]).
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<EarlyIssue> {
        if self.cancelled.is_some() {
            return Vec::new();
        }
        let toolbox = self.toolbox;
        let decoder_for = |name: &str| -> Option<StreamDecoder<'t>> {
            toolbox.registered(name).map(|tool| tool.stream_decoder())
        };
        let mut issues = Vec::new();
        for update in self.message.feed(bytes) {
            let early = self.following.update(&self.message, update, decoder_for);
            if let Some(issue) = early {
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
            if update.what == StreamUpdate::Ended && self.start == StartCalls::AtCallEnd {
                self.begin(update.call);
            }
        }
        issues
    }

    /// Begins the call at `place`, ended on its own, where the gate can take it (a call
    /// without a name or a needed id is left to the message's end, which names it).
    fn begin(&mut self, place: usize) {
        if self.begun.contains(&place) {
            return;
        }
        let Ok(call) = self.message.answer_call(place) else {
            return;
        };
        self.begun.push(place);
        let future = self.toolbox.call_with(call);
        self.running
            .push(future.map(move |envelope| (place, envelope)).boxed());
    }

    /// Reads `stream` to its end (or to a cancelling early issue), feeding the turn each
    /// piece, while the calls begun at their own end run; the early issues, in order. A
    /// transport error is the stream's end: give a stream that ends there
    /// (`take_while(Result::is_ok)`), and the message is cut as closed.
    pub async fn read<S>(&mut self, stream: S) -> Vec<EarlyIssue>
    where
        S: Stream,
        S::Item: AsRef<[u8]>,
    {
        let mut stream = std::pin::pin!(stream);
        let mut early = Vec::new();
        while self.cancelled.is_none() {
            let Some(piece) = self.next_piece(&mut stream).await else {
                break;
            };
            early.extend(self.feed(piece.as_ref()));
        }
        early
    }

    /// The stream's next piece, the begun calls running while it comes.
    async fn next_piece<S: Stream + Unpin>(&mut self, stream: &mut S) -> Option<S::Item> {
        let mut next = stream.next();
        while !self.running.is_empty() {
            match futures_util::future::select(&mut next, self.running.next()).await {
                Either::Left((piece, _)) => return piece,
                Either::Right((Some(done), _)) => self.ran.push(done),
                Either::Right((None, _)) => break,
            }
        }
        next.await
    }

    /// The stream ended: what the message holds is all there is (a message not ended is cut
    /// as closed). [`StreamingTurn::finish`] says it too; before it, the message
    /// ([`StreamingTurn::message`]) gives the calls as the gate will take them.
    pub fn close(&mut self) {
        self.message.close();
    }

    /// The message as read so far.
    pub fn message(&self) -> &StreamedMessage {
        &self.message
    }

    /// Whether an early issue cancelled the turn ([`OnEarlyIssue::Cancel`]).
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.is_some()
    }

    /// The stream is over (closed, or cancelled): every call decided, its envelope in the
    /// order the calls opened (see the module's documentation). A call that names no tool,
    /// or (Chat Completions, Responses) has no id, is the error naming its place; where calls
    /// begun at their own end have run, their envelopes are given instead, and every other
    /// call is refused as cut by the call that cannot be read.
    pub async fn finish(mut self) -> Result<Vec<Envelope>, MessageError> {
        self.message.close();
        while let Some(done) = self.running.next().await {
            self.ran.push(done);
        }
        let answer = match self.message.answer_calls() {
            Ok(answer) => answer,
            // Calls ran already: their envelopes are kept, every other call refused.
            Err(error) if !self.ran.is_empty() => unreadable(&self.message, &error),
            Err(error) => return Err(error),
        };
        let mut envelopes: Vec<Option<Envelope>> = answer.calls.iter().map(|_| None).collect();
        for (place, envelope) in std::mem::take(&mut self.ran) {
            envelopes[place] = Some(envelope);
        }
        let (places, calls): (Vec<usize>, Vec<_>) = answer
            .calls
            .iter()
            .enumerate()
            .filter(|(place, _)| envelopes[*place].is_none())
            .map(|(place, call)| (place, call.clone()))
            .unzip();
        let decided = match (self.cancelled, &answer.cut) {
            (Some(cancelled), _) => {
                let because =
                    format!("the caller stopped the answer at call {cancelled}'s early issue");
                let mut refused = refuse_cut(&calls, &Cut { because });
                let at = places.iter().position(|&place| place == cancelled);
                if let (Some(at), Some(decoder)) = (at, self.following.take(cancelled)) {
                    let refusal = decoder.refuse_now();
                    refused[at] = super::stopped::invalid_arguments(&calls[at].tool, &refusal)
                        .with_call_id(calls[at].call_id.clone());
                }
                refused
            }
            (None, Some(cut)) => refuse_cut(&calls, cut),
            (None, None) => self.toolbox.call_all(calls).await,
        };
        for (place, envelope) in places.into_iter().zip(decided) {
            envelopes[place] = Some(envelope);
        }
        Ok(envelopes.into_iter().flatten().collect())
    }
}

/// The calls of a message holding one the gate cannot take (`error`), as a cut answer: each as
/// it came (a call without a name under an empty one), refused for that call.
fn unreadable(message: &StreamedMessage, error: &MessageError) -> AnswerCalls {
    let calls = message.calls().iter().map(StreamedCall::as_sent).collect();
    let because = format!("the answer holds a tool call that cannot be read ({error})");
    AnswerCalls {
        calls,
        finish_reason: message.finish_reason().map(str::to_owned),
        cut: Some(Cut { because }),
    }
}

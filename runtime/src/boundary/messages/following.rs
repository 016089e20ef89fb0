//! [`Following`]: each call of a [`StreamedMessage`] fed, as its text arrives, to its own
//! [`StreamDecoder`] (made once its tool is known), with the first issue each sent early and
//! the stream's event it came in. What `toolgate stream` and a toolbox's streaming turn
//! ([`crate::boundary::StreamingTurn`]) both follow a message with.

use toolgate_core::streaming::{StreamDecoder, StreamEvent};
use toolgate_core::Issue;

use super::{StreamUpdate, StreamedMessage, Update};

/// One call followed.
struct Followed<'t> {
    decoder: Option<StreamDecoder<'t>>,
    fed: usize,
    early: Option<(usize, Issue)>,
}

/// The decoders of a message's calls (see the module's documentation).
#[derive(Default)]
pub struct Following<'t> {
    calls: Vec<Followed<'t>>,
}

impl<'t> Following<'t> {
    /// No call followed yet.
    pub fn new() -> Self {
        Following { calls: Vec::new() }
    }

    /// Feeds the call `update` changed the text it gained (from its start where it was
    /// replaced), its decoder made by `decoder_for` from the tool's name once the name is
    /// known; the call's first early issue, when this update brought it.
    pub fn update(
        &mut self,
        message: &StreamedMessage,
        update: Update,
        decoder_for: impl FnOnce(&str) -> Option<StreamDecoder<'t>>,
    ) -> Option<&Issue> {
        while self.calls.len() < message.calls().len() {
            self.calls.push(Followed {
                decoder: None,
                fed: 0,
                early: None,
            });
        }
        let call = message.calls().get(update.call)?;
        let followed = &mut self.calls[update.call];
        if update.what == StreamUpdate::Replaced {
            followed.decoder = None;
            followed.fed = 0;
        }
        if followed.decoder.is_none() {
            followed.decoder = call.tool.as_deref().and_then(decoder_for);
        }
        let decoder = followed.decoder.as_mut()?;
        let upto = update.upto.max(followed.fed).min(call.arguments.len());
        let events = decoder.feed(&call.arguments.as_bytes()[followed.fed..upto]);
        followed.fed = upto;
        let first = events.iter().find_map(|event| match event {
            StreamEvent::Issue(issue) => Some(issue.clone()),
            _ => None,
        });
        match (&followed.early, first) {
            (None, Some(issue)) => {
                followed.early = Some((update.event, issue));
                followed.early.as_ref().map(|(_, issue)| issue)
            }
            _ => None,
        }
    }

    /// Makes the decoders not made yet (a call named after its last text, or with none) and
    /// feeds every call what it has not been fed: call it once the message is over.
    pub fn catch_up(
        &mut self,
        message: &StreamedMessage,
        mut decoder_for: impl FnMut(&str) -> Option<StreamDecoder<'t>>,
    ) {
        for call in 0..message.calls().len() {
            let update = Update {
                event: message.events_read(),
                call,
                what: StreamUpdate::Ended,
                upto: message.calls()[call].arguments.len(),
            };
            self.update(message, update, &mut decoder_for);
        }
    }

    /// The decoder of the call at `call`, taken (`None` where its tool is unknown).
    pub fn take(&mut self, call: usize) -> Option<StreamDecoder<'t>> {
        self.calls.get_mut(call)?.decoder.take()
    }

    /// The first issue the call at `call` sent early, and the stream's event it came in.
    pub fn early(&self, call: usize) -> Option<&(usize, Issue)> {
        self.calls.get(call)?.early.as_ref()
    }
}

//! [`CallFuture`]: the future of one call of a [`Toolbox`].
//!
//! Written by hand for the direct road (no hook, no span recorded): nothing happens until
//! the future is first polled; then everything before the tool runs at once, and the future
//! holds only the tool's boxed run, its timer and the repairs, so awaiting a call moves a few
//! words, not a nest of `async fn` states. The roads with hooks or a listening subscriber are
//! ordinary boxed `async` code.

use std::borrow::Cow;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use toolgate_core::Repair;

use super::budget::{Counted, Counter};
use super::envelope::Envelope;
use super::registry::{panicked, BoxFuture, Output, Registered};
use super::run::{envelope_of, Ran};
use super::telemetry;
use super::toolbox::Toolbox;

/// The future of [`Toolbox::call`], [`Toolbox::call_with`]: resolves to the call's
/// [`Envelope`]. Nothing happens until it is first polled: a call never awaited spends no
/// budget and never reaches its tool. `Send`, so a call may be spawned; like every future, it
/// must not be polled again once it has given its envelope (it panics, as `async fn` futures
/// do).
#[must_use = "a call does nothing unless awaited"]
pub struct CallFuture<'a> {
    state: State<'a>,
}

enum State<'a> {
    /// Not polled yet: the call as made.
    Start {
        toolbox: &'a Toolbox,
        name: Cow<'a, str>,
        arguments: Cow<'a, str>,
        call_id: Option<String>,
    },
    /// Decided before the tool: a refusal, an unknown tool, a spent budget.
    Ready(Option<Envelope>),
    /// The tool is running.
    Direct(Direct<'a>),
    /// A call through hooks, or with its span recorded.
    Boxed(BoxFuture<'a, Envelope>),
}

/// A tool running on the direct road.
pub(crate) struct Direct<'a> {
    pub(crate) toolbox: &'a Toolbox,
    pub(crate) tool: &'a dyn Registered,
    pub(crate) counter: Counter<'a>,
    pub(crate) running: BoxFuture<'static, Result<Output, String>>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) sleep: Option<Pin<Box<tokio::time::Sleep>>>,
    pub(crate) repairs: Vec<Repair>,
    pub(crate) call_id: Option<String>,
    /// Whether the future tells the events of the call when it ends (it does not inside a
    /// recorded span, whose owner tells them).
    pub(crate) tells: bool,
}

impl<'a> CallFuture<'a> {
    /// A call not begun: it begins when first polled.
    pub(crate) fn start(
        toolbox: &'a Toolbox,
        name: Cow<'a, str>,
        arguments: Cow<'a, str>,
        call_id: Option<String>,
    ) -> Self {
        CallFuture {
            state: State::Start {
                toolbox,
                name,
                arguments,
                call_id,
            },
        }
    }

    pub(crate) fn ready(envelope: Envelope) -> Self {
        CallFuture {
            state: State::Ready(Some(envelope)),
        }
    }

    pub(crate) fn direct(direct: Direct<'a>) -> Self {
        CallFuture {
            state: State::Direct(direct),
        }
    }

    pub(crate) fn boxed(future: BoxFuture<'a, Envelope>) -> Self {
        CallFuture {
            state: State::Boxed(future),
        }
    }
}

impl Direct<'_> {
    /// How the run went, once it is over.
    fn poll_ran(&mut self, cx: &mut Context<'_>) -> Poll<Ran> {
        let polled = std::panic::catch_unwind(AssertUnwindSafe(|| self.running.as_mut().poll(cx)));
        match polled {
            Ok(Poll::Ready(done)) => return Poll::Ready(Ran::Done(done)),
            Err(panic) => return Poll::Ready(Ran::Panicked(panicked(&*panic))),
            Ok(Poll::Pending) => {}
        }
        let Some(timeout) = self.timeout else {
            return Poll::Pending;
        };
        // Made on the first poll, inside the executor (Tokio's timer needs its runtime).
        let sleep = self
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Ran::TimedOut(timeout)),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl Future for CallFuture<'_> {
    type Output = Envelope;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Envelope> {
        let this = self.get_mut();
        if let State::Start {
            toolbox,
            name,
            arguments,
            call_id,
        } = &mut this.state
        {
            // `begin` never answers a call not begun: the state moves on once.
            let begun = toolbox.begin(name, arguments, call_id.take());
            this.state = begun.state;
        }
        match &mut this.state {
            // Only `begin` could leave it here, and it does not.
            State::Start { .. } => Poll::Pending,
            State::Ready(envelope) => match envelope.take() {
                Some(envelope) => Poll::Ready(envelope),
                None => panic!("a call's future was polled after it gave its envelope"),
            },
            State::Boxed(future) => future.as_mut().poll(cx),
            State::Direct(direct) => {
                let ran = match direct.poll_ran(cx) {
                    Poll::Ready(ran) => ran,
                    Poll::Pending => return Poll::Pending,
                };
                let repairs = std::mem::take(&mut direct.repairs);
                let mut envelope = envelope_of(direct.tool, ran, repairs);
                if envelope.error.is_some() {
                    direct.toolbox.count(direct.counter, Counted::Failed);
                }
                envelope.call_id = direct.call_id.take();
                if direct.tells {
                    telemetry::ended(&tracing::Span::none(), &envelope, None);
                }
                this.state = State::Ready(None);
                Poll::Ready(envelope)
            }
        }
    }
}

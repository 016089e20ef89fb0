//! Hooks around every call: before the gate, after the gate, after the tool.

use std::any::Any;

use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use toolgate_core::Repair;

use super::envelope::Envelope;

/// What a hook decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Go on (with whatever the hook changed).
    Pass,
    /// Stop: the call ends with a `denied` envelope carrying this message. After the tool,
    /// the tool's result is replaced by that envelope.
    Deny(String),
}

/// A call as the model sent it, before the gate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawCall {
    /// The tool's name, as sent.
    pub tool: String,
    /// The argument text, as sent.
    pub arguments: String,
    /// The call's id, when the model gave one.
    pub call_id: Option<String>,
}

/// The arguments of a call the gate accepted: the typed value of a typed tool, the JSON value
/// of a run-time tool.
pub struct Arguments {
    held: Held,
}

enum Held {
    Typed {
        value: Box<dyn Any + Send>,
        to_json: fn(&(dyn Any + Send)) -> Value,
    },
    Json(Value),
}

impl Arguments {
    /// A typed tool's arguments.
    pub(crate) fn typed<T: toolgate_core::ToolArg + Send + 'static>(value: T) -> Self {
        fn to_json<T: toolgate_core::ToolArg + 'static>(value: &(dyn Any + Send)) -> Value {
            value
                .downcast_ref::<T>()
                .map_or(Value::Null, toolgate_core::ToolArg::to_json_value)
        }
        Arguments {
            held: Held::Typed {
                value: Box::new(value),
                to_json: to_json::<T>,
            },
        }
    }

    /// A run-time tool's arguments.
    pub(crate) fn json(value: Value) -> Self {
        Arguments {
            held: Held::Json(value),
        }
    }

    /// The arguments as JSON (for a typed tool, written from its value).
    pub fn to_json(&self) -> Value {
        match &self.held {
            Held::Typed { value, to_json } => to_json(value.as_ref()),
            Held::Json(value) => value.clone(),
        }
    }

    /// The typed value, if the tool is typed with `T`.
    pub fn downcast_ref<T: 'static>(&self) -> Option<&T> {
        match &self.held {
            Held::Typed { value, .. } => value.downcast_ref(),
            Held::Json(_) => None,
        }
    }

    /// The typed value to change, if the tool is typed with `T`.
    pub fn downcast_mut<T: 'static>(&mut self) -> Option<&mut T> {
        match &mut self.held {
            Held::Typed { value, .. } => value.downcast_mut(),
            Held::Json(_) => None,
        }
    }

    /// A run-time tool's JSON value to change (`None` for a typed tool). The tool receives
    /// it as changed: it is not checked again.
    pub fn json_mut(&mut self) -> Option<&mut Value> {
        match &mut self.held {
            Held::Typed { .. } => None,
            Held::Json(value) => Some(value),
        }
    }

    /// The typed value, taken out for the handler.
    pub(crate) fn into_typed<T: 'static>(self) -> Option<T> {
        match self.held {
            Held::Typed { value, .. } => {
                let value: Box<dyn Any> = value;
                value.downcast().ok().map(|boxed| *boxed)
            }
            Held::Json(_) => None,
        }
    }

    /// The JSON value, taken out for the handler.
    pub(crate) fn into_json(self) -> Option<Value> {
        match self.held {
            Held::Typed { .. } => None,
            Held::Json(value) => Some(value),
        }
    }
}

impl std::fmt::Debug for Arguments {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Arguments").field(&self.to_json()).finish()
    }
}

/// A call the gate accepted, before its tool runs.
#[derive(Debug)]
pub struct GatedCall {
    /// The tool's name (to read: the tool is chosen by now, and changing it changes nothing).
    pub tool: Arc<str>,
    /// The call's id, when the model gave one.
    pub call_id: Option<String>,
    /// The decoded arguments.
    pub arguments: Arguments,
    /// The repairs the gate made.
    pub repairs: Vec<Repair>,
}

/// What a hook's stage returns: the boxed future `#[async_trait]` makes of an `async fn`.
pub type HookFuture<'a> = Pin<Box<dyn Future<Output = Decision> + Send + 'a>>;

/// A hook around every call of a [`super::Toolbox`]. Each stage may pass, change what it is
/// given, or deny; the hooks run in the order they were added, and the first denial ends the
/// call with a `denied` envelope (`error.denied_by` is the hook's [`Middleware::name`]).
///
/// The hooks are async: implement them with `#[async_trait]` (re-exported as
/// `toolgate::boundary::async_trait`) and `async fn`. Each has a default that passes at once
/// without allocating, so a hook implements only its stages and the others cost it next to
/// nothing.
///
/// An allow-list, before the gate:
///
/// ```
/// use toolgate::boundary::async_trait;
/// use toolgate::boundary::middleware::{Decision, Middleware, RawCall};
///
/// struct AllowList(Vec<&'static str>);
///
/// #[async_trait]
/// impl Middleware for AllowList {
///     fn name(&self) -> &str { "allow_list" }
///     async fn before_gate(&self, call: &mut RawCall) -> Decision {
///         if self.0.contains(&call.tool.as_str()) {
///             Decision::Pass
///         } else {
///             Decision::Deny(format!("the tool {} is not allowed here", call.tool))
///         }
///     }
/// }
/// ```
///
/// A log line with a field redacted, after the gate (the tool still gets the field):
///
/// ```
/// use toolgate::boundary::async_trait;
/// use toolgate::boundary::middleware::{Decision, GatedCall, Middleware};
///
/// struct RedactedLog { field: &'static str }
///
/// #[async_trait]
/// impl Middleware for RedactedLog {
///     async fn after_gate(&self, call: &mut GatedCall) -> Decision {
///         let mut shown = call.arguments.to_json();
///         if let Some(value) = shown.get_mut(self.field) {
///             *value = "[redacted]".into();
///         }
///         eprintln!("{} {shown}", call.tool);
///         Decision::Pass
///     }
/// }
/// ```
///
/// A rate limit: at most one call per interval, the rest denied.
///
/// ```
/// use std::sync::Mutex;
/// use std::time::{Duration, Instant};
/// use toolgate::boundary::async_trait;
/// use toolgate::boundary::middleware::{Decision, Middleware, RawCall};
///
/// struct RateLimit { every: Duration, last: Mutex<Option<Instant>> }
///
/// #[async_trait]
/// impl Middleware for RateLimit {
///     fn name(&self) -> &str { "rate_limit" }
///     async fn before_gate(&self, _call: &mut RawCall) -> Decision {
///         let mut last = self.last.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
///         let now = Instant::now();
///         match *last {
///             Some(at) if now.duration_since(at) < self.every => {
///                 Decision::Deny(format!("at most one call every {:?}", self.every))
///             }
///             _ => {
///                 *last = Some(now);
///                 Decision::Pass
///             }
///         }
///     }
/// }
/// ```
pub trait Middleware: Send + Sync {
    /// The hook's name, for `denied_by` and the logs (default: its type's name).
    fn name(&self) -> &str {
        std::any::type_name::<Self>()
    }

    /// Before the gate: the call as sent (the tool's name and argument text may be changed).
    ///
    /// Implemented as `async fn before_gate(&self, call: &mut RawCall) -> Decision` in an
    /// `#[async_trait]` impl. The signature is written out as `#[async_trait]` writes it so
    /// that the default, which passes, is a future of no size: a hook that leaves a stage
    /// alone costs that stage no allocation.
    fn before_gate<'life0, 'life1, 'async_trait>(
        &'life0 self,
        _call: &'life1 mut RawCall,
    ) -> HookFuture<'async_trait>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(Passes)
    }

    /// After the gate accepted the arguments, before the tool runs: the decoded arguments
    /// (typed or JSON) may be changed.
    ///
    /// Implemented as `async fn after_gate(&self, call: &mut GatedCall) -> Decision` in an
    /// `#[async_trait]` impl (see [`Middleware::before_gate`]).
    fn after_gate<'life0, 'life1, 'async_trait>(
        &'life0 self,
        _call: &'life1 mut GatedCall,
    ) -> HookFuture<'async_trait>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(Passes)
    }

    /// After the tool ran (or failed): the envelope may be changed. A denial replaces it.
    ///
    /// Implemented as `async fn after_handler(&self, tool: &str, envelope: &mut Envelope) ->
    /// Decision` in an `#[async_trait]` impl (see [`Middleware::before_gate`]).
    fn after_handler<'life0, 'life1, 'life2, 'async_trait>(
        &'life0 self,
        _tool: &'life1 str,
        _envelope: &'life2 mut Envelope,
    ) -> HookFuture<'async_trait>
    where
        'life0: 'async_trait,
        'life1: 'async_trait,
        'life2: 'async_trait,
        Self: 'async_trait,
    {
        Box::pin(Passes)
    }
}

/// The future of a stage a hook leaves alone: it passes at once. It has no size, so boxing
/// it allocates nothing.
struct Passes;

impl Future for Passes {
    type Output = Decision;

    fn poll(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<Decision> {
        Poll::Ready(Decision::Pass)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Waker;

    struct Nothing;

    impl Middleware for Nothing {}

    fn polled(future: HookFuture<'_>) -> Poll<Decision> {
        let mut future = future;
        future
            .as_mut()
            .poll(&mut Context::from_waker(Waker::noop()))
    }

    #[test]
    fn the_stages_a_hook_leaves_alone_pass_at_once_without_a_box_of_any_size() {
        assert_eq!(std::mem::size_of::<Passes>(), 0);
        let hook = Nothing;
        let mut raw = RawCall {
            tool: "t".into(),
            arguments: "{}".into(),
            call_id: None,
        };
        assert_eq!(
            polled(hook.before_gate(&mut raw)),
            Poll::Ready(Decision::Pass)
        );
        let mut gated = GatedCall {
            tool: Arc::from("t"),
            call_id: None,
            arguments: Arguments::json(Value::Null),
            repairs: Vec::new(),
        };
        assert_eq!(
            polled(hook.after_gate(&mut gated)),
            Poll::Ready(Decision::Pass)
        );
        let mut envelope = Envelope::success("t", Value::Null, Vec::new());
        assert_eq!(
            polled(hook.after_handler("t", &mut envelope)),
            Poll::Ready(Decision::Pass)
        );
        // Nothing a default stage was given is changed.
        assert_eq!(raw.arguments, "{}");
        assert_eq!(envelope.value, Some(Value::Null));
    }
}

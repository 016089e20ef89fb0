//! A conversation's history after tool calls: every call replayed as the provider accepts
//! it, and every call answered.
//!
//! A provider refuses a request whose history holds a call it cannot read: Anthropic's
//! `input` and Gemini's `args` must be objects, OpenAI's `arguments` must be JSON text, and
//! every call needs its result. An unreadable call (text cut off, not JSON, a JSON value
//! that is no object) written back as the model sent it makes every later turn of the
//! conversation fail (pydantic-ai fixed the same class in its #7092). So:
//! - a call the gate repaired is replayed with the arguments the tool ran with
//!   ([`Toolbox::replayed`](crate::boundary::Toolbox::replayed) writes them), so the model
//!   sees what ran;
//! - a call whose arguments are a JSON object is replayed as sent;
//! - any other is replayed as an object that keeps its text under
//!   [`UNREADABLE_ARGUMENTS_KEY`], and its result (the refusal) says what was wrong;
//! - every call gets a result: its envelope, or, where none was recorded, a refusal saying
//!   it was not run.

use serde_json::{json, Map, Value};

use super::{calls_turn, tool_results, Cut, Provider};
use crate::boundary::{Call, Envelope, Failure, Reason};
use toolgate_core::{Constraint, Issue, Path};

/// The key under which an unreadable call's text is replayed.
pub const UNREADABLE_ARGUMENTS_KEY: &str = "toolgate_unreadable_arguments";

/// Arguments as a provider takes them in a history: the JSON object they hold, else an
/// object holding their text under [`UNREADABLE_ARGUMENTS_KEY`].
///
/// ```
/// use toolgate::boundary::messages::replayed_arguments;
///
/// assert_eq!(replayed_arguments(r#"{"a": 1}"#)["a"], 1);
/// assert_eq!(
///     replayed_arguments(r#"{"a": [1, 2"#).to_string(),
///     r#"{"toolgate_unreadable_arguments":"{\"a\": [1, 2"}"#
/// );
/// ```
pub fn replayed_arguments(arguments: &str) -> Value {
    match serde_json::from_str::<Value>(arguments) {
        Ok(object @ Value::Object(_)) => object,
        _ => placeholder(arguments),
    }
}

/// Arguments as JSON text a provider accepts in a history (OpenAI's string `arguments`):
/// the text sent when it holds a JSON object, else [`replayed_arguments`]'s object.
pub(super) fn replayed_text(arguments: &str) -> String {
    match serde_json::from_str::<Value>(arguments) {
        Ok(Value::Object(_)) => arguments.to_owned(),
        _ => placeholder(arguments).to_string(),
    }
}

/// The object an unreadable call is replayed as: its text under
/// [`UNREADABLE_ARGUMENTS_KEY`].
fn placeholder(arguments: &str) -> Value {
    let mut placeholder = Map::new();
    placeholder.insert(UNREADABLE_ARGUMENTS_KEY.to_owned(), arguments.into());
    Value::Object(placeholder)
}

/// The turns a history gets for `calls` and their `envelopes`: the model's turn that made
/// the calls ([`calls_turn`], every call replayed as the provider accepts it), then their
/// results ([`tool_results`]), one per call, in the calls' order: a call's envelope is the
/// one with its id (else the one at its place); a call without one gets a refusal saying it
/// was not run.
pub fn history_turns(provider: Provider, calls: &[Call], envelopes: &[Envelope]) -> Vec<Value> {
    let answered: Vec<Envelope> = calls
        .iter()
        .enumerate()
        .map(|(at, call)| {
            let by_id = call
                .call_id
                .as_ref()
                .and_then(|id| envelopes.iter().find(|e| e.call_id.as_ref() == Some(id)));
            let at_place = envelopes
                .get(at)
                .filter(|e| call.call_id.is_none() || e.call_id.is_none());
            match by_id.or(at_place) {
                Some(envelope) => envelope.clone(),
                None => not_run(call, "no result was recorded for this call: it was not run"),
            }
        })
        .collect();
    let mut turns = calls_turn(provider, calls);
    turns.extend(tool_results(provider, &answered));
    turns
}

/// Every call of a cut answer refused without running, naming the cut (a `syntax` issue
/// at the arguments' root, as text cut off before its end is).
pub fn refuse_cut(calls: &[Call], cut: &Cut) -> Vec<Envelope> {
    calls
        .iter()
        .map(|call| {
            let issue = Issue::new(Path::root(), Constraint::Syntax, cut.message())
                .with_expected(json!("the whole answer"));
            let failure =
                Failure::new(Reason::InvalidArguments, cut.message()).with_issues(vec![issue]);
            Envelope::failure(call.tool.as_str(), failure, None).with_call_id(call.call_id.clone())
        })
        .collect()
}

/// A refusal for a call that was not run.
fn not_run(call: &Call, message: &str) -> Envelope {
    Envelope::failure(
        call.tool.as_str(),
        Failure::new(Reason::Denied, message),
        None,
    )
    .with_call_id(call.call_id.clone())
}

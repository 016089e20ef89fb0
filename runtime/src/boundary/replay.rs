//! What a toolbox does with a whole answer: its calls run, or all refused where the answer
//! was cut; and each call as the conversation's history replays it
//! ([`messages::history_turns`](super::messages::history_turns)).

use super::messages::{refuse_cut, AnswerCalls};
use super::{Call, Envelope, Toolbox};

impl Toolbox {
    /// Runs the calls of a whole answer ([`messages::answer_calls`](super::messages::answer_calls))
    /// as [`Toolbox::call_all`] does; where the answer was cut, none runs: each is refused
    /// naming the cut, even when its text parses (a cut answer may end after a call meant to
    /// go on). Budgets count no call of a cut answer.
    pub async fn call_answer(&self, answer: &AnswerCalls) -> Vec<Envelope> {
        match &answer.cut {
            Some(cut) => refuse_cut(&answer.calls, cut),
            None => self.call_all(answer.calls.iter().cloned()).await,
        }
    }

    /// `call` as the conversation's history should replay it: where the tool's gate repairs
    /// its arguments, with the arguments the tool runs with, as its gate hands them on (so the
    /// model sees what ran); otherwise as sent ([`messages::calls_turn`](super::messages::calls_turn)
    /// then writes an unreadable one as an object that keeps its text).
    pub fn replayed(&self, call: &Call) -> Call {
        let Some(tool) = self.registered(&call.tool) else {
            return call.clone();
        };
        match tool.gate(&call.arguments) {
            Ok((arguments, repairs)) if repairs.iter().any(|r| r.rule.is_repair()) => Call {
                arguments: arguments.to_json().to_string(),
                ..call.clone()
            },
            _ => call.clone(),
        }
    }
}

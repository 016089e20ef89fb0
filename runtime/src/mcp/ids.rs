//! A JSON-RPC request id as its sender wrote it, and the ids toolgate hands on in its place.
//!
//! MCP says an id is a string or a number, and clients write numbers every way JSON allows:
//! `1.0`, `2e0`, `-0`, integers past `i64`. Servers read them each their own way: rmcp holds
//! an `i64` (it reads `1.0` as `1` and cannot read `2^64`), the Python SDK a strict `int` (a
//! request whose id is `1.0` is dropped unanswered), a TypeScript server a double (`2^64 + 1`
//! is answered as `2^64`). So every served road answers a request with its id written exactly
//! as it was sent ([`SentId`]), and where an id is not *plain* — a string, or an integer
//! written as JSON writers write it whose magnitude a double holds exactly — or could be
//! confused with another in flight, the road hands on a [`Substitutes`] id in its place and
//! puts the id sent back into the answer.

use std::collections::HashMap;

/// A request's id as its sender wrote it: the JSON text of a string or a number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SentId(Box<str>);

/// How an id that was handed on as it was sent is known again in an answer, whatever the
/// answering side's spelling of it (`"\u0061"` is `"a"`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum IdKey {
    String(String),
    Integer(i64),
}

/// The largest integer every JSON reader holds exactly (2^53 - 1).
const MAX_PLAIN_INTEGER: u64 = (1 << 53) - 1;

impl SentId {
    /// The id whose JSON text is `text`, when it is one MCP allows (a string or a number).
    pub(crate) fn read(text: &[u8]) -> Option<SentId> {
        let text = std::str::from_utf8(text).ok()?;
        let is_id = match text.as_bytes().first()? {
            b'"' => serde_json::from_str::<String>(text).is_ok(),
            _ => toolgate_core::decode::is_json_number(text.as_bytes()),
        };
        is_id.then(|| SentId(text.into()))
    }

    /// The id's JSON text, as sent.
    pub(crate) fn text(&self) -> &str {
        &self.0
    }

    /// The key an answer echoing the id as sent is matched by, for a plain id (a string, or
    /// an integer written as JSON writers write it, below 2^53 in magnitude); `None` for any
    /// other, which is handed on under a substitute.
    pub(crate) fn plain_key(&self) -> Option<IdKey> {
        let text = self.text();
        if text.starts_with('"') {
            return serde_json::from_str(text).ok().map(IdKey::String);
        }
        let integer = canonical_integer(text)?;
        (integer.unsigned_abs() <= MAX_PLAIN_INTEGER).then_some(IdKey::Integer(integer))
    }

    /// Whether a JSON writer writes the id's value back as it was sent: an integer of
    /// `i64` as JSON writers write it, or a string without escapes.
    pub(crate) fn written_back_as_sent(&self) -> bool {
        let text = self.text();
        match text.strip_prefix('"') {
            Some(inner) => !inner.contains('\\'),
            None => canonical_integer(text).is_some(),
        }
    }

    /// The key of an id as the other side echoed it (its JSON text), to match it with one
    /// handed on as sent.
    pub(crate) fn key_of_echo(text: &[u8]) -> Option<IdKey> {
        SentId::read(text)?.plain_key()
    }
}

/// The integer `text` spells when it spells one of `i64` as JSON writers write it: digits
/// alone, no leading zero, no `-0`.
fn canonical_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let canonical = !digits.is_empty()
        && digits.bytes().all(|byte| byte.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
        && text != "-0";
    text.parse().ok().filter(|_| canonical)
}

/// The ids a road hands on in place of ids it cannot hand on as sent: strings that begin
/// with a prefix no peer can guess (it holds a number drawn when the road starts), so an id
/// a peer sends is never taken for one of them.
#[derive(Debug)]
pub(crate) struct Substitutes {
    prefix: String,
    next: u64,
}

impl Substitutes {
    pub(crate) fn new() -> Self {
        Substitutes {
            prefix: format!("toolgate-{:016x}-", unguessable()),
            next: 0,
        }
    }

    /// A new substitute: its number and its JSON text (a string).
    pub(crate) fn next(&mut self) -> (u64, String) {
        self.next += 1;
        (self.next, self.text_of(self.next))
    }

    /// The JSON text of substitute `number`.
    fn text_of(&self, number: u64) -> String {
        format!("\"{}{number}\"", self.prefix)
    }

    /// The number of the substitute whose JSON text `text` is, when it is one of this road's.
    pub(crate) fn number_of(&self, text: &[u8]) -> Option<u64> {
        let inner = text.strip_prefix(b"\"")?.strip_suffix(b"\"")?;
        let number = inner.strip_prefix(self.prefix.as_bytes())?;
        std::str::from_utf8(number).ok()?.parse().ok()
    }

    /// Whether `key` (an id a peer sent, as it would be echoed) is a string with this road's
    /// prefix: such an id is handed on under a substitute too, so it can be confused with
    /// none.
    pub(crate) fn looks_like_one(&self, key: &IdKey) -> bool {
        matches!(key, IdKey::String(text) if text.starts_with(&self.prefix))
    }
}

/// A number no peer can predict: the process's random hasher keys, the time and the pid.
fn unguessable() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos()),
    );
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// Requests handed on and not yet answered, by the id handed on: each keeps the id its
/// sender wrote, to answer with, and what the road attached to it. Bounded: past
/// `MAX_IN_FLIGHT` requests the road answers a new one itself.
#[derive(Debug)]
pub(crate) struct InFlight<T> {
    substitutes: Substitutes,
    as_sent: HashMap<IdKey, (SentId, T)>,
    substituted: HashMap<u64, (SentId, T)>,
}

/// Most requests a road holds in flight (handed on, not yet answered) at once.
pub const MAX_IN_FLIGHT: usize = 4096;

/// The answer to request `id` when [`MAX_IN_FLIGHT`] requests are in flight.
pub(crate) fn too_many_in_flight(id: &SentId) -> Vec<u8> {
    let message = format!("more than {MAX_IN_FLIGHT} requests are waiting for their answers");
    super::message::error_answer(Some(id), super::message::INTERNAL_ERROR, &message)
}

/// Where a request handed on can be found again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum HandedOn {
    AsSent(IdKey),
    Substitute(u64),
}

impl<T> InFlight<T> {
    pub(crate) fn new() -> Self {
        InFlight {
            substitutes: Substitutes::new(),
            as_sent: HashMap::new(),
            substituted: HashMap::new(),
        }
    }

    pub(crate) fn substitutes(&mut self) -> &mut Substitutes {
        &mut self.substitutes
    }

    pub(crate) fn len(&self) -> usize {
        self.as_sent.len() + self.substituted.len()
    }

    /// Admits a request with id `id`: the id to hand on in its place (`None`: as sent), and
    /// where it is kept. `force`: always under a substitute (the members of a batch, whose
    /// answers are gathered by it).
    pub(crate) fn admit(
        &mut self,
        id: SentId,
        attached: T,
        force: bool,
    ) -> (Option<String>, HandedOn) {
        let key = id.plain_key().filter(|key| {
            !force && !self.as_sent.contains_key(key) && !self.substitutes.looks_like_one(key)
        });
        match key {
            Some(key) => {
                self.as_sent.insert(key.clone(), (id, attached));
                (None, HandedOn::AsSent(key))
            }
            None => {
                let (number, text) = self.substitutes.next();
                self.substituted.insert(number, (id, attached));
                (Some(text), HandedOn::Substitute(number))
            }
        }
    }

    /// The request an answer's id (its JSON text) names, taken out: its id as sent and what
    /// was attached.
    pub(crate) fn answered(&mut self, echoed: &[u8]) -> Option<(SentId, T)> {
        match self.find(echoed)? {
            HandedOn::AsSent(key) => self.as_sent.remove(&key),
            HandedOn::Substitute(number) => self.substituted.remove(&number),
        }
    }

    /// Where the request an id (its JSON text, as handed on) names is kept.
    pub(crate) fn find(&self, echoed: &[u8]) -> Option<HandedOn> {
        if let Some(number) = self.substitutes.number_of(echoed) {
            return self
                .substituted
                .contains_key(&number)
                .then_some(HandedOn::Substitute(number));
        }
        let key = SentId::key_of_echo(echoed)?;
        self.as_sent
            .contains_key(&key)
            .then_some(HandedOn::AsSent(key))
    }

    /// The id handed on for the request whose id as sent is `id` (a cancellation names it so).
    pub(crate) fn handed_on_for(&self, id: &SentId) -> Option<String> {
        if let Some(key) = id.plain_key() {
            if self.as_sent.get(&key).is_some_and(|(sent, _)| sent == id) {
                return None;
            }
        }
        self.substituted
            .iter()
            .find(|(_, (sent, _))| sent == id)
            .map(|(number, _)| self.substitutes.text_of(*number))
    }

    /// Forgets a request (answered by the road itself, or cancelled).
    pub(crate) fn remove(&mut self, at: &HandedOn) -> Option<(SentId, T)> {
        match at {
            HandedOn::AsSent(key) => self.as_sent.remove(key),
            HandedOn::Substitute(number) => self.substituted.remove(number),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_ids_are_strings_and_integers_every_reader_holds() {
        let plain = ["1", "-7", "0", "9007199254740991", "\"a\"", "\"\\u0061\""];
        for text in plain {
            let id = SentId::read(text.as_bytes()).unwrap();
            assert!(id.plain_key().is_some(), "{text}");
        }
        let substituted = [
            "1.0",
            "2e0",
            "-0",
            "9007199254740992",
            "18446744073709551616",
            "01",
        ];
        for text in substituted {
            let id = SentId::read(text.as_bytes());
            assert!(id.is_none_or(|id| id.plain_key().is_none()), "{text}");
        }
        for text in ["true", "null", "{}", "\"\\ud800\"", "", "[1]"] {
            assert!(SentId::read(text.as_bytes()).is_none(), "{text}");
        }
        assert_eq!(
            SentId::key_of_echo(b"\"\\u0061\""),
            SentId::key_of_echo(b"\"a\"")
        );
    }
}

//! JSON-RPC batches: a line holding an array of messages (MCP's 2025-03-26 revision lets a
//! client send them; later revisions dropped them, and clients that negotiate 2025-03-26
//! still do). Every served road takes each message of the batch as if it came on its own
//! line, and answers the batch's requests with one array of their answers, in the order the
//! answers come (JSON-RPC 2.0 §6). A batch of notifications alone gets no answer; an empty
//! batch gets one `-32600` error, as JSON-RPC says.

use std::collections::HashMap;
use std::ops::Range;

use super::message::{error_answer, items, INVALID_REQUEST};

/// What a batch line holds: each message's range, or the answer to a line that is no batch
/// JSON-RPC can take.
pub(crate) enum Split {
    Messages(Vec<Range<usize>>),
    Answer(Vec<u8>),
}

/// Whether `text` (a whole line) is a batch: it starts with `[`.
pub(crate) fn is_batch(text: &[u8]) -> bool {
    text.iter().find(|byte| !byte.is_ascii_whitespace()) == Some(&b'[')
}

/// The messages of a batch line.
pub(crate) fn split(text: &[u8]) -> Split {
    match items(text, 0..text.len()) {
        Some(messages) if !messages.is_empty() => Split::Messages(messages),
        Some(_) => Split::Answer(error_answer(None, INVALID_REQUEST, "the batch is empty")),
        None => Split::Answer(error_answer(
            None,
            super::message::PARSE_ERROR,
            "the batch is not a JSON array",
        )),
    }
}

/// The answer (`-32600`, no id) to an item of a batch that is no message (not an object).
pub(crate) fn not_a_message() -> Vec<u8> {
    error_answer(None, INVALID_REQUEST, "a batch item is not a message")
}

/// The answers of open batches, gathered until each batch's last request is answered. Held
/// in bounded memory: once a batch's answers pass `max_bytes`, those gathered are written as
/// one array and the rest of its answers each on its own line.
#[derive(Debug)]
pub(crate) struct Batches {
    next: u64,
    open: HashMap<u64, Gathering>,
    max_bytes: usize,
}

#[derive(Debug)]
struct Gathering {
    /// Requests not answered yet.
    waiting: usize,
    /// The answers so far, as the array's text without its `]`.
    answers: Vec<u8>,
}

impl Batches {
    pub(crate) fn new(max_bytes: usize) -> Self {
        Batches {
            next: 0,
            open: HashMap::new(),
            max_bytes,
        }
    }

    /// Opens a batch of `requests` requests: its number (`None`: nothing to answer).
    pub(crate) fn open(&mut self, requests: usize) -> Option<u64> {
        if requests == 0 {
            return None;
        }
        self.next += 1;
        let gathering = Gathering {
            waiting: requests,
            answers: Vec::new(),
        };
        self.open.insert(self.next, gathering);
        Some(self.next)
    }

    /// The answer `line` (a JSON-RPC answer, its line end optional) to a request of batch
    /// `number`: the lines to write now (the batch's array once its last request is
    /// answered).
    pub(crate) fn answer(&mut self, number: u64, line: &[u8]) -> Vec<Vec<u8>> {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let Some(gathering) = self.open.get_mut(&number) else {
            return vec![with_end(line.to_vec())];
        };
        let mut written = Vec::new();
        if gathering.answers.len() + line.len() + 2 > self.max_bytes {
            if let Some(array) = gathering.flush() {
                written.push(array);
            }
            written.push(with_end(line.to_vec()));
        } else {
            gathering.answers.push(if gathering.answers.is_empty() {
                b'['
            } else {
                b','
            });
            gathering.answers.extend_from_slice(line);
        }
        gathering.waiting -= 1;
        written.extend(self.close_if_done(number));
        written
    }

    /// A request of batch `number` that will get no answer (it was cancelled): the lines to
    /// write now.
    pub(crate) fn forget(&mut self, number: u64) -> Vec<Vec<u8>> {
        match self.open.get_mut(&number) {
            Some(gathering) => {
                gathering.waiting -= 1;
                self.close_if_done(number).into_iter().collect()
            }
            None => Vec::new(),
        }
    }

    fn close_if_done(&mut self, number: u64) -> Option<Vec<u8>> {
        if self.open.get(&number)?.waiting > 0 {
            return None;
        }
        self.open.remove(&number)?.flush()
    }
}

impl Gathering {
    /// The answers gathered, as an array line; `None` when there are none.
    fn flush(&mut self) -> Option<Vec<u8>> {
        if self.answers.is_empty() {
            return None;
        }
        let mut array = std::mem::take(&mut self.answers);
        array.extend_from_slice(b"]\n");
        Some(array)
    }
}

fn with_end(mut line: Vec<u8>) -> Vec<u8> {
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_answered_once_all_its_requests_are() {
        let mut batches = Batches::new(1 << 20);
        let number = batches.open(2).unwrap();
        assert!(batches.answer(number, b"{\"id\":2}\n").is_empty());
        let written = batches.answer(number, b"{\"id\":1}");
        assert_eq!(written, [b"[{\"id\":2},{\"id\":1}]\n".to_vec()]);
        assert_eq!(batches.open(0), None);
        let number = batches.open(2).unwrap();
        assert!(batches.forget(number).is_empty());
        assert_eq!(batches.answer(number, b"{}"), [b"[{}]\n".to_vec()]);
    }

    #[test]
    fn a_batch_past_the_bound_is_answered_in_parts() {
        let mut batches = Batches::new(20);
        let number = batches.open(3).unwrap();
        assert!(batches.answer(number, b"{\"id\":1}").is_empty());
        let written = batches.answer(number, b"{\"id\":2,\"x\":123456}");
        assert_eq!(
            written,
            [
                b"[{\"id\":1}]\n".to_vec(),
                b"{\"id\":2,\"x\":123456}\n".to_vec()
            ]
        );
        assert_eq!(batches.answer(number, b"{}"), [b"[{}]\n".to_vec()]);
    }

    #[test]
    fn a_batch_past_the_cap_is_answered_on_every_road() {
        let kept = br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc""#;
        let super::super::incoming::Incoming::Answer(answer) =
            super::super::incoming::too_long(kept, None, kept.len())
        else {
            panic!("a batch past the cap is answered");
        };
        let answer = String::from_utf8(answer).unwrap();
        assert!(
            answer.starts_with(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600"#),
            "{answer}"
        );
    }

    #[test]
    fn a_line_is_split_into_its_messages() {
        let text = br#" [{"id":1,"method":"a"} , {"method":"b"}]"#;
        let Split::Messages(messages) = split(text) else {
            panic!("not split");
        };
        assert_eq!(&text[messages[1].clone()], br#"{"method":"b"}"#);
        assert!(matches!(split(b"[]"), Split::Answer(_)));
        assert!(matches!(split(b"[1,"), Split::Answer(_)));
    }
}

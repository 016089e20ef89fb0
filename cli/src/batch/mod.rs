//! `toolgate check --batch`: the check protocol (DESIGN.md, 'The check protocol').
//!
//! Each input line is `{"id": string, "tool": TOOL, "arguments": string}`; each output line
//! is `{"id", "ok", "value", "repairs", "issues", "hint"}`, in the same order. A request may
//! give its arguments as a stream gives them, `"chunks": [string, ...]` in place of
//! `"arguments"`: they are fed in order to the tool's streaming decoder, and the answer is
//! the one-shot answer of their concatenation (the same, whatever the chunks) with
//! `"events": [{"after_chunk": k, "issue": {..}}]`, the issues the decoder sent before the
//! end (each one also in `issues`, or under an ancestor: `toolgate_core::streaming`). Every input
//! line gets exactly one answer, so answers pair with lines by position. A line that is not
//! such a request, or a tool whose schema cannot be used, is answered with `ok: false` and one
//! issue; the batch goes on.
//!
//! Limits and guarantees:
//!
//! - A line is kept up to `--max-line` bytes (default [`DEFAULT_MAX_LINE_BYTES`], 8 MiB: an
//!   argument text within the decoder's 1 MiB limit fits however it is escaped, `\u0041`
//!   being the longest escape of a byte, with 2 MiB to spare for the id and the tool). The
//!   rest of a longer line is read and dropped as it streams by, and the line is answered
//!   with `ok: false` and one `limit` issue (`expected`: the cap, `got`: the line's length).
//! - A line that is blank or only whitespace is answered with `ok: false`, one `syntax` issue
//!   and `id: null`.
//! - A UTF-8 byte order mark at the start of a line (so at the start of the stream) is
//!   skipped, and so is the `\r` of a `\r\n` line end.
//! - A line that is not UTF-8, not JSON, cut off by the cap or not the request's shape is
//!   answered with its `id` when one can be read: the value of the first top-level `"id"`
//!   key, if the line (or its kept start) reads as JSON up to the end of that value.
//! - Tools are built once per distinct definition and kept in a [`ToolCache`] with its
//!   default bounds ([`ToolCache::DEFAULT_MAX_TOOLS`] definitions and
//!   [`ToolCache::DEFAULT_MAX_TEXT_BYTES`] of definition text, least recently used evicted).
//! - A schema's warnings (unknown keywords ignored, unknown formats, contradictions: see
//!   `toolgate_core::model::read::keywords`) go to stderr, `warning: <tool>: <pointer>:
//!   <message>`, once per distinct definition (up to [`WARNED_TOOLS`] definitions, then the
//!   memory of them starts again); stdout stays the protocol. With `--deny-warnings` such a
//!   tool is refused like a schema that cannot be used, one `schema` issue per warning.
//! - An answer line is at most [`ANSWER_MAX_BYTES`] besides its `id` (echoed as sent: it is
//!   the caller's own, within the line cap) and, when the call is accepted, its `value` (the
//!   arguments as decoded): whatever the tool's schema and the arguments, every issue, repair
//!   and hint entry is shortened and counted as `toolgate_core::issue` and
//!   `toolgate_core::hint` say.

#[cfg(test)]
mod bounds_tests;
mod lines;
#[cfg(test)]
mod tests;

use std::fmt;
use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::Context;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::Value;
use toolgate_core::decode::{Decoded, Rejected, Repair};
use toolgate_core::streaming::StreamEvent;
use toolgate_core::{schema_refusal, Constraint, Issue, Path, Report, RetryHint, ToolCache};

use lines::{read_line_capped, LineRead};

/// The longest line `check --batch` reads whole by default: 8 MiB.
///
/// It is [`LONGEST_ESCAPE`] × the decoder's argument limit plus [`ROOM_FOR_TOOL`]: any
/// argument text the decoder accepts fits in a line however it is escaped.
pub const DEFAULT_MAX_LINE_BYTES: usize = LONGEST_ESCAPE * ARGUMENT_LIMIT + ROOM_FOR_TOOL;

/// The decoder's limit on argument text (`Options::default().max_bytes`): 1 MiB.
const ARGUMENT_LIMIT: usize = 1 << 20;

/// The most bytes one byte of argument text can take in a JSON line: `\u0041` for `A`.
const LONGEST_ESCAPE: usize = 6;

/// What [`DEFAULT_MAX_LINE_BYTES`] leaves for the id, the tool definition and the keys: 2 MiB.
const ROOM_FOR_TOOL: usize = 2 << 20;

/// The most definitions whose warnings `check --batch` remembers having printed.
pub const WARNED_TOOLS: usize = 1 << 16;

/// Most bytes of an answer line besides its `id` and its `value`: the members' names, at
/// most [`toolgate_core::decode::MAX_REPAIRS`] repairs, the report of at most the default
/// issue cap and the hint, each within its bound (about 3.6 MiB, whatever the schema and
/// the arguments; a usual answer is a few hundred bytes).
// The documented bound: the command never needs it, its tests hold every answer to it.
#[cfg_attr(not(test), allow(dead_code))]
pub const ANSWER_MAX_BYTES: usize = 128
    + 2
    + toolgate_core::decode::MAX_REPAIRS * (toolgate_core::issue::REPAIR_MAX_BYTES + 1)
    + toolgate_core::issue::report_max_bytes(Report::DEFAULT_CAP)
    + toolgate_core::hint::HINT_MAX_BYTES;

/// The UTF-8 byte order mark, skipped at the start of a line.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

#[derive(Deserialize)]
struct Request<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    tool: &'a RawValue,
    arguments: Option<String>,
    /// The arguments as a stream gives them, in pieces (in place of `arguments`).
    chunks: Option<Vec<String>>,
}

/// One answer of the protocol.
#[derive(Serialize)]
pub struct Answer<'a> {
    pub id: Value,
    pub ok: bool,
    pub value: Value,
    pub repairs: &'a [Repair],
    /// Repairs made past `toolgate_core::decode::MAX_REPAIRS`, not listed (absent when none).
    #[serde(skip_serializing_if = "is_zero")]
    pub repairs_left_out: usize,
    pub issues: &'a [Issue],
    pub hint: Option<&'a RetryHint>,
    /// For a request of `chunks`: the issues the streaming decoder sent before the end, each
    /// after the chunk it came with (absent for a request of `arguments`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<ChunkEvent>>,
}

/// An issue a streamed request's decoder sent before the end.
#[derive(Serialize)]
pub struct ChunkEvent {
    /// The chunk it came with (from 0).
    pub after_chunk: usize,
    /// The issue.
    pub issue: Issue,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// The answer to one decoding.
pub fn answer(id: Value, result: &Result<Decoded<Value>, Rejected>) -> String {
    answer_with_events(id, result, None)
}

/// The answer to one decoding, with the early issues of a streamed one.
fn answer_with_events(
    id: Value,
    result: &Result<Decoded<Value>, Rejected>,
    events: Option<Vec<ChunkEvent>>,
) -> String {
    serde_json::to_string(&answer_of(id, result, events)).unwrap_or_default()
}

/// [`answer_with_events`] before it is written.
pub(crate) fn answer_of(
    id: Value,
    result: &Result<Decoded<Value>, Rejected>,
    events: Option<Vec<ChunkEvent>>,
) -> Answer<'_> {
    match result {
        Ok(decoded) => Answer {
            id,
            ok: true,
            value: decoded.value.clone(),
            repairs: &decoded.repairs,
            repairs_left_out: decoded.repairs_left_out,
            issues: &[],
            hint: None,
            events,
        },
        Err(rejected) => Answer {
            id,
            ok: false,
            value: Value::Null,
            repairs: &rejected.repairs,
            repairs_left_out: rejected.repairs_left_out,
            issues: rejected.report.issues(),
            hint: Some(rejected.hint()),
            events,
        },
    }
}

/// The answer to a request that could not be decoded at all.
pub fn refusal(id: Value, report: &Report, hint: Option<&RetryHint>) -> String {
    serde_json::to_string(&refusal_of(id, report, hint)).unwrap_or_default()
}

/// [`refusal`] before it is written.
pub(crate) fn refusal_of<'a>(
    id: Value,
    report: &'a Report,
    hint: Option<&'a RetryHint>,
) -> Answer<'a> {
    Answer {
        id,
        ok: false,
        value: Value::Null,
        repairs: &[],
        repairs_left_out: 0,
        issues: report.issues(),
        hint,
        events: None,
    }
}

/// The report of a request refused before any decoding: one `syntax` issue at the root.
pub(crate) fn syntax_report(message: String) -> Report {
    let mut report = Report::new();
    report.push(Issue::new(Path::root(), Constraint::Syntax, message));
    report
}

/// The answer to a line that is not a request: one `syntax` issue.
fn syntax_refusal(id: Value, message: String) -> String {
    refusal(id, &syntax_report(message), None)
}

/// A batch: its line cap, the tools it has built, and the definitions whose warnings it has
/// printed.
pub struct Batch {
    max_line_bytes: usize,
    tools: ToolCache,
    deny_warnings: bool,
    warned: std::cell::RefCell<std::collections::HashSet<u64>>,
}

impl Batch {
    /// A batch that reads lines of at most `max_line_bytes` bytes, with a default
    /// [`ToolCache`].
    pub fn new(max_line_bytes: usize) -> Self {
        Batch {
            max_line_bytes,
            tools: ToolCache::new(),
            deny_warnings: false,
            warned: Default::default(),
        }
    }

    /// Refuses tools whose schemas have warnings (`--deny-warnings`).
    pub fn deny_warnings(mut self, deny: bool) -> Self {
        self.deny_warnings = deny;
        self
    }

    /// Prints the warnings of a tool's schema on stderr, once per definition; under
    /// `--deny-warnings`, the refusal of the tool.
    fn warnings(
        &self,
        definition: &str,
        model: &toolgate_core::model::ToolModel,
    ) -> Option<Report> {
        if model.schema_warnings().is_empty() {
            return None;
        }
        if self.deny_warnings {
            let errors = model.clone().deny_warnings().err()?;
            return Some(schema_refusal(&errors));
        }
        let key = {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            definition.hash(&mut hasher);
            hasher.finish()
        };
        let mut warned = self.warned.borrow_mut();
        if warned.len() >= WARNED_TOOLS {
            warned.clear();
        }
        if warned.insert(key) {
            let mut stderr = std::io::stderr().lock();
            for warning in model.schema_warnings() {
                // A closed stderr loses the warnings, not the answers.
                let _ = writeln!(
                    stderr,
                    "warning: {}",
                    crate::warning_line(model.name(), warning)
                );
            }
        }
        None
    }

    /// Answers every line of `input` on `output`, one answer a line, in order.
    pub fn run(&self, mut input: impl BufRead, mut output: impl Write) -> anyhow::Result<ExitCode> {
        let mut line = Vec::new();
        loop {
            let read = read_line_capped(&mut input, &mut line, self.max_line_bytes)
                .context("cannot read the requests from stdin")?;
            let answer = match read {
                LineRead::End => break,
                LineRead::Whole => self.answer_line(&line),
                LineRead::TooLong { length } => self.answer_too_long(&line, length),
            };
            writeln!(output, "{answer}").context("cannot write the answers to stdout")?;
        }
        output
            .flush()
            .context("cannot write the answers to stdout")?;
        Ok(ExitCode::SUCCESS)
    }

    fn answer_line(&self, line: &[u8]) -> String {
        let line = line.strip_prefix(BYTE_ORDER_MARK).unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            let message = "the request line is blank; each line must be one request \
                           {\"id\", \"tool\", \"arguments\": string}";
            return syntax_refusal(Value::Null, message.to_owned());
        }
        let text = match std::str::from_utf8(line) {
            Ok(text) => text,
            Err(error) => {
                let message = format!(
                    "the request line is not UTF-8 (byte {} is not)",
                    error.valid_up_to()
                );
                return syntax_refusal(read_id(line), message);
            }
        };
        let request: Request<'_> = match serde_json::from_str(text) {
            Ok(request) => request,
            Err(error) => {
                let message = format!(
                    "the request line is not {{\"id\", \"tool\", \"arguments\": string}} (or \"chunks\": [string]): {error}"
                );
                return syntax_refusal(read_id(line), message);
            }
        };
        let id = request
            .id
            .and_then(|raw| serde_json::from_str(raw.get()).ok())
            .unwrap_or(Value::Null);
        let tool = match self.tools.get_text(request.tool.get()) {
            Ok(tool) => tool,
            Err(errors) => return refusal(id, &schema_refusal(&errors), None),
        };
        if let Some(denied) = self.warnings(request.tool.get(), tool.model()) {
            return refusal(id, &denied, None);
        }
        match (request.arguments, request.chunks) {
            (Some(arguments), None) => answer(id, &tool.decode(&arguments)),
            (None, Some(chunks)) => {
                let mut decoder = tool.stream_decoder();
                let mut events = Vec::new();
                for (at, chunk) in chunks.iter().enumerate() {
                    for event in decoder.feed(chunk.as_bytes()) {
                        if let StreamEvent::Issue(issue) = event {
                            events.push(ChunkEvent {
                                after_chunk: at,
                                issue: issue.clone(),
                            });
                        }
                    }
                }
                answer_with_events(id, &decoder.finish(), Some(events))
            }
            _ => syntax_refusal(
                id,
                "the request has both `arguments` and `chunks`, or neither: give one".to_owned(),
            ),
        }
    }

    /// The answer to a line longer than the cap, of which `kept` is the start.
    fn answer_too_long(&self, kept: &[u8], length: u64) -> String {
        let kept = kept.strip_prefix(BYTE_ORDER_MARK).unwrap_or(kept);
        let message = format!(
            "the request line is {length} bytes, more than the limit of {} (--max-line); \
             it was not checked",
            self.max_line_bytes
        );
        let mut report = Report::new();
        report.push(
            Issue::new(Path::root(), Constraint::Limit, message)
                .with_expected(self.max_line_bytes.into())
                .with_got(length.into()),
        );
        refusal(read_id(kept), &report, None)
    }
}

/// The request's `id`, read from a line that is not a whole request (not UTF-8, not JSON, cut
/// off, or of another shape): the value of the first top-level `"id"` key, if the line can be
/// read up to the end of that value; otherwise null. The values before it are skipped, not
/// built, so this costs one scan of the line at most.
fn read_id(line: &[u8]) -> Value {
    let mut id = None;
    let mut deserializer = serde_json::Deserializer::from_slice(line);
    // The scan stops at the id, so the deserializer sees the object unfinished and gives an
    // error; the id is taken from where the finder left it.
    let _ = serde::Deserializer::deserialize_map(&mut deserializer, IdFinder { id: &mut id });
    id.unwrap_or(Value::Null)
}

/// Walks an object's members up to the key `id`, and puts that key's value in `id`.
struct IdFinder<'a> {
    id: &'a mut Option<Value>,
}

impl<'de> Visitor<'de> for IdFinder<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<(), A::Error> {
        while let Some(key) = members.next_key::<String>()? {
            if key == "id" {
                *self.id = Some(members.next_value()?);
                return Ok(());
            }
            members.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

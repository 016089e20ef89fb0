//! A model's answer as its provider streams it: the raw stream in (server-sent events, or
//! Gemini's JSON array), the tool calls out, each with its arguments' text as it grows, its
//! own end where the provider sends one, and how the message ended. One [`StreamedMessage`]
//! per answer; each provider's events are read by its file (`openai_chat.rs`,
//! `openai_responses.rs`, `anthropic.rs`, `gemini.rs`), keyed the way that provider names a
//! call, with its quirks handled and logged ([`StreamedMessage::log`]).
//!
//! It decides nothing about the arguments: the caller feeds each call's new text to the
//! call's [`StreamDecoder`](toolgate_core::streaming::StreamDecoder) and, at the end, decides
//! every call by the rule written here: a **cut** message ([`StreamedMessage::cut`]: a token
//! limit said by the finish reason or reached by the usage, an error in the stream, a stream
//! closed before the message ended) cuts every call, which is refused even where its text
//! parses; otherwise each call is decided on the whole of its text.
//!
//! Bounded: at most [`MAX_STREAMED_CALLS`] calls and [`MAX_STREAMED_BYTES`] of arguments per
//! message (past them the message is refused as cut, naming the limit), and an event's data
//! at most [`super::sse::MAX_EVENT_BYTES`].

use std::collections::HashMap;

use serde_json::Value;
use toolgate_core::streaming::Cut;

use super::end::token_limit;
use super::sse::SseReader;
use super::Provider;

/// Most calls in one streamed message.
pub const MAX_STREAMED_CALLS: usize = 128;
/// Most bytes of arguments in one streamed message, all calls together.
pub const MAX_STREAMED_BYTES: usize = 8 << 20;

/// One tool call of a streamed message.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StreamedCall {
    /// The id the provider gave it.
    pub call_id: Option<String>,
    /// The tool's name (`None` until the provider sends it; a call that ends without one is
    /// refused, never given a name).
    pub tool: Option<String>,
    /// Its arguments' text so far.
    pub arguments: String,
    /// Whether its own end event came (Responses' `.done`, Anthropic's `content_block_stop`,
    /// Gemini's whole call); Chat Completions' calls end with the message.
    pub ended: bool,
    /// Text the provider sent after its end: the call is refused as garbled.
    pub garbled: Option<String>,
    /// The provider's key for it.
    key: String,
    /// Anthropic: the `input` of its `content_block_start`, used where no delta comes.
    start_input: Option<String>,
    /// Vertex: the arguments assembled from `partialArgs` so far.
    pub(super) partial_args: Option<Value>,
    /// Whether the arguments so far close every bracket they open, followed as they grow.
    balance: Balance,
}

/// The brackets of a call's arguments, followed as text is added (a byte looked at once):
/// whether they hold a whole JSON object or array so far, as far as brackets tell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Balance {
    depth: usize,
    in_string: bool,
    escaped: bool,
    opened: bool,
}

impl StreamedCall {
    /// The call as it came, for the gate: its tool's name (empty where none came), its
    /// arguments' text and its id where it has one.
    pub(crate) fn as_sent(&self) -> crate::boundary::Call {
        let tool = self.tool.as_deref().unwrap_or_default();
        let made = crate::boundary::Call::new(tool, self.arguments.clone());
        match &self.call_id {
            Some(id) => made.with_id(id.as_str()),
            None => made,
        }
    }
}

impl Balance {
    fn push(&mut self, text: &str) {
        for byte in text.bytes() {
            if self.in_string {
                match (self.escaped, byte) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'{' | b'[' => {
                    self.depth += 1;
                    self.opened = true;
                }
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
        }
    }

    fn whole(&self) -> bool {
        self.opened && self.depth == 0 && !self.in_string
    }
}

/// Most lines of a message's log ([`StreamedMessage::log`]); past them, only a count.
pub const MAX_LOG_LINES: usize = 64;

/// What an event did to a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamUpdate {
    /// Text was added to its arguments.
    Arguments,
    /// Its arguments were replaced whole (a `.done` text unlike its deltas, a whole call in
    /// one chunk, Anthropic's `input` or `{}`): decode them afresh.
    Replaced,
    /// Its own end event came.
    Ended,
}

/// One change to one call, as the stream made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Update {
    /// The stream's event it came in (counting from 0).
    pub event: usize,
    /// The call's place among the message's calls.
    pub call: usize,
    /// What changed.
    pub what: StreamUpdate,
    /// How many bytes of the call's arguments there were after it: the text to feed its
    /// decoder is `arguments[fed..upto]` (from 0 after [`StreamUpdate::Replaced`]).
    pub upto: usize,
}

/// One streamed answer being read (see the module's documentation).
#[derive(Debug)]
pub struct StreamedMessage {
    provider: Provider,
    max_tokens: Option<u64>,
    reader: SseReader,
    calls: Vec<StreamedCall>,
    keys: HashMap<String, usize>,
    finish_reason: Option<String>,
    output_tokens: Option<u64>,
    error: Option<String>,
    /// Whether the provider said the message ended.
    ended: bool,
    /// Whether the stream closed.
    closed: bool,
    events: usize,
    bytes: usize,
    log: Vec<String>,
    /// The model's text around the calls (Chat Completions' `delta.content`).
    text: String,
    /// Log lines past [`MAX_LOG_LINES`], counted.
    log_left_out: usize,
}

impl StreamedMessage {
    /// A message of `provider`'s stream; `max_tokens`: the output token cap the request set,
    /// for a stream that does not say it was cut.
    pub fn new(provider: Provider, max_tokens: Option<u64>) -> Self {
        StreamedMessage {
            provider,
            max_tokens,
            reader: SseReader::new(),
            calls: Vec::new(),
            keys: HashMap::new(),
            finish_reason: None,
            output_tokens: None,
            error: None,
            ended: false,
            closed: false,
            events: 0,
            bytes: 0,
            log: Vec::new(),
            text: String::new(),
            log_left_out: 0,
        }
    }

    /// Reads the stream's next bytes; what they changed, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Update> {
        match self.reader.feed(bytes) {
            Ok(events) => self.read_events(events),
            Err(error) => {
                self.fail(format!("the stream cannot be read: {error}"));
                Vec::new()
            }
        }
    }

    /// The stream closed (an event it cut short is dropped).
    pub fn close(&mut self) {
        self.closed = true;
        self.reader.close();
    }

    fn read_events(&mut self, events: Vec<super::sse::SseEvent>) -> Vec<Update> {
        let mut updates = Vec::new();
        for event in events {
            self.events += 1;
            if self.error.is_some() {
                continue;
            }
            if event.data.trim() == "[DONE]" {
                self.ended = true;
                continue;
            }
            let data = match super::read_answer(&event.data) {
                Ok(data) => data,
                Err(error) => {
                    self.fail(format!("event {} is not JSON: {error}", self.events - 1));
                    continue;
                }
            };
            if let Some(error) = data.get("error").filter(|error| !error.is_null()) {
                self.fail(format!("the provider sent an error: {error}"));
                continue;
            }
            let mut events = Events {
                message: self,
                updates: &mut updates,
            };
            match events.message.provider {
                Provider::OpenAiChat => super::openai_chat::stream_event(&mut events, &data),
                Provider::OpenAiResponses => {
                    super::openai_responses::stream_event(&mut events, &event.name, &data)
                }
                Provider::Anthropic => {
                    super::anthropic::stream_event(&mut events, &event.name, &data)
                }
                Provider::Gemini => super::gemini::stream_event(&mut events, &data),
                other => events.message.fail(format!("{other} has no streams here")),
            }
        }
        updates
    }

    /// The calls so far, in the order they opened.
    pub fn calls(&self) -> &[StreamedCall] {
        &self.calls
    }

    /// How many events were read (an early issue names the event it came in).
    pub fn events_read(&self) -> usize {
        self.events
    }

    /// The finish reason as the provider wrote it.
    pub fn finish_reason(&self) -> Option<&str> {
        self.finish_reason.as_deref()
    }

    /// The model's text (Chat Completions' `delta.content`, joined).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The calls and how the message ended, as the whole answer's reader gives them
    /// ([`super::answer_calls`]), for the gate: a call without a tool's name, or (Chat
    /// Completions, Responses) without an id, is the error naming its place; a call the
    /// provider garbled (text after its end) cuts the message, so no call of it runs — but
    /// for calls a streaming turn began at their own end (`StartCalls::AtCallEnd`), which ran
    /// before the garbling came.
    pub fn answer_calls(&self) -> Result<super::AnswerCalls, super::MessageError> {
        let calls = (0..self.calls.len())
            .map(|index| self.answer_call(index))
            .collect::<Result<Vec<_>, _>>()?;
        let garbled = self.calls.iter().find_map(|call| call.garbled.clone());
        let cut = self
            .cut()
            .map(|cut| cut.to_string())
            .or(garbled)
            .map(|because| super::Cut { because });
        Ok(super::AnswerCalls {
            calls,
            finish_reason: self.finish_reason.clone(),
            cut,
        })
    }

    /// The call at `index` as the gate takes it (see [`StreamedMessage::answer_calls`]): the
    /// error naming its place where it has no tool's name, or (Chat Completions, Responses) no
    /// id (or there is no call at `index`).
    pub fn answer_call(&self, index: usize) -> Result<crate::boundary::Call, super::MessageError> {
        let missing = |what: &str| super::MessageError {
            index,
            what: format!("no `{what}`"),
        };
        let call = self.calls.get(index).ok_or_else(|| missing("call"))?;
        if call.tool.is_none() {
            return Err(missing("name"));
        }
        let needs_id = matches!(
            self.provider,
            Provider::OpenAiChat | Provider::OpenAiResponses
        );
        if needs_id && call.call_id.is_none() {
            return Err(missing("id"));
        }
        Ok(call.as_sent())
    }

    /// What the reading did about the provider's quirks (a delta after its call's end, a new
    /// id at a used index, empty arguments...), a line each: at most [`MAX_LOG_LINES`], then
    /// a last line counting the rest.
    pub fn log(&self) -> Vec<String> {
        let mut lines = self.log.clone();
        if self.log_left_out > 0 {
            lines.push(format!("... and {} more", self.log_left_out));
        }
        lines
    }

    /// Whether the message was cut, and how: an error in the stream (or a stream that cannot
    /// be read, or past the limits), a token limit (the finish reason says so, or the usage
    /// reached the cap the request set), or a stream closed before the message ended. Then
    /// no call of it may run.
    pub fn cut(&self) -> Option<Cut> {
        if let Some(error) = &self.error {
            return Some(Cut::Error(error.clone()));
        }
        let limit = token_limit(
            self.finish_reason.as_deref(),
            self.output_tokens,
            self.max_tokens,
        );
        if let Some(because) = limit {
            return Some(Cut::TokenLimit(because));
        }
        (self.closed && !self.ended).then_some(Cut::Closed)
    }

    fn fail(&mut self, error: String) {
        if self.error.is_none() {
            self.error = Some(error);
        }
    }
}

/// What a provider's file reads events into: the message, and the updates of this feed.
pub(super) struct Events<'a> {
    message: &'a mut StreamedMessage,
    updates: &'a mut Vec<Update>,
}

impl Events<'_> {
    /// The call the provider names `key`, opened if it is new (`None` past the limit).
    pub(super) fn call(&mut self, key: &str) -> Option<usize> {
        if let Some(&at) = self.message.keys.get(key) {
            return Some(at);
        }
        self.open(key)
    }

    /// The call the provider names `key`, if it opened.
    pub(super) fn find(&self, key: &str) -> Option<usize> {
        self.message.keys.get(key).copied()
    }

    /// A new call under `key` (a key used before now names the new one).
    pub(super) fn open(&mut self, key: &str) -> Option<usize> {
        if self.message.calls.len() >= MAX_STREAMED_CALLS {
            self.message.fail(format!(
                "more than {MAX_STREAMED_CALLS} tool calls in one message"
            ));
            return None;
        }
        let at = self.message.calls.len();
        self.message.calls.push(StreamedCall {
            key: key.to_owned(),
            ..StreamedCall::default()
        });
        self.message.keys.insert(key.to_owned(), at);
        Some(at)
    }

    /// How many calls opened.
    pub(super) fn call_count(&self) -> usize {
        self.message.calls.len()
    }

    /// The call at `at`.
    pub(super) fn get(&mut self, at: usize) -> &mut StreamedCall {
        &mut self.message.calls[at]
    }

    /// Sets what the provider says of the call: its id and name, where it gives them.
    pub(super) fn name(&mut self, at: usize, call_id: Option<&str>, tool: Option<&str>) {
        let call = &mut self.message.calls[at];
        if let (Some(id), None) = (call_id, &call.call_id) {
            call.call_id = Some(id.to_owned());
        }
        if let (Some(tool), None) = (tool.filter(|tool| !tool.is_empty()), &call.tool) {
            call.tool = Some(tool.to_owned());
        }
    }

    /// Text added to the call's arguments (dropped and logged after the call's end).
    pub(super) fn arguments(&mut self, at: usize, text: &str) {
        if text.is_empty() {
            return;
        }
        if !self.budget(text.len()) {
            return;
        }
        let call = &mut self.message.calls[at];
        if call.ended {
            let line = format!("call {at}: {} bytes after its end, dropped", text.len());
            call.garbled.get_or_insert_with(|| line.clone());
            self.message.log.push(line);
            return;
        }
        call.arguments.push_str(text);
        call.balance.push(text);
        self.update(at, StreamUpdate::Arguments);
    }

    /// The call's arguments, replaced whole by `text`: only a call that was fed no text
    /// yet (no issue can have been sent early on text that is then taken back); one that was
    /// is refused as garbled, which text was meant being unknown.
    pub(super) fn replace(&mut self, at: usize, text: String) {
        if !self.message.calls[at].arguments.is_empty() {
            let line =
                format!("call {at}: its whole text at its end differs from the text it streamed");
            self.message.calls[at]
                .garbled
                .get_or_insert_with(|| line.clone());
            self.log(line);
            return;
        }
        if !self.budget(text.len()) {
            return;
        }
        let call = &mut self.message.calls[at];
        call.balance = Balance::default();
        call.balance.push(&text);
        call.arguments = text;
        self.update(at, StreamUpdate::Replaced);
    }

    /// The call's own end.
    pub(super) fn end(&mut self, at: usize) {
        let call = &mut self.message.calls[at];
        if !call.ended {
            call.ended = true;
            self.update(at, StreamUpdate::Ended);
        }
    }

    /// Anthropic's `input` of a call's start, kept for a call that sends no delta.
    pub(super) fn start_input(&mut self, at: usize, input: Option<String>) {
        self.message.calls[at].start_input = input;
    }

    /// The start input of a call, taken.
    pub(super) fn take_start_input(&mut self, at: usize) -> Option<String> {
        self.message.calls[at].start_input.take()
    }

    /// A line of the quirks' log.
    pub(super) fn log(&mut self, line: String) {
        match self.message.log.len() < MAX_LOG_LINES {
            true => self.message.log.push(line),
            false => self.message.log_left_out += 1,
        }
    }

    /// Whether the call's arguments so far close every bracket they open (followed as they
    /// grew: no text read again).
    pub(super) fn is_whole(&self, at: usize) -> bool {
        self.message.calls[at].balance.whole()
    }

    /// Counts `bytes` against the message's limit of arguments ([`MAX_STREAMED_BYTES`]);
    /// `false` (the message cut) past it.
    pub(super) fn charge(&mut self, bytes: usize) -> bool {
        self.budget(bytes)
    }

    /// The model's text, more of it.
    pub(super) fn text(&mut self, text: &str) {
        if self.budget(text.len()) {
            self.message.text.push_str(text);
        }
    }

    /// How the message ended, as the provider says: its finish reason (a non-empty one).
    pub(super) fn finish(&mut self, reason: Option<&str>) {
        if let Some(reason) = reason.filter(|reason| !reason.is_empty()) {
            self.message.finish_reason = Some(reason.to_owned());
        }
    }

    /// The message's end event.
    pub(super) fn message_ended(&mut self) {
        self.message.ended = true;
    }

    /// The output tokens the usage reports so far.
    pub(super) fn output_tokens(&mut self, tokens: Option<u64>) {
        if tokens.is_some() {
            self.message.output_tokens = tokens;
        }
    }

    /// An error the provider sent in the stream, or a stream read wrong: the message is cut.
    pub(super) fn fail(&mut self, error: String) {
        self.message.fail(error);
    }

    fn update(&mut self, call: usize, what: StreamUpdate) {
        self.updates.push(Update {
            event: self.message.events - 1,
            call,
            what,
            upto: self.message.calls[call].arguments.len(),
        });
    }

    fn budget(&mut self, bytes: usize) -> bool {
        self.message.bytes += bytes;
        if self.message.bytes > MAX_STREAMED_BYTES {
            self.message.fail(format!(
                "more than {MAX_STREAMED_BYTES} bytes of arguments in one message"
            ));
            return false;
        }
        true
    }
}

#[cfg(test)]
#[path = "streamed_tests.rs"]
mod tests;

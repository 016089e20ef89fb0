//! [`StreamDecoder`]: a tool call's arguments decoded as their text streams in, one decoder
//! per call (issue 45).
//!
//! Providers send a call's arguments as text deltas. The decoder takes each delta
//! ([`StreamDecoder::feed`]) and answers what is new: an issue no continuation of the text
//! can mend ([`StreamEvent::Issue`]), a scalar complete and decided ([`StreamEvent::Value`], when
//! asked: [`StreamDecoder::with_values`], which also sends a string's characters as they come,
//! [`StreamEvent::Text`]),
//! a repair the rules made of it ([`StreamEvent::Repaired`], advice), or that it will say no
//! more before the end ([`StreamEvent::Silent`]). Only the end decides the call:
//! [`StreamDecoder::finish`] when the provider says the call or the message ended,
//! [`StreamDecoder::cut`] when it cut the message off (`length`, `max_tokens`, an error, a
//! closed connection): a cut call is refused, even when its text parses.
//!
//! # Guarantees
//!
//! - **Any chunking is one shot.** `finish()` is the one-shot decode of every byte fed
//!   (`DynamicTool::decode_bytes`, `Tool::decode_with`): the same value, repairs, issues and
//!   hint, however the text was cut. The bytes are kept (up to `Options::max_bytes`; past it
//!   only their count, and `finish` answers the one-shot decode's `limit` refusal from it).
//! - **Early issues are sound.** An issue is sent only where the call is refused whatever
//!   follows, and the final report holds an issue at the same path and constraint, but for
//!   these cases, where another issue stands instead: the text stage refuses the whole text
//!   (a second value after the object, text that is not UTF-8 after a number out of range: a
//!   root `syntax` or `limit` issue); a later key ties the field or one around it by
//!   `key_case` (the tied keys are skipped: one `syntax` issue at that field); or the report
//!   reached `Options::max_issues`. (The text stage reads an object that starts the text
//!   from there and refuses the text where the object fails, whatever follows it: so what
//!   the object holds decides, and a fence after a broken object cannot make an early issue
//!   void.)
//! - **Never final early.** No event accepts a call; a value closed ([`StreamState::RootClosed`])
//!   may still be refused by what follows it.
//! - **Linear.** Each byte is looked at a bounded number of times however the text is cut
//!   (the tokenizer resumes a cut token where its scan stopped, `read/tokens.rs`), and each
//!   completed scalar is decided once.
//!
//! # When an issue is sent
//!
//! The decoder follows the text with the tool's plan while it can say for sure where a value
//! belongs: a field named exactly (by its wire name or an alias) the first time in its object,
//! an item of a plain array. There, a scalar is decided by the rules at its closing quote or
//! delimiter (`Decoder::decide_read`, as every road decides it), and its issues are sent. The
//! text itself is refused early where the one-shot reader refuses it for sure: past
//! `max_bytes`, a byte that is not UTF-8, nesting past `max_depth`, text that is not JSON even
//! leniently inside the value that starts the text, a number past the range of a float.
//!
//! Where it cannot say, it is silent for the value (a `null`, a key in another case, an
//! undeclared key, a field named again, a value under a union or of any type, a map, a tuple,
//! an array with `uniqueItems`, an object with `propertyNames` or `const`), and for the rest
//! of the call where the text does not start with an object (`finish` reads fences and prose)
//! or the object has closed.

use serde_json::Value;

use crate::decode::{HintModel, Options, Refused, Rejected, Repair, Rule, TextError};
use crate::model::{Json, ToolModel};
use crate::plan::NodeId;
use crate::read::tokens::{Stop, Token, Tokens};
use crate::read::tree;
use crate::{Constraint, Decoded, DynamicTool, Issue, Path, Report};

mod frames;
mod partial;
mod scalars;
#[cfg(test)]
mod tests;

use frames::Frames;
pub use partial::{NodeState, Partial, PartialValue};
use scalars::{admitted_as_sent, ENDS_STRINGS, MOVES_TOKENS};

/// What a [`StreamDecoder`] says of the text fed so far (see the module's documentation).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum StreamEvent {
    /// An issue no continuation of the text can mend: the call will be refused, with this
    /// issue in its report (or, in the cases the module lists, one at an ancestor).
    Issue(Issue),
    /// Characters of a string as they come, at a place the decoder is sure of whose schema is
    /// a string (not an enum's or a `const`): escapes undone, never half an escape or half a
    /// character. The deltas of one string, joined, are the string as sent; the
    /// [`StreamEvent::Value`] or [`StreamEvent::Issue`] at its closing quote says what the
    /// rules make of it. Sent with [`StreamDecoder::with_values`].
    Text {
        /// Where.
        path: Path,
        /// The characters since the last delta of this string.
        delta: String,
    },
    /// A scalar complete, at a place the decoder is sure of, and decided by the rules
    /// without an issue: the value they make of it (repaired, where [`StreamEvent::Repaired`]
    /// came just before).
    Value {
        /// Where.
        path: Path,
        /// The value.
        value: Value,
    },
    /// A repair the rules made of the value that follows (advice: the log of
    /// [`StreamDecoder::finish`] is the one that counts).
    Repaired(Repair),
    /// No more early events for this call: `finish` decides the rest.
    Silent {
        /// Why.
        why: &'static str,
    },
}

/// Where a [`StreamDecoder`] stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamState {
    /// Reading the arguments' object.
    Reading,
    /// The arguments' object has closed; what follows it may still refuse the call.
    RootClosed,
    /// Saying nothing more before the end (see [`StreamEvent::Silent`]).
    Silent,
    /// An issue has made the call's refusal certain.
    Refused,
}

/// How a provider ended a message before a call's arguments were complete: the call is
/// refused ([`StreamDecoder::cut`]), whatever its text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Cut {
    /// The answer reached its token limit (`length`, `max_tokens`, `max_output_tokens`, or
    /// the usage reported reaching the cap the request set): what says so.
    TokenLimit(String),
    /// The provider sent an error in the stream.
    Error(String),
    /// The stream closed without ending the message.
    Closed,
    /// The provider sent more of the call after its end (what it did): which text was
    /// meant cannot be known.
    Garbled(String),
}

impl std::fmt::Display for Cut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cut::TokenLimit(because) => {
                let because = crate::issue::shorten_text(because, crate::issue::GOT_MAX_CHARS);
                write!(f, "the answer reached its token limit ({because})")
            }
            Cut::Error(error) => {
                let error = crate::issue::shorten_text(error, crate::issue::GOT_MAX_CHARS);
                write!(f, "the provider sent an error ({error})")
            }
            Cut::Closed => f.write_str("the stream closed before the message ended"),
            Cut::Garbled(what) => {
                let what = crate::issue::shorten_text(what, crate::issue::GOT_MAX_CHARS);
                write!(
                    f,
                    "the provider sent more of the call after its end ({what})"
                )
            }
        }
    }
}

/// A one-shot decode of a call's bytes.
type Decode<T> = Result<Decoded<T>, Rejected>;

/// The one-shot decode `finish` gives the bytes to.
enum OneShot<'m, T> {
    Dynamic(&'m DynamicTool, fn(&DynamicTool, &[u8]) -> Decode<T>),
    Typed(fn(&[u8], &Options) -> Decode<T>),
    /// The run-time road on a borrowed model (`decode::decode_text`).
    Model(fn(&ToolModel, &[u8], &Options) -> Decode<T>),
}

/// The decoder of one streamed call (see the module's documentation).
///
/// ```
/// use serde_json::json;
/// use toolgate_core::streaming::StreamEvent;
/// use toolgate_core::DynamicTool;
///
/// let tool = DynamicTool::from_definition(&json!({
///     "name": "book",
///     "parameters": {"type": "object", "properties": {
///         "nights": {"type": "integer", "maximum": 9},
///         "city": {"type": "string"}
///     }}
/// }))
/// .unwrap();
/// let mut call = tool.stream_decoder();
/// assert!(call.feed(br#"{"nights": 1"#).is_empty()); // 1 may be 12: nothing is sure yet
/// let events = call.feed(b"2, \"ci");
/// assert!(matches!(&events[0], StreamEvent::Issue(issue) if issue.path.to_string() == "nights"));
/// call.feed(br#"ty": "Lyon"}"#);
/// let refused = call.finish().unwrap_err(); // what `tool.decode` says of the whole text
/// assert_eq!(refused.report.issues()[0].path.to_string(), "nights");
/// ```
pub struct StreamDecoder<'m, T = Value> {
    model: &'m ToolModel,
    options: Options,
    one_shot: OneShot<'m, T>,
    /// The model a refusal builds its hint from when asked (`None`: the borrowed model, now).
    hint: Option<HintModel>,
    /// The text fed so far, up to its last whole character (and at most `max_bytes`).
    text: String,
    /// The bytes after `text`: a character still arriving, or everything from a byte that is
    /// not UTF-8 on.
    rest: Vec<u8>,
    /// Bytes fed in all.
    fed: usize,
    tokens: Tokens,
    frames: Frames<'m>,
    phase: Phase,
    /// How far the text is white space, while nothing else came ([`Phase::Blank`]).
    blank: usize,
    /// The bytes looked at for it.
    blank_work: u64,
    /// Whether an issue sent made the refusal certain.
    refused: bool,
    decoder: Option<crate::decode::Decoder<'m>>,
    /// The issues and repairs of the decoder already sent.
    sent_issues: usize,
    sent_repairs: usize,
    /// The early issues sent, for `cut` and `refuse_now`.
    early: Vec<Issue>,
    /// How many bytes may be fed before a byte of ASCII stops taking the fast road of
    /// [`StreamDecoder::feed`] (see [`StreamDecoder::settle`]).
    fast_until: usize,
    /// Whether [`StreamEvent::Value`]s and [`StreamEvent::Text`]s are sent
    /// ([`StreamDecoder::with_values`]).
    values: bool,
    /// The string whose characters were sent as [`StreamEvent::Text`] (its opening quote),
    /// and how many bytes of them.
    text_sent: (usize, usize),
    events: Vec<StreamEvent>,
}

/// Where the reading stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Nothing but white space yet.
    Blank,
    /// In the arguments' object.
    Reading,
    /// After it.
    RootClosed,
    /// Reading no more before the end ([`StreamEvent::Silent`]).
    Silent,
    /// Reading no more: the text is refused whatever follows.
    Stopped,
}

impl<'m> StreamDecoder<'m, Value> {
    pub(crate) fn dynamic(tool: &'m DynamicTool) -> Self {
        Self::with(
            tool.model(),
            tool.options().clone(),
            OneShot::Dynamic(tool, DynamicTool::decode_bytes),
            Some(HintModel::Shared(tool.shared_model())),
        )
    }

    /// A decoder of a call to a tool of `model`, with `options`: its `finish` is
    /// `decode::decode_text` of every byte fed (the run-time road), its refusals' hints built
    /// from the model at once. For a caller that holds a tool's model but not the tool (a
    /// toolbox's registered tools: `toolgate::boundary`).
    pub fn for_model(model: &'m ToolModel, options: Options) -> Self {
        Self::with(
            model,
            options,
            OneShot::Model(crate::decode::decode_text),
            None,
        )
    }
}

impl<T> StreamDecoder<'static, T> {
    pub(crate) fn typed(
        model: &'static ToolModel,
        options: Options,
        decode_with: fn(&[u8], &Options) -> Result<Decoded<T>, Rejected>,
    ) -> Self {
        Self::with(
            model,
            options,
            OneShot::Typed(decode_with),
            Some(HintModel::Static(model)),
        )
    }
}

impl<'m, T> StreamDecoder<'m, T> {
    fn with(
        model: &'m ToolModel,
        options: Options,
        one_shot: OneShot<'m, T>,
        hint: Option<HintModel>,
    ) -> Self {
        let max_depth = options.max_depth.min(crate::decode::MAX_DEPTH);
        StreamDecoder {
            model,
            options,
            one_shot,
            hint,
            text: String::new(),
            rest: Vec::new(),
            fed: 0,
            tokens: Tokens::at(0, max_depth),
            frames: Frames::new(model.plan()),
            phase: Phase::Blank,
            blank: 0,
            blank_work: 0,
            refused: false,
            decoder: None,
            sent_issues: 0,
            sent_repairs: 0,
            early: Vec::new(),
            values: false,
            text_sent: (usize::MAX, 0),
            fast_until: 0,
            events: Vec::new(),
        }
    }

    /// This decoder, sending each scalar it decides as a [`StreamEvent::Value`] too, and a
    /// string's characters as they come as [`StreamEvent::Text`] (for a view of the arguments
    /// as they come). Off by default: most callers want only the early issues, and each event
    /// sent costs its path and its copy.
    pub fn with_values(mut self) -> Self {
        self.values = true;
        self
    }

    /// Where the decoder stands.
    pub fn state(&self) -> StreamState {
        match self.phase {
            _ if self.refused => StreamState::Refused,
            Phase::Blank | Phase::Reading => StreamState::Reading,
            Phase::RootClosed => StreamState::RootClosed,
            Phase::Silent | Phase::Stopped => StreamState::Silent,
        }
    }

    fn reading(&self) -> bool {
        matches!(self.phase, Phase::Blank | Phase::Reading)
    }

    /// How many bytes were fed.
    pub fn bytes_fed(&self) -> usize {
        self.fed
    }

    /// The bytes the tokenizer looked at so far: at most a few per byte fed, however the
    /// text was cut (what the linearity tests count).
    #[doc(hidden)]
    pub fn work(&self) -> u64 {
        self.tokens.work() + self.blank_work
    }

    /// Takes the next piece of the call's text; answers the events it makes (new ones only).
    /// A character split between two pieces waits for its end.
    #[inline]
    pub fn feed(&mut self, piece: &[u8]) -> &[StreamEvent] {
        // One byte of ASCII inside the object, the commonest piece of a byte-by-byte stream:
        // kept small, so it is inlined where the stream is read.
        if let [byte] = *piece {
            if byte < 0x80 && self.fed < self.fast_until {
                self.fed += 1;
                self.text.push(byte as char);
                let moves = match self.tokens.inside_string() {
                    true => ENDS_STRINGS[byte as usize] || self.values,
                    false => MOVES_TOKENS[byte as usize],
                };
                // A byte that makes no token (white space, `:`, `,`, an opening quote) moves
                // the tokenizer by itself.
                if moves && !self.tokens.step(byte, self.text.len() - 1) {
                    self.read();
                }
                return &self.events;
            }
        }
        self.feed_piece(piece)
    }

    /// [`StreamDecoder::feed`] of any piece.
    fn feed_piece(&mut self, piece: &[u8]) -> &[StreamEvent] {
        self.feed_slowly(piece);
        self.settle();
        &self.events
    }

    /// Where the next byte of ASCII may take the fast road of [`StreamDecoder::feed`]: while
    /// reading the object, with no events to clear and no character waiting for its end.
    fn settle(&mut self) {
        let fast = self.phase == Phase::Reading && self.events.is_empty() && self.rest.is_empty();
        self.fast_until = if fast { self.options.max_bytes } else { 0 };
    }

    fn feed_slowly(&mut self, piece: &[u8]) {
        if !self.events.is_empty() {
            self.events.clear();
        }
        self.fed = self.fed.saturating_add(piece.len());
        if self.fed > self.options.max_bytes {
            // Past the limit only the count is kept: the one-shot decode refuses the text
            // for its size alone.
            if self.phase != Phase::Stopped {
                let issue = crate::decode::oversize(self.fed, self.options.max_bytes);
                self.stop(issue);
            }
            return;
        }
        self.take_text(piece);
        // Inside a token (a string, a number, a word, a comment), a piece with none of the
        // bytes that can end one or start another leaves the tokenizer where it stopped: it
        // is read with the piece that brings one (the same tokens, the same events, read
        // once), so a stream of one byte at a time costs a table lookup a byte.
        let moves = match self.tokens.inside_string() {
            true => self.values || piece.iter().any(|&byte| ENDS_STRINGS[byte as usize]),
            false => piece.iter().any(|&byte| MOVES_TOKENS[byte as usize]),
        };
        if self.phase == Phase::Blank || (self.phase == Phase::Reading && moves) {
            self.read();
        }
    }

    /// `piece` added to the text, as far as it is whole UTF-8 characters.
    fn take_text(&mut self, piece: &[u8]) {
        if !self.rest.is_empty() || self.phase == Phase::Stopped {
            self.rest.extend_from_slice(piece);
            if self.phase == Phase::Stopped {
                return;
            }
            let rest = std::mem::take(&mut self.rest);
            self.take_utf8(&rest);
        } else {
            self.take_utf8(piece);
        }
    }

    fn take_utf8(&mut self, bytes: &[u8]) {
        // A few bytes of ASCII (a stream of one byte at a time) are taken as characters.
        if bytes.len() <= 8 && bytes.is_ascii() {
            self.text.extend(bytes.iter().map(|&byte| byte as char));
            return;
        }
        match std::str::from_utf8(bytes) {
            Ok(text) => self.text.push_str(text),
            Err(error) => {
                let (whole, after) = bytes.split_at(error.valid_up_to());
                self.text
                    .push_str(std::str::from_utf8(whole).unwrap_or_default());
                self.rest.extend_from_slice(after);
                if error.error_len().is_some() {
                    let issue = crate::decode::not_utf8();
                    // The text read so far still gets its events first.
                    if self.reading() {
                        self.read();
                    }
                    self.stop(issue);
                }
            }
        }
    }

    /// Reads the tokens the text now holds.
    #[inline(never)]
    fn read(&mut self) {
        if self.phase == Phase::Blank {
            // Only the text not looked at yet: white space fed a byte at a time is scanned once.
            let rest = &self.text[self.blank..];
            let first = rest
                .bytes()
                .position(|byte| !matches!(byte, b' ' | b'\t' | b'\n' | b'\r'));
            let scanned = first.map_or(rest.len(), |at| at + 1);
            self.blank_work += scanned as u64;
            self.blank = first.map_or(self.text.len(), |at| self.blank + at);
            match self.text.as_bytes().get(self.blank) {
                None => return,
                Some(&b'{') => self.phase = Phase::Reading,
                Some(_) => {
                    return self.silence("the text does not start with an object: the end decides")
                }
            }
        }
        // The text is lent out while its tokens are taken (they borrow it).
        let text = std::mem::take(&mut self.text);
        self.read_tokens(&text);
        self.text = text;
        self.settle();
    }

    fn read_tokens(&mut self, text: &str) {
        while self.phase == Phase::Reading {
            match self.tokens.next(text) {
                Ok(Some(token)) => {
                    self.token(token);
                    // A token that ends the text: the next call could only say so.
                    if self.tokens.waits_at(text.len()) {
                        return;
                    }
                }
                Ok(None) => self.phase = Phase::RootClosed,
                Err(Stop::More) => return self.string_delta(text),
                Err(Stop::Error(error)) => {
                    let issue = match *error {
                        TextError::TooDeep => crate::decode::too_deep(
                            self.options.max_depth.min(crate::decode::MAX_DEPTH),
                        ),
                        error => Issue::new(
                            Path::root(),
                            Constraint::Syntax,
                            format!("not JSON: {error}"),
                        ),
                    };
                    self.stop(issue);
                }
            }
        }
    }

    fn token(&mut self, token: Token<'_>) {
        let at = self.frames.value_node();
        if let (Token::String(text), true) = (&token, self.values) {
            self.last_delta(at, text);
        }
        let json = match token {
            Token::ObjectStart => return self.frames.open(at, true),
            Token::ArrayStart => return self.frames.open(at, false),
            Token::ObjectEnd | Token::ArrayEnd => return self.frames.close(),
            Token::Key(key) => {
                let folding = self.options.allows(Rule::KeyCase);
                return self.frames.key(&key, folding);
            }
            Token::Null => return self.frames.value_done(),
            // A value of the form its schema reads and within its constraints is what the
            // rules make of it, unchanged: nothing to decide (the typed reader's fast path).
            _ if !self.values
                && at.is_some_and(|node| admitted_as_sent(self.model.plan(), node, &token)) =>
            {
                return self.frames.value_done();
            }
            scalar => match tree::scalar(scalar, self.tokens.token_start()) {
                Some(Ok(json)) => json,
                Some(Err(_)) => return self.stop(crate::decode::number_out_of_range()),
                None => return,
            },
        };
        if let Some(node) = at {
            self.decide(json, node);
        }
        if self.phase == Phase::Reading {
            self.frames.value_done();
        }
    }

    /// The characters of the string value the text ended inside that came since the last
    /// delta, sent where it is followed at a string's schema ([`StreamEvent::Text`]).
    fn string_delta(&mut self, text: &str) {
        if !self.values {
            return;
        }
        let Some(string) = self.tokens.string_so_far(text) else {
            return;
        };
        if !self.texts_string(&string) {
            return;
        }
        if self.text_sent.0 != string.start {
            self.text_sent = (string.start, 0);
        }
        if string.len() > self.text_sent.1 {
            let delta = string.after(self.text_sent.1);
            self.text_sent.1 = string.len();
            self.send_text(delta);
        }
    }

    /// A [`StreamEvent::Text`] of `delta`, at the path of the value being read.
    fn send_text(&mut self, delta: String) {
        let path = crate::check::path_of(self.frames.steps());
        self.events.push(StreamEvent::Text { path, delta });
    }

    /// The last characters of a string value complete at `node` (the whole string where none
    /// were sent before), as [`StreamEvent::Text`].
    fn last_delta(&mut self, node: Option<NodeId>, string: &str) {
        if !node.is_some_and(|node| self.texts_at(node)) {
            return;
        }
        let sent = match self.text_sent {
            (start, sent) if start == self.tokens.token_start() => sent,
            _ => 0,
        };
        self.text_sent = (usize::MAX, 0);
        if let Some(delta) = string.get(sent..).filter(|delta| !delta.is_empty()) {
            self.send_text(delta.to_owned());
        }
    }

    /// Whether the string the text ends inside is sent as it comes: a value (not a key) at a
    /// node [`StreamDecoder::texts_at`] takes.
    fn texts_string(&self, string: &crate::read::tokens::StringSoFar<'_>) -> bool {
        !string.key
            && self
                .frames
                .value_node()
                .is_some_and(|node| self.texts_at(node))
    }

    /// Whether a string at `node` is sent as it comes: its schema is a string's (an enum's or
    /// a `const` is held to its closing quote, as a snapshot holds it).
    fn texts_at(&self, node: NodeId) -> bool {
        self.model
            .plan()
            .node(node)
            .resolved
            .is_some_and(|resolved| {
                resolved.constant.is_none()
                    && matches!(resolved.kind, crate::model::Kind::String(_))
            })
    }

    /// A complete scalar at `node`, decided by the rules; its issues and repairs sent.
    fn decide(&mut self, json: Json, node: NodeId) {
        let depth = self.frames.depth();
        let path = self.frames.steps();
        let decoder = self.decoder.get_or_insert_with(|| {
            crate::decode::Decoder::new(self.model, &self.options, Vec::new())
        });
        decoder.set_path(path);
        let value = decoder.decide_read(depth, json, self.model.plan().node(node));
        for repair in &decoder.repairs()[self.sent_repairs..] {
            self.events.push(StreamEvent::Repaired(repair.clone()));
        }
        self.sent_repairs = decoder.repairs().len();
        let issues = decoder.issues();
        for issue in &issues[self.sent_issues.min(issues.len())..] {
            self.early.push(issue.clone());
            self.events.push(StreamEvent::Issue(issue.clone()));
        }
        self.sent_issues = issues.len();
        match value {
            Some(value) if self.values => {
                let path = decoder.path();
                self.events.push(StreamEvent::Value { path, value });
            }
            Some(_) => {}
            // Later values are still decided, and their issues sent.
            None => self.refused = true,
        }
    }

    /// The text refused whatever follows: `issue` sent, and reading stops.
    fn stop(&mut self, issue: Issue) {
        self.early.push(issue.clone());
        self.events.push(StreamEvent::Issue(issue));
        self.refused = true;
        self.phase = Phase::Stopped;
    }

    fn silence(&mut self, why: &'static str) {
        self.events.push(StreamEvent::Silent { why });
        self.phase = Phase::Silent;
    }

    /// The call decided: the one-shot decode of every byte fed (see the module's
    /// documentation). Call it only when the provider ended the call or its message.
    pub fn finish(self) -> Result<Decoded<T>, Rejected> {
        if self.fed > self.options.max_bytes {
            let issue = crate::decode::oversize(self.fed, self.options.max_bytes);
            return Err(self.refusal(vec![issue]));
        }
        let mut bytes = self.text.into_bytes();
        bytes.extend_from_slice(&self.rest);
        match self.one_shot {
            OneShot::Dynamic(tool, decode) => decode(tool, &bytes),
            OneShot::Typed(decode_with) => decode_with(&bytes, &self.options),
            OneShot::Model(decode) => decode(self.model, &bytes, &self.options),
        }
    }

    /// The call refused because the provider cut its message off: the early issues sent, and
    /// a root `syntax` issue naming the cut. A cut call never runs, even when its text parses.
    pub fn cut(self, cut: Cut) -> Rejected {
        let message = format!(
            "the call was cut off after {} bytes: {cut}; it is not run, even where its text parses",
            self.fed
        );
        self.refused_with(Issue::new(Path::root(), Constraint::Syntax, message))
    }

    /// The call refused now, by the caller (on an early issue, say): the early issues sent,
    /// and a root `syntax` issue saying where reading stopped.
    pub fn refuse_now(self) -> Rejected {
        let message = format!(
            "the call was refused after {} bytes, before its end",
            self.fed
        );
        self.refused_with(Issue::new(Path::root(), Constraint::Syntax, message))
    }

    fn refused_with(mut self, issue: Issue) -> Rejected {
        let mut issues = std::mem::take(&mut self.early);
        issues.push(issue);
        self.refusal(issues)
    }

    fn refusal(&self, issues: Vec<Issue>) -> Rejected {
        let mut report = Report::with_cap(self.options.max_issues);
        for issue in issues {
            report.push(issue);
        }
        let refused = Refused {
            report,
            repairs: Vec::new(),
            repairs_left_out: 0,
        };
        match &self.hint {
            Some(hint) => refused.with_model(hint.clone()),
            None => refused.with_hint_from(self.model),
        }
    }
}

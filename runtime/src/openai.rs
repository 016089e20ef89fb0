//! An OpenAI-compatible Chat Completions client (feature `openai`): it drives an agent turn
//! through a [`Toolbox`] ([`agent_turn`]) and corrects calls as the repair loop's
//! [`Corrector`] and [`Resolver`].
//!
//! Like the official SDKs, it reads `OPENAI_BASE_URL` (default
//! [`DEFAULT_BASE_URL`]) and `OPENAI_API_KEY` (sent as a Bearer token), and posts to
//! `{base}/chat/completions`. Any endpoint that speaks that API works (a local server, a
//! proxy, another provider's compatible endpoint).
//!
//! The endpoint is untrusted like the model behind it: an answer is read up to
//! [`MAX_ANSWER_BYTES`], an error body is cut to [`MAX_ERROR_CHARS`] characters in the
//! error, and a tool call the answer garbles is an error naming its place, never a call
//! made up.
//!
//! ```no_run
//! use toolgate::boundary::Toolbox;
//! use toolgate::openai::{agent_turn, OpenAiClient, TurnOptions};
//!
//! /// Add two numbers.
//! #[derive(toolgate::Tool, serde::Deserialize)]
//! struct Add { a: i64, b: i64 }
//!
//! # async fn run() -> Result<(), toolgate::openai::TurnError> {
//! let mut toolbox = Toolbox::new();
//! toolbox.add_tool(|args: Add| async move { Ok::<_, String>(args.a + args.b) }).unwrap();
//! let client = OpenAiClient::from_env("gpt-4.1-mini");
//! let turn = agent_turn(&client, &toolbox, "What is 2 + 40?", &TurnOptions::default()).await?;
//! println!("{}", turn.answer);
//! # Ok(()) }
//! ```

use std::time::Duration;

use serde_json::{json, Value};

use crate::boundary::correction::{
    Correction, CorrectionRequest, Corrector, Resolution, ResolutionRequest, Resolver,
};
use crate::boundary::messages::{
    answer_calls, calls_turn, tool_calls, tool_results, AnswerCalls, MessageError, Provider,
    StreamedMessage,
};
use crate::boundary::{async_trait, Call, Envelope, OnEarlyIssue, Toolbox};
use crate::flavour::{request_definitions, Flavour, FlavourError};
use crate::prompt::DEFAULT_PROMPT_BUDGET;
use toolgate_core::issue::shorten_text;
use toolgate_core::model::ToolModel;

/// The base URL used when `OPENAI_BASE_URL` is not set.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";
/// The most bytes of an answer read from the endpoint.
pub const MAX_ANSWER_BYTES: usize = 8 * 1024 * 1024;
/// How long one request may take, answer included.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);
/// The most characters of an error body kept in an [`OpenAiError::Status`].
pub const MAX_ERROR_CHARS: usize = 1000;

/// A client of an OpenAI-compatible Chat Completions endpoint.
#[derive(Clone, Debug)]
pub struct OpenAiClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    model: String,
}

/// Why a request to the endpoint failed.
#[derive(Debug, thiserror::Error)]
pub enum OpenAiError {
    /// The request could not be made or its answer read.
    #[error("request to {url} failed: {source}")]
    Http {
        /// The URL posted to.
        url: String,
        /// What failed.
        source: reqwest::Error,
    },
    /// The endpoint answered with an error status.
    #[error("{url} answered {status}: {body}")]
    Status {
        /// The URL posted to.
        url: String,
        /// The HTTP status.
        status: u16,
        /// The answer's body, shortened.
        body: String,
    },
    /// The answer is not a chat completion (or is over [`MAX_ANSWER_BYTES`]).
    #[error("the answer is not a chat completion: {0}")]
    Malformed(String),
}

impl OpenAiClient {
    /// A client of `base_url` (without the trailing `/chat/completions`) for `model`.
    pub fn new(
        base_url: impl Into<String>,
        api_key: Option<String>,
        model: impl Into<String>,
    ) -> Self {
        let base_url: String = base_url.into();
        OpenAiClient {
            http: reqwest::Client::builder()
                .timeout(REQUEST_TIMEOUT)
                .build()
                .unwrap_or_default(),
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key,
            model: model.into(),
        }
    }

    /// A client configured as the official SDKs are: `OPENAI_BASE_URL` (default
    /// [`DEFAULT_BASE_URL`]) and `OPENAI_API_KEY`.
    pub fn from_env(model: impl Into<String>) -> Self {
        let base_url = std::env::var("OPENAI_BASE_URL")
            .ok()
            .filter(|url| !url.is_empty())
            .unwrap_or_else(|| DEFAULT_BASE_URL.to_owned());
        let api_key = std::env::var("OPENAI_API_KEY")
            .ok()
            .filter(|key| !key.is_empty());
        OpenAiClient::new(base_url, api_key, model)
    }

    /// The model asked.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The URL requests are posted to.
    pub fn url(&self) -> String {
        format!("{}/chat/completions", self.base_url)
    }

    /// A request's body: the model, the messages, the tools and the choice among them, and
    /// the output token cap (`max_completion_tokens`).
    fn body(
        &self,
        messages: &[Value],
        tools: &[Value],
        tool_choice: Option<Value>,
        max_tokens: Option<u64>,
    ) -> Value {
        let mut body = json!({"model": self.model, "messages": messages});
        if let Some(cap) = max_tokens {
            body["max_completion_tokens"] = cap.into();
        }
        if !tools.is_empty() {
            body["tools"] = Value::from(tools.to_vec());
            if let Some(choice) = tool_choice {
                body["tool_choice"] = choice;
            }
        }
        body
    }

    /// `body` posted to `url`, with the API key.
    fn post(&self, url: &str, body: &Value) -> reqwest::RequestBuilder {
        let request = self.http.post(url).json(body);
        match &self.api_key {
            Some(key) => request.bearer_auth(key),
            None => request,
        }
    }

    /// Posts a chat completion request and returns the first choice's message.
    pub async fn chat(
        &self,
        messages: &[Value],
        tools: &[Value],
        tool_choice: Option<Value>,
    ) -> Result<Value, OpenAiError> {
        let answer = self.complete(messages, tools, tool_choice, None).await?;
        message_of(&answer).cloned()
    }

    /// Posts a chat completion request and returns the whole answer (its `finish_reason` and
    /// `usage` say whether it was cut: [`answer_calls`]), each call's arguments kept as
    /// written; `max_tokens`, when set, is sent as `max_completion_tokens`.
    pub async fn complete(
        &self,
        messages: &[Value],
        tools: &[Value],
        tool_choice: Option<Value>,
        max_tokens: Option<u64>,
    ) -> Result<Value, OpenAiError> {
        let body = self.body(messages, tools, tool_choice, max_tokens);
        let mut bytes = Vec::new();
        self.post_reading(&body, Broken::Fails, |chunk| {
            bytes.extend_from_slice(chunk);
            true
        })
        .await?;
        // Read keeping each call's arguments as sent, whether the server wrote them as a
        // string or (some OpenAI-compatible servers do) as an object: the gate reads the text.
        let text = std::str::from_utf8(&bytes)
            .map_err(|error| OpenAiError::Malformed(error.to_string()))?;
        let answer: Value = crate::boundary::messages::read_answer(text)
            .map_err(|error| OpenAiError::Malformed(error.to_string()))?;
        message_of(&answer)?;
        Ok(answer)
    }
}

/// A chat completion read from its stream ([`OpenAiClient::complete_stream`]).
#[derive(Clone, Debug)]
pub struct StreamedCompletion {
    /// The assistant's message as the history replays it: its text and its calls, each
    /// call's arguments as sent.
    pub message: Value,
    /// The calls and how the answer ended, cut or not, as the gate takes them
    /// ([`crate::boundary::Toolbox::call_answer`]).
    pub calls: AnswerCalls,
    /// What the reading did about the endpoint's quirks (see
    /// [`StreamedMessage::log`]).
    pub log: Vec<String>,
}

impl OpenAiClient {
    /// Posts a chat completion request with `stream: true` (and `stream_options.include_usage`,
    /// so a cut shows in the usage too) and reads the answer as it streams, through
    /// [`StreamedMessage`]: each call's arguments as their text arrives, in pieces of any size,
    /// whatever the server's quirks (interleaved or missing indexes, ids reused or renewed).
    /// An answer cut by its token cap, an error in the stream or a connection closed before
    /// the end is `cut`: none of its calls may run. At most [`MAX_ANSWER_BYTES`] are read.
    pub async fn complete_stream(
        &self,
        messages: &[Value],
        tools: &[Value],
        tool_choice: Option<Value>,
        max_tokens: Option<u64>,
    ) -> Result<StreamedCompletion, OpenAiError> {
        let mut stream = StreamedMessage::new(Provider::OpenAiChat, max_tokens);
        self.stream_into(messages, tools, tool_choice, max_tokens, |piece| {
            drop(stream.feed(piece));
            true
        })
        .await?;
        stream.close();
        let calls = streamed_calls(&stream)?;
        Ok(StreamedCompletion {
            message: streamed_message(&stream, &calls),
            calls,
            log: stream.log(),
        })
    }

    /// Posts a chat completion request with `stream: true` (and `stream_options.include_usage`)
    /// and gives `feed` each piece of the answer's stream as it comes, until it says to stop
    /// (`false`: the connection is dropped); a connection that breaks ends the stream (the
    /// reader of the pieces sees a stream closed before its end: a cut answer). At most
    /// [`MAX_ANSWER_BYTES`] are read.
    async fn stream_into(
        &self,
        messages: &[Value],
        tools: &[Value],
        tool_choice: Option<Value>,
        max_tokens: Option<u64>,
        feed: impl FnMut(&[u8]) -> bool,
    ) -> Result<(), OpenAiError> {
        let mut body = self.body(messages, tools, tool_choice, max_tokens);
        body["stream"] = true.into();
        body["stream_options"] = json!({"include_usage": true});
        self.post_reading(&body, Broken::Ends, feed).await
    }

    /// Posts `body` and gives `feed` each piece of a successful answer as it comes, until it
    /// says to stop (`false`: the connection is dropped). At most [`MAX_ANSWER_BYTES`] are
    /// read; a status that is not a success is the error, with the start of its body; a
    /// connection that breaks is what `broken` says.
    async fn post_reading(
        &self,
        body: &Value,
        broken: Broken,
        mut feed: impl FnMut(&[u8]) -> bool,
    ) -> Result<(), OpenAiError> {
        let url = self.url();
        let failed = |source| OpenAiError::Http {
            url: url.clone(),
            source,
        };
        let mut response = self.post(&url, body).send().await.map_err(failed)?;
        let status = response.status();
        let mut error_body = Vec::new();
        let mut read = 0;
        loop {
            let chunk = match response.chunk().await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(_) if broken == Broken::Ends => break,
                Err(source) => return Err(failed(source)),
            };
            read += chunk.len();
            if read > MAX_ANSWER_BYTES {
                return Err(OpenAiError::Malformed(format!(
                    "more than {MAX_ANSWER_BYTES} bytes"
                )));
            }
            match status.is_success() {
                true if !feed(&chunk) => break,
                true => {}
                false => error_body.extend_from_slice(&chunk),
            }
        }
        if !status.is_success() {
            return Err(OpenAiError::Status {
                url,
                status: status.as_u16(),
                body: shorten_text(&String::from_utf8_lossy(&error_body), MAX_ERROR_CHARS),
            });
        }
        Ok(())
    }
}

/// What a connection that breaks in the middle of an answer is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Broken {
    /// An error (a whole answer: what came cannot be read).
    Fails,
    /// The end of the stream (its reader sees a stream closed before its end: a cut answer).
    Ends,
}

/// The calls of a streamed answer that ended, or the error naming one that cannot be read.
fn streamed_calls(stream: &StreamedMessage) -> Result<AnswerCalls, OpenAiError> {
    stream.answer_calls().map_err(|error| {
        OpenAiError::Malformed(format!("a streamed tool call cannot be read: {error}"))
    })
}

/// The assistant's message a streamed answer makes, as a whole answer's `choices[0].message`.
fn streamed_message(stream: &StreamedMessage, calls: &AnswerCalls) -> Value {
    let text = stream.text();
    let mut message = json!({
        "role": "assistant",
        "content": if text.is_empty() { Value::Null } else { Value::from(text) },
    });
    if let Some(mut turn) = calls_turn(Provider::OpenAiChat, &calls.calls).pop() {
        if !calls.calls.is_empty() {
            message["tool_calls"] = turn["tool_calls"].take();
        }
    }
    message
}

/// The first choice's message of a chat completion.
fn message_of(answer: &Value) -> Result<&Value, OpenAiError> {
    match answer.pointer("/choices/0/message") {
        Some(message) if message.is_object() => Ok(message),
        _ => Err(OpenAiError::Malformed("no choices[0].message".to_owned())),
    }
}

/// One tool as Chat Completions `tools` take it, written by the OpenAI flavour (as
/// `Toolbox::definitions_for` writes a toolbox's), for a correction or a resolution.
fn function(model: &ToolModel) -> Result<Value, FlavourError> {
    let mut definitions = request_definitions(Flavour::OpenAi, [model])?;
    Ok(definitions.remove(0).to_value())
}

/// How an agent turn is run.
#[derive(Clone, Debug)]
pub struct TurnOptions {
    /// The most model answers in the turn (default 8); past it the turn fails.
    pub max_rounds: usize,
    /// The system prompt's first words; the tools' type rules follow them.
    pub system: String,
    /// The budget of the type rules in the system prompt, in characters.
    pub rules_budget: usize,
    /// Sends the tools in OpenAI's strict mode (`strict: true`; see
    /// [`Flavour::OpenAiStrict`]): the model's
    /// arguments follow the strict schema, every constraint strict mode drops is still
    /// enforced by the gate, and a `null` strict mode sends for an optional field reads as
    /// absent. A tool strict mode cannot express ends the turn before the first request
    /// ([`TurnError::Flavour`]). Off by default: the tools go as their plain schemas.
    pub strict: bool,
    /// The output token cap of each request (`max_completion_tokens`; none by default). An
    /// answer cut by it (`finish_reason: "length"`, or its usage at the cap whatever the
    /// finish reason says) runs none of its calls: each is refused naming the cut.
    pub max_tokens: Option<u64>,
    /// Streams each answer (`stream: true`, [`OpenAiClient::complete_stream`]) rather than
    /// waiting for it whole: the same calls, gated the same way, with a cut stream (its token
    /// cap, an error, a dropped connection) running none of its calls. Off by default.
    pub stream: bool,
    /// With `stream`, what an issue a call's arguments bring before their end does: recorded
    /// (the default), or [`OnEarlyIssue::Cancel`]: the answer is read no further and none of
    /// its calls runs (that call refused with its issues, the others as cut).
    pub on_early_issue: OnEarlyIssue,
}

impl Default for TurnOptions {
    fn default() -> Self {
        TurnOptions {
            max_rounds: 8,
            system: "You are an agent that calls tools to do what the user asks. When a tool result is refused, correct only the fields its hint names and call the tool again.".to_owned(),
            rules_budget: DEFAULT_PROMPT_BUDGET,
            strict: false,
            max_tokens: None,
            stream: false,
            on_early_issue: OnEarlyIssue::Record,
        }
    }
}

/// An agent turn that ended with the model's text.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The model's final text.
    pub answer: String,
    /// Every message of the turn, the system prompt first.
    pub messages: Vec<Value>,
    /// The envelope of every tool call, in the order made.
    pub envelopes: Vec<Envelope>,
    /// How many answers the model gave.
    pub rounds: usize,
}

/// Why an agent turn did not end with the model's text.
#[derive(Debug, thiserror::Error)]
pub enum TurnError {
    /// The endpoint failed.
    #[error(transparent)]
    Client(#[from] OpenAiError),
    /// The model's answer holds a tool call that cannot be read.
    #[error("the model's answer holds a garbled tool call: {0}")]
    Garbled(#[from] MessageError),
    /// A tool cannot be sent in the flavour asked for ([`TurnOptions::strict`]).
    #[error(transparent)]
    Flavour(#[from] crate::flavour::FlavourError),
    /// The model was still calling tools after the last round.
    #[error("the turn used its {rounds} rounds without a final answer")]
    RoundsSpent {
        /// The rounds allowed.
        rounds: usize,
        /// The envelopes of the calls made.
        envelopes: Vec<Envelope>,
    },
}

/// One agent turn: the user's request goes to the model with the tools and their type rules;
/// each tool call goes through the toolbox (the gate first) and its envelope back as a
/// `role: "tool"` message, a refusal carrying its issues and hint; until the model answers in
/// text or the rounds are spent. The calls of an answer cut by its token cap never run (each
/// is refused naming the cut), and the history replays every call as the API accepts it
/// (repaired arguments as they ran, unreadable ones as an object keeping their text).
pub async fn agent_turn(
    client: &OpenAiClient,
    toolbox: &Toolbox,
    user_request: &str,
    options: &TurnOptions,
) -> Result<Turn, TurnError> {
    let flavour = match options.strict {
        true => Flavour::OpenAiStrict,
        false => Flavour::OpenAi,
    };
    let tools = toolbox.definitions_for(flavour)?;
    let rules = toolbox.prompt_rules(options.rules_budget);
    let mut messages = vec![
        json!({"role": "system", "content": format!("{}\n\n{}", options.system, rules.text)}),
        json!({"role": "user", "content": user_request}),
    ];
    let mut envelopes = Vec::new();
    for round in 1..=options.max_rounds {
        // Streamed, the answer goes through the toolbox's streaming turn (early issues heard as
        // the calls stream; every call decided at the message's end, a cut one refused).
        let mut streaming = None;
        let (message, read) = match options.stream {
            true => {
                let mut turn = toolbox.stream_turn(
                    Provider::OpenAiChat,
                    options.max_tokens,
                    options.on_early_issue,
                );
                client
                    .stream_into(&messages, &tools, None, options.max_tokens, |piece| {
                        drop(turn.feed(piece));
                        !turn.is_cancelled()
                    })
                    .await?;
                turn.close();
                let read = streamed_calls(turn.message())?;
                let message = streamed_message(turn.message(), &read);
                streaming = Some(turn);
                (message, read)
            }
            false => {
                let completion = client
                    .complete(&messages, &tools, None, options.max_tokens)
                    .await?;
                let message = message_of(&completion)?.clone();
                let read = answer_calls(Provider::OpenAiChat, &completion, options.max_tokens)?;
                (message, read)
            }
        };
        if read.calls.is_empty() {
            messages.push(message.clone());
            let answer = message
                .get("content")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned();
            return Ok(Turn {
                answer,
                messages,
                envelopes,
                rounds: round,
            });
        }
        let answered = match streaming {
            Some(turn) => turn.finish().await?,
            None => toolbox.call_answer(&read).await,
        };
        messages.push(replayed_message(toolbox, message, &read));
        messages.extend(tool_results(Provider::OpenAiChat, &answered));
        envelopes.extend(answered);
    }
    Err(TurnError::RoundsSpent {
        rounds: options.max_rounds,
        envelopes,
    })
}

/// The model's message as the history replays it: each call with the arguments the tool ran
/// with (repaired ones repaired), an unreadable or cut one as an object that keeps its text
/// ([`crate::boundary::messages::history_turns`]), so no later request is refused for it.
fn replayed_message(
    toolbox: &Toolbox,
    mut message: Value,
    read: &crate::boundary::messages::AnswerCalls,
) -> Value {
    let replayed: Vec<Call> = match read.cut {
        // Nothing ran: the calls as sent.
        Some(_) => read.calls.clone(),
        None => read
            .calls
            .iter()
            .map(|call| toolbox.replayed(call))
            .collect(),
    };
    if let Some(mut turn) = calls_turn(Provider::OpenAiChat, &replayed).pop() {
        message["tool_calls"] = turn["tool_calls"].take();
    }
    message
}

/// The arguments of the first tool call of a message, if it has one.
fn first_call_arguments(message: &Value) -> Option<String> {
    tool_calls(Provider::OpenAiChat, message)
        .ok()?
        .into_iter()
        .next()
        .map(|call| call.arguments)
}

fn text_of(message: &Value) -> String {
    let text = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default();
    shorten_text(text.trim(), MAX_ERROR_CHARS)
}

const CORRECT_SYSTEM: &str = "A tool call was refused. You get the tool, the arguments as sent, the issues and a hint. Call the tool again with corrected arguments: change only the fields the issues name. If you cannot, answer in one sentence why.";

const RESOLVE_SYSTEM: &str = "A tool ran and failed. You get the user's request, the data the agent already holds (earlier tool results), the failed call and the tool's error. Compute the corrected arguments from that data and call the tool again. If the error is transient (the service is busy or down) answer exactly TRANSIENT. If you cannot fix the call, answer in one sentence why.";

#[async_trait]
impl Corrector for OpenAiClient {
    async fn correct(&self, request: CorrectionRequest<'_>) -> Correction {
        let asked = json!({
            "tool": request.tool.name,
            "arguments": request.arguments,
            "issues": request.issues,
            "hint": request.hint,
        });
        let messages = [
            json!({"role": "system", "content": CORRECT_SYSTEM}),
            json!({"role": "user", "content": asked.to_string()}),
        ];
        let choice = json!({"type": "function", "function": {"name": request.tool.name}});
        let tool = match function(request.model) {
            Ok(tool) => tool,
            Err(error) => return Correction::CannotFix(error.to_string()),
        };
        match self.chat(&messages, &[tool], Some(choice)).await {
            Ok(message) => match first_call_arguments(&message) {
                Some(arguments) => Correction::Arguments(arguments),
                None => Correction::CannotFix(text_of(&message)),
            },
            Err(error) => Correction::CannotFix(error.to_string()),
        }
    }
}

#[async_trait]
impl Resolver for OpenAiClient {
    async fn resolve(&self, request: ResolutionRequest<'_>) -> Resolution {
        let asked = json!({
            "user_request": request.user_request,
            "source_data": request.source_data,
            "tool": request.tool.name,
            "arguments": request.arguments,
            "error": request.error,
        });
        let messages = [
            json!({"role": "system", "content": RESOLVE_SYSTEM}),
            json!({"role": "user", "content": asked.to_string()}),
        ];
        let tool = match function(request.model) {
            Ok(tool) => tool,
            Err(error) => return Resolution::CannotFix(error.to_string()),
        };
        match self.chat(&messages, &[tool], None).await {
            Ok(message) => match first_call_arguments(&message) {
                Some(arguments) => Resolution::Arguments(arguments),
                None if text_of(&message) == "TRANSIENT" => Resolution::Transient,
                None => Resolution::CannotFix(text_of(&message)),
            },
            Err(error) => Resolution::CannotFix(error.to_string()),
        }
    }
}

//! [`Proxy`]: the gate in front of an unmodified MCP server (`toolgate mcp-proxy`).
//!
//! The proxy starts the upstream server as a child process speaking MCP over stdio and
//! serves the same protocol on its own input and output. It has three roads:
//!
//! - **The client's lines** (`client.rs`): each `tools/call` is gated on the text of its
//!   `arguments` as the client sent them (a string where the object belongs is the model's
//!   argument text, read as `check` reads it). A call valid as sent — defaults the schema
//!   declares are the upstream's to fill in — is forwarded byte for byte; a repaired call is
//!   forwarded with only its repaired members written again (every other byte kept, see
//!   `DynamicTool::repaired_text`), and its repairs come back in the result's `_meta`
//!   (`io.toolgate/repairs`); a refused call (a tool the upstream does not list, a budget
//!   spent) is answered by the proxy with an `isError` result carrying the envelope and its
//!   hint, and never reaches the upstream. Every other line passes through unchanged, both
//!   ways: the handshake or MCP 2026-07-28's `server/discover`, `_meta`, `resultType`,
//!   `ttlMs`, `cacheScope`, `input_required` rounds, notifications, resources, prompts,
//!   progress, cancellation, the upstream's own requests and their answers, and lines rmcp's
//!   types could not hold (an error code past `i32`, deep nesting, huge numbers). A call
//!   that waits for its tool's gate waits in a task of its own: the lines after it flow.
//! - **The upstream's lines** (`upstream.rs`): each answer goes to the client with the id the
//!   client sent. A request's id is handed on as sent where every reader holds it (a string,
//!   an integer below 2^53 as JSON writers write it) and no other request in flight has it;
//!   any other id (`1.0`, `-0`, `2^64`) is handed on under a substitute (see
//!   [`super::ids`]). A result the proxy adds `_meta` to or checks keeps every other byte.
//! - **Its own requests** (`listing.rs`): the proxy reads the upstream's `tools/list` (every
//!   page, under substitute ids whose answers never reach the client) and builds a gate for
//!   each tool from its `inputSchema` on the run-time road. It speaks the era the upstream
//!   connection is in: the client's first request opens it (`initialize`, or a request
//!   carrying 2026-07-28's `_meta` envelope, which the proxy's requests then carry too);
//!   where the upstream refuses the proxy's request and no handshake was made, the proxy
//!   makes the 2025 handshake itself and asks again. Where the upstream refuses the
//!   client's handshake (it speaks only the stateless era), the proxy bridges the two
//!   (`bridge.rs`): it answers the `initialize` from its own `server/discover` and hands
//!   every request on with the envelope; a client of the stateless era in front of an
//!   upstream of the handshake era gets the members its era's results carry (`resultType`,
//!   `ttlMs`, `cacheScope`) where the upstream left them out. `notifications/tools/list_changed`
//!   rebuilds the gates (changes that come during a listing are coalesced into one more).
//!   One tool affects only itself: a tool listed twice is gated by its first listing; a tool
//!   whose schema cannot be read is refused with a `schema` issue naming it.
//!
//! Bounds (each a named constant): a line is read in bounded memory both ways
//! ([`MAX_LINE_BYTES`](super::MAX_LINE_BYTES) by default; a request past it is answered, an
//! upstream answer past it becomes a JSON-RPC error for its id wherever the id is in the
//! line); at most [`MAX_IN_FLIGHT`](super::MAX_IN_FLIGHT) requests in flight; a listing
//! reads at most [`MAX_LISTING_PAGES`] pages, [`MAX_LISTED_TOOLS`] tools and
//! [`MAX_LISTING_BYTES`] bytes of tools, and a call waits at most [`LISTING_WAIT`] for it.
//! A listing that fails (an error, a page past a bound, no answer in time) is answered to the
//! calls that wait for it as an error naming why, and asked again by the next call; it is
//! never taken for "no tools".
//!
//! The proxy stops when the client closes its input (the upstream's input is then closed,
//! and the proxy waits for it to exit) or when the upstream closes its output.

use std::pin::Pin;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Command;
use toolgate_core::{DynamicTool, Repair};

use super::batch::Batches;
use super::ids::{InFlight, SentId};
use super::lines::Lines;
use super::MAX_LINE_BYTES;
use crate::boundary::Budgets;

mod bridge;
mod client;
mod listing;
mod result;
#[cfg(test)]
mod tests;
mod upstream;

use listing::Tools;
pub use listing::{LISTING_WAIT, MAX_LISTED_TOOLS, MAX_LISTING_BYTES, MAX_LISTING_PAGES};

/// The gate in front of an MCP server over stdio: see the module's notes.
///
/// ```no_run
/// use toolgate::mcp::Proxy;
///
/// # async fn proxy() -> std::io::Result<()> {
/// let mut upstream = tokio::process::Command::new("python3");
/// upstream.arg("server.py");
/// Proxy::new(upstream)
///     .check_output(true)
///     .run(tokio::io::stdin(), tokio::io::stdout())
///     .await
/// # }
/// ```
#[derive(Debug)]
pub struct Proxy {
    upstream: Command,
    check_output: bool,
    budgets: Budgets,
    max_line_bytes: usize,
}

impl Proxy {
    /// A proxy in front of the MCP server `upstream` starts (its stdin and stdout are the
    /// protocol's; its stderr is the proxy's).
    pub fn new(upstream: Command) -> Self {
        Proxy {
            upstream,
            check_output: false,
            budgets: Budgets::new(),
            max_line_bytes: MAX_LINE_BYTES,
        }
    }

    /// Whether results are checked against the tools' `outputSchema`s: a result whose
    /// `structuredContent` breaks it, is missing, or cannot be read (nested too deep, a
    /// number past a float's range, a lone surrogate) becomes an `isError` result with a
    /// `malformed_response` envelope.
    pub fn check_output(mut self, on: bool) -> Self {
        self.check_output = on;
        self
    }

    /// The budgets of the session (counted per listing of the tools).
    pub fn with_budgets(mut self, budgets: Budgets) -> Self {
        self.budgets = budgets;
        self
    }

    /// The cap on a message line, both ways, in bytes.
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.max_line_bytes = max;
        self
    }

    /// Starts the upstream and serves the client on `input` and `output` until either side
    /// closes.
    pub async fn run<R, W>(mut self, input: R, output: W) -> std::io::Result<()>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let mut child = self
            .upstream
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()?;
        let (Some(upstream_in), Some(upstream_out)) = (child.stdin.take(), child.stdout.take())
        else {
            return Err(std::io::Error::other("the upstream's stdio is not piped"));
        };
        let client_ended = self.serve(upstream_in, upstream_out, input, output).await?;
        if client_ended {
            // The upstream's input was closed: it ends.
            let _ = child.wait().await;
        }
        Ok(())
    }

    /// Serves the client on `input` and `output` in front of the upstream spoken to on
    /// `upstream_in` and `upstream_out`, until either side closes: `true` when the client
    /// did (the upstream's input is then closed).
    async fn serve<R, W, UR, UW>(
        self,
        upstream_in: UW,
        upstream_out: UR,
        input: R,
        output: W,
    ) -> std::io::Result<bool>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
        UR: AsyncRead + Unpin + Send + 'static,
        UW: AsyncWrite + Unpin + Send + 'static,
    {
        let to_upstream = Arc::new(Writer::new(upstream_in));
        let (queued, mut to_write) = tokio::sync::mpsc::channel::<Vec<u8>>(QUEUED_LINES);
        let writer = Arc::clone(&to_upstream);
        tokio::spawn(async move {
            while let Some(line) = to_write.recv().await {
                writer.line(&line).await;
            }
        });
        let shared = Arc::new(Shared {
            to_client: Writer::new(output),
            to_upstream,
            queued,
            flights: Mutex::new(InFlight::new()),
            batches: Mutex::new(Batches::new(self.max_line_bytes)),
            bridge: Mutex::default(),
            tools: Tools::new(self.budgets, self.check_output),
            check_output: self.check_output,
        });
        let from_upstream = tokio::spawn(upstream::read(
            Arc::clone(&shared),
            Lines::new(BufReader::new(upstream_out), self.max_line_bytes),
        ));
        let from_client = Lines::new(BufReader::new(input), self.max_line_bytes);
        tokio::select! {
            read = client::read(Arc::clone(&shared), from_client) => {
                read?;
                shared.to_upstream.close().await;
                Ok(true)
            }
            _ = from_upstream => Ok(false),
        }
    }
}

/// A writer of whole lines, shared by the tasks.
struct Writer(tokio::sync::Mutex<Option<Pin<Box<dyn AsyncWrite + Send>>>>);

impl Writer {
    fn new(write: impl AsyncWrite + Send + 'static) -> Self {
        Writer(tokio::sync::Mutex::new(Some(Box::pin(write))))
    }

    /// Writes `line` and its end. A side that is gone is not written to.
    async fn line(&self, line: &[u8]) {
        let mut write = self.0.lock().await;
        let Some(out) = write.as_mut() else {
            return;
        };
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let written = async {
            out.write_all(line).await?;
            out.write_all(b"\n").await?;
            out.flush().await
        };
        if written.await.is_err() {
            *write = None;
        }
    }

    async fn close(&self) {
        if let Some(mut out) = self.0.lock().await.take() {
            let _ = out.shutdown().await;
        }
    }
}

/// What the roads share.
struct Shared {
    to_client: Writer,
    to_upstream: Arc<Writer>,
    /// Lines the upstream road sends the upstream (the proxy's own requests, answers to
    /// the upstream's requests), written by a task of their own: the road that reads the
    /// upstream never waits on the upstream's input, or a full pipe each way would stop both.
    queued: tokio::sync::mpsc::Sender<Vec<u8>>,
    /// The client's requests handed on to the upstream and not yet answered.
    flights: Mutex<InFlight<Flight>>,
    /// The client's batches whose answers are being gathered.
    batches: Mutex<Batches>,
    /// The bridge from a client of the handshake era to an upstream of the stateless era.
    bridge: Mutex<bridge::Bridge>,
    tools: Tools,
    check_output: bool,
}

/// A client request handed on to the upstream.
struct Flight {
    /// The batch it came in.
    batch: Option<u64>,
    /// A gated call whose answer the proxy adds to or checks.
    call: Option<Pending>,
    /// The request was of MCP 2026-07-28's stateless era: its result says the members that
    /// era requires (see `result::stateless_members`); `true` for a method whose result is
    /// cacheable.
    stateless: Option<bool>,
    /// An `initialize`: its `params` (JSON text), to bridge from if the upstream refuses it.
    initialize: Option<Vec<u8>>,
}

/// A forwarded call whose answer the proxy adds to or checks.
#[derive(Clone)]
struct Pending {
    tool: String,
    /// The repairs made (defaults filled in are not: the upstream fills its own).
    repairs: Vec<Repair>,
    /// The check of the tool's output, with [`Proxy::check_output`].
    output: Option<Arc<DynamicTool>>,
    /// The request was of MCP 2026-07-28's stateless era.
    stateless: bool,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Most lines queued for the upstream by the upstream road (see `Shared::queued`); past
/// it a line is dropped with a warning (a listing then fails in time and is asked again).
const QUEUED_LINES: usize = 256;

impl Shared {
    /// The client request an answer's id (its JSON text) names, taken out of flight; else
    /// the number of the substitute the id is, if it is one (the proxy's own request, or one
    /// no longer held).
    fn answered(&self, echoed: &[u8]) -> Result<(SentId, Flight), Option<u64>> {
        let mut flights = lock(&self.flights);
        let substitute = flights.substitutes().number_of(echoed);
        flights.answered(echoed).ok_or(substitute)
    }

    /// Queues `line` for the upstream without waiting for it to be written.
    fn queue_to_upstream(&self, line: Vec<u8>) {
        if self.queued.try_send(line).is_err() {
            tracing::warn!(
                "the upstream does not read its input: a line of the proxy's is dropped"
            );
        }
    }

    /// Writes the answer `line` to a client request of batch `batch` (or of none): on its own
    /// line, or with the batch's other answers.
    async fn answer_client(&self, batch: Option<u64>, line: Vec<u8>) {
        let lines = match batch {
            Some(number) => lock(&self.batches).answer(number, &line),
            None => vec![line],
        };
        for line in lines {
            self.to_client.line(&line).await;
        }
    }

    /// A request of batch `batch` that gets no answer (cancelled).
    async fn unanswered(&self, batch: Option<u64>) {
        let Some(number) = batch else {
            return;
        };
        let lines = lock(&self.batches).forget(number);
        for line in lines {
            self.to_client.line(&line).await;
        }
    }
}

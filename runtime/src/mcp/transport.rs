//! [`TextTransport`]: MCP's stdio framing (one JSON-RPC message per line) for rmcp, keeping
//! the text of each call's arguments for the gate and answering every request.

use std::sync::Arc;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use super::batch::{is_batch, not_a_message, split, Batches, Split};
use super::incoming::{self, Handed, Ids, Incoming};
use super::lines::{Line, Lines};
use super::message::locate;

/// The longest message line [`TextTransport`] reads, by default: 16 MiB (rmcp's own cap).
/// A longer line is answered (see [`TextTransport`]) and skipped while it is read.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// An rmcp server transport over a byte stream (stdin and stdout, a socket, a pipe): one
/// JSON-RPC message per line, as MCP's stdio transport frames them. Serve an
/// [`McpServer`](super::McpServer) with it (see [`stdio`]) and the gate reads each
/// `tools/call`'s `arguments` byte for byte as the client sent them; rmcp's own transport
/// for `(stdin, stdout)` hands the gate a re-written text instead.
///
/// Every request is answered, whatever its line holds:
/// - a `tools/call` whose arguments `serde_json` cannot hold (nesting past its 128 levels,
///   `1e400`, a lone `\ud800`) reaches the gate, which reads it as on every other road;
/// - a request rmcp cannot read gets a JSON-RPC error with its id: `-32700` for text that is
///   not JSON (or not UTF-8), `-32600` for JSON that is not a request;
/// - a line longer than the cap ([`MAX_LINE_BYTES`], or
///   [`TextTransport::with_max_line_bytes`]) is not kept past the cap: a `tools/call` whose
///   id and tool name are in the part kept gets an `isError` result with a `limit` refusal,
///   another request a `-32600` error. The rest of the line is skipped as it is read.
///
/// A line that is not a request (a notification or a response) and cannot be read is
/// dropped with a `tracing` event: nothing waits for its answer.
pub struct TextTransport<R, W> {
    lines: Lines<BufReader<R>>,
    out: Arc<Mutex<Outgoing<W>>>,
    /// The requests handed to rmcp, under substitute ids, and the batches they came in.
    answering: Arc<std::sync::Mutex<Answering>>,
    /// The messages of a batch line still to read, and the batch's number.
    queued: std::collections::VecDeque<(Vec<u8>, Option<u64>)>,
}

/// What both sides of the transport share: the requests in flight and the open batches.
#[derive(Debug)]
struct Answering {
    handed: Handed,
    batches: Batches,
    /// Lines made while reading, to write before the next.
    unsent: Vec<Vec<u8>>,
}

impl Answering {
    fn lock(answering: &std::sync::Mutex<Answering>) -> std::sync::MutexGuard<'_, Answering> {
        answering
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The lines to write for an answer to a request of batch `batch` (or of none).
    fn lines_for(&mut self, batch: Option<u64>, line: Vec<u8>) -> Vec<Vec<u8>> {
        match batch {
            Some(number) => self.batches.answer(number, &line),
            None => vec![line],
        }
    }
}

impl<R, W> std::fmt::Debug for TextTransport<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextTransport")
            .field("max_line_bytes", &self.lines.max())
            .field("queued", &self.queued.len())
            .finish_non_exhaustive()
    }
}

/// The transport of a server on this process's stdin and stdout.
///
/// ```no_run
/// use rmcp::ServiceExt;
/// use toolgate::boundary::Toolbox;
/// use toolgate::mcp::{stdio, McpServer};
///
/// # async fn serve(toolbox: Toolbox) -> Result<(), Box<dyn std::error::Error>> {
/// McpServer::new(toolbox, "calculator").serve(stdio()).await?.waiting().await?;
/// # Ok(())
/// # }
/// ```
pub fn stdio() -> TextTransport<tokio::io::Stdin, tokio::io::Stdout> {
    TextTransport::new(tokio::io::stdin(), tokio::io::stdout())
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> TextTransport<R, W> {
    /// Messages read from `read` and written to `write`.
    pub fn new(read: R, write: W) -> Self {
        TextTransport {
            lines: Lines::new(BufReader::new(read), MAX_LINE_BYTES),
            out: Arc::new(Mutex::new(Outgoing {
                write,
                buffer: Vec::new(),
                written: 0,
            })),
            answering: Arc::new(std::sync::Mutex::new(Answering {
                handed: Handed::new(),
                batches: Batches::new(MAX_LINE_BYTES),
                unsent: Vec::new(),
            })),
            queued: std::collections::VecDeque::new(),
        }
    }

    /// The same transport with another cap on a line, in bytes.
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.lines = Lines::new(self.lines.into_inner(), max);
        Answering::lock(&self.answering).batches = Batches::new(max);
        self
    }

    /// Writes the lines made while reading (answers toolgate gives itself), kept in
    /// [`Answering::unsent`] until then: they are taken only once the writer is held, so a
    /// read cancelled part way (rmcp polls `receive` in a `select!`) loses none.
    fn write_unsent(&self) -> impl std::future::Future<Output = std::io::Result<()>> + use<R, W> {
        let answering = Arc::clone(&self.answering);
        let out = Arc::clone(&self.out);
        async move {
            let mut out = out.lock().await;
            let unsent = std::mem::take(&mut Answering::lock(&answering).unsent);
            for line in unsent {
                out.buffer.extend_from_slice(&line);
            }
            out.flush().await
        }
    }

    /// The next message to read: a queued message of a batch, or the next line (a batch
    /// line queues its messages, and its own answer when it cannot be read as one);
    /// `Ok(None)` at the input's end.
    async fn next_text(&mut self) -> std::io::Result<Option<(Vec<u8>, Option<u64>, bool)>> {
        loop {
            if let Some((text, batch)) = self.queued.pop_front() {
                return Ok(Some((text, batch, false)));
            }
            let text = match self.lines.next().await {
                Line::Whole if self.lines.text().iter().all(u8::is_ascii_whitespace) => continue,
                Line::Whole => self.lines.text(),
                Line::Cut => return Ok(Some((self.lines.text().to_vec(), None, true))),
                Line::End => return Ok(None),
                Line::Failed(error) => return Err(error),
            };
            if !is_batch(text) {
                return Ok(Some((text.to_vec(), None, false)));
            }
            let messages = match split(text) {
                Split::Messages(messages) => messages,
                Split::Answer(answer) => {
                    Answering::lock(&self.answering).unsent.push(answer);
                    self.write_unsent().await?;
                    continue;
                }
            };
            // Each message is read as if it came on its own line, and the answers of the
            // requests are gathered; an item that is no message is answered `-32600`.
            let text = text.to_vec();
            let requests = messages
                .iter()
                .filter(|range| {
                    let message = &text[(*range).clone()];
                    !message.starts_with(b"{") || locate(message).is_request(message)
                })
                .count();
            {
                let mut answering = Answering::lock(&self.answering);
                let batch = answering.batches.open(requests);
                for range in messages {
                    let message = &text[range];
                    if message.starts_with(b"{") {
                        self.queued.push_back((message.to_vec(), batch));
                    } else if let Some(number) = batch {
                        let lines = answering.batches.answer(number, &not_a_message());
                        answering.unsent.extend(lines);
                    }
                }
            }
            self.write_unsent().await?;
        }
    }
}

impl<R, W> TextTransport<R, W> {
    /// The lines to write for a message rmcp sends: an answer to a request gets the id it
    /// was sent with in place of the substitute rmcp knew it by (and joins its batch's
    /// answer); an answer to a request that was cancelled is not written; anything else is
    /// written as rmcp wrote it.
    fn answer_lines(&self, line: Vec<u8>) -> Vec<Vec<u8>> {
        let located = locate(&line);
        let (Some(range), None) = (located.id.clone(), &located.method) else {
            return vec![line];
        };
        let mut answering = Answering::lock(&self.answering);
        if answering
            .handed
            .substitutes()
            .number_of(&line[range.clone()])
            .is_none()
        {
            return vec![line];
        }
        let Some((sent, batch)) = answering.handed.answered(&line[range.clone()]) else {
            return Vec::new();
        };
        let line = [
            &line[..range.start],
            sent.text().as_bytes(),
            &line[range.end..],
        ]
        .concat();
        answering.lines_for(batch, line)
    }

    /// A cancellation rmcp is handed: the request it names gets no answer it must wait for
    /// (rmcp may send none), so it is no longer held in flight.
    fn forget_cancelled(&self, message: &RxJsonRpcMessage<RoleServer>) {
        let rmcp::model::JsonRpcMessage::Notification(notification) = message else {
            return;
        };
        let rmcp::model::ClientNotification::CancelledNotification(cancelled) =
            &notification.notification
        else {
            return;
        };
        let id = serde_json::to_vec(&cancelled.params.request_id).unwrap_or_default();
        let mut answering = Answering::lock(&self.answering);
        let Some(at) = answering.handed.find(&id) else {
            return;
        };
        if let Some((_, Some(batch))) = answering.handed.remove(&at) {
            // The batch is answered without it (by the next line written).
            let lines = answering.batches.forget(batch);
            answering.unsent.extend(lines);
        }
    }
}

/// The writing side: whole lines are appended to `buffer` at once and written from it, so a
/// write cancelled part way leaves the rest for the next, and lines never interleave.
struct Outgoing<W> {
    write: W,
    buffer: Vec<u8>,
    written: usize,
}

impl<W: AsyncWrite + Unpin> Outgoing<W> {
    async fn flush(&mut self) -> std::io::Result<()> {
        while self.written < self.buffer.len() {
            let wrote = self.write.write(&self.buffer[self.written..]).await?;
            if wrote == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            self.written += wrote;
        }
        self.buffer.clear();
        self.written = 0;
        self.write.flush().await
    }
}

impl<R, W> Transport<RoleServer> for TextTransport<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let lines = serde_json::to_vec(&item)
            .map(|line| self.answer_lines(line))
            .map_err(std::io::Error::other);
        let answering = Arc::clone(&self.answering);
        let out = Arc::clone(&self.out);
        async move {
            let lines = lines?;
            let mut out = out.lock().await;
            let unsent = std::mem::take(&mut Answering::lock(&answering).unsent);
            for mut line in unsent.into_iter().chain(lines) {
                if line.last() != Some(&b'\n') {
                    line.push(b'\n');
                }
                out.buffer.extend_from_slice(&line);
            }
            out.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            // What a cancelled read left: lines not yet taken, or taken and not all written.
            if let Err(error) = self.write_unsent().await {
                tracing::error!(%error, "writing an answer failed");
                return None;
            }
            let (text, batch, cut) = match self.next_text().await {
                Ok(Some(next)) => next,
                Ok(None) => return None,
                Err(error) => {
                    tracing::error!(%error, "reading a message failed");
                    return None;
                }
            };
            let incoming = if cut {
                incoming::too_long(&text, self.lines.cut_id(), self.lines.max())
            } else {
                let mut answering = Answering::lock(&self.answering);
                incoming::read(&text, &mut answering.handed, batch, Ids::Substituted)
            };
            match incoming {
                Incoming::Message(message, _) => {
                    self.forget_cancelled(&message);
                    return Some(*message);
                }
                Incoming::Answer(answer) => {
                    let mut answering = Answering::lock(&self.answering);
                    let lines = answering.lines_for(batch, answer);
                    answering.unsent.extend(lines);
                }
                Incoming::Dropped => continue,
            }
            if let Err(error) = self.write_unsent().await {
                tracing::error!(%error, "writing an answer failed");
                return None;
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut out = self.out.lock().await;
        out.flush().await?;
        out.write.shutdown().await
    }
}

#[cfg(test)]
mod tests;

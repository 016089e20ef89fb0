//! [`TextTransport`]: MCP's stdio framing (one JSON-RPC message per line) for rmcp, keeping
//! the text of each call's arguments for the gate and answering every request.

use std::sync::Arc;

use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use super::incoming::{self, Incoming};
use super::lines::Lines;

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
    /// Answers made while reading, not yet handed to the writer.
    unsent: Vec<u8>,
}

impl<R, W> std::fmt::Debug for TextTransport<R, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextTransport")
            .field("max_line_bytes", &self.lines.max())
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
            unsent: Vec::new(),
        }
    }

    /// The same transport with another cap on a line, in bytes.
    pub fn with_max_line_bytes(mut self, max: usize) -> Self {
        self.lines = Lines::new(self.lines.into_inner(), max);
        self
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
        let line = serde_json::to_vec(&item).map(|mut line| {
            line.push(b'\n');
            line
        });
        let out = Arc::clone(&self.out);
        async move {
            let line = line.map_err(std::io::Error::other)?;
            let mut out = out.lock().await;
            out.buffer.extend_from_slice(&line);
            out.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if !self.unsent.is_empty() {
                let mut out = self.out.lock().await;
                out.buffer.append(&mut self.unsent);
                if let Err(error) = out.flush().await {
                    tracing::error!(%error, "writing an answer failed");
                    return None;
                }
            }
            let incoming = match incoming::next(&mut self.lines).await {
                Ok(Some(incoming)) => incoming,
                Ok(None) => return None,
                Err(error) => {
                    tracing::error!(%error, "reading a message failed");
                    return None;
                }
            };
            match incoming {
                Incoming::Message(message, _) => return Some(*message),
                Incoming::Answer(answer) => self.unsent = answer,
                Incoming::Dropped => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut out = self.out.lock().await;
        out.flush().await?;
        out.write.shutdown().await
    }
}

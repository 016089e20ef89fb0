//! [`Proxy`]: the gate in front of an unmodified MCP server (`toolgate mcp-proxy`).
//!
//! The proxy starts the upstream server as a child process speaking MCP over stdio and
//! serves the same protocol on its own input and output:
//! - every message it does not gate passes through unchanged, both ways (the handshake,
//!   notifications, `ping`, `resources/*`, `prompts/*`, progress, cancellation, the
//!   upstream's own requests to the client and their answers), ids kept;
//! - once the client has said `notifications/initialized`, the proxy reads the upstream's
//!   `tools/list` (every page, under ids of its own, `io.toolgate/tools-list/N`, which the
//!   client never sees) and builds a gate for each tool from its `inputSchema` on the
//!   run-time road. A tool whose schema cannot be read is forwarded ungated, with a warning
//!   on stderr. `notifications/tools/list_changed` from the upstream rebuilds the gates (and
//!   starts the budgets' counts again);
//! - each `tools/call` is gated on the text of its `arguments` as the client sent them
//!   (toolgate's own reading, [`super::TextTransport`]'s): a valid call is forwarded as
//!   its text came; a repaired call is forwarded with the repaired arguments (written as
//!   compact JSON, keys in sorted order), and its
//!   repairs are added to the upstream's result under `_meta` `io.toolgate/repairs`; a
//!   refused call (or one for a tool the upstream does not list, or past a budget) is
//!   answered by the proxy with an `isError` result carrying the envelope and its hint, and
//!   never reaches the upstream. Calls that arrive before the first listing is done wait
//!   for it;
//! - with [`Proxy::check_output`], a result whose `structuredContent` breaks the tool's
//!   `outputSchema` (or that has none though the tool declares one) becomes an `isError`
//!   result with a `malformed_response` envelope;
//! - every line is read in bounded memory ([`MAX_LINE_BYTES`](super::MAX_LINE_BYTES) by
//!   default) and every request the client sends is answered, as the stdio transport
//!   answers them: a request the proxy cannot read gets a JSON-RPC error, and is not
//!   forwarded; an upstream answer longer than the cap becomes a JSON-RPC error for its id.
//!
//! The proxy stops when the client closes its input (the upstream's input is then closed,
//! and the proxy waits for it to exit) or when the upstream closes its output.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::process::Stdio;
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Command;
use tokio::sync::watch;
use toolgate_core::{DynamicTool, Repair};

use super::incoming::{self, ArgumentsText, Incoming};
use super::lines::{Line, Lines};
use super::message::{error_answer, locate, result_answer, Located, INTERNAL_ERROR, TOOLS_CALL};
use super::{McpServer, MAX_LINE_BYTES};
use crate::boundary::{Budgets, Call, Envelope, Failure, Reason, Toolbox};

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

    /// Whether results are checked against the tools' `outputSchema`s.
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
        let (gates, _) = watch::channel(None);
        let shared = Arc::new(Shared {
            to_client: Writer::new(output),
            to_upstream: Writer::new(upstream_in),
            gates,
            pending: Mutex::default(),
            listing: Mutex::default(),
            check_output: self.check_output,
            budgets: self.budgets,
        });
        let from_upstream = tokio::spawn(read_upstream(
            Arc::clone(&shared),
            Lines::new(BufReader::new(upstream_out), self.max_line_bytes),
        ));
        let from_client = Lines::new(BufReader::new(input), self.max_line_bytes);
        tokio::select! {
            read = read_client(Arc::clone(&shared), from_client) => {
                read?;
                // The client is gone: the upstream's input closes, and it ends.
                shared.to_upstream.close().await;
                let _ = child.wait().await;
            }
            _ = from_upstream => {}
        }
        Ok(())
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

/// What both directions share.
struct Shared {
    to_client: Writer,
    to_upstream: Writer,
    /// The gates of the latest listing; `None` until the first is done.
    gates: watch::Sender<Option<Arc<Gates>>>,
    /// Forwarded calls whose answers the proxy changes, by their id's JSON text.
    pending: Mutex<HashMap<String, Pending>>,
    listing: Mutex<Listing>,
    check_output: bool,
    budgets: Budgets,
}

/// The gates built from one listing of the upstream's tools.
struct Gates {
    toolbox: Toolbox,
    /// Tools whose schema could not be read: forwarded as they come.
    ungated: HashSet<String>,
    /// The output schemas' checks, by tool (with [`Proxy::check_output`]).
    outputs: HashMap<String, DynamicTool>,
}

/// A listing of the upstream's tools in progress.
#[derive(Default)]
struct Listing {
    /// The number of the listing (its requests' ids carry it).
    number: u64,
    /// Whether a listing was asked for (by the handshake, or by a call that came first).
    started: bool,
    tools: Vec<Value>,
}

/// A forwarded call whose answer the proxy adds to or checks.
struct Pending {
    tool: String,
    repairs: Vec<Repair>,
}

impl Shared {
    fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        mutex.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Asks the upstream for its tools (a new listing; the page after `cursor`).
    async fn list_tools(&self, cursor: Option<String>) {
        let number = {
            let mut listing = Shared::lock(&self.listing);
            if cursor.is_none() {
                listing.number += 1;
                listing.started = true;
                listing.tools.clear();
            }
            listing.number
        };
        let params = match cursor {
            Some(cursor) => json!({"cursor": cursor}),
            None => json!({}),
        };
        let request = json!({"jsonrpc": "2.0", "id": listing_id(number), "method": "tools/list", "params": params});
        self.to_upstream.line(request.to_string().as_bytes()).await;
    }
}

/// How long a call waits for the upstream's tools to be listed before it is answered with
/// an error.
const LISTING_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// The id of the proxy's own `tools/list` requests of listing `number`.
fn listing_id(number: u64) -> String {
    format!("io.toolgate/tools-list/{number}")
}

/// The client's messages: calls gated, the rest forwarded.
async fn read_client<R: tokio::io::AsyncBufRead + Unpin>(
    shared: Arc<Shared>,
    mut lines: Lines<R>,
) -> std::io::Result<()> {
    while let Some(incoming) = incoming::next(&mut lines).await? {
        let text = lines.text();
        match incoming {
            Incoming::Answer(answer) => shared.to_client.line(&answer).await,
            Incoming::Dropped => {}
            Incoming::Message(message, _) => {
                let located = locate(text);
                let method = located.method(text);
                // A call's arguments as sent; a call without arguments is gated as `{}`.
                let arguments = incoming::arguments_of(&message).or_else(|| {
                    (method.as_deref() == Some(TOOLS_CALL)).then(|| ArgumentsText("{}".into()))
                });
                if let Some(arguments) = arguments {
                    if let Some(answer) = call(&shared, text, &located, arguments).await {
                        shared.to_client.line(&answer).await;
                    }
                    continue;
                }
                shared.to_upstream.line(text).await;
                if method.as_deref() == Some("notifications/initialized") {
                    shared.list_tools(None).await;
                }
            }
        }
    }
    Ok(())
}

/// Gates one call: the answer to the client when the proxy answers it, or `None` when it
/// was forwarded.
async fn call(
    shared: &Shared,
    text: &[u8],
    located: &Located,
    ArgumentsText(arguments): ArgumentsText,
) -> Option<Vec<u8>> {
    let id = located.id(text)?;
    let name = located.name(text)?;
    let started = Shared::lock(&shared.listing).started;
    if !started {
        shared.list_tools(None).await;
    }
    let mut ready = shared.gates.subscribe();
    let gates = match tokio::time::timeout(LISTING_WAIT, ready.wait_for(Option::is_some)).await {
        Ok(Ok(gates)) => gates.as_ref().map(Arc::clone),
        _ => None,
    };
    let Some(gates) = gates else {
        let message = "the upstream's tools could not be listed, so the call cannot be gated";
        return Some(error_answer(id, INTERNAL_ERROR, message));
    };
    if gates.ungated.contains(&name) {
        shared.to_upstream.line(text).await;
        return None;
    }
    let envelope = gates
        .toolbox
        .call_with(Call::new(name.clone(), arguments).with_id(id.to_string()))
        .await;
    if !envelope.ok {
        let mut envelope = envelope;
        envelope.call_id = None;
        return Some(result_answer(id, &envelope));
    }
    let checked = shared.check_output && gates.outputs.contains_key(&name);
    if !envelope.repairs.is_empty() || checked {
        let pending = Pending {
            tool: name,
            repairs: envelope.repairs.clone(),
        };
        Shared::lock(&shared.pending).insert(id.to_string(), pending);
    }
    if envelope.repairs.is_empty() {
        shared.to_upstream.line(text).await;
    } else {
        let repaired = envelope.value.as_ref().unwrap_or(&Value::Null);
        shared
            .to_upstream
            .line(&with_arguments(text, located, repaired))
            .await;
    }
    None
}

/// The call's text with `arguments` in place of the ones sent.
fn with_arguments(text: &[u8], located: &Located, arguments: &Value) -> Vec<u8> {
    let written = arguments.to_string();
    match located.arguments.clone() {
        Some(range) => [&text[..range.start], written.as_bytes(), &text[range.end..]].concat(),
        None => {
            // No arguments were sent (defaults were filled in): the message is written again.
            let Ok(mut message) = serde_json::from_slice::<Value>(text) else {
                return text.to_vec();
            };
            if let Some(params) = message.get_mut("params").and_then(Value::as_object_mut) {
                params.insert("arguments".into(), arguments.clone());
            }
            message.to_string().into_bytes()
        }
    }
}

/// The upstream's messages: answers to the proxy's listings kept, answers to calls the proxy
/// changes changed, the rest forwarded.
async fn read_upstream<R: tokio::io::AsyncBufRead + Unpin>(
    shared: Arc<Shared>,
    mut lines: Lines<R>,
) {
    loop {
        match lines.next().await {
            Line::Whole => {}
            Line::Cut => {
                let kept = lines.text();
                let located = locate(kept);
                if let (Some(id), None) = (located.id(kept), &located.method) {
                    let message = format!(
                        "the upstream's answer is longer than the limit of {} bytes",
                        lines.max()
                    );
                    Shared::lock(&shared.pending).remove(&id.to_string());
                    shared
                        .to_client
                        .line(&error_answer(id, INTERNAL_ERROR, &message))
                        .await;
                }
                continue;
            }
            Line::End | Line::Failed(_) => return,
        }
        let text = lines.text();
        let located = locate(text);
        let method = located.method(text);
        if let (None, Some(id)) = (&method, located.id(text)) {
            let key = id.to_string();
            if let Some(number) = own_listing(&shared, &id) {
                listed(&shared, number, text).await;
                continue;
            }
            let pending = Shared::lock(&shared.pending).remove(&key);
            if let Some(pending) = pending {
                let answer = answered(&shared, pending, text);
                shared.to_client.line(&answer).await;
                continue;
            }
        }
        shared.to_client.line(text).await;
        if method.as_deref() == Some("notifications/tools/list_changed") {
            shared.list_tools(None).await;
        }
    }
}

/// The number of the proxy's listing `id` belongs to, when it is one of the proxy's.
fn own_listing(shared: &Shared, id: &Value) -> Option<u64> {
    let number = Shared::lock(&shared.listing).number;
    (id.as_str() == Some(listing_id(number).as_str())).then_some(number)
}

/// A page of the upstream's tools: the next asked for, or the gates built.
async fn listed(shared: &Shared, number: u64, text: &[u8]) {
    let page: Value = serde_json::from_slice(text).unwrap_or(Value::Null);
    let result = &page["result"];
    {
        let mut listing = Shared::lock(&shared.listing);
        if listing.number != number {
            return;
        }
        if let Some(tools) = result["tools"].as_array() {
            listing.tools.extend(tools.iter().cloned());
        }
    }
    if let Some(cursor) = result["nextCursor"].as_str() {
        shared.list_tools(Some(cursor.to_owned())).await;
        return;
    }
    if page.get("error").is_some() {
        eprintln!(
            "toolgate mcp-proxy: the upstream's tools/list failed: {}",
            page["error"]
        );
    }
    let tools = std::mem::take(&mut Shared::lock(&shared.listing).tools);
    let gates = build_gates(&tools, shared.check_output, shared.budgets.clone());
    shared.gates.send_replace(Some(Arc::new(gates)));
}

/// A gate per tool listed: its input schema on the run-time road (the tool itself is the
/// upstream: the proxy's handler gives the accepted arguments back), its output check.
fn build_gates(tools: &[Value], check_output: bool, budgets: Budgets) -> Gates {
    let mut toolbox = Toolbox::new().with_budgets(budgets);
    let mut ungated = HashSet::new();
    let mut outputs = HashMap::new();
    for tool in tools {
        let Some(name) = tool["name"].as_str() else {
            continue;
        };
        let mut definition = json!({"name": name, "inputSchema": tool["inputSchema"]});
        if let Some(description) = tool.get("description") {
            definition["description"] = description.clone();
        }
        let added = toolbox.add_runtime_tool(&definition, |arguments: Value| async move {
            Ok::<_, String>(arguments)
        });
        if let Err(error) = added {
            eprintln!("toolgate mcp-proxy: {name} is forwarded ungated: {error}");
            ungated.insert(name.to_owned());
            continue;
        }
        if let (true, Some(output)) = (check_output, tool.get("outputSchema")) {
            let definition = json!({"name": name, "inputSchema": output});
            match DynamicTool::from_definition(&definition) {
                Ok(check) => {
                    outputs.insert(name.to_owned(), check);
                }
                Err(errors) => {
                    eprintln!("toolgate mcp-proxy: {name}'s output is not checked: {errors}");
                }
            }
        }
    }
    Gates {
        toolbox,
        ungated,
        outputs,
    }
}

/// The upstream's answer to a call, with the call's repairs and the output's check.
fn answered(shared: &Shared, pending: Pending, text: &[u8]) -> Vec<u8> {
    let Ok(mut answer) = serde_json::from_slice::<Value>(text) else {
        return text.to_vec();
    };
    let Some(result) = answer.get_mut("result").filter(|result| result.is_object()) else {
        return text.to_vec();
    };
    let gates = shared.gates.borrow().clone();
    let check = gates
        .as_ref()
        .and_then(|gates| gates.outputs.get(&pending.tool));
    if let (true, Some(check)) = (shared.check_output, check) {
        if let Some(malformed) = breaks_output(&pending.tool, check, result) {
            *result = serde_json::to_value(McpServer::result_of(&malformed)).unwrap_or(Value::Null);
        }
    }
    if !pending.repairs.is_empty() {
        let meta = result
            .as_object_mut()
            .map(|result| result.entry("_meta").or_insert_with(|| json!({})));
        if let Some(Value::Object(meta)) = meta {
            let repairs = serde_json::to_value(&pending.repairs).unwrap_or(Value::Null);
            meta.insert("io.toolgate/repairs".into(), repairs);
        }
    }
    answer.to_string().into_bytes()
}

/// The `malformed_response` envelope of a result that breaks the tool's output schema.
fn breaks_output(tool: &str, check: &DynamicTool, result: &Value) -> Option<Envelope> {
    if result["isError"] == Value::Bool(true) {
        return None;
    }
    let failure = match result.get("structuredContent") {
        None => Failure::new(
            Reason::MalformedResponse,
            format!("{tool} declares an outputSchema and returned no structuredContent"),
        ),
        Some(content) => {
            let rejected = check.decode_value(content).err()?;
            let message = format!(
                "{tool} returned a result that breaks its output schema: {}",
                rejected.hint().message
            );
            Failure::new(Reason::MalformedResponse, message)
                .with_issues(rejected.report.issues().to_vec())
        }
    };
    Some(Envelope::failure(
        crate::boundary::echoed(tool).into_owned(),
        failure,
        None,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn output_check() -> DynamicTool {
        let definition = json!({"name": "sum", "inputSchema": {"type": "object",
            "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}});
        DynamicTool::from_definition(&definition).unwrap()
    }

    #[test]
    fn a_result_that_breaks_the_output_schema_is_malformed() {
        let check = output_check();
        let fits = json!({"content": [], "structuredContent": {"sum": 3}});
        assert!(breaks_output("sum", &check, &fits).is_none());
        let breaks = json!({"content": [], "structuredContent": {"sum": "three"}});
        let envelope = breaks_output("sum", &check, &breaks).unwrap();
        assert_eq!(envelope.reason(), Some(Reason::MalformedResponse));
        assert_eq!(envelope.error.unwrap().issues[0].path.to_string(), "sum");
        let missing = json!({"content": [{"type": "text", "text": "3"}]});
        assert!(breaks_output("sum", &check, &missing).is_some());
        // A tool's own error is passed on as it is.
        let failed = json!({"content": [], "isError": true});
        assert!(breaks_output("sum", &check, &failed).is_none());
    }

    #[test]
    fn repaired_arguments_replace_the_ones_sent_and_nothing_else() {
        let text = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sum","arguments":{"a":"1"},"_meta":{"k":1}}}"#;
        let located = locate(text);
        let written = with_arguments(text, &located, &json!({"a": 1}));
        assert_eq!(
            written,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sum","arguments":{"a":1},"_meta":{"k":1}}}"#
        );
        let text = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sum"}}"#;
        let written: Value =
            serde_json::from_slice(&with_arguments(text, &locate(text), &json!({"a": 0}))).unwrap();
        assert_eq!(written["params"]["arguments"], json!({"a": 0}));
    }
}

//! The proxy's own requests: the upstream's `tools/list`, read into a gate per tool, in the
//! era the upstream connection speaks.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;
use toolgate_core::model::{SchemaErrors, ToolModel};
use toolgate_core::DynamicTool;

use super::{lock, Shared};
use crate::boundary::{Budgets, Envelope, Toolbox};
use crate::mcp::ids::SentId;
use crate::mcp::message::{items, member, Located, PROTOCOL_VERSION_KEY};

/// How long a call waits for the upstream's tools to be listed before it is answered with
/// an error (and the listing is taken as failed).
pub const LISTING_WAIT: Duration = Duration::from_secs(30);
/// Most pages one listing reads: an upstream that pages on past it fails the listing.
pub const MAX_LISTING_PAGES: usize = 100;
/// Most tools one listing reads.
pub const MAX_LISTED_TOOLS: usize = 10_000;
/// Most bytes of tool definitions one listing holds.
pub const MAX_LISTING_BYTES: usize = 64 << 20;

/// The protocol version the proxy's own handshake asks for, when it makes one.
const HANDSHAKE_VERSION: &str = "2025-11-25";

/// The upstream's tools as the proxy knows them, and its listings of them.
pub(super) struct Tools {
    state: Mutex<State>,
    /// What calls wait on.
    known: watch::Sender<Known>,
    budgets: Budgets,
    check_output: bool,
}

/// What calls see of the listings.
#[derive(Clone, Default)]
struct Known {
    /// The gates of the last listing done.
    gates: Option<Arc<Gates>>,
    /// Why the last listing failed, when it did and none was done since.
    failure: Option<Arc<str>>,
}

#[derive(Default)]
struct State {
    era: Era,
    /// The members of the `_meta` envelope of the client's latest request of the stateless
    /// era (protocol version, capabilities, client info), as sent: the proxy's own requests
    /// carry the same.
    envelope: Vec<(Vec<u8>, Vec<u8>)>,
    /// The number of the latest listing.
    number: u64,
    /// The listing in progress.
    current: Option<InProgress>,
    /// The tools changed while a listing was in progress: list once more after it.
    again: bool,
    handshake: Handshake,
    /// The proxy's requests in flight, by their substitute's number.
    own: HashMap<u64, Own>,
    /// Calls waiting for a listing, by id: whether each was cancelled.
    waiting: HashMap<SentId, bool>,
}

/// The era the client opened the upstream connection in.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Era {
    #[default]
    Unknown,
    /// The client sent `initialize`.
    Handshake,
    /// The client's first request carried MCP 2026-07-28's `_meta` envelope.
    Stateless,
}

/// The proxy's own 2025 handshake, made when the upstream refuses its listing and the client
/// made none.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Handshake {
    #[default]
    NotMade,
    Asked,
    Made,
}

/// One of the proxy's own requests.
enum Own {
    Page(u64),
    Initialize(u64),
}

struct InProgress {
    number: u64,
    /// When it was asked for: a listing not done within [`LISTING_WAIT`] is dropped when a
    /// call or a change comes, and asked again.
    started: tokio::time::Instant,
    pages: usize,
    bytes: usize,
    tools: Vec<Vec<u8>>,
}

impl InProgress {
    fn is_stale(&self) -> bool {
        self.started.elapsed() > LISTING_WAIT
    }
}

/// Whether a call can be gated now.
pub(super) enum Ready {
    Now(Arc<Gates>),
    Later,
}

/// The gates built from one listing of the upstream's tools.
pub(super) struct Gates {
    pub(super) toolbox: Toolbox,
    inputs: HashMap<String, DynamicTool>,
    outputs: HashMap<String, Arc<DynamicTool>>,
    /// Tools whose schema cannot be read: refused.
    broken: HashMap<String, SchemaErrors>,
}

impl Gates {
    /// The answer to a call of a tool whose schema cannot be read.
    pub(super) fn refusal(&self, name: &str) -> Option<Envelope> {
        let errors = self.broken.get(name)?;
        Some(super::client::schema_refusal(name, errors))
    }

    pub(super) fn input(&self, name: &str) -> Option<&DynamicTool> {
        self.inputs.get(name)
    }

    pub(super) fn output(&self, name: &str) -> Option<Arc<DynamicTool>> {
        self.outputs.get(name).cloned()
    }
}

impl Tools {
    pub(super) fn new(budgets: Budgets, check_output: bool) -> Self {
        Tools {
            state: Mutex::default(),
            known: watch::Sender::new(Known::default()),
            budgets,
            check_output,
        }
    }

    /// Notes what a client message says of the era: `initialize` opens the handshake era; a
    /// request carrying the `_meta` envelope, the stateless era when it comes first, and its
    /// envelope is what the proxy's requests carry.
    pub(super) fn saw_client(&self, text: &[u8], located: &Located, method: Option<&str>) {
        let mut state = lock(&self.state);
        if method == Some("initialize") {
            state.era = Era::Handshake;
            return;
        }
        if method.is_none() || !located.is_stateless_era(text) {
            return;
        }
        if state.era == Era::Unknown {
            state.era = Era::Stateless;
        }
        if let Some(meta) = located.meta.clone() {
            state.envelope = crate::mcp::message::members(text, meta)
                .into_iter()
                .filter(|(key, _)| text[key.clone()].starts_with(b"\"io.modelcontextprotocol/"))
                .filter(|(key, _)| !text[key.clone()].ends_with(b"/progressToken\""))
                .map(|(key, value)| (text[key].to_vec(), text[value].to_vec()))
                .collect();
        }
    }

    /// The proxy bridges a client of the handshake era to an upstream of the stateless era:
    /// its own requests carry the envelope whose members (JSON texts) are given.
    pub(super) fn bridged(&self, envelope: Vec<(Vec<u8>, Vec<u8>)>) {
        let mut state = lock(&self.state);
        state.era = Era::Stateless;
        state.envelope = envelope;
    }

    /// After a client request was forwarded: the first of the stateless era starts the
    /// first listing (the connection's era is decided).
    pub(super) async fn after_client_request(&self, shared: &Shared) {
        let first = {
            let state = lock(&self.state);
            state.era == Era::Stateless && state.number == 0
        };
        if first {
            self.start(shared).await;
        }
    }

    /// The client said `notifications/initialized`: the first listing starts.
    pub(super) async fn client_initialized(&self, shared: &Shared) {
        if lock(&self.state).number == 0 {
            self.start(shared).await;
        }
    }

    /// The upstream said its tools changed: listed again (once more after the listing in
    /// progress, however many changes come meanwhile).
    pub(super) async fn changed(&self, shared: &Shared) {
        {
            let mut state = lock(&self.state);
            if state
                .current
                .as_ref()
                .is_some_and(|current| !current.is_stale())
            {
                state.again = true;
                return;
            }
        }
        self.start(shared).await;
    }

    /// Whether a call can be gated now; a call that cannot starts a listing when none is in
    /// progress.
    /// With gates known, a listing that failed since (or was not answered in time) is asked
    /// again meanwhile: the call is gated by the gates known.
    pub(super) async fn ready(&self, shared: &Shared) -> Ready {
        let known = self.known.borrow().clone();
        let stale = lock(&self.state)
            .current
            .as_ref()
            .is_some_and(InProgress::is_stale);
        if known.gates.is_none() || known.failure.is_some() || stale {
            self.start(shared).await;
        }
        match known.gates {
            Some(gates) => Ready::Now(gates),
            None => Ready::Later,
        }
    }

    /// How many calls wait for a listing.
    pub(super) fn waiting(&self) -> usize {
        lock(&self.state).waiting.len()
    }

    /// A call `id` waits for a listing.
    pub(super) fn wait_started(&self, id: &SentId) {
        lock(&self.state).waiting.insert(id.clone(), false);
    }

    /// Cancels a call waiting for a listing; whether one was.
    pub(super) fn cancel_waiting(&self, id: &SentId) -> bool {
        let cancelled = match lock(&self.state).waiting.get_mut(id) {
            Some(cancelled) => {
                *cancelled = true;
                true
            }
            None => false,
        };
        if cancelled {
            // Wakes the waiting call.
            self.known.send_modify(|_| {});
        }
        cancelled
    }

    /// Waits for the gates of a listing: `Ok(None)` when the call was cancelled meanwhile,
    /// `Err` with the reason when the listing failed, and failed again when asked again.
    pub(super) async fn wait(
        &self,
        shared: &Shared,
        id: &SentId,
    ) -> Result<Option<Arc<Gates>>, Arc<str>> {
        let waited = self.wait_for_gates(shared, id).await;
        lock(&self.state).waiting.remove(id);
        waited
    }

    async fn wait_for_gates(
        &self,
        shared: &Shared,
        id: &SentId,
    ) -> Result<Option<Arc<Gates>>, Arc<str>> {
        let mut known = self.known.subscribe();
        let deadline = tokio::time::Instant::now() + LISTING_WAIT;
        let mut asked_again = false;
        loop {
            if lock(&self.state).waiting.get(id) == Some(&true) {
                return Ok(None);
            }
            let now = known.borrow_and_update().clone();
            if let Some(gates) = now.gates {
                return Ok(Some(gates));
            }
            if let Some(failure) = now.failure {
                if asked_again {
                    return Err(failure);
                }
                asked_again = true;
                self.start(shared).await;
                continue;
            }
            match tokio::time::timeout_at(deadline, known.changed()).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => return Err("the proxy is stopping".into()),
                Err(_) => {
                    let reason = format!(
                        "the upstream did not answer tools/list within {} s",
                        LISTING_WAIT.as_secs()
                    );
                    // (The state's lock is let go before `fail` takes it.)
                    let current = lock(&self.state).current.as_ref().map(|c| c.number);
                    self.fail(current, &reason);
                    return Err(reason.into());
                }
            }
        }
    }

    /// Starts a listing, unless one is in progress (and answered in time so far: one that
    /// was not is dropped, and its answers, when they come, with it).
    async fn start(&self, shared: &Shared) {
        let number = {
            let mut state = lock(&self.state);
            if state
                .current
                .as_ref()
                .is_some_and(|current| !current.is_stale())
            {
                return;
            }
            state.number += 1;
            state.again = false;
            state.current = Some(InProgress {
                number: state.number,
                started: tokio::time::Instant::now(),
                pages: 0,
                bytes: 0,
                tools: Vec::new(),
            });
            // Published under the state's lock, as `fail` does: what calls see of the
            // listings is never older than the state.
            self.known.send_modify(|known| known.failure = None);
            state.number
        };
        self.ask_page(shared, number, None).await;
    }

    /// Asks for a page of listing `number` (the first, or the one `cursor` names: its JSON
    /// text as the upstream wrote it).
    async fn ask_page(&self, shared: &Shared, number: u64, cursor: Option<&[u8]>) {
        let (substitute, id) = lock(&shared.flights).substitutes().next();
        let mut params = Vec::new();
        {
            let mut state = lock(&self.state);
            state.own.insert(substitute, Own::Page(number));
            if let Some(cursor) = cursor {
                params.push((b"\"cursor\"".to_vec(), cursor.to_vec()));
            }
            if state.era == Era::Stateless && state.handshake != Handshake::Made {
                params.push((b"\"_meta\"".to_vec(), envelope(&state.envelope)));
            }
        }
        let line = request(&id, "tools/list", &object(&params));
        shared.queue_to_upstream(line);
    }

    /// Whether `number` is one of the proxy's own requests (answered or superseded ones
    /// included: a substitute id never reaches the client).
    pub(super) async fn answered(&self, shared: &Shared, number: u64, text: &[u8]) {
        let own = lock(&self.state).own.remove(&number);
        match own {
            Some(Own::Page(listing)) => self.page(shared, listing, text).await,
            Some(Own::Initialize(listing)) => self.initialized(shared, listing, text).await,
            None => {}
        }
    }

    /// A page of the proxy's own request `number` was past the line cap.
    pub(super) fn too_long(&self, number: u64, max: usize) {
        let own = lock(&self.state).own.remove(&number);
        if let Some(Own::Page(listing) | Own::Initialize(listing)) = own {
            let reason = format!("a page of tools/list is longer than the limit of {max} bytes");
            self.fail(Some(listing), &reason);
        }
    }

    async fn page(&self, shared: &Shared, listing: u64, text: &[u8]) {
        if lock(&self.state).current.as_ref().map(|c| c.number) != Some(listing) {
            return;
        }
        let whole = 0..text.len();
        let Some(result) = member(text, whole.clone(), b"result") else {
            return self.refused(shared, listing, text).await;
        };
        let tools = member(text, result.clone(), b"tools")
            .and_then(|tools| items(text, tools))
            .unwrap_or_default();
        let cursor = member(text, result, b"nextCursor")
            .filter(|cursor| text[cursor.clone()].starts_with(b"\""));
        let over = {
            let mut state = lock(&self.state);
            let Some(current) = state.current.as_mut() else {
                return;
            };
            current.pages += 1;
            for tool in tools {
                current.bytes += tool.len();
                current.tools.push(text[tool].to_vec());
            }
            if current.tools.len() > MAX_LISTED_TOOLS {
                Some(format!(
                    "the upstream lists more than {MAX_LISTED_TOOLS} tools"
                ))
            } else if current.bytes > MAX_LISTING_BYTES {
                Some(format!(
                    "the upstream's tools are more than {MAX_LISTING_BYTES} bytes"
                ))
            } else if cursor.is_some() && current.pages >= MAX_LISTING_PAGES {
                Some(format!(
                    "the upstream's tools/list has more than {MAX_LISTING_PAGES} pages"
                ))
            } else {
                None
            }
        };
        if let Some(reason) = over {
            return self.fail(Some(listing), &reason);
        }
        if let Some(cursor) = cursor {
            return self.ask_page(shared, listing, Some(&text[cursor])).await;
        }
        let (tools, again) = {
            let mut state = lock(&self.state);
            // The listing may have failed (a call's wait ran out) or been dropped meanwhile.
            if state.current.as_ref().map(|c| c.number) != Some(listing) {
                return;
            }
            let tools = state.current.take().map(|c| c.tools).unwrap_or_default();
            (tools, std::mem::take(&mut state.again))
        };
        let gates = Arc::new(build(&tools, self.budgets.clone(), self.check_output));
        // The newest complete listing's gates (a listing started since that failed keeps its
        // failure, so the next call asks again).
        self.known.send_modify(|known| known.gates = Some(gates));
        if again {
            self.start(shared).await;
        }
    }

    /// The upstream answered the proxy's `tools/list` with an error: where no handshake was
    /// made (the client opened the connection without one, or has not yet), the proxy makes
    /// the 2025 handshake itself and asks again; else the listing fails.
    async fn refused(&self, shared: &Shared, listing: u64, text: &[u8]) {
        let reason = error_of(text);
        let handshake = {
            let mut state = lock(&self.state);
            let may = state.handshake == Handshake::NotMade && state.era != Era::Handshake;
            if may {
                state.handshake = Handshake::Asked;
            }
            may
        };
        if !handshake {
            return self.fail(Some(listing), &format!("tools/list was answered {reason}"));
        }
        tracing::info!(%reason, "the upstream refused the proxy's tools/list: the proxy makes the handshake");
        let (substitute, id) = lock(&shared.flights).substitutes().next();
        lock(&self.state)
            .own
            .insert(substitute, Own::Initialize(listing));
        let params = serde_json::json!({
            "protocolVersion": HANDSHAKE_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "toolgate-mcp-proxy", "version": env!("CARGO_PKG_VERSION")},
        });
        let line = request(&id, "initialize", params.to_string().as_bytes());
        shared.queue_to_upstream(line);
    }

    async fn initialized(&self, shared: &Shared, listing: u64, text: &[u8]) {
        if member(text, 0..text.len(), b"result").is_none() {
            let reason = format!(
                "tools/list was refused, and so was the proxy's initialize: {}",
                error_of(text)
            );
            return self.fail(Some(listing), &reason);
        }
        lock(&self.state).handshake = Handshake::Made;
        let initialized = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
        shared.queue_to_upstream(initialized.to_vec());
        self.ask_page(shared, listing, None).await;
    }

    /// Listing `listing` (the one in progress, when `None` is not given) failed: the calls
    /// that wait are answered with `reason`, and the next call asks again.
    fn fail(&self, listing: Option<u64>, reason: &str) {
        let mut state = lock(&self.state);
        if listing.is_none() || state.current.as_ref().map(|c| c.number) != listing {
            return;
        }
        state.current = None;
        state.again = false;
        tracing::warn!(%reason, "the upstream's tools could not be listed");
        // Published under the state's lock: a listing started next clears it after.
        self.known
            .send_modify(|known| known.failure = Some(reason.into()));
    }
}

/// What an error answer says, shortened: its code and message.
fn error_of(text: &[u8]) -> String {
    let error = member(text, 0..text.len(), b"error");
    let said = error.map_or("without a result", |error| {
        std::str::from_utf8(&text[error]).unwrap_or("with an error")
    });
    toolgate_core::issue::shorten_text(said, 300)
}

/// A request line of the proxy's own.
pub(super) fn request(id: &str, method: &str, params: &[u8]) -> Vec<u8> {
    let mut line =
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":"#).into_bytes();
    line.extend_from_slice(params);
    line.push(b'}');
    line
}

/// A JSON object of members given as texts (keys quoted).
pub(super) fn object(members: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let mut text = b"{".to_vec();
    for (index, (key, value)) in members.iter().enumerate() {
        if index > 0 {
            text.push(b',');
        }
        text.extend_from_slice(key);
        text.push(b':');
        text.extend_from_slice(value);
    }
    text.push(b'}');
    text
}

/// The `_meta` envelope of the proxy's requests in the stateless era: the client's, with a
/// protocol version and capabilities where it had none.
fn envelope(client: &[(Vec<u8>, Vec<u8>)]) -> Vec<u8> {
    let mut members = client.to_vec();
    let version_key = [b"\"".as_slice(), PROTOCOL_VERSION_KEY, b"\""].concat();
    if !members.iter().any(|(key, _)| *key == version_key) {
        members.push((version_key, b"\"2026-07-28\"".to_vec()));
    }
    let capabilities_key = b"\"io.modelcontextprotocol/clientCapabilities\"".to_vec();
    if !members.iter().any(|(key, _)| *key == capabilities_key) {
        members.push((capabilities_key, b"{}".to_vec()));
    }
    object(&members)
}

/// A gate per tool listed, from its text: its input schema on the run-time road (the tool
/// itself is the upstream: the handler gives the accepted arguments back), its output
/// check. A tool listed twice is gated by its first listing; a tool whose schema cannot be
/// read is refused, alone.
fn build(tools: &[Vec<u8>], budgets: Budgets, check_output: bool) -> Gates {
    let mut gates = Gates {
        toolbox: Toolbox::new().with_budgets(budgets),
        inputs: HashMap::new(),
        outputs: HashMap::new(),
        broken: HashMap::new(),
    };
    for tool in tools {
        let whole = 0..tool.len();
        let part = |key: &[u8]| member(tool, whole.clone(), key).map(|range| &tool[range]);
        let Some(name_text) = part(b"name") else {
            continue;
        };
        let Ok(name) = serde_json::from_slice::<String>(name_text) else {
            continue;
        };
        if gates.inputs.contains_key(&name) || gates.broken.contains_key(&name) {
            tracing::warn!(tool = %name, "listed twice: gated by its first listing");
            continue;
        }
        let mut members = vec![(b"\"name\"".to_vec(), name_text.to_vec())];
        if let Some(description) = part(b"description") {
            members.push((b"\"description\"".to_vec(), description.to_vec()));
        }
        members.push((
            b"\"inputSchema\"".to_vec(),
            part(b"inputSchema").unwrap_or(b"{}").to_vec(),
        ));
        let definition = String::from_utf8_lossy(&object(&members)).into_owned();
        let input = match ToolModel::from_definition_text(&definition) {
            Ok(model) => DynamicTool::from_model(model),
            Err(errors) => {
                tracing::warn!(tool = %name, %errors, "its schema cannot be read: its calls are refused");
                gates.broken.insert(name, errors);
                continue;
            }
        };
        let added = gates.toolbox.add_pass_through_tool(input.clone());
        if let Err(error) = added {
            tracing::warn!(tool = %name, %error, "not gated");
            continue;
        }
        gates.inputs.insert(name.clone(), input);
        if let (true, Some(output)) = (check_output, part(b"outputSchema")) {
            let definition = object(&[
                (b"\"name\"".to_vec(), name_text.to_vec()),
                (b"\"inputSchema\"".to_vec(), output.to_vec()),
            ]);
            match ToolModel::from_definition_text(&String::from_utf8_lossy(&definition)) {
                Ok(model) => {
                    gates
                        .outputs
                        .insert(name, Arc::new(DynamicTool::from_model(model)));
                }
                Err(errors) => {
                    tracing::warn!(tool = %name, %errors, "its output is not checked");
                }
            }
        }
    }
    gates
}

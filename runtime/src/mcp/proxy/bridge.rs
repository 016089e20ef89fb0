//! A client of the handshake era in front of an upstream that speaks only MCP 2026-07-28's
//! stateless era (no `initialize`; the `_meta` envelope on every request): the proxy bridges
//! the two.
//!
//! When the upstream refuses the client's `initialize`, the proxy asks it `server/discover`
//! itself and answers the `initialize` from the discovery (the version the client asked for
//! where it is one of the handshake era's, the upstream's capabilities, server info and
//! instructions). From then on every request the client sends is handed on with the
//! envelope (protocol version 2026-07-28, the capabilities the client declared), `ping` (no
//! method in that era) is answered by the proxy, and `notifications/initialized` goes no
//! further. Where the discovery fails too, the client gets the upstream's refusal of its
//! `initialize`.

use std::ops::Range;

use super::listing::{object, request};
use super::{lock, Shared};
use crate::mcp::ids::SentId;
use crate::mcp::message::{has_members, member, result_line, Located, PROTOCOL_VERSION_KEY};

/// The bridge's state.
#[derive(Default)]
pub(super) struct Bridge {
    /// The `_meta` envelope's members (without braces) the client's requests are handed on
    /// with, once bridged.
    members: Option<Vec<u8>>,
    /// The proxy's `server/discover` in flight: its substitute's number, and the client's
    /// `initialize` it answers.
    discovering: Option<(u64, Initialize)>,
}

/// A client's `initialize` the upstream refused.
pub(super) struct Initialize {
    pub(super) id: SentId,
    pub(super) batch: Option<u64>,
    /// The `params` it was sent with (JSON text).
    pub(super) params: Vec<u8>,
    /// The upstream's refusal (its answer line), relayed if the bridge fails too.
    pub(super) refusal: Vec<u8>,
}

impl Shared {
    /// The envelope's members the client's requests are handed on with, when bridged.
    pub(super) fn bridged(&self) -> Option<Vec<u8>> {
        lock(&self.bridge).members.clone()
    }
}

/// The upstream refused the client's `initialize`: the proxy asks `server/discover`.
pub(super) fn refused_initialize(shared: &Shared, initialize: Initialize) {
    let meta = object(&envelope(&initialize.params));
    let (number, id) = lock(&shared.flights).substitutes().next();
    let line = request(
        &id,
        "server/discover",
        &object(&[(b"\"_meta\"".to_vec(), meta)]),
    );
    lock(&shared.bridge).discovering = Some((number, initialize));
    shared.queue_to_upstream(line);
}

/// An answer to the proxy's request `number`: whether it was the bridge's discovery (then
/// the client's `initialize` is answered).
pub(super) async fn answered(shared: &Shared, number: u64, text: &[u8]) -> bool {
    let initialize = {
        let mut bridge = lock(&shared.bridge);
        match bridge.discovering.take() {
            Some((asked, initialize)) if asked == number => initialize,
            other => {
                bridge.discovering = other;
                return false;
            }
        }
    };
    let Some(result) = member(text, 0..text.len(), b"result") else {
        tracing::warn!("the upstream refused the client's initialize and server/discover");
        let refusal = &initialize.refusal;
        let answer = match locate_id(refusal) {
            Some(range) => crate::mcp::message::splice(
                refusal,
                vec![(range, initialize.id.text().as_bytes().to_vec())],
            ),
            None => refusal.clone(),
        };
        shared.answer_client(initialize.batch, answer).await;
        return true;
    };
    let envelope = envelope(&initialize.params);
    let meta = object(&envelope);
    // The object's members, without its braces.
    lock(&shared.bridge).members = Some(meta[1..meta.len() - 1].to_vec());
    shared.tools.bridged(envelope);
    tracing::info!(
        "the upstream speaks only MCP 2026-07-28: the proxy bridges the client's handshake"
    );
    let answer = initialize_result(&initialize, text, result);
    shared.answer_client(initialize.batch, answer).await;
    true
}

fn locate_id(text: &[u8]) -> Option<Range<usize>> {
    crate::mcp::message::locate(text).id
}

/// The envelope of the client's requests (members as JSON texts): protocol version
/// 2026-07-28 and the capabilities its `initialize` declared.
fn envelope(params: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let capabilities = member(params, 0..params.len(), b"capabilities")
        .filter(|range| params[range.start] == b'{')
        .map_or(&b"{}"[..], |range| &params[range]);
    vec![
        (
            [b"\"", PROTOCOL_VERSION_KEY, b"\""].concat(),
            b"\"2026-07-28\"".to_vec(),
        ),
        (
            b"\"io.modelcontextprotocol/clientCapabilities\"".to_vec(),
            capabilities.to_vec(),
        ),
    ]
}

/// The `initialize` result the proxy answers with, from the upstream's discovery.
fn initialize_result(initialize: &Initialize, text: &[u8], result: Range<usize>) -> Vec<u8> {
    let params = &initialize.params;
    let asked = member(params, 0..params.len(), b"protocolVersion").map(|range| &params[range]);
    let handshake_era =
        |version: &&[u8]| version.starts_with(b"\"2024-") || version.starts_with(b"\"2025-");
    let version = asked.filter(handshake_era).unwrap_or(b"\"2025-11-25\"");
    let part = |key: &[u8]| member(text, result.clone(), key).map(|range| &text[range]);
    let capabilities = part(b"capabilities").unwrap_or(b"{}");
    let server_info = part(b"_meta")
        .and_then(|meta| {
            member(meta, 0..meta.len(), b"io.modelcontextprotocol/serverInfo")
                .map(|range| meta[range].to_vec())
        })
        .unwrap_or_else(|| br#"{"name":"upstream","version":"0"}"#.to_vec());
    let key = |name: &str| format!("\"{name}\"").into_bytes();
    let mut written = vec![
        (key("protocolVersion"), version.to_vec()),
        (key("capabilities"), capabilities.to_vec()),
        (key("serverInfo"), server_info),
    ];
    if let Some(instructions) = part(b"instructions") {
        written.push((key("instructions"), instructions.to_vec()));
    }
    result_line(&initialize.id, &String::from_utf8_lossy(&object(&written)))
}

/// Where the envelope goes into a request handed on while bridged: into its `_meta`, into
/// its `params` as a `_meta`, or as its `params`. `None` where its `params` or `_meta` is no
/// object (it is handed on as it is).
pub(super) fn with_envelope(
    text: &[u8],
    located: &Located,
    members: &[u8],
) -> Option<(Range<usize>, Vec<u8>)> {
    let insert = |at: usize, inserted: Vec<u8>| Some((at..at, inserted));
    let params = member(text, 0..text.len(), b"params");
    match (params, located.meta.clone()) {
        (Some(_), Some(meta)) if text[meta.start] == b'{' => {
            let comma: &[u8] = if has_members(text, meta.clone()) {
                b","
            } else {
                b""
            };
            insert(meta.start + 1, [members, comma].concat())
        }
        (Some(params), None) if text[params.start] == b'{' => {
            let comma: &[u8] = if has_members(text, params.clone()) {
                b","
            } else {
                b""
            };
            insert(
                params.start + 1,
                [b"\"_meta\":{", members, b"}", comma].concat(),
            )
        }
        (None, _) => {
            let start = text.iter().position(|byte| *byte == b'{')?;
            insert(
                start + 1,
                [b"\"params\":{\"_meta\":{", members, b"}},"].concat(),
            )
        }
        _ => None,
    }
}

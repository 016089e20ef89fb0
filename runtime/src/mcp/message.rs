//! One JSON-RPC message as text: where its members are, found without parsing it, and the
//! answers toolgate writes itself.
//!
//! The gate must read a call's arguments as the client sent them (issue 28 §1): rmcp parses
//! a message into `serde_json` values, which collapses a repeated key, rounds
//! `2.0000000000000001` to `2`, rewrites `1e3` and cannot hold `1e400`, a lone `\ud800`
//! or 127 levels of nesting inside the message's own two. So every served road (the stdio
//! transport, Streamable HTTP, the proxy) first finds the byte range of
//! `params.arguments` with [`locate`], a scan that only matches brackets and strings (it
//! recurses nowhere, allocates nothing, and reads a cut text as far as it goes), keeps that
//! text for the gate and hands rmcp the message with `{}` in its place ([`Located::spliced`]).
//!
//! The scan takes the first of members sent twice and says one was ([`Located::repeated`]):
//! every road refuses a request that repeats a member it reads (`id`, `method`, `params`,
//! `name`, `arguments`, `_meta`, `requestId`), as readers disagree on which one counts.

use std::ops::Range;

use serde_json::Value;

use super::ids::SentId;

/// The method whose arguments the gate reads.
pub(crate) const TOOLS_CALL: &str = "tools/call";

/// Where the members toolgate needs are in a message's text (byte ranges of their values).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Located {
    /// The message's `id`.
    pub(crate) id: Option<Range<usize>>,
    /// The message's `method` (a string's text, quotes included).
    pub(crate) method: Option<Range<usize>>,
    /// `params.name`.
    pub(crate) name: Option<Range<usize>>,
    /// `params.arguments`.
    pub(crate) arguments: Option<Range<usize>>,
    /// `params._meta`.
    pub(crate) meta: Option<Range<usize>>,
    /// `params.requestId` (what a cancellation names).
    pub(crate) request_id: Option<Range<usize>>,
    /// One of these members is sent twice. Readers disagree on which counts (this scan takes
    /// the first; most JSON readers, an upstream's among them, the last), so such a message
    /// is refused: the gate could read one call and the server run another.
    pub(crate) repeated: bool,
}

impl Located {
    /// The method, when it is a string.
    pub(crate) fn method(&self, text: &[u8]) -> Option<String> {
        self.method.clone().and_then(|range| string_at(text, range))
    }

    /// `params.name`, when it is a string.
    pub(crate) fn name(&self, text: &[u8]) -> Option<String> {
        self.name.clone().and_then(|range| string_at(text, range))
    }

    /// The id as sent, when it is one MCP allows (a string or a number, any spelling).
    pub(crate) fn id(&self, text: &[u8]) -> Option<SentId> {
        SentId::read(&text[self.id.clone()?])
    }

    /// Whether the request carries MCP 2026-07-28's per-request envelope (`_meta` naming the
    /// protocol version): an answer toolgate writes to it says `resultType`.
    pub(crate) fn is_stateless_era(&self, text: &[u8]) -> bool {
        self.meta
            .clone()
            .and_then(|meta| member(text, meta, PROTOCOL_VERSION_KEY))
            .is_some()
    }

    /// Whether the message is a request: it has a method and an id (a notification has no
    /// id, a response no method). Only a request is waited for, so only a request is
    /// answered when its text cannot be read.
    pub(crate) fn is_request(&self, text: &[u8]) -> bool {
        self.id(text).is_some() && self.method.is_some()
    }

    /// Whether the message is a `tools/call`.
    pub(crate) fn is_tools_call(&self, text: &[u8]) -> bool {
        self.method(text).as_deref() == Some(TOOLS_CALL)
    }

    /// The message with `{}` in place of a `tools/call`'s arguments, and the arguments' text;
    /// `None` for any other message (or a call without arguments).
    pub(crate) fn spliced(&self, text: &[u8]) -> Option<(Vec<u8>, Range<usize>)> {
        if !self.is_tools_call(text) {
            return None;
        }
        let arguments = self.arguments.clone()?;
        let mut spliced = Vec::with_capacity(text.len() + 2 - arguments.len());
        spliced.extend_from_slice(&text[..arguments.start]);
        spliced.extend_from_slice(b"{}");
        spliced.extend_from_slice(&text[arguments.end..]);
        Some((spliced, arguments))
    }
}

/// The string at `range` (a JSON string's text, quotes included), decoded.
fn string_at(text: &[u8], range: Range<usize>) -> Option<String> {
    serde_json::from_slice(&text[range]).ok()
}

/// Finds the members of a message: its `id` and `method`, and its `params`' `name` and
/// `arguments`. A text cut short (the kept part of an over-long line) gives the members that
/// end within it.
pub(crate) fn locate(text: &[u8]) -> Located {
    let mut located = Located::default();
    let mut params = None;
    let mut repeated = false;
    let mut scan = Scan { text, at: 0 };
    scan.members(|key, _, value, complete| {
        let slot = match key {
            // The params of a cut text are scanned as far as they go.
            b"params" => &mut params,
            _ if !complete => return,
            b"id" => &mut located.id,
            b"method" => &mut located.method,
            _ => return,
        };
        repeated |= slot.is_some();
        slot.get_or_insert(value);
    });
    if let Some(params) = params {
        let mut scan = Scan {
            text: &text[..params.end],
            at: params.start,
        };
        scan.members(|key, _, value, complete| {
            let slot = match key {
                _ if !complete => return,
                b"name" => &mut located.name,
                b"arguments" => &mut located.arguments,
                b"_meta" => &mut located.meta,
                b"requestId" => &mut located.request_id,
                _ => return,
            };
            repeated |= slot.is_some();
            slot.get_or_insert(value);
        });
    }
    located.repeated = repeated;
    located
}

/// What a road answers (`-32600`) to a request whose [`Located::repeated`] is set.
pub(crate) const REPEATED_MEMBER: &str = "a member that says what the request is (id, method, params, name, arguments, _meta or requestId) is sent twice";

/// The `_meta` key naming a request's protocol version (MCP 2026-07-28).
pub(crate) const PROTOCOL_VERSION_KEY: &[u8] = b"io.modelcontextprotocol/protocolVersion";

/// The range of the value of the member `key` of the object at `object` (the first of two),
/// found as [`locate`] finds members.
pub(crate) fn member(text: &[u8], object: Range<usize>, key: &[u8]) -> Option<Range<usize>> {
    let mut found = None;
    let mut scan = Scan {
        text: &text[..object.end],
        at: object.start,
    };
    scan.members(|name, _, value, complete| {
        if complete && name == key && found.is_none() {
            found = Some(value);
        }
    });
    found
}

/// Each member of the object at `object`: its key's range (quotes included), and its value's.
pub(crate) fn members(text: &[u8], object: Range<usize>) -> Vec<(Range<usize>, Range<usize>)> {
    let mut found = Vec::new();
    let mut scan = Scan {
        text: &text[..object.end],
        at: object.start,
    };
    scan.members(|_, key, value, complete| {
        if complete {
            found.push((key, value));
        }
    });
    found
}

/// Whether the object at `object` has a member (its first byte past the `{` and spacing is
/// not its `}`), whatever its keys hold.
pub(crate) fn has_members(text: &[u8], object: Range<usize>) -> bool {
    let inner = text[object].strip_prefix(b"{").unwrap_or_default();
    inner
        .trim_ascii_start()
        .first()
        .is_some_and(|byte| *byte != b'}')
}

/// The items of the array at `array`, by range; `None` where the text there is not a whole
/// array.
pub(crate) fn items(text: &[u8], array: Range<usize>) -> Option<Vec<Range<usize>>> {
    let scan = Scan {
        text: &text[..array.end],
        at: array.start,
    };
    scan.items()
}

/// A scan over a JSON text that matches strings and brackets and nothing more.
struct Scan<'t> {
    text: &'t [u8],
    at: usize,
}

impl Scan<'_> {
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.text.get(self.at) {
            self.at += 1;
        }
    }

    /// Calls `member` with each member's key (decoded when it has escapes; a key that does
    /// not decode is skipped), the key's range (quotes included), its value's range, and
    /// whether the value ends in the text (a value the text's end cuts short is given to the
    /// end), for the object starting at the scan's place. Stops where the text stops being
    /// an object or ends.
    fn members(&mut self, mut member: impl FnMut(&[u8], Range<usize>, Range<usize>, bool)) {
        self.skip_space();
        if self.text.get(self.at) != Some(&b'{') {
            return;
        }
        self.at += 1;
        loop {
            self.skip_space();
            let key_start = self.at;
            let Some(key_end) = self.string_end(self.at) else {
                return;
            };
            let key = &self.text[self.at..key_end];
            self.at = key_end;
            self.skip_space();
            if self.text.get(self.at) != Some(&b':') {
                return;
            }
            self.at += 1;
            self.skip_space();
            let start = self.at;
            let end = self.value_end(start);
            let range = start..end.unwrap_or(self.text.len());
            let inner = &key[1..key.len() - 1];
            let key_range = key_start..key_end;
            if inner.contains(&b'\\') {
                if let Ok(decoded) = serde_json::from_slice::<String>(key) {
                    member(decoded.as_bytes(), key_range, range, end.is_some());
                }
            } else {
                member(inner, key_range, range, end.is_some());
            }
            let Some(end) = end else {
                return;
            };
            self.at = end;
            self.skip_space();
            match self.text.get(self.at) {
                Some(b',') => self.at += 1,
                _ => return,
            }
        }
    }

    /// The ranges of the items of the array starting at the scan's place; `None` where the
    /// text is not a whole array there.
    fn items(mut self) -> Option<Vec<Range<usize>>> {
        self.skip_space();
        if self.text.get(self.at) != Some(&b'[') {
            return None;
        }
        self.at += 1;
        let mut items = Vec::new();
        self.skip_space();
        if self.text.get(self.at) == Some(&b']') {
            return Some(items);
        }
        loop {
            self.skip_space();
            let start = self.at;
            let end = self.value_end(start)?;
            items.push(start..end);
            self.at = end;
            self.skip_space();
            match self.text.get(self.at)? {
                b',' => self.at += 1,
                b']' => return Some(items),
                _ => return None,
            }
        }
    }

    /// Where the string starting at `start` ends (past its closing quote).
    fn string_end(&self, start: usize) -> Option<usize> {
        if self.text.get(start) != Some(&b'"') {
            return None;
        }
        let mut at = start + 1;
        loop {
            match self.text.get(at)? {
                b'"' => return Some(at + 1),
                b'\\' => at += 2,
                _ => at += 1,
            }
        }
    }

    /// Where the value starting at `start` ends. Brackets are counted, not recursed into:
    /// any depth is scanned in constant space.
    fn value_end(&self, start: usize) -> Option<usize> {
        match self.text.get(start)? {
            b'"' => self.string_end(start),
            b'{' | b'[' => {
                let mut depth = 0usize;
                let mut at = start;
                loop {
                    match self.text.get(at)? {
                        b'"' => {
                            at = self.string_end(at)?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return Some(at + 1);
                            }
                        }
                        _ => {}
                    }
                    at += 1;
                }
            }
            _ => {
                let length = self.text[start..].iter().position(|byte| {
                    matches!(byte, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                })?;
                (length > 0).then_some(start + length)
            }
        }
    }
}

/// `text` with each range replaced (ranges that do not overlap).
pub(crate) fn splice(text: &[u8], mut replaced: Vec<(Range<usize>, Vec<u8>)>) -> Vec<u8> {
    replaced.sort_by_key(|(range, _)| range.start);
    let mut spliced = Vec::with_capacity(text.len());
    let mut at = 0;
    for (range, with) in replaced {
        spliced.extend_from_slice(&text[at..range.start]);
        spliced.extend_from_slice(&with);
        at = range.end;
    }
    spliced.extend_from_slice(&text[at..]);
    spliced
}

/// A JSON-RPC error answer to the request `id` (written as it was sent; `null` for a request
/// whose id cannot be read), with JSON-RPC 2.0 §5.1's codes.
pub(crate) fn error_answer(id: Option<&SentId>, code: i64, message: &str) -> Vec<u8> {
    let error = serde_json::json!({"code": code, "message": message});
    answer_line(id, "error", &error.to_string())
}

/// The answer to the `tools/call` `id` with the MCP result of `envelope` (see
/// [`result_text`]).
pub(crate) fn result_answer(
    id: &SentId,
    envelope: &crate::boundary::Envelope,
    stateless_era: bool,
) -> Vec<u8> {
    answer_line(Some(id), "result", &result_text(envelope, stateless_era))
}

/// The MCP result of `envelope` as toolgate writes it on a served road: `resultType` said
/// for a request of MCP 2026-07-28's stateless era, and left out for the handshake era,
/// which does not know it.
pub(crate) fn result_text(envelope: &crate::boundary::Envelope, stateless_era: bool) -> String {
    let mut result = serde_json::to_value(super::McpServer::result_of(envelope))
        .unwrap_or_else(|_| serde_json::json!({}));
    if let Value::Object(members) = &mut result {
        if stateless_era {
            members.insert("resultType".into(), "complete".into());
        } else {
            members.remove("resultType");
        }
    }
    result.to_string()
}

/// The answer to the request `id` whose result is the JSON text `result`.
pub(crate) fn result_line(id: &SentId, result: &str) -> Vec<u8> {
    answer_line(Some(id), "result", result)
}

/// `{"jsonrpc":"2.0","id":ID,"MEMBER":VALUE}` and a line end, the id's text as sent.
fn answer_line(id: Option<&SentId>, member: &str, value: &str) -> Vec<u8> {
    let id = id.map_or("null", SentId::text);
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"{member}\":{value}}}\n").into_bytes()
}

/// JSON-RPC's code for text that is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for a request whose params do not fit its method.
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's code for JSON that is not a request.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's code for an error of the server's own.
pub(crate) const INTERNAL_ERROR: i64 = -32603;

#[cfg(test)]
mod tests;

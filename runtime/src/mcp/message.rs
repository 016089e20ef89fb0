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
//! The scan takes the first of members sent twice; a second `arguments` is left in the
//! message, whose parse then refuses it.

use std::ops::Range;

use serde_json::Value;

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

    /// The id, when it is one JSON-RPC allows (a string or an integer).
    pub(crate) fn id(&self, text: &[u8]) -> Option<Value> {
        let value: Value = serde_json::from_slice(&text[self.id.clone()?]).ok()?;
        (value.is_string() || value.is_i64() || value.is_u64()).then_some(value)
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
    let mut scan = Scan { text, at: 0 };
    scan.members(|key, value, complete| {
        let slot = match key {
            // The params of a cut text are scanned as far as they go.
            b"params" => &mut params,
            _ if !complete => return,
            b"id" => &mut located.id,
            b"method" => &mut located.method,
            _ => return,
        };
        slot.get_or_insert(value);
    });
    if let Some(params) = params {
        let mut scan = Scan {
            text: &text[..params.end],
            at: params.start,
        };
        scan.members(|key, value, complete| {
            let slot = match key {
                _ if !complete => return,
                b"name" => &mut located.name,
                b"arguments" => &mut located.arguments,
                _ => return,
            };
            slot.get_or_insert(value);
        });
    }
    located
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
    /// not decode is skipped), its value's range, and whether the value ends in the text (a
    /// value the text's end cuts short is given to the end), for the object starting at the
    /// scan's place. Stops where the text stops being an object or ends.
    fn members(&mut self, mut member: impl FnMut(&[u8], Range<usize>, bool)) {
        self.skip_space();
        if self.text.get(self.at) != Some(&b'{') {
            return;
        }
        self.at += 1;
        loop {
            self.skip_space();
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
            if inner.contains(&b'\\') {
                if let Ok(decoded) = serde_json::from_slice::<String>(key) {
                    member(decoded.as_bytes(), range, end.is_some());
                }
            } else {
                member(inner, range, end.is_some());
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

/// A JSON-RPC error answer to the request `id` (JSON-RPC 2.0 §5.1 codes).
pub(crate) fn error_answer(id: Value, code: i64, message: &str) -> Vec<u8> {
    let answer = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    let mut line = answer.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// The answer to the `tools/call` `id` with the MCP result of `envelope`.
pub(crate) fn result_answer(id: Value, envelope: &crate::boundary::Envelope) -> Vec<u8> {
    let result = super::McpServer::result_of(envelope);
    let answer = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": result});
    let mut line = answer.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// JSON-RPC's code for text that is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for a request whose params do not fit its method.
pub(crate) const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC's code for JSON that is not a request.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's code for an error of the server's own (the proxy's).
#[cfg(feature = "mcp-proxy")]
pub(crate) const INTERNAL_ERROR: i64 = -32603;

#[cfg(test)]
mod tests;

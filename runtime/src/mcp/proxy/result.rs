//! The upstream's answer to a client request, as the client gets it: its id as the client
//! sent it, and for a gated call the repairs in the result's `_meta` and the output's check.
//! Every other byte is kept.

use std::ops::Range;

use toolgate_core::DynamicTool;

use super::{Flight, Pending};
use crate::boundary::{Envelope, Failure, Reason};
use crate::mcp::ids::SentId;
use crate::mcp::message::{has_members, member, splice};

/// The answer line `text` (its id at `id`) for the client: the request's id as it was
/// sent; for a gated call, its repairs and its output's check; for a request of MCP
/// 2026-07-28's stateless era, the members that era's results carry where the upstream (of
/// the 2025 era) left them out.
pub(super) fn for_client(text: &[u8], id: Range<usize>, sent: &SentId, flight: &Flight) -> Vec<u8> {
    let mut replaced = vec![(id, sent.text().as_bytes().to_vec())];
    let result = member(text, 0..text.len(), b"result").filter(|range| text[range.start] == b'{');
    let Some(result) = result else {
        return splice(text, replaced);
    };
    // Members added at the result's start.
    let mut added = Vec::new();
    if let Some(call) = &flight.call {
        let output = call.output.as_deref();
        if let Some(written) = output.and_then(|check| malformed(text, result.clone(), check, call))
        {
            replaced.push((result, written));
            return splice(text, replaced);
        }
        if !call.repairs.is_empty() {
            let repairs = serde_json::to_string(&call.repairs).unwrap_or_default();
            let entry = format!("\"io.toolgate/repairs\":{repairs}");
            match member(text, result.clone(), b"_meta") {
                Some(meta) if text[meta.start] == b'{' => {
                    let comma = if has_members(text, meta.clone()) {
                        ","
                    } else {
                        ""
                    };
                    let at = meta.start + 1;
                    replaced.push((at..at, format!("{entry}{comma}").into_bytes()));
                }
                // A `_meta` that is no object (MCP's schema wants one) is left as it is.
                Some(_) => tracing::warn!("the upstream's _meta is no object: no repairs added"),
                None => added.push(format!("\"_meta\":{{{entry}}}")),
            }
        }
    }
    if let Some(cacheable) = flight.stateless {
        added.extend(stateless_members(text, result.clone(), cacheable));
    }
    if !added.is_empty() {
        let comma = if has_members(text, result.clone()) {
            ","
        } else {
            ""
        };
        let at = result.start + 1;
        replaced.push((at..at, format!("{}{comma}", added.join(",")).into_bytes()));
    }
    splice(text, replaced)
}

/// Whether a method's result is cacheable in MCP 2026-07-28 (it says `ttlMs` and
/// `cacheScope`).
pub(super) fn is_cacheable(method: &str) -> bool {
    matches!(
        method,
        "server/discover"
            | "tools/list"
            | "prompts/list"
            | "resources/list"
            | "resources/templates/list"
            | "resources/read"
    )
}

/// The members a stateless-era result must carry that the result at `result` lacks:
/// `resultType` (`complete`: a 2025-era server has no other), and for a cacheable method
/// `ttlMs` (0: not to be cached) and `cacheScope` (`private`) — what an upstream of the 2025
/// era leaves out, so that a client of the 2026 era can read its results.
fn stateless_members(text: &[u8], result: Range<usize>, cacheable: bool) -> Vec<String> {
    let mut wanted = vec![("resultType", "\"complete\"")];
    if cacheable {
        wanted.extend([("ttlMs", "0"), ("cacheScope", "\"private\"")]);
    }
    wanted
        .into_iter()
        .filter(|(key, _)| member(text, result.clone(), key.as_bytes()).is_none())
        .map(|(key, value)| format!("\"{key}\":{value}"))
        .collect()
}

/// The result written again as a `malformed_response`, when it is the call's complete result
/// and breaks the tool's output schema, has no `structuredContent`, or cannot be read.
fn malformed(
    text: &[u8],
    result: Range<usize>,
    check: &DynamicTool,
    call: &Pending,
) -> Option<Vec<u8>> {
    let tool = &call.tool;
    let is_error =
        member(text, result.clone(), b"isError").is_some_and(|range| &text[range] == b"true");
    // The tool's own error is passed on as it is; so is a result that is not the call's
    // last (`resultType` `input_required` or `task`, MCP 2026-07-28: the server asks the
    // client first, or answers later), which holds no output yet.
    let complete = member(text, result.clone(), b"resultType")
        .is_none_or(|range| &text[range] == b"\"complete\"");
    if is_error || !complete {
        return None;
    }
    let failure = match serde_json::from_slice::<serde::de::IgnoredAny>(&text[result.clone()]) {
        Err(error) => Failure::new(
            Reason::MalformedResponse,
            format!("{tool} returned a result that cannot be read: {error}"),
        ),
        Ok(_) => match member(text, result, b"structuredContent") {
            None => Failure::new(
                Reason::MalformedResponse,
                format!("{tool} declares an outputSchema and returned no structuredContent"),
            ),
            Some(content) => {
                let rejected = check.decode_bytes(&text[content]).err()?;
                let message = format!(
                    "{tool} returned a result that breaks its output schema: {}",
                    rejected.hint().message
                );
                Failure::new(Reason::MalformedResponse, message)
                    .with_issues(rejected.report.issues().to_vec())
            }
        },
    };
    let envelope = Envelope::failure(crate::boundary::echoed(tool).into_owned(), failure, None);
    Some(crate::mcp::message::result_text(&envelope, call.stateless).into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(repairs: bool, output: Option<DynamicTool>) -> Pending {
        let repair = toolgate_core::Repair {
            path: toolgate_core::Path::root().key("n"),
            rule: toolgate_core::Rule::StringToNumber,
            from: "2".into(),
            to: 2.into(),
        };
        Pending {
            tool: "sum".into(),
            repairs: if repairs { vec![repair] } else { Vec::new() },
            output: output.map(std::sync::Arc::new),
            stateless: false,
        }
    }

    fn answered(text: &str, call: &Pending) -> String {
        let id = crate::mcp::message::locate(text.as_bytes()).id.unwrap();
        let sent = SentId::read(b"1.0").unwrap();
        let flight = Flight {
            batch: None,
            call: Some(call.clone()),
            stateless: None,
            initialize: None,
        };
        String::from_utf8(for_client(text.as_bytes(), id, &sent, &flight)).unwrap()
    }

    #[test]
    fn repairs_go_into_the_meta_and_every_other_byte_is_kept() {
        let call = pending(true, None);
        let repairs =
            r#""io.toolgate/repairs":[{"path":"n","rule":"string_to_number","from":"2","to":2}]"#;
        let text =
            r#"{"jsonrpc":"2.0","id":"s","result":{"z":123456789012345678901234567890, "a":1}}"#;
        assert_eq!(
            answered(text, &call),
            format!(
                r#"{{"jsonrpc":"2.0","id":1.0,"result":{{"_meta":{{{repairs}}},"z":123456789012345678901234567890, "a":1}}}}"#
            )
        );
        let text = r#"{"id":7,"result":{"_meta":{"k":1e400}}}"#;
        assert_eq!(
            answered(text, &call),
            format!(r#"{{"id":1.0,"result":{{"_meta":{{{repairs},"k":1e400}}}}}}"#)
        );
        let text = r#"{"id":7,"result":{}}"#;
        assert_eq!(
            answered(text, &call),
            format!(r#"{{"id":1.0,"result":{{"_meta":{{{repairs}}}}}}}"#)
        );
        // An error answer only gets its id back.
        let text = r#"{"id":7,"error":{"code":-99999999999,"message":"x"}}"#;
        assert_eq!(
            answered(text, &call),
            r#"{"id":1.0,"error":{"code":-99999999999,"message":"x"}}"#
        );
    }

    #[test]
    fn a_result_that_cannot_be_read_is_malformed_never_a_pass() {
        let check =
            DynamicTool::from_definition(&serde_json::json!({"name": "sum", "inputSchema": {
            "type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}}))
            .unwrap();
        let call = pending(false, Some(check));
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        for content in [
            "{\"sum\": 1e400}",
            "{\"sum\": 1, \"s\": \"\\ud800\"}",
            &format!("{{\"sum\": 1, \"d\": {deep}}}"),
            "{\"sum\": \"x\"}",
            // An integer no `Value` carries: checked, it would be rounded (issue 43 §4).
            "{\"sum\": 123456789012345678901234567890}",
        ] {
            let text =
                format!(r#"{{"id":7,"result":{{"content":[],"structuredContent":{content}}}}}"#);
            let answer = answered(&text, &call);
            assert!(answer.contains("malformed_response"), "{content}: {answer}");
            assert!(answer.starts_with(r#"{"id":1.0,"result":{"#), "{answer}");
        }
        let fits = r#"{"id":7,"result":{"content":[],"structuredContent":{"sum":1.23456789012345678901234567890e29}}}"#;
        assert_eq!(
            answered(fits, &call),
            fits.replace("\"id\":7", "\"id\":1.0")
        );
        // A result that is not the call's last holds no output yet.
        let asks = r#"{"id":7,"result":{"resultType":"input_required","inputRequests":{},"requestState":"s"}}"#;
        assert_eq!(
            answered(asks, &call),
            asks.replace("\"id\":7", "\"id\":1.0")
        );
    }
}

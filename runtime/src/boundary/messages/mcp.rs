//! MCP: a `tools/call` request's params (`{name, arguments}`, or the whole JSON-RPC request
//! around them, whose `id` is the call's), answered by `CallToolResult`s. `toolgate::mcp`'s
//! server reads and writes these over a transport; here they are for a client or a log.
//!
//! A result is what [`McpServer::result_of`](crate::mcp::McpServer::result_of) sends (feature
//! `mcp`): a success's value as `structuredContent` with a text copy (a value that is not an
//! object as the text alone), a failure as `isError: true` with the envelope's JSON as its
//! text, and the repairs under `_meta`. MCP has no user turn: a correction turn is the
//! results alone, each refusal's envelope carrying its issues and hint.

use serde_json::{json, Map, Value};

use super::{as_text, text, MessageError};
use toolgate_core::Repair;

use crate::boundary::{Call, Envelope};

pub(super) fn tool_calls(answer: &Value) -> Result<Vec<Call>, MessageError> {
    let params = answer.get("params").unwrap_or(answer);
    if params.get("name").is_none() && answer.get("method").is_none() {
        return Ok(Vec::new());
    }
    let name = text(params, "name", 0)?;
    let arguments = params.get("arguments").map_or("{}".to_owned(), as_text);
    let call = Call::new(name, arguments);
    Ok(vec![match answer.get("id") {
        Some(Value::String(id)) => call.with_id(id.as_str()),
        Some(id @ Value::Number(_)) => call.with_id(id.to_string()),
        _ => call,
    }])
}

/// The `CallToolResult` of one envelope. A value nested past
/// [`MAX_RESULT_DEPTH`](crate::boundary::MAX_RESULT_DEPTH) is not written: the result is a
/// `malformed_response` with a `limit` issue instead.
pub(crate) fn tool_result(envelope: &Envelope) -> Value {
    let too_deep = envelope.value.as_ref().is_some_and(|value| {
        !toolgate_core::model::depth_within(value, crate::boundary::MAX_RESULT_DEPTH)
    });
    if too_deep {
        let issue = crate::boundary::result_too_deep();
        let failure = crate::boundary::Failure::new(
            crate::boundary::Reason::MalformedResponse,
            issue.message.clone(),
        )
        .with_issues(vec![issue]);
        return tool_result(&Envelope::failure(envelope.tool.clone(), failure, None));
    }
    let text = |text: String| json!([{"type": "text", "text": text}]);
    let mut result = match (&envelope.ok, &envelope.value) {
        (true, Some(value @ Value::Object(_))) => {
            json!({"content": text(value.to_string()), "structuredContent": value, "isError": false})
        }
        (true, value) => {
            let value = value.clone().unwrap_or(Value::Null);
            json!({"content": text(value.to_string()), "isError": false})
        }
        (false, _) => json!({"content": text(envelope.to_json()), "isError": true}),
    };
    let mut meta = Map::new();
    let written = |repairs: &[&Repair]| serde_json::to_value(repairs).unwrap_or(Value::Null);
    // Repairs and defaults filled in are told apart: a call whose log holds only defaults
    // was valid as sent (`Rule::is_repair`).
    let (repairs, defaults): (Vec<&Repair>, Vec<&Repair>) = envelope
        .repairs
        .iter()
        .partition(|repair| repair.rule.is_repair());
    if envelope.ok && !repairs.is_empty() {
        meta.insert("io.toolgate/repairs".into(), written(&repairs));
    }
    if envelope.ok && !defaults.is_empty() {
        meta.insert("io.toolgate/defaults".into(), written(&defaults));
    }
    if envelope.ok && !envelope.output_repairs.is_empty() {
        let output_repairs: Vec<&Repair> = envelope.output_repairs.iter().collect();
        meta.insert(
            "io.toolgate/output_repairs".into(),
            written(&output_repairs),
        );
    }
    if !meta.is_empty() {
        result["_meta"] = Value::Object(meta);
    }
    result
}

pub(super) fn tool_results(envelopes: &[Envelope]) -> Vec<Value> {
    envelopes.iter().map(tool_result).collect()
}

pub(super) fn calls_turn(calls: &[Call]) -> Vec<Value> {
    calls
        .iter()
        .map(|call| {
            let params =
                json!({"name": call.tool, "arguments": super::replayed_arguments(&call.arguments)});
            let mut request = json!({"jsonrpc": "2.0", "method": "tools/call", "params": params});
            if let Some(id) = &call.call_id {
                request["id"] = Value::String(id.clone());
            }
            request
        })
        .collect()
}

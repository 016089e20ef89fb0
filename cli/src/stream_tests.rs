//! The recorded streams of `tests/fixtures/streams/<provider>/<case>.sse`, one per quirk of
//! the providers and their compatible servers (each file names its source), read by
//! `toolgate stream` in pieces of every size: each call's id, tool, end, outcome and the
//! event of its first early issue are those of `<case>.expected.json`, whatever the pieces.

use std::path::PathBuf;

use serde_json::Value;
use toolgate::boundary::messages::StreamedMessage;
use toolgate::DynamicTool;

use super::{provider, stream_lines};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/streams")
}

fn tools() -> Vec<DynamicTool> {
    let text = std::fs::read_to_string(fixtures().join("tools.json")).unwrap();
    let definitions: Vec<Value> = serde_json::from_str(&text).unwrap();
    definitions
        .iter()
        .map(|definition| DynamicTool::from_definition(definition).unwrap())
        .collect()
}

/// A reader giving `bytes` in pieces of `size`.
struct Pieces<'b> {
    bytes: &'b [u8],
    size: usize,
}

impl std::io::Read for Pieces<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let n = self.size.min(buffer.len()).min(self.bytes.len());
        buffer[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

#[test]
fn every_recorded_stream_gives_its_expected_calls_in_any_pieces() {
    let tools = tools();
    let mut cases = 0;
    let mut failures = Vec::new();
    for provider_dir in std::fs::read_dir(fixtures()).unwrap() {
        let provider_dir = provider_dir.unwrap().path();
        if !provider_dir.is_dir() {
            continue;
        }
        let name = provider_dir
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let provider = provider(&name).unwrap();
        let mut files: Vec<PathBuf> = std::fs::read_dir(&provider_dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == "sse"))
            .collect();
        files.sort();
        for file in files {
            cases += 1;
            let bytes = std::fs::read(&file).unwrap();
            let expected: Value = serde_json::from_str(
                &std::fs::read_to_string(file.with_extension("expected.json")).unwrap(),
            )
            .unwrap();
            let max_tokens = expected["max_tokens"].as_u64();
            let whole = stream_lines(provider, &tools, max_tokens, &bytes[..]).unwrap();
            for size in [1, 2, 7, 64] {
                let pieces = Pieces {
                    bytes: &bytes,
                    size,
                };
                let lines = stream_lines(provider, &tools, max_tokens, pieces).unwrap();
                if lines != whole {
                    failures.push(format!("{}: pieces of {size} differ", file.display()));
                }
            }
            let got: Vec<Value> = whole
                .iter()
                .map(|line| serde_json::from_str(line).unwrap())
                .collect();
            let (calls, end) = got.split_at(got.len() - 1);
            let mut message = StreamedMessage::new(provider, max_tokens);
            message.feed(&bytes);
            message.close();
            let summary: Vec<Value> = calls
                .iter()
                .zip(message.calls())
                .map(|(line, call)| {
                    serde_json::json!({
                        "call_id": line["call_id"], "tool": line["tool"], "end": line["end"],
                        "ok": line["ok"], "early_event": line["early"]["event"],
                        "arguments": call.arguments,
                    })
                })
                .collect();
            let wanted: Vec<Value> = expected["calls"]
                .as_array()
                .unwrap()
                .iter()
                .zip(&summary)
                .map(|(want, got)| {
                    let mut want = want.clone();
                    if want.get("arguments").is_none() {
                        want["arguments"] = got["arguments"].clone();
                    }
                    want
                })
                .collect();
            let end_wanted = (&expected["message_end"], expected["cut"].as_bool());
            let end_got = (&end[0]["message_end"], Some(!end[0]["cut"].is_null()));
            if summary != wanted
                || calls.len() != expected["calls"].as_array().unwrap().len()
                || end_wanted != end_got
            {
                failures.push(format!(
                    "{}:\n  got {}\n  end {}",
                    file.display(),
                    serde_json::to_string(&summary).unwrap(),
                    end[0]
                ));
            }
        }
    }
    assert!(cases >= 20, "{cases} cases");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

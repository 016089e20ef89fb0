//! Streamed arguments (issue 45): arbitrary text for two run-time tools, fed to the streaming
//! decoder in pieces the fuzz bytes choose. The first byte picks the tool, the second how
//! many of the next bytes are piece sizes (each 1 to 16 bytes, used in turn); the rest is the
//! argument text.
//!
//! - It never panics.
//! - Any chunking is one shot: `finish()` gives what `decode_bytes` of the whole text gives
//!   (value, repairs, report, hint).
//! - Early issues are sound: only on a refused call, each at the same path and constraint as
//!   an issue of the report, or under one at an ancestor, or with the report capped.
//! - Linear: the tokenizer looks at no more than 4 bytes per byte fed (and 64).

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolgate::streaming::StreamEvent;
use toolgate::{Constraint, DynamicTool};

const DEFINITIONS: [&str; 2] = [
    r#"{"name": "book", "parameters": {"type": "object", "properties": {
        "nights": {"type": "integer", "minimum": 1, "maximum": 9},
        "city": {"type": "string", "pattern": "^[A-Z][a-z]+$", "maxLength": 20},
        "room": {"enum": ["single", "double"]},
        "guests": {"type": "array", "items": {"type": "string", "minLength": 2}, "maxItems": 4},
        "desk": {"type": "object", "properties": {"mail": {"type": "string", "format": "email"}}, "required": ["mail"]},
        "any": {}
    }, "required": ["nights"], "additionalProperties": false}}"#,
    r##"{"name": "tree", "parameters": {"type": "object", "properties": {
        "node": {"$ref": "#/$defs/Node"},
        "pick": {"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type": "boolean"}}]}
    }, "$defs": {"Node": {"type": "object", "properties": {
        "name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
    }}}}}"##,
];

fn tools() -> &'static [DynamicTool] {
    static TOOLS: OnceLock<Vec<DynamicTool>> = OnceLock::new();
    toolgate_fuzz::dynamic_tools(&TOOLS, &DEFINITIONS)
}

fuzz_target!(|data: &[u8]| {
    let [pick, count, rest @ ..] = data else {
        return;
    };
    let (sizes, text) = rest.split_at((*count as usize % 8).min(rest.len()));
    let tools = tools();
    let tool = &tools[*pick as usize % tools.len()];
    // The count's high bit asks for values and string deltas too.
    let values = count & 0x80 != 0;
    let mut decoder = tool.stream_decoder();
    if values {
        decoder = decoder.with_values();
    }
    let mut early = Vec::new();
    // Each string's deltas, joined, where they came.
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut at = 0;
    let mut turn = 0;
    while at < text.len() {
        let size = sizes
            .get(turn % sizes.len().max(1))
            .map_or(1, |&b| 1 + b as usize % 16);
        let end = (at + size).min(text.len());
        for event in decoder.feed(&text[at..end]) {
            match event {
                StreamEvent::Issue(issue) => early.push(issue.clone()),
                StreamEvent::Text { path, delta } => {
                    let path = path.to_string();
                    match texts.last_mut() {
                        Some((last, joined)) if *last == path => joined.push_str(delta),
                        _ => texts.push((path, delta.clone())),
                    }
                }
                _ => {}
            }
        }
        at = end;
        turn += 1;
    }
    // A string's deltas are sent at a place followed exactly: where the call is accepted, the
    // value there is the string they join into (as sent; the tools hold no string repairs).
    if let Ok(accepted) = tool.decode_bytes(text) {
        for (path, joined) in &texts {
            let pointer = path_pointer(path);
            if let Some(value) = accepted.value.pointer(&pointer) {
                assert_eq!(value.as_str(), Some(joined.as_str()), "{path}");
            }
        }
    }
    // With values every byte inside a string is read, once: the same bound.
    assert!(
        decoder.work() <= 4 * text.len() as u64 + 64,
        "work {}",
        decoder.work()
    );
    let streamed = decoder.finish();
    let one_shot = tool.decode_bytes(text);
    match (&streamed, &one_shot) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => {
            assert_eq!(a.report, b.report);
            assert_eq!(a.repairs, b.repairs);
            assert_eq!(a.hint_json(), b.hint_json());
        }
        _ => panic!("streamed {streamed:?}, one shot {one_shot:?}"),
    }
    for issue in &early {
        let Err(rejected) = &streamed else {
            panic!("an early issue {issue:?} on an accepted call");
        };
        let issues = rejected.report.issues();
        // At the same path and constraint; or the text refused whole (a root `syntax` or
        // `limit` issue); or keys that tie at the field or around it; or the report capped.
        let sound = issues.iter().any(|found| {
            // Keys that tie name the field or one around it: one `syntax` issue there.
            let tie = issue.path.segments().starts_with(found.path.segments())
                && found.constraint == Constraint::Syntax;
            let text_refused = found.path.is_root()
                && matches!(found.constraint, Constraint::Syntax | Constraint::Limit);
            (found.path == issue.path && found.constraint == issue.constraint)
                || tie
                || text_refused
        }) || rejected.report.left_out() > 0;
        assert!(sound, "early {issue:?} against {issues:?}");
    }
});

/// A JSON pointer for a path as issues write it (`a.b[2]`), for the fixtures' plain names.
fn path_pointer(path: &str) -> String {
    let mut pointer = String::new();
    for part in path.split('.') {
        let (name, index) = match part.split_once('[') {
            Some((name, index)) => (name, Some(index.trim_end_matches(']'))),
            None => (part, None),
        };
        if !name.is_empty() {
            pointer.push('/');
            pointer.push_str(name);
        }
        if let Some(index) = index {
            pointer.push('/');
            pointer.push_str(index);
        }
    }
    pointer
}

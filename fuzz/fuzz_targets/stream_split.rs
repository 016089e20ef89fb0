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
    TOOLS.get_or_init(|| {
        DEFINITIONS
            .iter()
            .map(|text| {
                let definition: serde_json::Value = serde_json::from_str(text).expect("JSON");
                DynamicTool::from_definition(&definition).expect("a usable tool")
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let [pick, count, rest @ ..] = data else {
        return;
    };
    let (sizes, text) = rest.split_at((*count as usize % 8).min(rest.len()));
    let tools = tools();
    let tool = &tools[*pick as usize % tools.len()];
    let mut decoder = tool.stream_decoder();
    let mut early = Vec::new();
    let mut at = 0;
    let mut turn = 0;
    while at < text.len() {
        let size = sizes
            .get(turn % sizes.len().max(1))
            .map_or(1, |&b| 1 + b as usize % 16);
        let end = (at + size).min(text.len());
        for event in decoder.feed(&text[at..end]) {
            if let StreamEvent::Issue(issue) = event {
                early.push(issue.clone());
            }
        }
        at = end;
        turn += 1;
    }
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

//! The text stage (`json_text`): argument text made of pieces (`toolgate_fuzz::text`):
//! objects in strict and lenient forms, a second object, `{}`, fences, prose with citations
//! `[1]`, `#` and `//`, junk, bare words, expressions, a double-encoded object, white space,
//! maybe cut off. The first byte picks the tool: even, an open schema (`{"type": "object"}`);
//! odd, an object with typed and required fields (repairs happen). A first byte `R` (open)
//! or `S` (typed) takes the rest of the input as the text itself (the hand-written seeds;
//! only the invariants that need no knowledge of the pieces apply).
//!
//! Invariants:
//! - no panic; a refusal meets the report/hint invariants;
//! - two complete objects (`{}` counts) anywhere in the text, with nothing that could put
//!   one inside a value or a string (no junk holding `{}[]"'` or backticks or `\`, no
//!   double-encoded piece, nothing cut off): refused;
//! - the text is exactly one fence (white space around it): accepted iff its body alone is,
//!   to the same value;
//! - open schema, exactly one complete object and nothing that could hide another: when
//!   accepted, the value is that object (every key written, nothing else);
//! - accepted values re-encode, and decode again to an equal value with no repair but
//!   `default`.
//!
//! Findings already reported and not yet fixed are skipped (each skip names its finding)
//! unless `TOOLGATE_FUZZ_KNOWN=1`.

#![no_main]

use std::sync::OnceLock;

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use toolgate::model::ToolModel;
use toolgate::DynamicTool;
use toolgate_core::values::json_equal;
use toolgate_fuzz::text::Text;
use toolgate_fuzz::{check_decodes_again, check_known, check_rejected, print_inputs};

const OPEN: &str = r#"{"name": "open", "parameters": {"type": "object"}}"#;

const TYPED: &str = r#"{"name": "typed", "parameters": {"type": "object",
  "properties": {
    "a": {"type": "integer"},
    "b": {"type": "array", "items": {"type": "integer"}},
    "query": {"type": "string"},
    "flag": {"type": "boolean"},
    "city": {"type": "string", "enum": ["Paris", "Rome"]},
    "n": {"type": "number", "default": 1}
  },
  "required": ["query"]}}"#;

fn tools() -> &'static [DynamicTool; 2] {
    static TOOLS: OnceLock<[DynamicTool; 2]> = OnceLock::new();
    TOOLS.get_or_init(|| {
        [OPEN, TYPED].map(|text| {
            DynamicTool::from_model(ToolModel::from_definition_text(text).expect("fixture"))
        })
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let open = pick % 2 == 0;
    let tool = &tools()[usize::from(!open)];
    let raw = matches!(pick, b'R' | b'S');
    let built = if raw {
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        Text::raw(text)
    } else {
        Text::build(&mut Unstructured::new(rest))
    };
    let text = built.text.as_str();
    if print_inputs() {
        eprintln!(
            "tool: {}\ntext: {text:?}\npieces: {:?}",
            tool.model().name(),
            built.pieces
        );
    }
    let result = tool.decode(text);
    if print_inputs() {
        match &result {
            Ok(decoded) => eprintln!("decoded: {}", decoded.value),
            Err(rejected) => eprintln!("refused: {}", rejected.report),
        }
    }
    match &result {
        Ok(decoded) => check_decodes_again(tool, &decoded.value, tool.model().name()),
        Err(rejected) => check_rejected(rejected, text.as_bytes()),
    }
    let objects = built.objects();
    let inert = built.inert();
    // Findings T1 (a comment after the value hid what followed) and T2 (a fenced
    // double-encoded object) are fixed in main (939b62f) and checked again. T3 is fixed for
    // a value after the info string's first word, not in that word: "```{...}```" on one
    // line still opens a fence whose "info string" holds a value (T3b, reported); skipped
    // unless TOOLGATE_FUZZ_KNOWN=1.
    let known_t3 = built.value_in_fence_info_word() && !check_known();
    if inert && objects.len() >= 2 && !known_t3 {
        if let Ok(decoded) = &result {
            panic!(
                "{} complete objects in the text, accepted as {}\ntext: {text:?}",
                objects.len(),
                decoded.value
            );
        }
    }
    if let Some(body) = built.only_fence_body() {
        let alone = tool.decode(body);
        match (&result, &alone) {
            (Ok(fenced), Ok(alone)) => assert!(
                json_equal(&fenced.value, &alone.value),
                "the fence gives {}, its body alone {}\ntext: {text:?}",
                fenced.value,
                alone.value
            ),
            (Err(_), Err(_)) => {}
            (Ok(fenced), Err(alone)) => panic!(
                "the fence is accepted ({}), its body alone is refused: {}\ntext: {text:?}",
                fenced.value, alone.report
            ),
            (Err(fenced), Ok(alone)) => panic!(
                "the fence is refused ({}), its body alone is accepted ({})\ntext: {text:?}",
                fenced.report, alone.value
            ),
        }
    }
    if open && inert && objects.len() == 1 && !known_t3 {
        if let Ok(decoded) = &result {
            assert!(
                json_equal(&decoded.value, objects[0]),
                "one object written ({}), accepted as {}\ntext: {text:?}",
                objects[0],
                decoded.value
            );
        }
    }
});

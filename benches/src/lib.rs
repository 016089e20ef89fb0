//! Shared fixtures of toolgate's side-by-side benchmarks: the `book_flight` payloads of the
//! `decode` bench and the BFCL corpus of the `runtime_road` bench.
//!
//! Run the benches with `cargo bench -p toolgate-bench`, then `python3 benches/ratios.py`
//! for the ratios to the serde floor (see `benches/README.md`).

use std::path::PathBuf;

use serde_json::Value;

/// V: a valid `book_flight` payload.
pub const VALID: &str = r#"{"origin":"CDG","destination":"JFK","date":"2026-11-22","passengers":2,"cabin":"business","max_price":450.5,"refundable":true,"loyalty_ids":["AF1234"],"contact":{"email":"ada@example.com"},"notes":"window seat, please"}"#;

/// C: the same payload with 5 mistakes toolgate repairs losslessly: a number, a float and a
/// boolean sent as strings, the array JSON-encoded in a string, the enum value capitalised.
pub const REPAIRABLE: &str = r#"{"origin":"CDG","destination":"JFK","date":"2026-11-22","passengers":"2","cabin":"Business","max_price":"450.5","refundable":"true","loyalty_ids":"[\"AF1234\"]","contact":{"email":"ada@example.com"},"notes":"window seat, please"}"#;

/// I: 4 real errors: an origin that is not an IATA code, 12 passengers, an unknown cabin and
/// an email without `@`. serde stops at the first one it can see (the cabin).
pub const INVALID: &str = r#"{"origin":"Paris","destination":"JFK","date":"2026-11-22","passengers":12,"cabin":"luxury","max_price":450.5,"refundable":true,"loyalty_ids":["AF1234"],"contact":{"email":"ada.example.com"},"notes":"window seat, please"}"#;

/// IM: I with a required field (`date`) left out as well: 5 issues, the costliest refusal
/// shape (a missing field's issue and hint entry are built from the schema, not the text).
pub const INVALID_MISSING: &str = r#"{"origin":"Paris","destination":"JFK","passengers":12,"cabin":"luxury","max_price":450.5,"refundable":true,"loyalty_ids":["AF1234"],"contact":{"email":"ada.example.com"},"notes":"window seat, please"}"#;

/// I3: the 3 errors of I that serde cannot see (origin, passengers, email), with a valid
/// cabin, so the validators' own checks and reports run.
pub const INVALID_CHECKS: &str = r#"{"origin":"Paris","destination":"JFK","date":"2026-11-22","passengers":12,"cabin":"first","max_price":450.5,"refundable":true,"loyalty_ids":["AF1234"],"contact":{"email":"ada.example.com"},"notes":"window seat, please"}"#;

/// The floor: serde alone, no constraint checked.
pub mod plain {
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    pub struct BookFlight {
        pub origin: String,
        pub destination: String,
        pub date: String,
        pub passengers: u8,
        pub cabin: Cabin,
        pub max_price: f64,
        pub refundable: bool,
        pub loyalty_ids: Vec<String>,
        pub contact: Contact,
        pub notes: Option<String>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Cabin {
        Economy,
        PremiumEconomy,
        Business,
        First,
    }

    #[derive(Debug, Deserialize)]
    pub struct Contact {
        pub email: String,
    }
}

/// The `book_flight` tool of the `decode` and `boundary` benches, as toolgate's derive
/// declares it: one derive gives the schema, the checks, the repairs and the retry hint.
pub mod flight {
    use serde::Deserialize;
    use toolgate::Tool;

    /// Book a flight for one or more passengers.
    #[derive(Debug, Tool, Deserialize)]
    pub struct BookFlight {
        /// Airport the flight leaves from (3-letter IATA code)
        #[tool(pattern = "^[A-Z]{3}$")]
        pub origin: String,
        /// Airport the flight arrives at (3-letter IATA code)
        #[tool(pattern = "^[A-Z]{3}$")]
        pub destination: String,
        /// Day of departure
        #[tool(format = "date")]
        pub date: String,
        /// Number of travellers
        #[tool(range(min = 1, max = 9))]
        pub passengers: u8,
        /// Cabin class
        pub cabin: Cabin,
        /// Highest price the traveller accepts, in euros
        #[tool(exclusive_range(min = 0))]
        pub max_price: f64,
        /// Whether the ticket must be refundable
        pub refundable: bool,
        /// Frequent-flyer numbers
        #[tool(length(max = 5))]
        pub loyalty_ids: Vec<String>,
        /// How to reach the passenger
        pub contact: Contact,
        /// Anything the agent should know
        pub notes: Option<String>,
    }

    /// Cabin class
    #[derive(Debug, Tool, Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Cabin {
        Economy,
        PremiumEconomy,
        Business,
        First,
    }

    /// Contact details
    #[derive(Debug, Tool, Deserialize)]
    pub struct Contact {
        /// Email address of the passenger
        #[tool(format = "email")]
        pub email: String,
    }
}

/// The workspace's root folder (the parent of this crate's folder).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the bench crate lives inside the workspace")
        .to_path_buf()
}

/// One expanded BFCL case: the tool definition's line in `cases.jsonl` and the argument
/// text a model could have sent.
#[derive(Debug, Clone)]
pub struct Case {
    /// The 0-based line of `cases.jsonl` whose `"tool"` is the tool definition.
    pub corpus_line: usize,
    /// The case's class (`valid`, `L_num_str`, `R_type_num`, ...: `L_` cases are lossless
    /// mistakes to repair, `R_` cases real errors to refuse).
    pub class: String,
    /// Whether the case's expectation is that the arguments are accepted.
    pub expect_ok: bool,
    /// The raw argument text.
    pub arguments: String,
}

/// The BFCL corpus: every tool definition of `tests/data/bfcl/cases.jsonl` (by line) and
/// every case of `tests/data/bfcl/cases-expanded.jsonl`.
pub fn bfcl_corpus() -> (Vec<Value>, Vec<Case>) {
    let folder = workspace_root().join("tests/data/bfcl");
    let read = |name: &str| {
        let path = folder.join(name);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
    };
    let tools = read("cases.jsonl")
        .lines()
        .map(|line| {
            let mut case: Value = serde_json::from_str(line).expect("cases.jsonl holds JSON lines");
            case["tool"].take()
        })
        .collect();
    let cases = read("cases-expanded.jsonl")
        .lines()
        .map(|line| {
            let case: Value =
                serde_json::from_str(line).expect("cases-expanded.jsonl holds JSON lines");
            Case {
                corpus_line: case["corpus_line"]
                    .as_u64()
                    .expect("corpus_line is a line number") as usize,
                class: case["class"].as_str().unwrap_or_default().to_owned(),
                expect_ok: case["expect"]["ok"].as_bool().unwrap_or(false),
                arguments: case["arguments"]
                    .as_str()
                    .expect("arguments is a string")
                    .to_owned(),
            }
        })
        .collect();
    (tools, cases)
}

/// The streamed argument of the `stream` bench: `{"rows": [...]}` of small objects (an id, a
/// name, tags, a score, a flag) up to about `bytes` bytes, and the tool that takes it.
pub mod streamed {
    use serde_json::json;
    use toolgate::DynamicTool;

    /// The tool of [`argument`]'s rows, taking arguments of up to 4 MiB (the scale bench
    /// streams 1 MiB).
    pub fn tool() -> DynamicTool {
        let mut options = toolgate::decode::Options::default();
        options.max_bytes = 4 << 20;
        DynamicTool::from_definition(&json!({
            "name": "import_rows",
            "parameters": {"type": "object", "required": ["rows"], "properties": {
                "rows": {"type": "array", "items": {"type": "object",
                    "required": ["id", "name"],
                    "properties": {
                        "id": {"type": "integer", "minimum": 0},
                        "name": {"type": "string", "maxLength": 40},
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "score": {"type": "number"},
                        "active": {"type": "boolean"}
                    }}}
            }}
        }))
        .expect("the bench tool is usable")
        .with_options(options)
    }

    /// `text` fed to a stream decoder of `tool` in pieces of `size` bytes, then finished:
    /// whether the call was accepted (what the stream bench and its instruction count run).
    #[inline]
    pub fn feed_then_finish(tool: &DynamicTool, text: &[u8], size: usize) -> bool {
        let mut call = tool.stream_decoder();
        for piece in text.chunks(size) {
            std::hint::black_box(call.feed(piece));
        }
        call.finish().is_ok()
    }

    /// A valid argument text of about `bytes` bytes.
    pub fn argument(bytes: usize) -> String {
        let mut rows = Vec::new();
        let mut length = 10;
        while length < bytes {
            let row = json!({"id": rows.len(), "name": format!("row number {}", rows.len()),
                "tags": ["alpha", "beta"], "score": rows.len() as f64 * 0.25 + 0.5,
                "active": rows.len() % 2 == 0});
            length += row.to_string().len() + 1;
            rows.push(row);
        }
        json!({ "rows": rows }).to_string()
    }
}

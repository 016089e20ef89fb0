//! Arbitrary bytes as the arguments of two derived tools, through `Tool::decode_bytes`.
//!
//! - It never panics.
//! - `T::decode_bytes` (which takes the serde fast path for plain tools) gives the same
//!   result as `T::decode_with` with options that skip the fast path (the one-pass decoder).
//! - `Ok`: the value passes `validate()`; `serde_json::to_vec` of it decodes again to an
//!   equal value with no repair other than `default`.
//! - `Err`: the report is non-empty and capped (≤ 101 issues), and the retry hint's JSON is
//!   valid with ≤ 3 `missing_fields`, ≤ 3 `fields` and a question of ≤ 300 characters.

#![no_main]

use std::collections::HashMap;
use std::fmt::Debug;

use libfuzzer_sys::fuzz_target;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use toolgate::decode::Options;
use toolgate::Tool;
use toolgate_fuzz::{check_only_default_repairs, check_rejected};

/// Book a flight for one or more passengers.
#[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
struct BookFlight {
    /// Airport the flight leaves from (3-letter IATA code)
    #[tool(pattern = "^[A-Z]{3}$", example = "CDG")]
    origin: String,
    /// Airport the flight arrives at (3-letter IATA code)
    #[tool(pattern = "^[A-Z]{3}$")]
    #[serde(alias = "dest")]
    destination: String,
    /// Day of departure
    #[tool(format = "date")]
    date: String,
    /// Number of travellers
    #[tool(range(min = 1, max = 9))]
    passengers: u8,
    /// Cabin class
    cabin: Cabin,
    /// Most the traveller will pay, in euros
    #[tool(exclusive_range(min = 0))]
    max_price: f64,
    /// Whether the ticket must be refundable
    refundable: bool,
    /// Frequent-flyer numbers
    #[tool(length(max = 5), unique, items(length(min = 4, max = 12)))]
    loyalty_ids: Vec<String>,
    /// How to reach the passenger
    contact: Contact,
    /// Anything the agent should know
    // Without skip_serializing_if, `None` re-encodes as `null`, which the decoder repairs
    // with `null_as_absent`: a legitimate repair, not a finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[tool(length(max = 500))]
    notes: Option<String>,
}

/// Contact details
#[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Contact {
    /// Email address of the passenger
    #[tool(format = "email")]
    email: String,
    /// Phone number in E.164 form
    #[tool(pattern = r"^\+[1-9][0-9]{6,14}$")]
    #[serde(skip_serializing_if = "Option::is_none")]
    phone: Option<String>,
}

/// Cabin class
#[derive(Tool, Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Cabin {
    Economy,
    #[serde(alias = "premium")]
    PremiumEconomy,
    #[tool(alias = "biz")]
    Business,
    First,
}

/// Organise labelled items into a tree.
#[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Organize {
    /// Title of the tree
    #[serde(default)]
    #[tool(length(max = 80))]
    title: String,
    /// How many levels to show
    #[serde(default = "default_depth")]
    #[tool(range(min = 1, max = 10))]
    depth: u32,
    /// Counters by label
    #[serde(default)]
    counts: HashMap<String, u32>,
    /// Whether to sort children by name
    #[serde(default)]
    sorted: bool,
    /// The tree
    root: Node,
}

fn default_depth() -> u32 {
    3
}

/// A node and its children
#[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Node {
    /// Node name
    #[tool(length(min = 1, max = 32))]
    name: String,
    /// Weight of the node
    #[serde(default)]
    #[tool(range(min = 0, max = 1000))]
    weight: i32,
    /// Children
    #[serde(default)]
    #[tool(length(max = 8))]
    children: Vec<Node>,
}

/// `Options::typed()` with a limit that changes nothing for inputs of at most 4 KiB but makes
/// `decode_with` skip the serde fast path, so every input goes through the one-pass decoder.
fn decoder_only() -> Options {
    let mut options = Options::typed();
    options.max_bytes += 1;
    options
}

fn check<T>(data: &[u8])
where
    T: Tool + DeserializeOwned + Serialize + PartialEq + Debug,
{
    let result = T::decode_bytes(data);
    // Differential: the fast path (serde + validate, for plain tools) must give what the
    // decoder gives (`Tool::decode_with`'s documented promise).
    if data.len() <= Options::typed().max_bytes {
        let slow = T::decode_with(data, &decoder_only());
        assert!(
            result == slow,
            "{}: the fast path and the decoder disagree on {:?}\nfast:    {:?}\ndecoder: {:?}",
            T::name(),
            String::from_utf8_lossy(data),
            result,
            slow
        );
    }
    match result {
        Ok(decoded) => {
            if let Err(report) = decoded.value.validate() {
                panic!(
                    "{}: decoded value fails validate(): {report}\nvalue: {:?}",
                    T::name(),
                    decoded.value
                );
            }
            let encoded = serde_json::to_vec(&decoded.value).expect("serialize");
            match T::decode_bytes(&encoded) {
                Ok(again) => {
                    assert_eq!(
                        again.value,
                        decoded.value,
                        "{}: re-decoding {} gives another value",
                        T::name(),
                        String::from_utf8_lossy(&encoded)
                    );
                    check_only_default_repairs(&again.repairs, &encoded);
                }
                Err(rejected) => panic!(
                    "{}: re-encoded value is refused: {}\nencoded: {}",
                    T::name(),
                    rejected.report,
                    String::from_utf8_lossy(&encoded)
                ),
            }
        }
        Err(rejected) => check_rejected(&rejected, data),
    }
}

fuzz_target!(|data: &[u8]| {
    check::<BookFlight>(data);
    check::<Organize>(data);
});

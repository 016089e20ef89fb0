//! A `book_flight` toolbox and arguments for it: valid, repairable and refused.

#![allow(dead_code)] // Not every suite uses each.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::json;
use toolgate::boundary::Toolbox;
use toolgate_tests::fixtures::flight::BookFlight;

pub const VALID: &str = r#"{"origin": "CDG", "destination": "JFK", "date": "2026-12-01", "passengers": 2,
    "cabin": "business", "max_price": 900, "refundable": false, "loyalty_ids": [],
    "contact": {"email": "ada@example.com"}}"#;

/// `VALID` with numbers and an enum a model often gets slightly wrong.
pub const REPAIRABLE: &str = r#"{"origin": "CDG", "destination": "JFK", "date": "2026-12-01", "passengers": "2",
    "cabin": "Business", "max_price": 900, "refundable": "false", "loyalty_ids": "[]",
    "contact": {"email": "ada@example.com"}}"#;

pub const REFUSED: &str = r#"{"origin": "Paris", "destination": "JFK", "date": "2026-12-01", "passengers": 12,
    "cabin": "business", "max_price": 900, "refundable": false, "loyalty_ids": []}"#;

/// A toolbox with `book_flight`, whose handler counts the calls that reach it.
pub fn flights() -> (Toolbox, Arc<AtomicUsize>) {
    let reached = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&reached);
    let mut toolbox = Toolbox::new();
    toolbox
        .add_tool(move |flight: BookFlight| {
            counter.fetch_add(1, Ordering::SeqCst);
            async move {
                if flight.destination == "XXX" {
                    return Err("no flights to XXX this winter".to_owned());
                }
                Ok(json!({"booking": "BK-1", "passengers": flight.passengers}))
            }
        })
        .unwrap();
    (toolbox, reached)
}

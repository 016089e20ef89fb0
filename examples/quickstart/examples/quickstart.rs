//! toolgate in one page: two tools from their Rust types, their JSON Schemas, good and bad
//! values, every issue as data, and the capped retry hint a model reads.
//!
//! Run it with `cargo run --example quickstart`.

use toolgate::hint::HintReason;
use toolgate::{RetryHint, Tool};

/// Current weather at a place.
#[derive(Tool, Debug)]
struct GetWeather {
    /// Latitude in degrees
    #[tool(range(min = -90.0, max = 90.0))]
    lat: f64,
    /// Longitude in degrees
    #[tool(range(min = -180.0, max = 180.0))]
    lon: f64,
    /// Unit system of the answer
    units: Option<Units>,
}

/// Unit system
#[derive(Tool, Debug)]
#[serde(rename_all = "snake_case")]
enum Units {
    Metric,
    Imperial,
}

/// Book a flight for one or more passengers.
#[derive(Tool, serde::Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
struct BookFlight {
    /// Airport the flight leaves from (3-letter IATA code)
    #[tool(pattern = "^[A-Z]{3}$")]
    origin: String,
    /// Airport the flight arrives at (3-letter IATA code)
    #[tool(pattern = "^[A-Z]{3}$")]
    destination: String,
    /// Day of departure
    #[tool(format = "date")]
    date: String,
    /// Number of travellers
    #[tool(range(min = 1, max = 9))]
    passengers: u8,
    /// Cabin class
    cabin: Cabin,
    /// How to reach the passenger
    contact: Contact,
    /// Frequent-flyer numbers
    #[tool(length(max = 5), unique, items(length(min = 4, max = 12)))]
    loyalty_ids: Vec<String>,
}

/// Cabin class
#[derive(Tool, serde::Deserialize, Debug, Clone, Copy)]
#[serde(rename_all = "snake_case")]
#[allow(
    dead_code,
    reason = "the model picks the variant; this example only builds one"
)]
enum Cabin {
    Economy,
    PremiumEconomy,
    Business,
    First,
}

/// Contact details
#[derive(Tool, serde::Deserialize, Debug, Clone)]
struct Contact {
    /// Email address of the passenger
    #[tool(format = "email")]
    email: String,
}

fn check<T: Tool + std::fmt::Debug>(label: &str, value: &T) {
    match value.validate() {
        Ok(()) => println!("{label}: ok"),
        Err(report) => {
            println!("{label}: {} issue(s)", report.len());
            for issue in report.issues() {
                println!("  {issue}");
            }
        }
    }
}

fn main() {
    println!("== The tools, as a model sees them (JSON Schema 2020-12)\n");
    println!("{}\n", GetWeather::json_schema());
    println!("{}\n", BookFlight::model().json_schema_pretty());

    println!("== get_weather\n");
    check(
        "Paris",
        &GetWeather {
            lat: 48.85,
            lon: 2.35,
            units: Some(Units::Metric),
        },
    );
    check(
        "latitude 123",
        &GetWeather {
            lat: 123.0,
            lon: 2.35,
            units: Some(Units::Imperial),
        },
    );

    println!("\n== book_flight\n");
    let good = BookFlight {
        origin: "CDG".into(),
        destination: "JFK".into(),
        date: "2026-12-24".into(),
        passengers: 2,
        cabin: Cabin::Business,
        contact: Contact {
            email: "ada@example.com".into(),
        },
        loyalty_ids: vec!["AF123456".into()],
    };
    check("a good booking", &good);

    // Five problems at once: every one is reported, with its path, constraint, expected and got.
    let bad = BookFlight {
        origin: "Paris".into(),
        date: "2026-13-01".into(),
        passengers: 12,
        contact: Contact {
            email: "ada.example.com".into(),
        },
        loyalty_ids: vec!["AF123456".into(), "AF123456".into()],
        ..good.clone()
    };
    let report = bad.validate().expect_err("five problems");
    check("a booking with five problems", &bad);

    println!("\nthe issues as data (what a program reads):");
    println!(
        "{}",
        serde_json::to_string_pretty(&report).expect("issues serialise")
    );

    // The hint a model reads: at most 3 fields, `omitted` counts the rest.
    let hint = RetryHint::build(BookFlight::model(), &report, HintReason::InvalidArguments);
    println!(
        "\nthe retry hint, as JSON for a tool-result message:\n{}",
        hint.to_json()
    );
    println!("\nthe retry hint, as text:\n{hint}");

    println!("\n== decoding what a model sent\n");
    // Lossless mistakes: a fence, a number as a string, the cabin in another case, the
    // loyalty numbers as a JSON-encoded string. Each repair is logged.
    let sent = r#"```json
{"origin": "CDG", "destination": "JFK", "date": "2026-12-24", "passengers": "2",
 "cabin": "Business", "contact": {"email": "ada@example.com"}, "loyalty_ids": "[\"AF123456\"]"}
```"#;
    let decoded = BookFlight::decode(sent).expect("every mistake is lossless");
    println!(
        "decoded: {} passengers in {:?}",
        decoded.value.passengers, decoded.value.cabin
    );
    for repair in &decoded.repairs {
        println!("  repaired {repair}");
    }

    // Real errors are refused, all at once, and the hint goes back to the model.
    let sent = r#"{"origin": "CDG", "date": "2026-12-24", "passengers": 2.5, "cabin": "luxury",
        "contact": {"email": "ada@example.com"}, "loyalty_ids": []}"#;
    let rejected = BookFlight::decode(sent).expect_err("three real errors");
    println!("\nrefused:\n{}", rejected.report);
    println!("\nthe retry hint:\n{}", rejected.hint());
}

//! Typed decoding of one `book_flight` call, side by side: the serde floor, validator, garde,
//! jsonschema and toolgate, on a valid payload (group `V`), a payload with 5 repairable
//! mistakes (group `C`), a payload with 4 real errors (group `I`), the same with a required
//! field left out as well (group `IM`) and one with the 3 errors serde cannot see (group `I3`).
//!
//! Two extra ids: `toolgate_validate` (in `V` and `I3`): serde, then toolgate's typed checks
//! and retry hint, without the repair road: what a serde-first fast path would cost; and
//! `toolgate_lenient` (in `V` and `C`): the same decoding through the serde adapter
//! `Lenient<T>` (`serde_json::from_slice::<Lenient<BookFlight>>`), which frameworks use.
//!
//! Every decoder is a function `&[u8] -> Result<T, String>`: the value, or the refusal
//! rendered as text (the peers' error report, toolgate's retry hint as JSON). So a refusal is
//! timed up to the text that would go back to the model.
//!
//! Run it with `cargo bench -p toolgate-bench --bench decode`, then `python3 benches/ratios.py`
//! for each case's ratio to the floor.

#![allow(
    dead_code,
    reason = "the decoded values are handed to black_box, never read field by field"
)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::Value;
use toolgate::hint::HintReason;
use toolgate::model::Format;
use toolgate::{RetryHint, Tool};
use toolgate_bench::{INVALID, INVALID_CHECKS, INVALID_MISSING, REPAIRABLE, VALID};

use toolgate_bench::plain;

/// validator: serde, then `Validate::validate`. validator has no `date` format: a custom
/// check calls the same date test toolgate uses.
mod with_validator {
    use std::sync::LazyLock;

    use regex::Regex;
    use serde::Deserialize;
    use validator::{Validate, ValidationError};

    use super::plain::Cabin;

    static IATA: LazyLock<Regex> = LazyLock::new(|| Regex::new("^[A-Z]{3}$").unwrap());

    fn is_date(value: &str) -> Result<(), ValidationError> {
        if super::is_date(value) {
            Ok(())
        } else {
            Err(ValidationError::new("date"))
        }
    }

    #[derive(Debug, Deserialize, Validate)]
    pub struct BookFlight {
        #[validate(regex(path = *IATA))]
        pub origin: String,
        #[validate(regex(path = *IATA))]
        pub destination: String,
        #[validate(custom(function = "is_date"))]
        pub date: String,
        #[validate(range(min = 1, max = 9))]
        pub passengers: u8,
        pub cabin: Cabin,
        #[validate(range(exclusive_min = 0.0))]
        pub max_price: f64,
        pub refundable: bool,
        #[validate(length(max = 5))]
        pub loyalty_ids: Vec<String>,
        #[validate(nested)]
        pub contact: Contact,
        pub notes: Option<String>,
    }

    #[derive(Debug, Deserialize, Validate)]
    pub struct Contact {
        #[validate(email)]
        pub email: String,
    }
}

/// garde: serde, then `Validate::validate`. garde has no `date` format and no exclusive
/// bound: custom checks stand in for both.
mod with_garde {
    use garde::Validate;
    use serde::Deserialize;

    use super::plain::Cabin;

    fn is_date(value: &str, _: &()) -> garde::Result {
        if super::is_date(value) {
            Ok(())
        } else {
            Err(garde::Error::new("not a date (YYYY-MM-DD)"))
        }
    }

    fn positive(value: &f64, _: &()) -> garde::Result {
        if *value > 0.0 {
            Ok(())
        } else {
            Err(garde::Error::new("not greater than 0"))
        }
    }

    #[derive(Debug, Deserialize, Validate)]
    pub struct BookFlight {
        #[garde(pattern(r"^[A-Z]{3}$"))]
        pub origin: String,
        #[garde(pattern(r"^[A-Z]{3}$"))]
        pub destination: String,
        #[garde(custom(is_date))]
        pub date: String,
        #[garde(range(min = 1, max = 9))]
        pub passengers: u8,
        #[garde(skip)]
        pub cabin: Cabin,
        #[garde(custom(positive))]
        pub max_price: f64,
        #[garde(skip)]
        pub refundable: bool,
        #[garde(length(max = 5))]
        pub loyalty_ids: Vec<String>,
        #[garde(dive)]
        pub contact: Contact,
        #[garde(skip)]
        pub notes: Option<String>,
    }

    #[derive(Debug, Deserialize, Validate)]
    pub struct Contact {
        #[garde(email)]
        pub email: String,
    }
}

/// toolgate: one derive gives the schema, the checks, the repairs and the retry hint.
use toolgate_bench::flight as with_toolgate;

/// The `date` format test the validator and garde custom checks call: toolgate's own, so
/// the three agree on what a date is and cost the same.
fn is_date(value: &str) -> bool {
    Format::Date.matches(value)
}

fn floor(bytes: &[u8]) -> Result<plain::BookFlight, String> {
    serde_json::from_slice(bytes).map_err(|error| error.to_string())
}

fn validator(bytes: &[u8]) -> Result<with_validator::BookFlight, String> {
    use validator::Validate;
    let value: with_validator::BookFlight =
        serde_json::from_slice(bytes).map_err(|error| error.to_string())?;
    value.validate().map_err(|errors| errors.to_string())?;
    Ok(value)
}

fn garde(bytes: &[u8]) -> Result<with_garde::BookFlight, String> {
    use garde::Validate;
    let value: with_garde::BookFlight =
        serde_json::from_slice(bytes).map_err(|error| error.to_string())?;
    value.validate().map_err(|report| report.to_string())?;
    Ok(value)
}

/// jsonschema against the schema toolgate emits for its type, built once, formats checked.
struct JsonSchema {
    validator: jsonschema::Validator,
}

impl JsonSchema {
    fn new() -> Self {
        let schema: Value = serde_json::from_str(with_toolgate::BookFlight::json_schema())
            .expect("toolgate emits JSON");
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("jsonschema accepts toolgate's schema");
        JsonSchema { validator }
    }

    fn decode(&self, bytes: &[u8]) -> Result<plain::BookFlight, String> {
        let value: Value = serde_json::from_slice(bytes).map_err(|error| error.to_string())?;
        if !self.validator.is_valid(&value) {
            let errors: Vec<String> = self
                .validator
                .iter_errors(&value)
                .map(|error| format!("{}: {error}", error.instance_path()))
                .collect();
            return Err(errors.join("\n"));
        }
        serde_json::from_value(value).map_err(|error| error.to_string())
    }
}

fn toolgate(bytes: &[u8]) -> Result<with_toolgate::BookFlight, String> {
    match with_toolgate::BookFlight::decode_bytes(bytes) {
        Ok(decoded) => Ok(decoded.value),
        Err(rejected) => Err(rejected.hint_json()),
    }
}

/// Not a decoder toolgate offers as one call: serde, then toolgate's typed checks
/// (`Tool::validate`) and, on a refusal, its retry hint. No repairs, so it refuses C; timed
/// in `V` and `I3` only, as the cost of a serde-first fast path in front of the repair road.
fn toolgate_validate(bytes: &[u8]) -> Result<with_toolgate::BookFlight, String> {
    let value: with_toolgate::BookFlight =
        serde_json::from_slice(bytes).map_err(|error| error.to_string())?;
    match value.validate() {
        Ok(()) => Ok(value),
        Err(report) => Err(RetryHint::build_json(
            with_toolgate::BookFlight::model(),
            &report,
            HintReason::InvalidArguments,
        )),
    }
}

/// `Lenient<T>`, the serde adapter: toolgate's decoder inside any serde framework. A refusal
/// is serde's error, whose message is the report.
fn toolgate_lenient(bytes: &[u8]) -> Result<with_toolgate::BookFlight, String> {
    serde_json::from_slice::<toolgate::Lenient<with_toolgate::BookFlight>>(bytes)
        .map(toolgate::Lenient::into_inner)
        .map_err(|error| error.to_string())
}

/// What each decoder makes of each input, printed once before the timings, and checked:
/// a decoder that accepts or refuses the wrong input would make its timing meaningless.
fn sanity(schema: &JsonSchema) {
    fn outcome<T>(result: Result<T, String>) -> String {
        match result {
            Ok(_) => "accepted".to_owned(),
            Err(report) if std::env::var_os("BENCH_SHOW_REPORTS").is_some() => {
                format!("refused:\n{report}")
            }
            Err(report) => {
                let first = report.lines().next().unwrap_or_default();
                let first: String = first.chars().take(80).collect();
                let lines = report.lines().count();
                format!("refused, {lines} line(s), {} bytes: {first}", report.len())
            }
        }
    }
    let inputs = [
        ("V", VALID),
        ("C", REPAIRABLE),
        ("I", INVALID),
        ("IM", INVALID_MISSING),
        ("I3", INVALID_CHECKS),
    ];
    println!("what each decoder makes of each input:");
    for (name, text) in inputs {
        let bytes = text.as_bytes();
        println!("  {name}: serde_floor  {}", outcome(floor(bytes)));
        println!("  {name}: validator    {}", outcome(validator(bytes)));
        println!("  {name}: garde        {}", outcome(garde(bytes)));
        println!("  {name}: jsonschema   {}", outcome(schema.decode(bytes)));
        println!("  {name}: toolgate     {}", outcome(toolgate(bytes)));
        println!(
            "  {name}: toolgate_validate {}",
            outcome(toolgate_validate(bytes))
        );
        println!(
            "  {name}: toolgate_lenient {}",
            outcome(toolgate_lenient(bytes))
        );
    }
    let repaired =
        with_toolgate::BookFlight::decode_bytes(REPAIRABLE.as_bytes()).expect("toolgate repairs C");
    let rules: Vec<&str> = repaired.repairs.iter().map(|r| r.rule.as_str()).collect();
    println!("  C: toolgate repairs {rules:?}");
    let rejected = with_toolgate::BookFlight::decode_bytes(INVALID.as_bytes())
        .expect_err("toolgate refuses I");
    println!(
        "  I: toolgate issues {:?}",
        rejected
            .report
            .issues()
            .iter()
            .map(|issue| issue.path.to_string())
            .collect::<Vec<_>>()
    );

    let v = VALID.as_bytes();
    assert!(floor(v).is_ok() && validator(v).is_ok() && garde(v).is_ok());
    assert!(schema.decode(v).is_ok() && toolgate(v).is_ok() && toolgate_validate(v).is_ok());
    let c = REPAIRABLE.as_bytes();
    assert!(toolgate(c).is_ok() && floor(c).is_err() && schema.decode(c).is_err());
    assert!(toolgate_lenient(v).is_ok() && toolgate_lenient(c).is_ok());
    assert_eq!(repaired.repairs.len(), 5, "C holds 5 repairable mistakes");
    assert_eq!(rejected.report.len(), 4, "I holds 4 real errors");
    let missing = with_toolgate::BookFlight::decode_bytes(INVALID_MISSING.as_bytes())
        .expect_err("toolgate refuses IM");
    assert_eq!(
        missing.report.len(),
        5,
        "IM holds I's 4 errors and a missing field"
    );
    for text in [INVALID, INVALID_MISSING, INVALID_CHECKS] {
        let bytes = text.as_bytes();
        assert!(validator(bytes).is_err() && garde(bytes).is_err());
        assert!(schema.decode(bytes).is_err() && toolgate(bytes).is_err());
        assert!(toolgate_validate(bytes).is_err() && toolgate_lenient(bytes).is_err());
    }
    println!();
}

fn decode(c: &mut Criterion) {
    let schema = JsonSchema::new();
    sanity(&schema);
    let v = VALID.as_bytes();

    let mut group = c.benchmark_group("V");
    group.bench_function("serde_floor", |b| b.iter(|| floor(black_box(v))));
    group.bench_function("validator", |b| b.iter(|| validator(black_box(v))));
    group.bench_function("garde", |b| b.iter(|| garde(black_box(v))));
    group.bench_function("jsonschema", |b| b.iter(|| schema.decode(black_box(v))));
    group.bench_function("toolgate", |b| b.iter(|| toolgate(black_box(v))));
    group.bench_function("toolgate_validate", |b| {
        b.iter(|| toolgate_validate(black_box(v)))
    });
    group.bench_function("toolgate_lenient", |b| {
        b.iter(|| toolgate_lenient(black_box(v)))
    });
    group.finish();

    // Only toolgate accepts C: its floor is serde decoding the valid payload V.
    let repairable = REPAIRABLE.as_bytes();
    let mut group = c.benchmark_group("C");
    group.bench_function("serde_floor", |b| b.iter(|| floor(black_box(v))));
    group.bench_function("toolgate", |b| b.iter(|| toolgate(black_box(repairable))));
    group.bench_function("toolgate_lenient", |b| {
        b.iter(|| toolgate_lenient(black_box(repairable)))
    });
    group.finish();

    for (name, text) in [
        ("I", INVALID),
        ("IM", INVALID_MISSING),
        ("I3", INVALID_CHECKS),
    ] {
        let bytes = text.as_bytes();
        let mut group = c.benchmark_group(name);
        group.bench_function("serde_floor", |b| b.iter(|| floor(black_box(bytes))));
        group.bench_function("validator", |b| b.iter(|| validator(black_box(bytes))));
        group.bench_function("garde", |b| b.iter(|| garde(black_box(bytes))));
        group.bench_function("jsonschema", |b| b.iter(|| schema.decode(black_box(bytes))));
        group.bench_function("toolgate", |b| b.iter(|| toolgate(black_box(bytes))));
        if name == "I3" {
            group.bench_function("toolgate_validate", |b| {
                b.iter(|| toolgate_validate(black_box(bytes)))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, decode);
criterion_main!(benches);

//! Fixture types for toolgate's integration suites. Together they use every field type and
//! every attribute `#[derive(Tool)]` supports; [`catalogue`] gives each tool with values that
//! pass and values that fail.

use serde::Serialize;
use serde_json::Value;
use toolgate::model::ToolModel;
use toolgate::{Constraint, Report, Tool};

pub mod corpus;
pub mod keywords;
pub mod roundtrip;
pub mod tools_dev;

pub mod fixtures {
    //! The fixture types, one file per theme.
    pub mod event;
    pub mod flight;
    pub mod integers;
    pub mod search;
    pub mod tree;
    pub mod weather;
}

use fixtures::event::{CreateEvent, Priority};
use fixtures::flight::{BookFlight, Cabin, Contact};
use fixtures::integers::IntegerWidths;
use fixtures::search::SearchDocs;
use fixtures::tree::{MakeTree, TreeNode};
use fixtures::weather::{GetWeather, Units};

/// The source text of each fixture file, for the expansion goldens.
pub const SOURCES: [(&str, &str); 6] = [
    ("weather", include_str!("fixtures/weather.rs")),
    ("flight", include_str!("fixtures/flight.rs")),
    ("search", include_str!("fixtures/search.rs")),
    ("integers", include_str!("fixtures/integers.rs")),
    ("tree", include_str!("fixtures/tree.rs")),
    ("event", include_str!("fixtures/event.rs")),
];

/// One value of a fixture type, with what serde and toolgate make of it.
pub struct Sample {
    /// What the value shows.
    pub label: &'static str,
    /// `serde_json::to_value` of the value.
    pub serde_json: Value,
    /// `ToolArg::to_json_value` of the value.
    pub tool_json: Value,
    /// `Tool::validate` of the value.
    pub validation: Result<(), Report>,
}

fn sample<T: Tool + Serialize>(label: &'static str, value: T) -> Sample {
    Sample {
        label,
        serde_json: serde_json::to_value(&value).expect("fixtures serialise"),
        tool_json: value.to_json_value(),
        validation: value.validate(),
    }
}

/// A tool with values that pass and values that fail.
pub struct Case {
    /// The Rust type's name.
    pub type_name: &'static str,
    /// Its model.
    pub model: &'static ToolModel,
    /// Values `validate` accepts.
    pub valid: Vec<Sample>,
    /// Values `validate` refuses.
    pub invalid: Vec<Sample>,
}

/// Every cabin class, for strategies that pick one.
pub const CABINS: [Cabin; 4] = [
    Cabin::Economy,
    Cabin::PremiumEconomy,
    Cabin::Business,
    Cabin::First,
];

/// A good flight booking.
pub fn good_flight() -> BookFlight {
    BookFlight {
        origin: "CDG".into(),
        destination: "JFK".into(),
        date: "2026-12-24".into(),
        passengers: 2,
        cabin: Cabin::PremiumEconomy,
        max_price: 950.5,
        refundable: true,
        loyalty_ids: vec!["AF123456".into()],
        contact: Contact {
            email: "ada@example.com".into(),
            phone: Some("+33612345678".into()),
        },
        notes: None,
    }
}

/// A flight booking with five problems.
pub fn bad_flight() -> BookFlight {
    BookFlight {
        origin: "Paris".into(),
        date: "2026-13-01".into(),
        passengers: 12,
        max_price: 0.0,
        contact: Contact {
            email: "ada.example.com".into(),
            phone: None,
        },
        ..good_flight()
    }
}

fn good_search() -> SearchDocs {
    SearchDocs {
        query_text: "retry hints".into(),
        max_results: 10,
        tags: vec!["guide".into(), "v2".into()],
        filters: [("lang".to_owned(), "en".to_owned())].into(),
        section_weights: [("title".to_owned(), 2.5)].into(),
        backend_options: serde_json::json!({"fuzzy": true}),
        threshold: 0.35,
    }
}

fn good_integers() -> IntegerWidths {
    IntegerWidths {
        tiny: -128,
        small: 32767,
        medium: -45,
        large: i64::MIN,
        huge: 170_141_183_460_469_231,
        signed_size: -1,
        byte: 255,
        port_offset: 999,
        count: u32::MAX,
        id: u64::MAX,
        wide: 1 << 60,
        size: 64,
        ratios: vec![0.0, 0.25, 1.0],
    }
}

fn leaf(name: &str) -> TreeNode {
    TreeNode {
        name: name.into(),
        children: Vec::new(),
        link: None,
    }
}

fn good_tree() -> MakeTree {
    MakeTree {
        root: Box::new(TreeNode {
            name: "src".into(),
            children: vec![leaf("bin"), leaf("lib")],
            link: Some(Box::new(leaf("shared"))),
        }),
    }
}

/// Every fixture tool with its samples.
pub fn catalogue() -> Vec<Case> {
    vec![
        Case {
            type_name: "GetWeather",
            model: GetWeather::model(),
            valid: vec![
                sample(
                    "paris",
                    GetWeather {
                        lat: 48.85,
                        lon: 2.35,
                        units: Some(Units::Metric),
                    },
                ),
                sample(
                    "edges",
                    GetWeather {
                        lat: -90.0,
                        lon: 180.0,
                        units: None,
                    },
                ),
            ],
            invalid: vec![
                sample(
                    "lat too high",
                    GetWeather {
                        lat: 123.0,
                        lon: 2.35,
                        units: None,
                    },
                ),
                sample(
                    "both out",
                    GetWeather {
                        lat: -91.0,
                        lon: -180.5,
                        units: Some(Units::Imperial),
                    },
                ),
            ],
        },
        Case {
            type_name: "BookFlight",
            model: BookFlight::model(),
            valid: vec![
                sample("full", good_flight()),
                sample(
                    "minimal",
                    BookFlight {
                        loyalty_ids: vec![],
                        cabin: Cabin::First,
                        notes: Some("window seat".into()),
                        ..good_flight()
                    },
                ),
            ],
            invalid: vec![
                sample("five problems", bad_flight()),
                sample(
                    "ids",
                    BookFlight {
                        loyalty_ids: vec![
                            "AF1".into(),
                            "AF123456".into(),
                            "AF123456".into(),
                            "B".into(),
                            "C".into(),
                            "D".into(),
                        ],
                        ..good_flight()
                    },
                ),
                sample(
                    "lowercase code and long notes",
                    BookFlight {
                        destination: "jfk".into(),
                        notes: Some("x".repeat(501)),
                        ..good_flight()
                    },
                ),
            ],
        },
        Case {
            type_name: "Contact",
            model: Contact::model(),
            valid: vec![sample(
                "email only",
                Contact {
                    email: "a@b.co".into(),
                    phone: None,
                },
            )],
            invalid: vec![sample(
                "bad phone",
                Contact {
                    email: "a@b.co".into(),
                    phone: Some("0612".into()),
                },
            )],
        },
        Case {
            type_name: "SearchDocs",
            model: SearchDocs::model(),
            valid: vec![
                sample("full", good_search()),
                sample(
                    "empty extras",
                    SearchDocs {
                        tags: vec![],
                        filters: Default::default(),
                        section_weights: Default::default(),
                        backend_options: Value::Null,
                        ..good_search()
                    },
                ),
            ],
            invalid: vec![
                sample(
                    "empty query, bad tag",
                    SearchDocs {
                        query_text: String::new(),
                        tags: vec!["Guide".into(), "v2".into(), "v2".into()],
                        ..good_search()
                    },
                ),
                sample(
                    "limits",
                    SearchDocs {
                        max_results: 0,
                        threshold: 0.33,
                        ..good_search()
                    },
                ),
            ],
        },
        Case {
            type_name: "IntegerWidths",
            model: IntegerWidths::model(),
            valid: vec![sample("extremes", good_integers())],
            invalid: vec![sample(
                "bounds",
                IntegerWidths {
                    medium: 7,
                    port_offset: 1000,
                    size: 65,
                    ratios: vec![0.5, 1.5, -0.25],
                    ..good_integers()
                },
            )],
        },
        Case {
            type_name: "MakeTree",
            model: MakeTree::model(),
            valid: vec![sample("small tree", good_tree())],
            invalid: vec![sample(
                "bad names deep down",
                MakeTree {
                    root: Box::new(TreeNode {
                        name: "src".into(),
                        children: vec![
                            leaf("ok"),
                            TreeNode {
                                name: String::new(),
                                children: vec![leaf("a/b")],
                                link: None,
                            },
                        ],
                        link: Some(Box::new(leaf(&"n".repeat(65)))),
                    }),
                },
            )],
        },
        Case {
            type_name: "CreateEvent",
            model: CreateEvent::model(),
            valid: vec![
                sample("defaults", CreateEvent::default()),
                sample(
                    "urgent",
                    CreateEvent {
                        r#type: Priority::Urgent,
                        reminders: vec![None, Some(240)],
                        ..CreateEvent::default()
                    },
                ),
            ],
            invalid: vec![sample(
                "every format wrong",
                CreateEvent {
                    title: String::new(),
                    starts_at: "2026-11-22 14:30".into(),
                    remind_at: "25:00:00Z".into(),
                    url: "meet.example.com".into(),
                    calendar_id: "1234".into(),
                    server_v4: "256.1.1.1".into(),
                    server_v6: "::g".into(),
                    server_name: "-bad-.example".into(),
                    r#type: Priority::Internal,
                    reminders: vec![Some(300), None, Some(5), Some(1)],
                    revision: 7,
                },
            )],
        },
    ]
}

/// Each issue of `report` as (path, constraint), in report order: what suites compare.
pub fn issue_list(report: &Report) -> Vec<(String, Constraint)> {
    report
        .issues()
        .iter()
        .map(|issue| (issue.path.to_string(), issue.constraint))
        .collect()
}

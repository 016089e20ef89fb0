//! Issue 27 §1, property: an integer is taken from the digits sent, never through a float.
//!
//! Random integers across the edges of every width (2^53, 2^63, 2^64, 2^127, each ± a few,
//! both signs, and anywhere in `i128`), written in every integral form (`n`, `n.0`,
//! `n.000`, `ne0`, `n0e-1`, a shifted mantissa with `e+k` or `E`, `0.ne+k`, and a string
//! holding each), placed in every container (a field of each width, an array item, a bare
//! value wrapped into an array, an array sent as a JSON string, a map value, a tuple
//! element, an integer `enum`, an integer `const`) and text wrapper (plain, fenced, Python,
//! double-encoded), through both roads (the derived type's `Tool::decode` and a
//! `DynamicTool` over the type's JSON Schema; for strings holding a number, also
//! `decode_value`): the decoded integer equals the digits exactly, or the arguments are
//! refused with the type's range (`minimum`, `maximum`), `limit` (an integer a JSON value
//! cannot carry, beyond `i64::MIN..=u64::MAX`), or the `enum`/`const` issue.

use std::collections::BTreeMap;

use proptest::prelude::*;
use serde::Deserialize;
use serde_json::Value;
use toolgate::model::ToolModel;
use toolgate::{DynamicTool, Rejected, Tool};

const POW53: i128 = 1 << 53;
/// The integer `enum` of the `picked` field, and the `const` of the `fixed` and `low` fields.
const PICKED: [i128; 3] = [
    9_007_199_254_740_993,
    9_223_372_036_854_775_808,
    u64::MAX as i128,
];
const FIXED: i128 = 9_007_199_254_740_993;
const LOW: i128 = i64::MIN as i128;

/// Every width, and every container, of integers.
#[derive(Tool, Deserialize, Debug)]
#[tool(name = "integers")]
struct Integers {
    #[serde(default)]
    s8: Option<i8>,
    #[serde(default)]
    s16: Option<i16>,
    #[serde(default)]
    s32: Option<i32>,
    #[serde(default)]
    s64: Option<i64>,
    #[serde(default)]
    s128: Option<i128>,
    #[serde(default)]
    n8: Option<u8>,
    #[serde(default)]
    n16: Option<u16>,
    #[serde(default)]
    n32: Option<u32>,
    #[serde(default)]
    n64: Option<u64>,
    #[serde(default)]
    n128: Option<u128>,
    #[serde(default)]
    size: Option<usize>,
    #[serde(default)]
    list: Option<Vec<i64>>,
    #[serde(default)]
    map: Option<BTreeMap<String, u64>>,
    #[serde(default)]
    pair: Option<(i8, u128)>,
    #[serde(default)]
    #[tool(enum_values = [9007199254740993, 9223372036854775808, 18446744073709551615])]
    picked: Option<u64>,
    #[serde(default)]
    #[tool(constant = 9007199254740993)]
    fixed: Option<i64>,
    #[serde(default)]
    #[tool(constant = -9223372036854775808)]
    low: Option<i64>,
}

/// Where the number goes.
#[derive(Clone, Copy, Debug)]
enum Place {
    /// A field of one width: its key and range.
    Field(&'static str, i128, i128),
    /// The second item of `list`.
    Item,
    /// `list` sent as the bare number (`wrap_in_array`).
    Wrapped,
    /// `list` sent as a string holding the array (`json_string`).
    ListAsString,
    /// The value of `map`'s key `k`.
    MapValue,
    /// The second element of `pair`.
    TupleElement,
    /// The integer `enum` field `picked`.
    Enum,
    /// An integer `const` field: `fixed` or `low`.
    Const(&'static str, i128),
}

fn places() -> impl Strategy<Value = Place> {
    let field = |key, low: i128, high: i128| Just(Place::Field(key, low, high));
    prop_oneof![
        field("s8", i8::MIN.into(), i8::MAX.into()),
        field("s16", i16::MIN.into(), i16::MAX.into()),
        field("s32", i32::MIN.into(), i32::MAX.into()),
        field("s64", i64::MIN.into(), i64::MAX.into()),
        field("s128", i128::MIN, i128::MAX),
        field("n8", 0, u8::MAX.into()),
        field("n16", 0, u16::MAX.into()),
        field("n32", 0, u32::MAX.into()),
        field("n64", 0, u64::MAX.into()),
        field("n128", 0, i128::MAX),
        field("size", 0, u64::MAX.into()),
        Just(Place::Item),
        Just(Place::Wrapped),
        Just(Place::ListAsString),
        Just(Place::MapValue),
        Just(Place::TupleElement),
        Just(Place::Enum),
        Just(Place::Const("fixed", FIXED)),
        Just(Place::Const("low", LOW)),
    ]
}

/// Integers at the edges of every width, and anywhere.
fn integers() -> impl Strategy<Value = i128> {
    let edges = prop_oneof![
        Just(0i128),
        Just(POW53),
        Just(1i128 << 63),
        Just(1i128 << 64),
        Just(i128::MAX),
        Just(i128::MIN),
        Just(i128::from(u8::MAX)),
        Just(i128::from(i32::MAX)),
    ];
    prop_oneof![
        (edges, -3i128..=3, any::<bool>()).prop_map(|(edge, k, negative)| {
            let near = edge.saturating_add(k);
            if negative {
                near.saturating_neg()
            } else {
                near
            }
        }),
        any::<i64>().prop_map(i128::from),
        any::<u64>().prop_map(i128::from),
        any::<i128>(),
        prop::sample::select(PICKED.to_vec()),
    ]
}

/// How the integer is written.
#[derive(Clone, Copy, Debug)]
enum Form {
    Plain,
    DotZero,
    DotZeros,
    ExpZero,
    ShiftedDown,
    Mantissa { upper: bool, trailing: bool },
    LeadingFraction,
}

fn forms() -> impl Strategy<Value = Form> {
    prop_oneof![
        Just(Form::Plain),
        Just(Form::DotZero),
        Just(Form::DotZeros),
        Just(Form::ExpZero),
        Just(Form::ShiftedDown),
        (any::<bool>(), any::<bool>())
            .prop_map(|(upper, trailing)| Form::Mantissa { upper, trailing }),
        Just(Form::LeadingFraction),
    ]
}

/// `n` written in `form`: always JSON number syntax.
fn written(n: i128, form: Form) -> String {
    let sign = if n < 0 { "-" } else { "" };
    let digits = n.unsigned_abs().to_string();
    let body = match form {
        Form::Plain => digits,
        Form::DotZero => format!("{digits}.0"),
        Form::DotZeros => format!("{digits}.000"),
        Form::ExpZero => format!("{digits}e0"),
        Form::ShiftedDown if digits == "0" => "0e-1".to_owned(),
        Form::ShiftedDown => format!("{digits}0e-1"),
        Form::Mantissa { upper, trailing } => {
            let (first, rest) = digits.split_at(1);
            let rest = if rest.is_empty() { "0" } else { rest };
            let zeros = if trailing { "000" } else { "" };
            let e = if upper { "E" } else { "e" };
            format!("{first}.{rest}{zeros}{e}+{}", digits.len() - 1)
        }
        Form::LeadingFraction => format!("0.{digits}e{}", digits.len()),
    };
    format!("{sign}{body}")
}

/// How the whole arguments are sent.
#[derive(Clone, Copy, Debug)]
enum Wrapper {
    Plain,
    Fenced,
    Python,
    DoubleEncoded,
}

fn wrappers() -> impl Strategy<Value = Wrapper> {
    prop_oneof![
        Just(Wrapper::Plain),
        Just(Wrapper::Fenced),
        Just(Wrapper::Python),
        Just(Wrapper::DoubleEncoded),
    ]
}

/// The arguments' JSON with `number` (JSON text: a number, or a string holding one) at
/// `place`.
fn arguments(place: Place, number: &str) -> String {
    match place {
        Place::Field(key, ..) | Place::Const(key, _) => format!(r#"{{"{key}": {number}}}"#),
        Place::Item => format!(r#"{{"list": [1, {number}]}}"#),
        Place::Wrapped => format!(r#"{{"list": {number}}}"#),
        Place::ListAsString => {
            let inner = Value::String(format!("[1, {number}]"));
            format!(r#"{{"list": {inner}}}"#)
        }
        Place::MapValue => format!(r#"{{"map": {{"k": {number}}}}}"#),
        Place::TupleElement => format!(r#"{{"pair": [-1, {number}]}}"#),
        Place::Enum => format!(r#"{{"picked": {number}}}"#),
    }
}

fn wrap(wrapper: Wrapper, json: &str) -> String {
    match wrapper {
        Wrapper::Plain => json.to_owned(),
        Wrapper::Fenced => format!("Here are the arguments:\n```json\n{json}\n```\n"),
        // Python's quotes; a string holding JSON text keeps its escaped double quotes.
        Wrapper::Python => json
            .replace("\\\"", "\u{1}")
            .replace('"', "'")
            .replace('\u{1}', "\\\""),
        Wrapper::DoubleEncoded => Value::String(json.to_owned()).to_string(),
    }
}

/// What must happen to `n` at `place`: accepted as `n`, or refused with one of these issues.
enum Outcome {
    Accepted,
    Refused(&'static [&'static str]),
}

/// The integers a JSON value carries.
const CARRIED: (i128, i128) = (i64::MIN as i128, u64::MAX as i128);
const RANGE: &[&str] = &["minimum", "maximum", "limit"];

fn outcome(place: Place, n: i128) -> Outcome {
    let within = |low: i128, high: i128| (low.max(CARRIED.0)..=high.min(CARRIED.1)).contains(&n);
    let ranged = |low, high| {
        if within(low, high) {
            Outcome::Accepted
        } else {
            Outcome::Refused(RANGE)
        }
    };
    match place {
        Place::Field(_, low, high) => ranged(low, high),
        Place::Item | Place::ListAsString => ranged(i64::MIN.into(), i64::MAX.into()),
        // A bare value the array's item refuses is not wrapped: the array's `type` issue (or,
        // for an integer written as one beyond what a `Value` carries, a `limit` issue
        // before any wrapping: issue 43 §4).
        Place::Wrapped => match ranged(i64::MIN.into(), i64::MAX.into()) {
            Outcome::Accepted => Outcome::Accepted,
            Outcome::Refused(_) => Outcome::Refused(&["type", "limit"]),
        },
        Place::MapValue => ranged(0, u64::MAX.into()),
        Place::TupleElement => ranged(0, i128::MAX),
        Place::Enum if PICKED.contains(&n) => Outcome::Accepted,
        // (An integer written as one beyond what a `Value` carries: `limit`, issue 43 §4.)
        Place::Enum => Outcome::Refused(&["enum", "limit"]),
        Place::Const(_, constant) if n == constant => Outcome::Accepted,
        Place::Const(..) => Outcome::Refused(&["const"]),
    }
}

/// The integer decoded at `place` of the run-time road's value.
fn from_value(place: Place, value: &Value) -> Option<i128> {
    let at = match place {
        Place::Field(key, ..) | Place::Const(key, _) => &value[key],
        Place::Item | Place::ListAsString => &value["list"][1],
        Place::Wrapped => &value["list"][0],
        Place::MapValue => &value["map"]["k"],
        Place::TupleElement => &value["pair"][1],
        Place::Enum => &value["picked"],
    };
    let number = at.as_number()?;
    number
        .as_i64()
        .map(i128::from)
        .or(number.as_u64().map(i128::from))
}

/// The integer decoded at `place` of the typed road's value.
fn from_typed(place: Place, value: &Integers) -> Option<i128> {
    match place {
        Place::Field(key, ..) => match key {
            "s8" => value.s8.map(i128::from),
            "s16" => value.s16.map(i128::from),
            "s32" => value.s32.map(i128::from),
            "s64" => value.s64.map(i128::from),
            "s128" => value.s128,
            "n8" => value.n8.map(i128::from),
            "n16" => value.n16.map(i128::from),
            "n32" => value.n32.map(i128::from),
            "n64" => value.n64.map(i128::from),
            "n128" => value.n128.and_then(|n| i128::try_from(n).ok()),
            _ => value.size.and_then(|n| i128::try_from(n).ok()),
        },
        Place::Item | Place::ListAsString => value.list.as_ref()?.get(1).copied().map(i128::from),
        Place::Wrapped => value.list.as_ref()?.first().copied().map(i128::from),
        Place::MapValue => value.map.as_ref()?.get("k").copied().map(i128::from),
        Place::TupleElement => value.pair.and_then(|(_, n)| i128::try_from(n).ok()),
        Place::Enum => value.picked.map(i128::from),
        Place::Const("fixed", _) => value.fixed.map(i128::from),
        Place::Const(..) => value.low.map(i128::from),
    }
}

fn dynamic() -> DynamicTool {
    DynamicTool::from_model(ToolModel::from_json_schema(Integers::json_schema()).unwrap())
}

/// The refusal's first issue is one of `allowed`, at the place's key.
fn check_refused(
    rejected: &Rejected,
    allowed: &[&str],
    key: &str,
    road: &str,
) -> Result<(), TestCaseError> {
    let first = rejected.report.issues().first();
    let constraint = first.map(|issue| issue.constraint.as_str());
    prop_assert!(
        constraint.is_some_and(|c| allowed.contains(&c)),
        "{road}: refused with {:?}, expected one of {allowed:?}:\n{}",
        constraint,
        rejected.report
    );
    let path = first
        .map(|issue| issue.path.to_string())
        .unwrap_or_default();
    prop_assert!(
        path.starts_with(key),
        "{road}: issue at {path}, not under {key}"
    );
    Ok(())
}

fn key_of(place: Place) -> &'static str {
    match place {
        Place::Field(key, ..) | Place::Const(key, _) => key,
        Place::Item | Place::Wrapped | Place::ListAsString => "list",
        Place::MapValue => "map",
        Place::TupleElement => "pair",
        Place::Enum => "picked",
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn integers_are_the_digits_sent_or_refused(
        n in integers(),
        form in forms(),
        in_string in any::<bool>(),
        place in places(),
        wrapper in wrappers(),
    ) {
        let number = written(n, form);
        let sent = if in_string { format!("\"{number}\"") } else { number.clone() };
        let json = arguments(place, &sent);
        let text = wrap(wrapper, &json);
        let run_time = dynamic();
        let want = outcome(place, n);
        let key = key_of(place);
        let mut roads: Vec<(&str, Result<Option<i128>, Rejected>)> = vec![
            ("typed", Integers::decode(&text).map(|d| from_typed(place, &d.value))),
            ("run-time", run_time.decode(&text).map(|d| from_value(place, &d.value))),
        ];
        if in_string && matches!(wrapper, Wrapper::Plain) {
            let value: Value = serde_json::from_str(&json).unwrap();
            roads.push(("typed value", Integers::decode_value(&value).map(|d| from_typed(place, &d.value))));
            roads.push(("run-time value", run_time.decode_value(&value).map(|d| from_value(place, &d.value))));
        }
        for (road, answer) in roads {
            match (&want, answer) {
                (Outcome::Accepted, Ok(got)) => {
                    prop_assert_eq!(got, Some(n), "{} road, {}", road, text);
                }
                (Outcome::Accepted, Err(rejected)) => {
                    prop_assert!(false, "{road} road refused {text}:\n{}", rejected.report);
                }
                (Outcome::Refused(_), Ok(got)) => {
                    prop_assert!(false, "{road} road accepted {text} as {got:?}");
                }
                (Outcome::Refused(allowed), Err(rejected)) => {
                    check_refused(&rejected, allowed, key, road)?;
                }
            }
        }
    }
}

#[test]
fn the_reproduction_on_both_roads() {
    let text = r#"{"s64": 9007199254740993.0, "list": [9007199254740993.0], "map": {"k": "9.007199254740993e15"}}"#;
    let typed = Integers::decode(text).unwrap().value;
    assert_eq!(typed.s64, Some(9_007_199_254_740_993));
    assert_eq!(typed.list, Some(vec![9_007_199_254_740_993]));
    assert_eq!(typed.map.unwrap()["k"], 9_007_199_254_740_993);
    let value = dynamic().decode(text).unwrap().value;
    assert_eq!(value["s64"], 9_007_199_254_740_993u64);
    assert_eq!(value["list"][0], 9_007_199_254_740_993u64);
    assert_eq!(value["map"]["k"], 9_007_199_254_740_993u64);
}

#[test]
fn wide_types_refuse_what_a_json_value_cannot_carry() {
    // A `u128` or `i128` field takes the integers a `serde_json::Value` holds; beyond
    // them the arguments are refused with a `limit` issue, never rounded.
    for (text, bound) in [
        (r#"{"n128": 18446744073709551616}"#, "limit"),
        (r#"{"n128": 18446744073709551616.0}"#, "limit"),
        (r#"{"s128": -9223372036854775809}"#, "limit"),
        (r#"{"s128": "-9.223372036854775809e18"}"#, "limit"),
    ] {
        for rejected in [
            Integers::decode(text).unwrap_err(),
            dynamic().decode(text).unwrap_err(),
        ] {
            assert_eq!(
                rejected.report.issues()[0].constraint.as_str(),
                bound,
                "{text}"
            );
        }
    }
    let typed = Integers::decode(r#"{"n128": 1.8446744073709551615e19}"#)
        .unwrap()
        .value;
    assert_eq!(typed.n128, Some(u128::from(u64::MAX)));
}

/// The integer keyword of the schema that holds `n` in `form`.
#[derive(Clone, Copy, Debug)]
enum Keyword {
    Default,
    Const,
    Enum,
    Maximum,
}

fn keywords() -> impl Strategy<Value = Keyword> {
    prop_oneof![
        Just(Keyword::Default),
        Just(Keyword::Const),
        Just(Keyword::Enum),
        Just(Keyword::Maximum),
    ]
}

fn integer_field(keyword: Keyword, number: &str) -> DynamicTool {
    let field = match keyword {
        Keyword::Default => format!(r#"{{"type": "integer", "default": {number}}}"#),
        Keyword::Const => format!(r#"{{"type": "integer", "const": {number}}}"#),
        Keyword::Enum => format!(r#"{{"type": "integer", "enum": [{number}]}}"#),
        Keyword::Maximum => format!(r#"{{"type": "integer", "maximum": {number}}}"#),
    };
    let schema = format!(r#"{{"title": "t", "type": "object", "properties": {{"x": {field}}}}}"#);
    DynamicTool::from_model(ToolModel::from_json_schema(&schema).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// The schema's own integers (`default`, `const`, `enum`, `maximum`) written with a
    /// fraction or an exponent are the integers their digits say: a default is handed on
    /// as that integer, and `n` itself (sent as an integer) is accepted by `const`, `enum`
    /// and `maximum` while `n + 1` is refused.
    #[test]
    fn schema_integers_are_their_digits(
        n in integers().prop_filter("carried", |n| (CARRIED.0..CARRIED.1).contains(n)),
        form in forms(),
        keyword in keywords(),
    ) {
        let tool = integer_field(keyword, &written(n, form));
        match keyword {
            Keyword::Default => {
                let value = tool.decode("{}").unwrap().value;
                prop_assert_eq!(from_value(Place::Field("x", 0, 0), &value), Some(n));
            }
            _ => {
                let value = tool.decode(&format!(r#"{{"x": {n}}}"#)).unwrap().value;
                prop_assert_eq!(from_value(Place::Field("x", 0, 0), &value), Some(n));
                let above = tool.decode(&format!(r#"{{"x": {}}}"#, n + 1));
                prop_assert!(above.is_err(), "{:?} {} accepted {}", keyword, written(n, form), n + 1);
            }
        }
    }
}

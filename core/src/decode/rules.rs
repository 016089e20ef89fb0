//! The repair rules ([`Rule`]), the log entry of a repair made ([`Repair`]), and the
//! [`Options`] a decoding runs with: which rules are on, the limits, and what becomes of
//! undeclared keys.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::MAX_DEPTH;
use crate::{Path, Report};

/// A repair rule, by its stable snake_case id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// `"35.6"`, `" 42 "`, `"1e3"` for a number; integral values only for an integer.
    StringToNumber,
    /// `5.0` for an integer.
    FloatToInteger,
    /// `"true"`, `"yes"`, `"on"`, `"1"`, `"t"`, `"y"` (any case) and their opposites for a bool.
    StringToBool,
    /// `0` or `1` for a bool.
    NumberToBool,
    /// A number or bool where a string is expected: its JSON text, a number as it was sent
    /// (`1e3` is `"1e3"`, `5.00` is `"5.00"`; a number given as a `serde_json::Value` has
    /// only serde_json's spelling). A number whose digits a float cannot hold is refused.
    ScalarToString,
    /// A string holding a JSON array or object where one is expected.
    JsonString,
    /// One item where an array of such items is expected.
    WrapInArray,
    /// An enum value in another case or with other separators, or a declared alias.
    EnumCase,
    /// `null` for an optional field: the field is absent.
    NullAsAbsent,
    /// An unknown key equal to one declared key under case and separator folding.
    KeyCase,
    /// The whole arguments sent as a JSON string of an object.
    DoubleEncoded,
    /// Text that is not strict JSON but means one JSON value.
    JsonText,
    /// An absent optional field gets its declared default.
    Default,
    /// A typed tool drops a key its type does not declare.
    DropUnknownKey,
}

impl Rule {
    /// Every rule.
    pub const ALL: [Rule; 14] = [
        Rule::StringToNumber,
        Rule::FloatToInteger,
        Rule::StringToBool,
        Rule::NumberToBool,
        Rule::ScalarToString,
        Rule::JsonString,
        Rule::WrapInArray,
        Rule::EnumCase,
        Rule::NullAsAbsent,
        Rule::KeyCase,
        Rule::DoubleEncoded,
        Rule::JsonText,
        Rule::Default,
        Rule::DropUnknownKey,
    ];

    /// The stable id.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::StringToNumber => "string_to_number",
            Rule::FloatToInteger => "float_to_integer",
            Rule::StringToBool => "string_to_bool",
            Rule::NumberToBool => "number_to_bool",
            Rule::ScalarToString => "scalar_to_string",
            Rule::JsonString => "json_string",
            Rule::WrapInArray => "wrap_in_array",
            Rule::EnumCase => "enum_case",
            Rule::NullAsAbsent => "null_as_absent",
            Rule::KeyCase => "key_case",
            Rule::DoubleEncoded => "double_encoded",
            Rule::JsonText => "json_text",
            Rule::Default => "default",
            Rule::DropUnknownKey => "drop_unknown_key",
        }
    }

    /// Whether the rule changes what the call sent: every rule but `default`. A default
    /// fills in what the call left out from the schema's own annotation, so a call whose
    /// log holds only defaults is valid as sent, not repaired: the log keeps the entry, and
    /// every place that tells a repaired call from a valid one asks this.
    ///
    /// ```
    /// use toolgate_core::Rule;
    ///
    /// assert!(Rule::StringToNumber.is_repair());
    /// assert!(!Rule::Default.is_repair());
    /// ```
    pub fn is_repair(self) -> bool {
        self != Rule::Default
    }

    fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Most repairs a decoding logs: the first ones, in document order; the rest are only
/// counted (`repairs_left_out` of [`Decoded`](super::Decoded) and [`Rejected`](super::Rejected)), as issues past their cap
/// ([`Report::DEFAULT_CAP`](crate::Report::DEFAULT_CAP), the same hundred) are. With each repair at most
/// [`crate::issue::REPAIR_MAX_BYTES`] of JSON, a repair log does not grow with the arguments
/// past this count: an argument of 100,000 items each repaired logs the first 100 and
/// counts 99,900. Every repair is still made; only its log entry is left out.
pub const MAX_REPAIRS: usize = 100;

/// Keeps the first [`MAX_REPAIRS`] repairs of a finished decoding; how many it left out.
pub(crate) fn cap_repairs(repairs: &mut Vec<Repair>) -> usize {
    let left_out = repairs.len().saturating_sub(MAX_REPAIRS);
    repairs.truncate(MAX_REPAIRS);
    left_out
}

/// One repair: where, by which rule, from what to what.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Repair {
    /// Where the repaired value is (keys shortened as an issue's are, and written as
    /// [`Path::shown`] writes it).
    #[serde(serialize_with = "crate::path::serialize_shown")]
    pub path: Path,
    /// The rule applied.
    pub rule: Rule,
    /// The value as sent (shortened when long); `null` for a filled-in default.
    pub from: Value,
    /// The value as repaired (shortened when long).
    pub to: Value,
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_root() {
            "(arguments)".to_owned()
        } else {
            self.path.shown().to_string()
        };
        write!(f, "{path}: {} {} -> {}", self.rule, self.from, self.to)
    }
}

/// What to do with keys an object does not declare, where its schema allows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownKeys {
    /// Keep them as they are (dynamic tools).
    Keep,
    /// Drop them with a `drop_unknown_key` log entry (typed tools).
    Drop,
}

/// What to do with an undeclared key that is a near miss of a declared field the call left
/// out, where its object takes undeclared keys (see [`crate::decode`], 'near misses').
///
/// ```
/// use toolgate_core::decode::{decode_text, NearMisses, Options};
/// use toolgate_core::model::ToolModel;
///
/// let model = ToolModel::from_json_schema(r#"{"title": "search", "type": "object",
///     "properties": {"query": {"type": "string"},
///                    "labels": {"type": "array", "items": {"type": "string"}}}}"#).unwrap();
/// let call = br#"{"query": "crash", "lables": ["bug"]}"#;
/// let refused = decode_text(&model, call, &Options::default()).unwrap_err();
/// assert_eq!(
///     refused.report.to_string(),
///     "lables: unknown field \"lables\" (did you mean \"labels\"?)"
/// );
/// let mut options = Options::default();
/// options.near_misses = NearMisses::Undeclared;
/// let kept = decode_text(&model, call, &options).unwrap();
/// assert_eq!(kept.value["lables"], serde_json::json!(["bug"]));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NearMisses {
    /// Refuse it with its "did you mean": the model meant the field, and a call run
    /// without it would quietly lose what it said (`lables` for an optional `labels`).
    #[default]
    Refuse,
    /// Treat it as any other undeclared key (kept, or dropped with a log entry), as JSON
    /// Schema does. [`Options::strict`] and the value checker judge so.
    Undeclared,
}

/// How the decoder works: which repairs it may make, and its limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub(super) disabled: u32,
    /// Most nested containers (objects, arrays) read (default and at most [`MAX_DEPTH`]).
    pub max_depth: usize,
    /// Longest argument text, in bytes (default 1 MiB).
    pub max_bytes: usize,
    /// Most issues reported (then one `limit` issue counts the rest; default 100).
    pub max_issues: usize,
    /// What to do with undeclared keys where they are allowed.
    pub unknown_keys: UnknownKeys,
    /// What to do with an undeclared key that is a near miss of a field the call left out,
    /// where undeclared keys are allowed (refused by default).
    pub near_misses: NearMisses,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            disabled: 0,
            max_depth: MAX_DEPTH,
            max_bytes: 1 << 20,
            max_issues: Report::DEFAULT_CAP,
            unknown_keys: UnknownKeys::Keep,
            near_misses: NearMisses::Refuse,
        }
    }
}

impl Options {
    /// What typed tools decode with: the defaults, dropping unknown keys with a log entry.
    pub fn typed() -> Self {
        Options {
            unknown_keys: UnknownKeys::Drop,
            ..Options::default()
        }
    }

    /// Every repair off: the value must be right as sent, as JSON Schema judges it (a near
    /// miss of a field left out is an undeclared key like any other:
    /// [`NearMisses::Undeclared`]).
    pub fn strict() -> Self {
        Options {
            disabled: u32::MAX,
            near_misses: NearMisses::Undeclared,
            ..Options::default()
        }
    }

    /// This rule off.
    pub fn without(mut self, rule: Rule) -> Self {
        self.disabled |= rule.bit();
        self
    }

    /// This rule on.
    pub fn with(mut self, rule: Rule) -> Self {
        self.disabled &= !rule.bit();
        self
    }

    /// Whether the rule may be applied.
    pub fn allows(&self, rule: Rule) -> bool {
        self.disabled & rule.bit() == 0
    }
}

//! One error sentence read for its rule: "must be greater than 0" → `exclusiveMinimum` 0.
//!
//! The sentences of validators in many languages say the same few things in a few ways;
//! [`classify`] knows those ways (the table in the module [`super`] lists the libraries whose
//! texts are tested). Patterns are the `regex` crate's, linear in the text's length.

use serde_json::Value;
use toolgate_core::Constraint;

use super::values::{literal, number};

/// What a sentence says: the rule, what it wanted, what it got (when the sentence says).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Classified {
    pub(crate) constraint: Constraint,
    pub(crate) expected: Option<Value>,
    pub(crate) got: Option<Value>,
}

const N: &str = r"(?P<n>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)";

patterns! {
    ADDITIONAL = r"(?i)(not allowed|not permitted|unknown field|unrecognized key|additional propert|unexpected (field|key|property)|was unexpected)";
    REQUIRED = r"(?i)(\bis required\b|required property|field required|^required$|missing (required )?(field|property|parameter|argument|value)|must not be null|can't be blank|cannot be blank|must be present|\bis missing\b|received undefined|must have required)";
    PATTERN = r"(?i)(does not match|doesn't match|must match|fails to match|should match pattern|match(es)? the pattern)";
    PATTERN_SLASHED = r"/(?P<p>.+)/";
    PATTERN_QUOTED = r#"'(?P<p>.+)'|"(?P<q>.+)"|`(?P<t>.+)`"#;
    PATTERN_BARE = r"pattern:?\s+(?P<p>\S+)";
    FORMAT = r#"(?i)(?:valid|well-formed|invalid)\s+(?P<f>e-?mail|uri|url|uuid|date-time|datetime|date|time|ipv4|ipv6|hostname)|is not (?:a|an) ['"](?P<g>[\w-]+)['"]"#;
    ENUM = r"(?i)(one of|allowed values|invalid enum|invalid option|not a valid enum|unknown variant|should be '[^']*'( or|,)|permitted values)";
    GOT_FIRST = r"^(?P<got>.+?) (?:is not of type|does not match|is not one of|is too long|is too short|is less than|is greater than|should be non-empty|has less than|has more than|has fewer than|is longer than|is shorter than|is not a|is not valid|is not a multiple|is a required)";
    UNIT_LENGTH = r"(?i)\b(characters?|chars?|character\(s\)|long)\b|too (long|short)|is (longer|shorter) than";
    UNIT_ITEMS = r"(?i)\b(items?|elements?|element\(s\)|entries|values)\b|non-empty";
    MINIMUM_OF = r"(?i)less than (?P<eq>or equal to )?the minimum of\s*(?P<n>-?\d+(?:\.\d+)?)";
    MAXIMUM_OF = r"(?i)greater than (?P<eq>or equal to )?the maximum of\s*(?P<n>-?\d+(?:\.\d+)?)";
    AT_LEAST = &format!(r"(?i)(greater than or equal to|at least|not less than|not be less than|no less than|>=|≥|minimum( value| length)?( is| of)?|not have fewer than)\s*:?\s*{N}");
    AT_MOST = &format!(r"(?i)(less than or equal to|at most|not greater than|not be greater than|not be more than|no more than|<=|≤|maximum( value| length)?( is| of)?|not have more than|up to)\s*:?\s*{N}");
    SIZE_UNDER = &format!(r"(?i)(fewer than|less than|shorter than)\s*{N}");
    SIZE_OVER = &format!(r"(?i)(more than|longer than)\s*{N}");
    ABOVE = &format!(r"(?i)(greater than|more than|above|>)\s*{N}");
    BELOW = &format!(r"(?i)(less than|below|<)\s*{N}");
    POSITIVE = r"(?i)\b(positive|non-negative|nonnegative|negative)\b";
    TOO_LONG = r"(?i)too long|is longer than";
    TOO_SHORT = r"(?i)too short|non-empty|must not be empty|is shorter than";
    MULTIPLE = &format!(r"(?i)multiple of\s*{N}");
    TYPE = r#"(?i)(?:must be|should be|expected|is not of type|not of type|to be|a valid|of type|as an?|received)\s+(?:a |an )?['"`]?(?P<t>integer|int|i8|i16|i32|i64|u8|u16|u32|u64|usize|number|float|f32|f64|double|string|str|boolean|bool|array|list|sequence|object|dict|map|struct|null)\b"#;
}

/// The JSON type a library's type name means.
pub(crate) fn json_type(name: &str) -> Option<&'static str> {
    Some(match name.to_ascii_lowercase().as_str() {
        "integer" | "int" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64"
        | "usize" | "int64" | "int32" | "uint" => "integer",
        "number" | "float" | "f32" | "f64" | "double" | "float64" | "float32" | "decimal" => {
            "number"
        }
        "string" | "str" => "string",
        "boolean" | "bool" => "boolean",
        "array" | "list" | "sequence" | "slice" | "tuple" => "array",
        "object" | "dict" | "map" | "struct" | "mapping" => "object",
        "null" | "none" => "null",
        _ => return None,
    })
}

/// The values listed after "one of" (or between `|` / `or`): `[buy, sell]`, `['buy', 'sell']`,
/// `"buy"|"sell"`, `'buy' | 'sell'`, `'buy' or 'sell'`, `` `buy`, `sell` ``.
pub(crate) fn listed_values(text: &str) -> Option<Vec<Value>> {
    let text = text.trim().trim_end_matches('.');
    if let Some(Value::Array(items)) = literal(text) {
        return Some(items);
    }
    let inner = text
        .strip_prefix('[')
        .and_then(|t| t.strip_suffix(']'))
        .unwrap_or(text);
    let values: Vec<Value> = inner
        .split(['|', ','])
        .flat_map(|part| part.split(" or "))
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(|part| {
            let unticked = part.trim_matches('`');
            literal(unticked).unwrap_or_else(|| Value::from(unticked))
        })
        .collect();
    (values.len() > 1).then_some(values)
}

fn bound(found: &regex::Captures<'_>) -> Option<Value> {
    number(found.name("n")?.as_str())
}

/// The rule a sentence states, with what it wanted and what it got where it says so.
pub(crate) fn classify(message: &str) -> Option<Classified> {
    let got = GOT_FIRST
        .captures(message)
        .and_then(|found| literal(found.name("got")?.as_str()));
    let classified = |constraint, expected| Classified {
        constraint,
        expected,
        got: got.clone(),
    };
    if ADDITIONAL.is_match(message) {
        return Some(classified(Constraint::AdditionalProperties, None));
    }
    if REQUIRED.is_match(message) {
        return Some(classified(Constraint::Required, None));
    }
    if let Some(at) = PATTERN.find(message) {
        let rest = &message[at.end()..];
        // Quoted or between slashes first: a bare word after "pattern" is the last resort.
        let pattern = [&*PATTERN_SLASHED, &*PATTERN_QUOTED, &*PATTERN_BARE]
            .iter()
            .find_map(|form| {
                let found = form.captures(rest)?;
                ["p", "q", "t"].iter().find_map(|name| found.name(name))
            })
            .map(|m| Value::from(m.as_str()));
        return Some(classified(Constraint::Pattern, pattern));
    }
    if let Some(found) = FORMAT.captures(message) {
        let name = found
            .name("f")
            .or_else(|| found.name("g"))?
            .as_str()
            .to_ascii_lowercase();
        let name = match name.as_str() {
            "e-mail" => "email".to_owned(),
            "url" => "uri".to_owned(),
            "datetime" => "date-time".to_owned(),
            _ => name,
        };
        return Some(classified(Constraint::Format, Some(Value::from(name))));
    }
    if let Some(at) = ENUM.find(message) {
        let listed = match message.rfind("one of ") {
            Some(start) => &message[start + "one of ".len()..],
            None => &message[at.end()..],
        };
        let values = listed_values(listed)
            .or_else(|| listed_values(message.split_once("should be ")?.1))
            .map(Value::Array);
        return Some(classified(Constraint::Enum, values));
    }
    if let Some(found) = MULTIPLE.captures(message) {
        return Some(classified(Constraint::MultipleOf, bound(&found)));
    }
    if let Some(bounded) = classify_bound(message) {
        let (constraint, expected) = bounded;
        return Some(classified(constraint, expected));
    }
    if let Some(found) = TYPE.captures(message) {
        let name = json_type(found.name("t")?.as_str())?;
        return Some(classified(Constraint::Type, Some(Value::from(name))));
    }
    None
}

/// A bound: on a number, a length or a count of items.
fn classify_bound(message: &str) -> Option<(Constraint, Option<Value>)> {
    let length = UNIT_LENGTH.is_match(message);
    let items = UNIT_ITEMS.is_match(message);
    let sized = |min: Constraint, max: Constraint, lower: bool| {
        let (for_length, for_items) = if lower {
            (Constraint::MinLength, Constraint::MinItems)
        } else {
            (Constraint::MaxLength, Constraint::MaxItems)
        };
        if items {
            for_items
        } else if length {
            for_length
        } else if lower {
            min
        } else {
            max
        }
    };
    if let Some(found) = MINIMUM_OF.captures(message) {
        let constraint = if found.name("eq").is_some() {
            Constraint::ExclusiveMinimum
        } else {
            Constraint::Minimum
        };
        return Some((constraint, bound(&found)));
    }
    if let Some(found) = MAXIMUM_OF.captures(message) {
        let constraint = if found.name("eq").is_some() {
            Constraint::ExclusiveMaximum
        } else {
            Constraint::Maximum
        };
        return Some((constraint, bound(&found)));
    }
    if let Some(found) = AT_LEAST.captures(message) {
        let constraint = sized(Constraint::Minimum, Constraint::Maximum, true);
        return Some((constraint, bound(&found)));
    }
    if let Some(found) = AT_MOST.captures(message) {
        let constraint = sized(Constraint::Minimum, Constraint::Maximum, false);
        return Some((constraint, bound(&found)));
    }
    if length || items {
        // "has fewer than 1 item", "is longer than 5 characters": the bound broken.
        if let Some(found) = SIZE_UNDER.captures(message) {
            return Some((
                sized(Constraint::Minimum, Constraint::Maximum, true),
                bound(&found),
            ));
        }
        if let Some(found) = SIZE_OVER.captures(message) {
            return Some((
                sized(Constraint::Minimum, Constraint::Maximum, false),
                bound(&found),
            ));
        }
    }
    if let Some(found) = ABOVE.captures(message) {
        let constraint = sized(
            Constraint::ExclusiveMinimum,
            Constraint::ExclusiveMaximum,
            true,
        );
        return Some((constraint, bound(&found)));
    }
    if let Some(found) = BELOW.captures(message) {
        let constraint = sized(
            Constraint::ExclusiveMinimum,
            Constraint::ExclusiveMaximum,
            false,
        );
        return Some((constraint, bound(&found)));
    }
    if let Some(found) = POSITIVE.captures(message) {
        let zero = Some(Value::from(0));
        return Some(match &found[1].to_ascii_lowercase()[..] {
            "positive" => (Constraint::ExclusiveMinimum, zero),
            "negative" => (Constraint::ExclusiveMaximum, zero),
            _ => (Constraint::Minimum, zero),
        });
    }
    if TOO_LONG.is_match(message) {
        return Some((
            sized(Constraint::MaxLength, Constraint::MaxLength, false),
            None,
        ));
    }
    if TOO_SHORT.is_match(message) {
        let count = message.contains("non-empty").then(|| Value::from(1));
        return Some((
            sized(Constraint::MinLength, Constraint::MinLength, true),
            count,
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Issue 27 §1: a bound beyond what a float holds keeps its digits (as text where a
    /// JSON value cannot hold it as a number).
    #[test]
    fn bounds_keep_their_digits() {
        use Constraint::*;
        for (message, constraint, bound) in [
            (
                "must be at most 18446744073709551617",
                Maximum,
                json!("18446744073709551617"),
            ),
            ("must be <= 18446744073709551615", Maximum, json!(u64::MAX)),
            (
                "must be >= -9223372036854775809",
                Minimum,
                json!("-9223372036854775809"),
            ),
            (
                "must be less than 9007199254740993.0",
                ExclusiveMaximum,
                json!("9007199254740993.0"),
            ),
            ("must be greater than 0.1", ExclusiveMinimum, json!(0.1)),
            ("must be <= 2.5e3", Maximum, json!(2500.0)),
        ] {
            assert_eq!(says(message), (constraint, Some(bound)), "{message}");
        }
    }

    #[test]
    fn every_pattern_compiles() {
        assert!(!every_pattern().is_empty());
    }

    fn says(message: &str) -> (Constraint, Option<Value>) {
        let classified =
            classify(message).unwrap_or_else(|| panic!("{message:?} is not understood"));
        (classified.constraint, classified.expected)
    }

    #[test]
    fn bounds_are_told_apart_by_direction_equality_and_unit() {
        use Constraint::*;
        for (message, constraint, bound) in [
            ("must be greater than 0", ExclusiveMinimum, json!(0)),
            (
                "Input should be greater than or equal to 1",
                Minimum,
                json!(1),
            ),
            (
                "0 is less than or equal to the minimum of 0",
                ExclusiveMinimum,
                json!(0),
            ),
            ("0 is less than the minimum of 1", Minimum, json!(1)),
            ("must be <= 100", Maximum, json!(100)),
            (
                "500 is greater than the maximum of 100",
                Maximum,
                json!(100),
            ),
            ("must be less than 10", ExclusiveMaximum, json!(10)),
            (
                "String should have at most 5 characters",
                MaxLength,
                json!(5),
            ),
            ("must NOT have fewer than 1 items", MinItems, json!(1)),
            (
                "\"toolong\" is longer than 5 characters",
                MaxLength,
                json!(5),
            ),
            (
                "length must be less than or equal to 5 characters long",
                MaxLength,
                json!(5),
            ),
            ("must be a positive number", ExclusiveMinimum, json!(0)),
            ("must be a multiple of 0.5", MultipleOf, json!(0.5)),
        ] {
            assert_eq!(says(message), (constraint, Some(bound)), "{message}");
        }
    }

    #[test]
    fn other_rules_with_what_they_wanted() {
        use Constraint::*;
        assert_eq!(
            says("'ten' is not of type 'integer'"),
            (Type, Some(json!("integer")))
        );
        assert_eq!(
            says("Expected number, received string"),
            (Type, Some(json!("number")))
        );
        assert_eq!(
            says("must be one of [buy, sell]"),
            (Enum, Some(json!(["buy", "sell"])))
        );
        assert_eq!(
            says("Input should be 'buy' or 'sell'"),
            (Enum, Some(json!(["buy", "sell"])))
        );
        assert_eq!(
            says("'dollars' does not match '^[A-Z]{3}$'"),
            (Pattern, Some(json!("^[A-Z]{3}$")))
        );
        assert_eq!(
            says("must be a valid email"),
            (Format, Some(json!("email")))
        );
        assert_eq!(says("Field required"), (Required, None));
        assert_eq!(
            says("Extra inputs are not permitted"),
            (AdditionalProperties, None)
        );
        assert_eq!(classify("insufficient funds"), None);
        let got = classify("'ten' is not of type 'integer'").unwrap().got;
        assert_eq!(got, Some(json!("ten")));
    }

    #[test]
    fn a_long_repetitive_sentence_is_no_rule() {
        // The `regex` crate has no backtracking: a long text costs its length, once per pattern.
        let text = "greater than ".repeat(20_000) + "x";
        assert_eq!(classify(&text), None);
    }
}

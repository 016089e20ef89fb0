//! JSON values as the rules and the messages see them: a value's JSON type name, equality
//! as JSON Schema defines it (`1 == 1.0`), a canonical text for equal values, and how
//! messages list values and count things. Below both the model and the checks, which use it.

use serde_json::Value;

use crate::num::Num;

/// The length in bytes of a value's compact JSON text, counted without writing it anywhere.
pub fn compact_json_len<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing into a counter cannot fail, and a JSON value always serializes.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The JSON type of a value, as issue messages say it.
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Writes allowed values as a message lists them: strings bare, others as JSON.
pub fn list_values(values: &[Value]) -> String {
    list_value_refs(values.iter())
}

/// [`list_values`] of borrowed values.
pub(crate) fn list_value_refs<'v>(values: impl Iterator<Item = &'v Value>) -> String {
    values
        .map(|value| match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `1 character`, `2 characters`.
pub fn count_of(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// A value's canonical JSON text: object keys in order, numbers written by value (`1.0` as
/// `1`), so that equal values (as [`json_equal`] sees them) have equal texts.
pub fn canonical(value: &Value) -> String {
    match value {
        Value::Number(number) => Num::from_json(number).to_string(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        Value::Object(members) => {
            let mut keys: Vec<&String> = members.keys().collect();
            keys.sort();
            let inner: Vec<String> = keys
                .iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        Value::String((*k).clone()),
                        canonical(&members[*k])
                    )
                })
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        other => other.to_string(),
    }
}

/// JSON equality as JSON Schema defines it: numbers compare by value (`1 == 1.0`).
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => Num::from_json(x) == Num::from_json(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_equal(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, x)| y.get(key).is_some_and(|y| json_equal(x, y)))
        }
        _ => a == b,
    }
}

/// Most values an issue lists in `expected` (and its message); the rest are counted.
pub const LISTED_VALUES: usize = 20;

/// `expected` for a list of `count` values: all of them when there are at most
/// [`LISTED_VALUES`], else the first ones and a last string entry `"… N more"`, as the retry
/// hint's `allowed_values` ends with `"…"`. Each value is shortened as an issue's `got` is
/// ([`crate::issue::shorten`]).
///
/// ```
/// use toolgate_core::values::shorten_list;
///
/// let values = (0..25).map(serde_json::Value::from);
/// let listed = shorten_list(values, 25);
/// assert_eq!(listed.as_array().unwrap().len(), 21);
/// assert_eq!(listed[20], "… 5 more");
/// ```
pub fn shorten_list(values: impl IntoIterator<Item = Value>, count: usize) -> Value {
    let mut listed: Vec<Value> = values
        .into_iter()
        .take(LISTED_VALUES)
        .map(crate::issue::shorten)
        .collect();
    if count > LISTED_VALUES {
        listed.push(Value::String(format!("… {} more", count - LISTED_VALUES)));
    }
    Value::Array(listed)
}

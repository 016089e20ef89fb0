//! [`Nullable`]: an optional field that takes `null`, with absent and `null` kept apart.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::check::Checker;
use crate::model::{Definitions, Schema};
use crate::ToolArg;

/// The value of an optional field whose schema allows `null`: left out, sent as `null`, or
/// sent with a value.
///
/// `Option<T>` has one `None` for two different arguments: `{}` and `{"x": null}`. Where
/// they mean different things (a `PATCH` that clears a field with `null` and leaves it alone
/// when it is absent; Playwright's `browser_emulate_media`, whose `null` resets a setting)
/// the field is a `Nullable<T>`, which keeps them apart and writes each back as it came.
///
/// The field needs `#[serde(default)]` (absent is [`Nullable::Absent`], the default): serde
/// hands an absent field to the type as if it were `null` otherwise, and `#[derive(Tool)]`
/// refuses the field without it. To write it back as it came, also give it
/// `skip_serializing_if = "Nullable::is_absent"` (`to_json_value` leaves it out by itself).
/// The schema compiler writes this type for an optional field that allows `null` and has no
/// default.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use toolgate_core::Nullable;
///
/// #[derive(Deserialize, Serialize, Debug, PartialEq)]
/// struct Patch {
///     #[serde(default, skip_serializing_if = "Nullable::is_absent")]
///     nickname: Nullable<String>,
/// }
///
/// let read = |text| serde_json::from_str::<Patch>(text).unwrap().nickname;
/// assert_eq!(read(r#"{}"#), Nullable::Absent);
/// assert_eq!(read(r#"{"nickname": null}"#), Nullable::Null);
/// assert_eq!(read(r#"{"nickname": "Al"}"#), Nullable::Value("Al".to_owned()));
///
/// let patch = Patch { nickname: Nullable::Null };
/// assert_eq!(serde_json::to_string(&patch).unwrap(), r#"{"nickname":null}"#);
/// let patch = Patch { nickname: Nullable::Absent };
/// assert_eq!(serde_json::to_string(&patch).unwrap(), "{}");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nullable<T> {
    /// The field was left out.
    #[default]
    Absent,
    /// The field was sent as `null`.
    Null,
    /// The field was sent with this value.
    Value(T),
}

impl<T> Nullable<T> {
    /// Whether the field was left out (for `skip_serializing_if`).
    pub fn is_absent(&self) -> bool {
        matches!(self, Nullable::Absent)
    }

    /// Whether the field was sent as `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Nullable::Null)
    }

    /// The value, if one was sent.
    pub fn as_option(&self) -> Option<&T> {
        match self {
            Nullable::Value(value) => Some(value),
            Nullable::Absent | Nullable::Null => None,
        }
    }

    /// The value, if one was sent: absent and `null` both become `None`.
    pub fn into_option(self) -> Option<T> {
        match self {
            Nullable::Value(value) => Some(value),
            Nullable::Absent | Nullable::Null => None,
        }
    }
}

/// `None` is `null`: a value that is there, as `Option` is wherever a value is present.
impl<T> From<Option<T>> for Nullable<T> {
    fn from(option: Option<T>) -> Self {
        option.map_or(Nullable::Null, Nullable::Value)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Nullable<T> {
    /// `null` is [`Nullable::Null`]; an absent field never reaches here with
    /// `#[serde(default)]`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<T>::deserialize(deserializer).map(Nullable::from)
    }
}

impl<T: Serialize> Serialize for Nullable<T> {
    /// A value as itself; absent and `null` as `null` (skip absent with
    /// `skip_serializing_if = "Nullable::is_absent"`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Value(value) => serializer.serialize_some(value),
            Nullable::Absent | Nullable::Null => serializer.serialize_none(),
        }
    }
}

/// `T` or `null`; as a struct field the derive makes it an optional field, and
/// [`Nullable::Absent`] is left out of the object.
impl<T: ToolArg> ToolArg for Nullable<T> {
    fn describe(definitions: &mut Definitions) -> Schema {
        T::describe(definitions).nullable()
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        if let Nullable::Value(value) = self {
            value.check(schema, checker);
        }
    }

    fn to_json_value(&self) -> Value {
        self.as_option().map_or(Value::Null, ToolArg::to_json_value)
    }

    fn is_absent(&self) -> bool {
        Nullable::is_absent(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Deserialize, Serialize, Debug, PartialEq)]
    struct Patch {
        #[serde(default, skip_serializing_if = "Nullable::is_absent")]
        data: Nullable<Value>,
    }

    /// A field of any JSON value: `Option<Value>` reads `null` as `None`, like an absent
    /// field; `Nullable<Value>` keeps them apart, from text and from a `Value` alike.
    #[test]
    fn absent_null_and_a_value_are_three_values_and_are_written_back_as_they_came() {
        for (text, expected) in [
            ("{}", Nullable::Absent),
            (r#"{"data": null}"#, Nullable::Null),
            (r#"{"data": [1, null]}"#, Nullable::Value(json!([1, null]))),
        ] {
            let read: Patch = serde_json::from_str(text).unwrap();
            assert_eq!(read.data, expected, "{text}");
            let from_value: Patch =
                serde_json::from_value(serde_json::from_str(text).unwrap()).unwrap();
            assert_eq!(from_value.data, read.data, "{text}");
            let written = serde_json::to_value(&read).unwrap();
            assert_eq!(
                written,
                serde_json::from_str::<Value>(text).unwrap(),
                "{text}"
            );
        }
    }

    #[test]
    fn its_json_form_leaves_out_only_absent() {
        let mut writer = crate::ObjectWriter::new();
        writer
            .field("a", &Nullable::<u8>::Absent)
            .field("n", &Nullable::<u8>::Null)
            .field("v", &Nullable::Value(3_u8));
        assert_eq!(writer.finish(), json!({"n": null, "v": 3}));
    }
}

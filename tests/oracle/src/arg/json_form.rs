//! What generated `to_json_value` code calls to write a value's JSON form
//! ([`ObjectWriter`]), and to record a field's default from a Rust value.

use serde_json::Value;

use super::ToolArg;

/// Builds the JSON form of a struct (what generated `to_json_value` calls): absent fields
/// are left out.
#[derive(Debug, Default)]
pub struct ObjectWriter {
    members: serde_json::Map<String, Value>,
}

impl ObjectWriter {
    /// An empty object.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the field `name` unless its value is absent.
    pub fn field<T: ToolArg + ?Sized>(&mut self, name: &str, value: &T) -> &mut Self {
        if !value.is_absent() {
            self.members.insert(name.to_owned(), value.to_json_value());
        }
        self
    }

    /// Adds the field `name` even when its value is absent: `None` of a
    /// `#[tool(nullable)]` field is sent as `null`.
    pub fn nullable_field<T: ToolArg + ?Sized>(&mut self, name: &str, value: &T) -> &mut Self {
        self.members.insert(name.to_owned(), value.to_json_value());
        self
    }

    /// Adds every member of a `#[serde(flatten)]` map: the keys a struct does not declare.
    pub fn entries<'v, T: ToolArg + 'v>(
        &mut self,
        entries: impl Iterator<Item = (&'v String, &'v T)>,
    ) -> &mut Self {
        for (key, value) in entries {
            self.members.insert(key.clone(), value.to_json_value());
        }
        self
    }

    /// Adds the member `name` with a string value: the tag of an internally tagged enum.
    pub fn tag(&mut self, name: &str, value: &str) -> &mut Self {
        self.members.insert(name.to_owned(), Value::from(value));
        self
    }

    /// The object.
    pub fn finish(&mut self) -> Value {
        Value::Object(std::mem::take(&mut self.members))
    }
}

impl crate::model::Field {
    /// Records `value` as the field's default, `None` as `null`: the default of a
    /// `#[tool(nullable)]` field.
    pub fn nullable_default_of<T: ToolArg + ?Sized>(mut self, value: &T) -> Self {
        self.schema.default = Some(value.to_json_value());
        self
    }

    /// Records `value` as the field's default (left out when it is absent, like `None`).
    pub fn default_of<T: ToolArg + ?Sized>(mut self, value: &T) -> Self {
        if !value.is_absent() {
            self.schema.default = Some(value.to_json_value());
        }
        self
    }
}

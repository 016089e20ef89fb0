//! [`Lenient<T>`]: a serde adapter that gives any serde framework toolgate's repairs.

use std::ops::{Deref, DerefMut};

use serde::de::{DeserializeOwned, DeserializeSeed, Error};
use serde::{Deserialize, Deserializer};

use crate::arg::into_typed;
use crate::decode::{walk_json, Options, Repair};
use crate::model::JsonSeed;
use crate::Tool;

/// Deserializes a `T: Tool` through toolgate's decoder: `axum::Json<Lenient<T>>` or rmcp's
/// `Parameters<Lenient<T>>` get the lossless repairs, and a refusal's error message is the
/// full report, one issue per line.
///
/// ```
/// use serde::Deserialize;
/// use toolgate_core::{Lenient, Tool};
/// # use toolgate_core::{model::*, Checker, ToolArg};
/// # #[derive(Deserialize, Debug)] struct Ping { count: u8 }
/// # impl ToolArg for Ping {
/// #     fn describe(d: &mut Definitions) -> Schema { d.named::<Self>("Ping", |d| Schema::object(vec![Field::required("count", u8::describe(d).maximum(5))])) }
/// #     fn check<'m>(&self, s: &'m Schema, c: &mut Checker<'m>) { let f = c.fields(s); c.field(f, 0, &self.count); }
/// #     fn to_json_value(&self) -> serde_json::Value { serde_json::json!({"count": self.count}) }
/// # }
/// # impl Tool for Ping { fn model() -> &'static ToolModel { static M: std::sync::OnceLock<ToolModel> = std::sync::OnceLock::new(); M.get_or_init(|| ToolModel::of::<Self>("ping", None)) } }
///
/// let ping: Lenient<Ping> = serde_json::from_str(r#"{"count": "3"}"#).unwrap();
/// assert_eq!(ping.count, 3);
/// assert_eq!(ping.repairs[0].rule.as_str(), "string_to_number");
///
/// let error = serde_json::from_str::<Lenient<Ping>>(r#"{"count": 7}"#).unwrap_err();
/// assert_eq!(error.to_string(), "count: 7 is greater than the maximum 5");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Lenient<T> {
    /// The decoded value.
    pub value: T,
    /// The repairs made to it.
    pub repairs: Vec<Repair>,
}

/// The schema of `T`: what a framework that lists tools by their schemars schema (rmcp's
/// `Parameters<Lenient<T>>`) advertises is the tool's own contract; the repairs are the
/// reader's leniency, not part of it.
#[cfg(feature = "schemars")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for Lenient<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

impl<T> Lenient<T> {
    /// The value, without the repair log.
    pub fn into_inner(self) -> T {
        self.value
    }
}

impl<T> Deref for Lenient<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> DerefMut for Lenient<T> {
    fn deref_mut(&mut self) -> &mut T {
        &mut self.value
    }
}

impl<'de, T: Tool + DeserializeOwned> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Read with toolgate's depth limit, whatever the deserializer's own is.
        let json = JsonSeed {
            max_depth: Options::typed().max_depth,
        }
        .deserialize(deserializer)?;
        let model = T::model();
        let options = Options::typed();
        // The seed bounded the depth while it read.
        let decoded = into_typed(
            model,
            walk_json(model, json, &options, Vec::new()),
            &options,
        );
        match decoded {
            Ok(decoded) => Ok(Lenient {
                value: decoded.value,
                repairs: decoded.repairs,
            }),
            Err(rejected) => Err(D::Error::custom(rejected.report)),
        }
    }
}

//! [`ToolArg`]: a Rust type that can appear in tool arguments, with its schema, its checks
//! and its JSON form; and [`Tool`]: a type that is the arguments of a tool.

use crate::streaming::StreamDecoder;
use serde_json::Value;

use serde::de::DeserializeOwned;

use crate::decode::{Decoded, HintModel, Options, Rejected};
use crate::model::{Definitions, Kind, Schema, ToolModel};
use crate::plan::NodeId;
use crate::read::typed::{self, Read, Reader};
use crate::{Checker, Report};

mod json_form;
mod std_types;
pub use json_form::ObjectWriter;

/// A type that can appear in tool arguments: it knows its schema, checks a value of itself
/// against a schema, and gives its JSON form (for `got` in issues, `uniqueItems` and
/// defaults).
///
/// Implemented for `bool`, every integer and float type, `String`, `Option<T>`,
/// [`Nullable<T>`](crate::Nullable), `Vec<T>`, tuples of up to 8 elements (JSON arrays of
/// exactly those elements, `prefixItems`),
/// `Box<T>`, `HashMap<String, T>`, `BTreeMap<String, T>` and `serde_json::Value`;
/// `#[derive(Tool)]` implements it for structs and unit enums.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument",
    label = "`{Self}` does not implement `toolgate::ToolArg`",
    note = "derive `toolgate::Tool` on it, or use a type toolgate knows: bool, integers, floats, String, Option, Vec, Box, HashMap/BTreeMap<String, _>, serde_json::Value, () (null)"
)]
pub trait ToolArg {
    /// The schema of values of this type. Named types register themselves in `definitions`
    /// through [`Definitions::named`], which describes each once per model and gives a
    /// reference; where it is used once the body is written in place of the reference.
    fn describe(definitions: &mut Definitions) -> Schema
    where
        Self: Sized;

    /// Checks this value against `schema` (this type's schema with the constraints of the
    /// place it is used in), reporting every issue to `checker`.
    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>);

    /// The value as JSON, with wire names.
    fn to_json_value(&self) -> Value;

    /// Whether the value stands for an absent field (`None`), so it is left out of its
    /// object's JSON form.
    fn is_absent(&self) -> bool {
        false
    }

    /// Reads a value of this type from argument text: the typed reader (see
    /// `read/typed/`), which `#[derive(Tool)]` implements for structs and unit enums and
    /// toolgate for the std types it knows. The default answers
    /// [`Unread::Fallback`](crate::__typed::Unread): every call is then decided by the full
    /// roads, so a hand-written `ToolArg` needs nothing more.
    #[doc(hidden)]
    fn read_arg(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Self>
    where
        Self: Sized,
    {
        let _ = (reader, node);
        Err(crate::__typed::Unread::Fallback)
    }
}

/// The arguments of a tool: a `#[derive(Tool)]` struct.
///
/// Everything derives from [`Tool::model`], the one description of the tool that the schema,
/// the checks and the retry hints share.
///
/// ```
/// use toolgate_core::model::{Definitions, Field, Schema, ToolModel};
/// use toolgate_core::{Checker, Tool, ToolArg};
/// use std::sync::OnceLock;
///
/// // What `#[derive(Tool)]` writes, by hand:
/// struct Ping { count: u8 }
///
/// impl ToolArg for Ping {
///     fn describe(definitions: &mut Definitions) -> Schema {
///         definitions.named::<Self>("Ping", |definitions| {
///             Schema::object(vec![Field::required("count", u8::describe(definitions).maximum(5))])
///         })
///     }
///     fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
///         let fields = checker.fields(schema);
///         checker.field(fields, 0, &self.count);
///     }
///     fn to_json_value(&self) -> serde_json::Value {
///         serde_json::json!({"count": self.count})
///     }
/// }
///
/// impl Tool for Ping {
///     fn model() -> &'static ToolModel {
///         static MODEL: OnceLock<ToolModel> = OnceLock::new();
///         MODEL.get_or_init(|| ToolModel::of::<Self>("ping", None))
///     }
/// }
///
/// assert_eq!(Ping::name(), "ping");
/// assert!(Ping { count: 3 }.validate().is_ok());
/// assert_eq!(Ping { count: 7 }.validate().unwrap_err().to_string(), "count: 7 is greater than the maximum 5");
/// ```
pub trait Tool: ToolArg + Sized {
    /// The tool model, built once.
    fn model() -> &'static ToolModel;

    /// The tool's name (the `#[tool(name)]`, or the type's name in snake_case).
    fn name() -> &'static str {
        Self::model().name()
    }

    /// What the tool does (the `#[tool(description)]`, or the doc comment).
    fn description() -> Option<&'static str> {
        Self::model().description()
    }

    /// The JSON Schema (draft 2020-12) of the arguments, compact.
    fn json_schema() -> &'static str {
        Self::model().json_schema()
    }

    /// Checks every constraint of the model on this value; `Err` holds every issue, in
    /// field order.
    fn validate(&self) -> Result<(), Report> {
        let model = Self::model();
        let mut checker = Checker::new(model);
        self.check(model.input(), &mut checker);
        checker.finish()
    }

    /// Decodes argument text a model produced: lossless repairs applied and logged, every
    /// constraint checked, every issue reported (see [`crate::decode`]). Unknown keys are
    /// dropped with a log entry, unless the type denies them.
    ///
    /// The type must also derive `serde::Deserialize`: the decoder repairs and checks the
    /// arguments, serde builds the value (the derive reads serde's attributes, so the two agree).
    fn decode(text: &str) -> Result<Decoded<Self>, Rejected>
    where
        Self: DeserializeOwned,
    {
        Self::decode_with(text.as_bytes(), &Options::typed())
    }

    /// [`Tool::decode`] from bytes.
    fn decode_bytes(bytes: &[u8]) -> Result<Decoded<Self>, Rejected>
    where
        Self: DeserializeOwned,
    {
        Self::decode_with(bytes, &Options::typed())
    }

    /// [`Tool::decode`] from a JSON value.
    fn decode_value(value: &Value) -> Result<Decoded<Self>, Rejected>
    where
        Self: DeserializeOwned,
    {
        let model = Self::model();
        let options = Options::typed();
        let decoded = crate::decode::decode_value_refused(model, value, &options);
        into_typed(model, decoded, &options)
    }

    /// [`Tool::decode`] from bytes, with other options (repairs switched off, limits).
    ///
    /// Strict JSON whose keys are the fields' names is read to its value, repaired, or to its
    /// refusal, in one pass by the typed reader ([`ToolArg::read_arg`], generated by the
    /// derive), without serde. Any other call (text that is not strict JSON, a key in
    /// another case, a union...) is decoded by the run-time road from its start, to a
    /// `serde_json::Value` that the type's own `Deserialize` then makes into the value (see
    /// [`crate::decode`]).
    fn decode_with(bytes: &[u8], options: &Options) -> Result<Decoded<Self>, Rejected>
    where
        Self: DeserializeOwned,
    {
        let model = Self::model();
        // The typed reader: the value in one pass, without serde, or the refusal.
        match typed::read_typed::<Self>(model, bytes, options) {
            Some(Ok(decoded)) => return Ok(decoded),
            Some(Err(refused)) => return Err(refused.with_model(HintModel::Static(model))),
            None => {}
        }
        // Any other call: the run-time road (its stream, then the tree walk where the stream
        // leaves the text to it), and serde makes the Rust value of the `Value` it decided.
        let decoded = crate::decode::decode_text_refused(model, bytes, options);
        into_typed(model, decoded, options)
    }

    /// A decoder of one call whose arguments stream in (see [`crate::streaming`]), with a
    /// typed tool's options: its `finish` is [`Tool::decode_bytes`] of every byte fed.
    fn stream_decoder() -> StreamDecoder<'static, Self>
    where
        Self: DeserializeOwned,
    {
        Self::stream_decoder_with(Options::typed())
    }

    /// [`Tool::stream_decoder`] with other options: its `finish` is [`Tool::decode_with`].
    fn stream_decoder_with(options: Options) -> StreamDecoder<'static, Self>
    where
        Self: DeserializeOwned,
    {
        StreamDecoder::typed(Self::model(), options, Self::decode_with)
    }
}

/// A tool whose result has a declared schema (MCP's `outputSchema`): `Output` is the type of
/// its structured result, itself checked like arguments (`output.validate()` before sending
/// it, `Output::json_schema()` to advertise it). The schema compiler implements it for every
/// MCP definition with an `outputSchema`.
///
/// ```
/// use toolgate_core::model::{Definitions, Field, Schema, ToolModel};
/// use toolgate_core::{Checker, Tool, ToolArg, ToolOutput};
/// # use std::sync::OnceLock;
/// # macro_rules! unit_tool {
/// #     ($ty:ident, $name:literal) => {
/// #         impl ToolArg for $ty {
/// #             fn describe(_: &mut Definitions) -> Schema { Schema::object(vec![]) }
/// #             fn check<'m>(&self, _: &'m Schema, _: &mut Checker<'m>) {}
/// #             fn to_json_value(&self) -> serde_json::Value { serde_json::json!({}) }
/// #         }
/// #         impl Tool for $ty {
/// #             fn model() -> &'static ToolModel {
/// #                 static MODEL: OnceLock<ToolModel> = OnceLock::new();
/// #                 MODEL.get_or_init(|| ToolModel::of::<Self>($name, None))
/// #             }
/// #         }
/// #     };
/// # }
/// struct Ping {}
/// struct PingOutput {}
/// # unit_tool!(Ping, "ping");
/// # unit_tool!(PingOutput, "ping_output");
/// impl ToolOutput for Ping {
///     type Output = PingOutput;
/// }
///
/// fn output_schema<T: ToolOutput>() -> &'static str {
///     T::Output::json_schema()
/// }
/// assert_eq!(output_schema::<Ping>(), r#"{"title":"ping_output","type":"object","properties":{}}"#);
/// ```
pub trait ToolOutput: Tool {
    /// The type of the tool's structured result.
    type Output: Tool;
}

/// Turns a decoded JSON value into the Rust type (a refusal of the walk becomes the typed
/// tool's, its hint built from `model` when asked for). serde and the model agree by construction
/// (the derive reads serde's attributes), so a failure here is a `schema` issue: the model
/// does not describe the type.
///
/// The walk has checked every value serde reads. serde may still fill a `#[serde(default)]`
/// field the walk left absent: when the default breaks the field's own constraints (the walk
/// never inserts such a value), or when `options` turn the `default` rule off. Only then is
/// the value built checked again with [`Tool::validate`].
pub(crate) fn into_typed<T: Tool + DeserializeOwned>(
    model: &'static ToolModel,
    walked: Result<Decoded<Value>, crate::decode::Refused>,
    options: &Options,
) -> Result<Decoded<T>, Rejected> {
    let refuse = |refused: crate::decode::Refused| refused.with_model(HintModel::Static(model));
    let decoded = walked.map_err(refuse)?;
    let value: T = match serde_json::from_value(decoded.value) {
        Ok(value) => value,
        Err(error) => {
            let mut report = Report::new();
            let message = format!("the decoded arguments do not fit the Rust type: {error}");
            report.push(crate::Issue::new(
                crate::Path::root(),
                crate::Constraint::Schema,
                message,
            ));
            return Err(refuse(crate::decode::Refused {
                report,
                repairs: decoded.repairs,
                repairs_left_out: decoded.repairs_left_out,
            }));
        }
    };
    finish_typed(
        model,
        Decoded {
            value,
            repairs: decoded.repairs,
            repairs_left_out: decoded.repairs_left_out,
        },
        options,
    )
}

/// A typed value the walk accepted, checked again with [`Tool::validate`] only where serde
/// may have filled a `#[serde(default)]` field the walk left absent: when the default breaks
/// the field's own constraints (the walk never inserts such a value), or when `options` turn
/// the `default` rule off.
fn finish_typed<T: Tool>(
    model: &'static ToolModel,
    decoded: Decoded<T>,
    options: &Options,
) -> Result<Decoded<T>, Rejected> {
    let serde_may_fill_defaults = !options.allows(crate::Rule::Default)
        || !model.defaults_fit(crate::decode::every_default_fits);
    if serde_may_fill_defaults {
        if let Err(report) = decoded.value.validate() {
            let refused = crate::decode::Refused {
                report,
                repairs: decoded.repairs,
                repairs_left_out: decoded.repairs_left_out,
            };
            return Err(refused.with_model(HintModel::Static(model)));
        }
    }
    Ok(decoded)
}

impl ToolModel {
    /// The model of the arguments type `T`, named `name` (what generated code calls).
    /// Nested types used more than once are written once, as definitions (see
    /// [`Definitions`]); a `T` that contains itself keeps its body in the definitions too.
    pub fn of<T: ToolArg>(name: &str, description: Option<&str>) -> ToolModel {
        let mut definitions = Definitions::new();
        let root = T::describe(&mut definitions);
        let (mut input, definitions) = definitions.finish(root);
        if let Kind::Ref(key) = &input.kind {
            if let Some(body) = definitions.get(key) {
                input = body.clone();
            }
        }
        ToolModel::new(name, description.map(str::to_owned), input, definitions)
    }
}

/// The type of a value no schema allows (the `false` schema, `{"not": {}}`): a property that
/// must be absent is `Option<Never>`, an array that must be empty `Vec<Never>`. No value of it
/// exists, so serde refuses whatever is sent and the decoder reports why first.
///
/// ```
/// use toolgate_core::{Never, ToolArg};
/// use toolgate_core::model::{Definitions, Kind};
///
/// assert!(matches!(Never::describe(&mut Definitions::new()).kind, Kind::Never));
/// assert!(serde_json::from_str::<Never>("1").is_err());
/// assert!(serde_json::from_str::<Vec<Never>>("[]").unwrap().is_empty());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Never {}

impl<'de> serde::Deserialize<'de> for Never {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Consume the value, then refuse it.
        serde::de::IgnoredAny::deserialize(deserializer)?;
        Err(serde::de::Error::custom("no value is allowed here"))
    }
}

impl serde::Serialize for Never {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

impl ToolArg for Never {
    fn describe(_: &mut Definitions) -> Schema {
        Schema::new(crate::model::Kind::Never)
    }

    fn check<'m>(&self, _: &'m Schema, _: &mut Checker<'m>) {
        match *self {}
    }

    fn to_json_value(&self) -> Value {
        match *self {}
    }
}

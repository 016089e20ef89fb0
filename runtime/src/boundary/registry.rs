//! The tools a [`super::Toolbox`] holds: typed tools and run-time tools behind one face.

use std::fmt::Display;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::sync::Arc;
use toolgate_core::streaming::StreamDecoder;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use toolgate_core::model::read::unwrap_definition;
use toolgate_core::model::{Json, SchemaErrors, ToolModel};
use toolgate_core::{
    Decoded, DynamicTool, HintReason, Rejected, Repair, Report, RetryHint, Tool, ToolOutput,
};

use super::budget::Exceeded;
use super::middleware::Arguments;

/// A boxed future, as the boundary's handlers return them.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A tool as listed for a model or an MCP client: `name`, `description`, `inputSchema` and
/// `outputSchema` (the MCP spelling, which the OpenAI and Anthropic shapes are built from).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: String,
    /// What the tool does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The JSON Schema of the arguments.
    pub input_schema: Value,
    /// The JSON Schema of the result, when the tool declares one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
}

/// Why a tool could not be added to a toolbox.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// A tool of that name is there already.
    #[error("a tool named `{0}` is registered already")]
    Duplicate(String),
    /// The definition has no name (a bare schema without `title`).
    #[error("the tool definition has no name")]
    Unnamed,
    /// The definition's input or output schema cannot be used.
    #[error("the tool's schema cannot be used: {0}")]
    Schema(#[from] SchemaErrors),
}

/// A tool's result, checked against its output schema.
pub(crate) enum Output {
    /// The result (repaired where the schema allows), with its repairs.
    Fits(Value, Vec<Repair>),
    /// The result breaks the output schema: the result as given, the issues, the hint.
    Malformed(Value, Report, Box<RetryHint>),
}

/// A tool's run, started: its result to come, or the text of a panic of the handler's call.
pub(crate) type Running = Result<BoxFuture<'static, Result<Output, String>>, String>;

/// What the direct road (no hook between the gate and the tool) made of a call.
pub(crate) enum Started {
    /// The gate refused the arguments.
    Refused(Rejected),
    /// The gate accepted them, but a budget stopped the call: the tool was not called.
    Stopped(Exceeded),
    /// The tool was called: its run, and the repairs the gate made.
    Running(Running, Vec<Repair>),
}

/// Calls a handler, a panic of the call caught as its text.
fn launch(call: impl FnOnce() -> BoxFuture<'static, Result<Output, String>>) -> Running {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(call)).map_err(|panic| panicked(&*panic))
}

/// The direct road after the gate: a refusal, or the budgets asked, then the tool launched.
fn started<V>(
    gated: Result<Decoded<V>, Rejected>,
    admit: &mut dyn FnMut() -> Result<(), Exceeded>,
    launch: impl FnOnce(V) -> Running,
) -> Started {
    let decoded = match gated {
        Ok(decoded) => decoded,
        Err(rejected) => return Started::Refused(rejected),
    };
    match admit() {
        Ok(()) => Started::Running(launch(decoded.value), decoded.repairs),
        Err(exceeded) => Started::Stopped(exceeded),
    }
}

/// The text of a panic.
pub(crate) fn panicked(panic: &(dyn std::any::Any + Send)) -> String {
    let what = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    format!("the tool panicked: {what}")
}

/// One tool, typed or run-time, as the toolbox drives it.
pub(crate) trait Registered: Send + Sync {
    fn definition(&self) -> &ToolDefinition;
    /// The tool's name, shared: each envelope holds it without a copy.
    fn name(&self) -> &Arc<str>;
    /// The model of the arguments.
    fn model(&self) -> &ToolModel;
    /// The model of the result, when the tool declares one (what the MCP server lists).
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    fn output_model(&self) -> Option<&ToolModel>;
    /// The gate: the arguments decoded, or refused.
    fn gate(&self, arguments: &str) -> Result<(Arguments, Vec<Repair>), Rejected>;
    /// A decoder of one call whose arguments stream in, reading as the gate reads (its early
    /// issues are the gate's; its end is the run-time road with the gate's options).
    fn stream_decoder(&self) -> StreamDecoder<'_>;
    /// The tool run on accepted arguments: its result checked against the output schema, or
    /// the failure's text.
    fn run(&self, arguments: Arguments) -> Running;
    /// The gate, then, if `admit` lets the call through (the budgets), the tool: the road of a
    /// toolbox without hooks, which never boxes the arguments.
    fn start(&self, arguments: &str, admit: &mut dyn FnMut() -> Result<(), Exceeded>) -> Started;
}

fn schema_value(text: &str) -> Value {
    // The model writes its schema as JSON: reading it back cannot fail.
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// The failure text of a result that serde cannot write as JSON.
fn unwritable(error: impl Display) -> String {
    format!("the tool's result cannot be written as JSON: {error}")
}

/// A handler's result as JSON: a `serde_json::Value` as it is (not copied through serde),
/// anything else written by serde within [`MAX_RESULT_DEPTH`] levels
/// ([`super::result_json`]): `Ok(None)` for a result nested deeper, however it is built.
fn into_json<O: Serialize + 'static>(result: O) -> Result<Option<Value>, String> {
    let mut slot = Some(result);
    if let Some(value) = (&mut slot as &mut dyn std::any::Any).downcast_mut::<Option<Value>>() {
        return Ok(Some(value.take().unwrap_or(Value::Null)));
    }
    let Some(result) = slot else {
        return Ok(Some(Value::Null));
    };
    match super::result_json::to_value_within_depth(&result) {
        Ok(value) => Ok(Some(value)),
        Err(super::result_json::Unwritten::TooDeep) => Ok(None),
        Err(super::result_json::Unwritten::Failed(why)) => Err(unwritable(why)),
    }
}

/// Most levels of nesting a tool's result may have, as serde_json reads a text: a deeper
/// result is a `malformed_response` (with a root `limit` issue), and is dropped without
/// recursion, so that nothing after the tool (checking, converting, writing, dropping)
/// recurses without bound on a worker thread (issue 28 §3: a result 16,000 levels deep
/// overflowed the stack of the MCP server).
pub const MAX_RESULT_DEPTH: usize = 128;

/// `value`, or, past [`MAX_RESULT_DEPTH`], the `malformed_response` it is (hint from
/// `model`, the tool's arguments' model: the result has no other to go by).
fn within_depth(value: Value, model: &ToolModel) -> Result<Value, Output> {
    if toolgate_core::model::depth_within(&value, MAX_RESULT_DEPTH) {
        return Ok(value);
    }
    drop_flat(value);
    Err(too_deep(model))
}

/// The `malformed_response` of a result nested past [`MAX_RESULT_DEPTH`].
fn too_deep(model: &ToolModel) -> Output {
    let mut report = Report::new();
    report.push(result_too_deep());
    let hint = RetryHint::build(model, &report, HintReason::MalformedResponse);
    Output::Malformed(Value::Null, report, Box::new(hint))
}

/// The issue of a result nested past [`MAX_RESULT_DEPTH`].
pub(crate) fn result_too_deep() -> toolgate_core::Issue {
    let message = format!("the result is nested deeper than {MAX_RESULT_DEPTH} levels");
    toolgate_core::Issue::new(
        toolgate_core::Path::root(),
        toolgate_core::Constraint::Limit,
        message,
    )
    .with_expected(Value::from(MAX_RESULT_DEPTH))
}

/// Drops a value of any depth without recursion: each container's children are moved out
/// before it is dropped.
fn drop_flat(value: Value) {
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::Array(items) => pending.extend(items),
            Value::Object(members) => pending.extend(members.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// Checks a result written as JSON: the issues and the hint when it breaks the output schema.
type OutputCheck = fn(&Value) -> Option<(Report, Box<RetryHint>)>;

/// A typed tool: arguments `T`, a handler giving `O` or an error `E`.
pub(crate) struct TypedTool<T, F> {
    definition: ToolDefinition,
    name: Arc<str>,
    handler: Arc<F>,
    check: OutputCheck,
    #[cfg_attr(not(feature = "mcp"), allow(dead_code))]
    output_model: Option<&'static ToolModel>,
    arguments: PhantomData<fn(T)>,
}

impl<T: Tool> TypedTool<T, ()> {
    fn definition(output_schema: Option<&str>) -> ToolDefinition {
        ToolDefinition {
            name: T::name().to_owned(),
            description: T::description().map(str::to_owned),
            input_schema: T::model().arguments_schema(),
            output_schema: output_schema.map(schema_value),
        }
    }
}

/// No output schema: nothing to check.
fn unchecked(_: &Value) -> Option<(Report, Box<RetryHint>)> {
    None
}

/// The checks of `O`'s model on a result written as JSON.
fn checked_by<O: Tool + DeserializeOwned>(value: &Value) -> Option<(Report, Box<RetryHint>)> {
    let rejected = O::decode_value(value).err()?;
    let hint = RetryHint::build(O::model(), &rejected.report, HintReason::MalformedResponse);
    Some((rejected.report, Box::new(hint)))
}

impl<T, F, Fut, O, E> TypedTool<T, F>
where
    T: Tool + DeserializeOwned + Send + 'static,
    F: Fn(T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, E>> + Send + 'static,
    O: Serialize + 'static,
    E: Display,
{
    /// A typed tool whose result is not checked.
    pub(crate) fn new(handler: F) -> Self {
        TypedTool {
            definition: TypedTool::<T, ()>::definition(None),
            name: Arc::from(T::name()),
            handler: Arc::new(handler),
            check: unchecked,
            output_model: None,
            arguments: PhantomData,
        }
    }

    fn launch(&self, value: T) -> Running {
        let check = self.check;
        launch(|| {
            let running = (self.handler)(value);
            Box::pin(async move {
                let result = running.await.map_err(|error| error.to_string())?;
                let Some(value) = into_json(result)? else {
                    return Ok(too_deep(T::model()));
                };
                let value = match within_depth(value, T::model()) {
                    Ok(value) => value,
                    Err(too_deep) => return Ok(too_deep),
                };
                Ok(match check(&value) {
                    None => Output::Fits(value, Vec::new()),
                    Some((report, hint)) => Output::Malformed(value, report, hint),
                })
            })
        })
    }
}

impl<T, F, Fut, E> TypedTool<T, F>
where
    T: ToolOutput + DeserializeOwned + Send + 'static,
    F: Fn(T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<T::Output, E>> + Send + 'static,
    T::Output: Serialize + DeserializeOwned + 'static,
    E: Display,
{
    /// A typed tool whose result is checked by its output type's model.
    pub(crate) fn with_output(handler: F) -> Self {
        TypedTool {
            definition: TypedTool::<T, ()>::definition(Some(T::Output::json_schema())),
            name: Arc::from(T::name()),
            handler: Arc::new(handler),
            check: checked_by::<T::Output>,
            output_model: Some(T::Output::model()),
            arguments: PhantomData,
        }
    }
}

impl<T, F, Fut, O, E> Registered for TypedTool<T, F>
where
    T: Tool + DeserializeOwned + Send + 'static,
    F: Fn(T) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<O, E>> + Send + 'static,
    O: Serialize + 'static,
    E: Display,
{
    fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn model(&self) -> &ToolModel {
        T::model()
    }

    fn output_model(&self) -> Option<&ToolModel> {
        self.output_model
    }

    fn gate(&self, arguments: &str) -> Result<(Arguments, Vec<Repair>), Rejected> {
        let decoded = T::decode(arguments)?;
        Ok((Arguments::typed(decoded.value), decoded.repairs))
    }

    fn stream_decoder(&self) -> StreamDecoder<'_> {
        StreamDecoder::for_model(T::model(), toolgate_core::decode::Options::typed())
    }

    fn run(&self, arguments: Arguments) -> Running {
        match arguments.into_typed::<T>() {
            Some(value) => self.launch(value),
            // `Arguments` lets a hook change the value but not its type, so this is not met.
            None => Err("the arguments are not of the tool's type".to_owned()),
        }
    }

    fn start(&self, arguments: &str, admit: &mut dyn FnMut() -> Result<(), Exceeded>) -> Started {
        started(T::decode(arguments), admit, |value| self.launch(value))
    }
}

/// A run-time tool: a definition read at run time, a handler on JSON values.
pub(crate) struct RuntimeTool<F> {
    definition: ToolDefinition,
    name: Arc<str>,
    input: DynamicTool,
    output: Option<DynamicTool>,
    handler: Arc<F>,
}

impl<F, Fut, E> RuntimeTool<F>
where
    F: Fn(Value) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, E>> + Send + 'static,
    E: Display,
{
    /// A tool from its definition (OpenAI, MCP, Anthropic or BFCL; an MCP `outputSchema`
    /// checks its results).
    pub(crate) fn new(definition: &Value, handler: F) -> Result<Self, RegistryError> {
        let input = DynamicTool::from_definition(definition)?;
        let name = input.model().name().to_owned();
        if name.is_empty() {
            return Err(RegistryError::Unnamed);
        }
        let parts = unwrap_definition(Json::from(definition));
        let output = match parts.output_schema {
            Some((_, schema)) => {
                let model = ToolModel::from_definition_json(schema)?;
                Some(DynamicTool::from_model(model))
            }
            None => None,
        };
        let model = input.model();
        let definition = ToolDefinition {
            description: model.description().map(str::to_owned),
            input_schema: model.arguments_schema(),
            output_schema: output
                .as_ref()
                .map(|output| schema_value(output.model().json_schema())),
            name,
        };
        Ok(RuntimeTool {
            name: Arc::from(definition.name.as_str()),
            definition,
            input,
            output,
            handler: Arc::new(handler),
        })
    }

    /// A tool gated by `input` (its name, description and schema are the model's), with no
    /// output check.
    #[cfg(feature = "mcp-proxy")]
    pub(crate) fn from_dynamic(input: DynamicTool, handler: F) -> Result<Self, RegistryError> {
        let name = input.model().name().to_owned();
        if name.is_empty() {
            return Err(RegistryError::Unnamed);
        }
        let model = input.model();
        let definition = ToolDefinition {
            description: model.description().map(str::to_owned),
            input_schema: model.arguments_schema(),
            output_schema: None,
            name,
        };
        Ok(RuntimeTool {
            name: Arc::from(definition.name.as_str()),
            definition,
            input,
            output: None,
            handler: Arc::new(handler),
        })
    }

    fn launch(&self, value: Value) -> Running {
        let output = self.output.clone();
        let input = self.input.clone();
        launch(|| {
            let running = (self.handler)(value);
            Box::pin(async move {
                let result = running.await.map_err(|error| error.to_string())?;
                let result = match within_depth(result, input.model()) {
                    Ok(result) => result,
                    Err(too_deep) => return Ok(too_deep),
                };
                let Some(output) = output else {
                    return Ok(Output::Fits(result, Vec::new()));
                };
                Ok(match output.decode_value(&result) {
                    Ok(decoded) => Output::Fits(decoded.value, decoded.repairs),
                    Err(rejected) => {
                        let hint = RetryHint::build(
                            output.model(),
                            &rejected.report,
                            HintReason::MalformedResponse,
                        );
                        Output::Malformed(result, rejected.report, Box::new(hint))
                    }
                })
            })
        })
    }
}

impl<F, Fut, E> Registered for RuntimeTool<F>
where
    F: Fn(Value) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, E>> + Send + 'static,
    E: Display,
{
    fn definition(&self) -> &ToolDefinition {
        &self.definition
    }

    fn name(&self) -> &Arc<str> {
        &self.name
    }

    fn model(&self) -> &ToolModel {
        self.input.model()
    }

    fn output_model(&self) -> Option<&ToolModel> {
        self.output.as_ref().map(DynamicTool::model)
    }

    fn gate(&self, arguments: &str) -> Result<(Arguments, Vec<Repair>), Rejected> {
        let decoded = self.input.decode(arguments)?;
        Ok((Arguments::json(decoded.value), decoded.repairs))
    }

    fn stream_decoder(&self) -> StreamDecoder<'_> {
        self.input.stream_decoder()
    }

    fn run(&self, arguments: Arguments) -> Running {
        match arguments.into_json() {
            Some(value) => self.launch(value),
            None => Err("the arguments are not JSON values".to_owned()),
        }
    }

    fn start(&self, arguments: &str, admit: &mut dyn FnMut() -> Result<(), Exceeded>) -> Started {
        started(self.input.decode(arguments), admit, |value| {
            self.launch(value)
        })
    }
}

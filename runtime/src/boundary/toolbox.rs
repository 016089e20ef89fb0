//! [`Toolbox`]: the registry every call goes through.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Display;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use toolgate_core::{suggest, Rejected, Repair, Tool, ToolOutput};
use tracing::Instrument;

use super::budget::{Budgets, Counted, Counter, ToolUsage, Usage};
use super::call::{CallFuture, Direct};
use super::envelope::{Envelope, Failure, Reason, MAX_LISTED_TOOLS};
use super::middleware::{Arguments, Decision, GatedCall, Middleware, RawCall};
use super::registry::{Registered, RegistryError, RuntimeTool, Started, ToolDefinition, TypedTool};
use super::run::Ran;
use super::stopped::{budget_exceeded, denied, invalid_arguments, MAX_ECHOED_NAME_CHARS};
use super::{run, telemetry};
use toolgate_core::issue::shorten_text;
use toolgate_core::model::ToolModel;

/// One call: a tool's name, its argument text, and the model's id for the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    /// The tool's name.
    pub tool: String,
    /// The argument text, as the model sent it.
    pub arguments: String,
    /// The call's id (`tool_call_id`, `tool_use_id`), when the model gave one.
    pub call_id: Option<String>,
}

impl Call {
    /// A call without an id.
    pub fn new(tool: impl Into<String>, arguments: impl Into<String>) -> Self {
        Call {
            tool: tool.into(),
            arguments: arguments.into(),
            call_id: None,
        }
    }

    /// The same call with the model's id for it.
    pub fn with_id(mut self, call_id: impl Into<String>) -> Self {
        self.call_id = Some(call_id.into());
        self
    }
}

/// A registered tool and its number (the place of its counts in a run's usage).
#[derive(Clone)]
struct Entry {
    id: usize,
    tool: Arc<dyn Registered>,
}

impl Entry {
    fn counter<'a>(&self, name: &'a str) -> Counter<'a> {
        Counter { id: self.id, name }
    }
}

/// A call the gate accepted, on the road with hooks.
struct Admitted {
    entry: Entry,
    arguments: Arguments,
    repairs: Vec<Repair>,
}

/// The tool boundary: the tools of an agent, each call of each gated before its tool runs,
/// each result returned as an [`Envelope`], within the [`Budgets`] of the run, with
/// [`Middleware`] around every call.
///
/// A toolbox is one run: its usage counts from zero; [`Toolbox::new_run`] gives a toolbox
/// with the same tools, hooks and budgets and nothing spent.
///
/// ```
/// use toolgate::boundary::{Reason, Toolbox};
///
/// /// Add two numbers.
/// #[derive(toolgate::Tool, serde::Deserialize)]
/// struct Add { a: i64, b: i64 }
///
/// let mut toolbox = Toolbox::new();
/// toolbox
///     .add_tool(|args: Add| async move { Ok::<_, String>(args.a + args.b) })
///     .unwrap();
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let sum = toolbox.call("add", r#"{"a": "2", "b": 3}"#).await;
/// assert_eq!(
///     sum.to_json(),
///     r#"{"tool":"add","ok":true,"value":5,"repairs":[{"path":"a","rule":"string_to_number","from":"2","to":2}]}"#
/// );
///
/// let refused = toolbox.call("add", r#"{"a": 2}"#).await;
/// assert_eq!(refused.reason(), Some(Reason::InvalidArguments));
/// assert_eq!(refused.hint.unwrap().missing_fields, ["b"]);
///
/// let unknown = toolbox.call("adds", "{}").await;
/// assert_eq!(unknown.error.unwrap().did_you_mean.as_deref(), Some("add"));
/// # });
/// ```
pub struct Toolbox {
    tools: BTreeMap<String, Entry>,
    middleware: Vec<Arc<dyn Middleware>>,
    budgets: Budgets,
    usage: Mutex<Usage>,
}

impl Default for Toolbox {
    fn default() -> Self {
        Toolbox::new()
    }
}

impl std::fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox")
            .field("tools", &self.tools.keys().collect::<Vec<_>>())
            .field("middleware", &self.middleware.len())
            .field("budgets", &self.budgets)
            .finish_non_exhaustive()
    }
}

impl Toolbox {
    /// The tool named `name`, as registered.
    /// Whether a hook may change a call before the gate.
    pub(super) fn has_middleware(&self) -> bool {
        !self.middleware.is_empty()
    }

    pub(super) fn registered(&self, name: &str) -> Option<&dyn Registered> {
        self.tools.get(name).map(|entry| &*entry.tool)
    }

    /// An empty toolbox with default budgets (none but stall detection).
    pub fn new() -> Self {
        Toolbox {
            tools: BTreeMap::new(),
            middleware: Vec::new(),
            budgets: Budgets::new(),
            usage: Mutex::new(Usage::default()),
        }
    }

    /// The same toolbox with these budgets.
    pub fn with_budgets(mut self, budgets: Budgets) -> Self {
        self.budgets = budgets;
        self
    }

    /// A toolbox with the same tools, middleware and budgets, and nothing spent: the next
    /// run of the agent.
    pub fn new_run(&self) -> Toolbox {
        Toolbox {
            tools: self.tools.clone(),
            middleware: self.middleware.clone(),
            budgets: self.budgets.clone(),
            usage: Mutex::new(Usage::default()),
        }
    }

    /// Adds a typed tool: a `#[derive(Tool, Deserialize)]` type and an async handler. Its
    /// result is written as JSON for the envelope, unchecked (see
    /// [`Toolbox::add_tool_with_output`]).
    pub fn add_tool<T, F, Fut, O, E>(&mut self, handler: F) -> Result<&mut Self, RegistryError>
    where
        T: Tool + DeserializeOwned + Send + 'static,
        F: Fn(T) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<O, E>> + Send + 'static,
        O: Serialize + 'static,
        E: Display + 'static,
    {
        self.register(Arc::new(TypedTool::new(handler)))
    }

    /// Adds a typed tool whose result type is declared ([`ToolOutput`]): the result is
    /// checked by that type's model, and a result that breaks it is a `malformed_response`.
    pub fn add_tool_with_output<T, F, Fut, E>(
        &mut self,
        handler: F,
    ) -> Result<&mut Self, RegistryError>
    where
        T: ToolOutput + DeserializeOwned + Send + 'static,
        F: Fn(T) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<T::Output, E>> + Send + 'static,
        T::Output: Serialize + DeserializeOwned + 'static,
        E: Display + 'static,
    {
        self.register(Arc::new(TypedTool::with_output(handler)))
    }

    /// Adds a run-time tool: a definition (OpenAI, MCP, Anthropic or BFCL shape; an MCP
    /// `outputSchema` checks the results, repairing them as arguments are) and an async
    /// handler on JSON values.
    ///
    /// ```
    /// use serde_json::{json, Value};
    /// use toolgate::boundary::Toolbox;
    ///
    /// let mut toolbox = Toolbox::new();
    /// let definition = json!({
    ///     "name": "echo",
    ///     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    /// });
    /// toolbox
    ///     .add_runtime_tool(&definition, |args: Value| async move { Ok::<_, String>(args["text"].clone()) })
    ///     .unwrap();
    /// assert_eq!(toolbox.definitions()[0].name, "echo");
    /// ```
    pub fn add_runtime_tool<F, Fut, E>(
        &mut self,
        definition: &Value,
        handler: F,
    ) -> Result<&mut Self, RegistryError>
    where
        F: Fn(Value) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, E>> + Send + 'static,
        E: Display + 'static,
    {
        self.register(Arc::new(RuntimeTool::new(definition, handler)?))
    }

    /// Adds a run-time tool gated by `input` whose handler gives the accepted arguments back
    /// (the MCP proxy's tools: the tool itself is the upstream server).
    #[cfg(feature = "mcp-proxy")]
    pub(crate) fn add_pass_through_tool(
        &mut self,
        input: toolgate_core::DynamicTool,
    ) -> Result<&mut Self, RegistryError> {
        let pass_through = |arguments: Value| std::future::ready(Ok::<_, String>(arguments));
        self.register(Arc::new(RuntimeTool::from_dynamic(input, pass_through)?))
    }

    fn register(&mut self, tool: Arc<dyn Registered>) -> Result<&mut Self, RegistryError> {
        let name = tool.definition().name.clone();
        if self.tools.contains_key(&name) {
            return Err(RegistryError::Duplicate(name));
        }
        let id = self.tools.len();
        self.tools.insert(name, Entry { id, tool });
        Ok(self)
    }

    /// Adds a hook that runs around every call, after those added before it.
    pub fn add_middleware(&mut self, middleware: impl Middleware + 'static) -> &mut Self {
        self.middleware.push(Arc::new(middleware));
        self
    }

    /// The tools' definitions, in name order.
    pub fn definitions(&self) -> Vec<ToolDefinition> {
        self.tools
            .values()
            .map(|entry| entry.tool.definition().clone())
            .collect()
    }

    /// The type rules of the tools, within `budget` characters, for the system prompt (layer
    /// 1 of the repair loop: see [`crate::prompt`]).
    ///
    /// ```
    /// use toolgate::boundary::Toolbox;
    ///
    /// /// Add two numbers.
    /// #[derive(toolgate::Tool, serde::Deserialize)]
    /// struct Add { a: i64, b: i64 }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.add_tool(|args: Add| async move { Ok::<_, String>(args.a + args.b) }).unwrap();
    /// let rules = toolbox.prompt_rules(toolgate::prompt::DEFAULT_PROMPT_BUDGET);
    /// assert!(rules.text.ends_with("add (required: a, b):\n- a: integer\n- b: integer"));
    /// ```
    pub fn prompt_rules(&self, budget: usize) -> crate::prompt::PromptRules {
        crate::prompt::prompt_rules_within(
            self.tools.values().map(|entry| entry.tool.model()),
            budget,
        )
    }

    /// Every tool's definition in a provider's shape (`flavour`; see
    /// [`FlavouredSchema::definition`](crate::flavour::FlavouredSchema::definition)), ready
    /// to send in one request, or the first tool the flavour cannot express, or the limit the
    /// tools pass together (Anthropic's strict tool use: 20 tools, 24 optional properties, 16
    /// unions in all). A constraint the flavour drops is still enforced: calls are gated by
    /// the full model.
    ///
    /// ```
    /// use toolgate::boundary::Toolbox;
    /// use toolgate::flavour::Flavour;
    ///
    /// /// Add two numbers.
    /// #[derive(toolgate::Tool, serde::Deserialize)]
    /// struct Add { a: i64, b: Option<i64> }
    ///
    /// let mut toolbox = Toolbox::new();
    /// toolbox.add_tool(|args: Add| async move { Ok::<_, String>(args.a + args.b.unwrap_or(0)) }).unwrap();
    /// let tools = toolbox.definitions_for(Flavour::OpenAiStrict).unwrap();
    /// assert_eq!(tools[0]["function"]["strict"], true);
    /// assert_eq!(tools[0]["function"]["parameters"]["required"], serde_json::json!(["a", "b"]));
    /// ```
    pub fn definitions_for(
        &self,
        flavour: crate::flavour::Flavour,
    ) -> Result<Vec<serde_json::Value>, crate::flavour::FlavourError> {
        let models = self.tools.values().map(|entry| entry.tool.model());
        let definitions = crate::flavour::request_definitions(flavour, models)?;
        Ok(definitions
            .iter()
            .map(|definition| definition.to_value())
            .collect())
    }

    /// The definition of the tool `name`, if there is one.
    pub fn definition(&self, name: &str) -> Option<&ToolDefinition> {
        self.tools.get(name).map(|entry| entry.tool.definition())
    }

    /// Each tool's definition with the models of its arguments and of its result (when it
    /// declares one), in name order: what a server lists through a flavour.
    #[cfg(feature = "mcp")]
    pub(crate) fn listed(
        &self,
    ) -> impl Iterator<Item = (&ToolDefinition, &ToolModel, Option<&ToolModel>)> {
        self.tools.values().map(|entry| {
            let tool = &entry.tool;
            (tool.definition(), tool.model(), tool.output_model())
        })
    }

    /// The model of the tool `name`, if there is one (the repair loop's merge finds fields by it).
    pub(crate) fn model(&self, name: &str) -> Option<&ToolModel> {
        self.tools.get(name).map(|entry| entry.tool.model())
    }

    /// The budgets of the run.
    pub fn budgets(&self) -> &Budgets {
        &self.budgets
    }

    /// What the tool `name` has spent in this run.
    pub fn usage(&self, name: &str) -> ToolUsage {
        match self.tools.get(name) {
            Some(entry) => self.lock().of(entry.id),
            None => ToolUsage::default(),
        }
    }

    /// Current usage and what is left, in a few sentences for the system prompt.
    ///
    /// ```
    /// use toolgate::boundary::{Budgets, Toolbox};
    ///
    /// let toolbox = Toolbox::new().with_budgets(Budgets::new().calls_total(10));
    /// assert_eq!(toolbox.state_fragment(), "Tool calls so far: 0 of 10; refused: 0; failed: 0.");
    /// ```
    pub fn state_fragment(&self) -> String {
        let tools: Vec<Counter<'_>> = self
            .tools
            .iter()
            .map(|(name, entry)| entry.counter(name))
            .collect();
        self.lock().fragment(&self.budgets, &tools)
    }

    fn lock(&self) -> MutexGuard<'_, Usage> {
        // The usage is counts only, never left half-written: a panic elsewhere does not spoil it.
        self.usage.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Calls the tool `name` with argument text: the gate first, then the tool.
    ///
    /// Nothing happens until the future is first polled (see [`CallFuture`]).
    pub fn call<'a>(&'a self, name: &'a str, arguments: &'a str) -> CallFuture<'a> {
        CallFuture::start(self, Cow::Borrowed(name), Cow::Borrowed(arguments), None)
    }

    /// Runs the calls at once and returns their envelopes in the order of the calls.
    ///
    /// Budgets hold across the batch: two calls of a tool with one call left give one
    /// result and one `budget_exceeded`.
    pub async fn call_all(&self, calls: impl IntoIterator<Item = Call>) -> Vec<Envelope> {
        futures_util::future::join_all(calls.into_iter().map(|call| self.call_with(call))).await
    }

    /// Calls a tool: see [`Toolbox::call`].
    pub fn call_with(&self, call: Call) -> CallFuture<'_> {
        CallFuture::start(
            self,
            Cow::Owned(call.tool),
            Cow::Owned(call.arguments),
            call.call_id,
        )
    }

    /// Begins a call (on its future's first poll).
    pub(crate) fn begin(
        &self,
        name: &str,
        arguments: &str,
        call_id: Option<String>,
    ) -> CallFuture<'_> {
        let span = telemetry::call_span(name, call_id.as_deref());
        if !span.is_disabled() || !self.middleware.is_empty() {
            let (name, arguments) = (name.to_owned(), arguments.to_owned());
            return CallFuture::boxed(Box::pin(async move {
                self.full_call(span, &name, &arguments, call_id).await
            }));
        }
        match self.direct(name, arguments) {
            Ok(mut direct) => {
                direct.call_id = call_id;
                CallFuture::direct(direct)
            }
            Err(mut envelope) => {
                telemetry::ended(&span, &envelope, None);
                envelope.call_id = call_id;
                CallFuture::ready(*envelope)
            }
        }
    }

    /// Counts how a call ended, for the future of a call.
    pub(crate) fn count(&self, counter: Counter<'_>, counted: Counted) {
        // Only a refusal's count reads the arguments (for stall detection).
        self.lock().count(counter, "", counted);
    }

    /// A call with its span recorded, or through hooks.
    async fn full_call(
        &self,
        span: tracing::Span,
        name: &str,
        arguments: &str,
        call_id: Option<String>,
    ) -> Envelope {
        let started = (!span.is_disabled()).then(Instant::now);
        let envelope = if span.is_disabled() {
            self.run_call(name, arguments, call_id).await
        } else {
            self.run_call(name, arguments, call_id)
                .instrument(span.clone())
                .await
        };
        let _inside = span.enter();
        telemetry::ended(&span, &envelope, started.map(|at| at.elapsed()));
        if telemetry::budget_state_wanted() {
            telemetry::budget_state(self.lock().total());
        }
        envelope
    }

    async fn run_call(&self, name: &str, arguments: &str, call_id: Option<String>) -> Envelope {
        if self.middleware.is_empty() {
            // No hook may change the call: it is gated as borrowed.
            return match self.direct(name, arguments) {
                Ok(mut direct) => {
                    direct.call_id = call_id;
                    direct.tells = false;
                    CallFuture::direct(direct).await
                }
                Err(envelope) => envelope.with_call_id(call_id),
            };
        }
        self.with_hooks(name, arguments, call_id).await
    }

    async fn with_hooks(&self, name: &str, arguments: &str, call_id: Option<String>) -> Envelope {
        let mut raw = RawCall {
            tool: name.to_owned(),
            arguments: arguments.to_owned(),
            call_id,
        };
        for middleware in &self.middleware {
            if let Decision::Deny(message) = middleware.before_gate(&mut raw).await {
                return denied(&raw.tool, middleware.name(), message).with_call_id(raw.call_id);
            }
        }
        let call_id = raw.call_id.take();
        self.gate_and_run(&raw.tool, &raw.arguments, call_id).await
    }

    /// The tool looked up, the budgets, the gate: the arguments and repairs of an accepted
    /// call, or the envelope of one stopped here.
    fn admit(&self, name: &str, arguments: &str) -> Result<Admitted, Box<Envelope>> {
        let Some(entry) = self.tools.get(name) else {
            self.lock().break_stall();
            return Err(Box::new(self.unknown_tool(name)));
        };
        let counter = entry.counter(name);
        if let Some(exceeded) = self.lock().check(&self.budgets, counter, arguments) {
            return Err(Box::new(budget_exceeded(name, exceeded)));
        }
        match entry.tool.gate(arguments) {
            Ok((accepted, repairs)) => Ok(Admitted {
                entry: entry.clone(),
                arguments: accepted,
                repairs,
            }),
            Err(rejected) => Err(Box::new(self.refused(name, counter, arguments, &rejected))),
        }
    }

    /// The envelope of a call the gate refused, on both roads: the budgets a refusal meets (a
    /// stall, a spent refusal budget) are checked again and the refusal counted under one
    /// lock, so calls refused at once cannot pass a refusal budget together (the gate ran
    /// without the lock, and other calls may have been counted meanwhile).
    fn refused(
        &self,
        name: &str,
        counter: Counter<'_>,
        arguments: &str,
        rejected: &Rejected,
    ) -> Envelope {
        let exceeded = {
            let mut usage = self.lock();
            let exceeded = usage.check(&self.budgets, counter, arguments);
            if exceeded.is_none() {
                usage.count(counter, arguments, Counted::Refused);
            }
            exceeded
        };
        match exceeded {
            Some(exceeded) => budget_exceeded(name, exceeded),
            None => invalid_arguments(name, rejected),
        }
    }

    /// The road of a toolbox without hooks, up to the tool: the gate, one lock for the
    /// budgets and the count, the tool started. The arguments go from the gate to the tool
    /// without a box.
    fn direct(&self, name: &str, arguments: &str) -> Result<Direct<'_>, Box<Envelope>> {
        let Some((key, entry)) = self.tools.get_key_value(name) else {
            self.lock().break_stall();
            return Err(Box::new(self.unknown_tool(name)));
        };
        let counter = entry.counter(key);
        let started = entry.tool.start(arguments, &mut || {
            let mut usage = self.lock();
            match usage.check(&self.budgets, counter, arguments) {
                Some(exceeded) => Err(exceeded),
                None => usage.start(&self.budgets, counter),
            }
        });
        match started {
            Started::Running(Ok(running), repairs) => Ok(Direct {
                toolbox: self,
                tool: &*entry.tool,
                counter,
                running,
                timeout: self.budgets.call_timeout(),
                sleep: None,
                repairs,
                call_id: None,
                tells: true,
            }),
            Started::Running(Err(panic), repairs) => {
                self.lock().count(counter, arguments, Counted::Failed);
                Err(Box::new(run::envelope_of(
                    &*entry.tool,
                    Ran::Panicked(panic),
                    repairs,
                )))
            }
            Started::Stopped(exceeded) => Err(Box::new(budget_exceeded(name, exceeded))),
            Started::Refused(rejected) => {
                Err(Box::new(self.refused(name, counter, arguments, &rejected)))
            }
        }
    }

    /// The road with hooks: the gate, the `after_gate` hooks, the budgets, the tool, the
    /// `after_handler` hooks.
    async fn gate_and_run(&self, name: &str, arguments: &str, call_id: Option<String>) -> Envelope {
        let Admitted {
            entry,
            arguments: accepted,
            repairs,
        } = match self.admit(name, arguments) {
            Ok(admitted) => admitted,
            Err(envelope) => return envelope.with_call_id(call_id),
        };
        let (accepted, repairs, call_id) = {
            let mut gated = GatedCall {
                tool: Arc::clone(entry.tool.name()),
                call_id,
                arguments: accepted,
                repairs,
            };
            for middleware in &self.middleware {
                if let Decision::Deny(message) = middleware.after_gate(&mut gated).await {
                    self.lock()
                        .count(entry.counter(name), arguments, Counted::NotRun);
                    let mut envelope = denied(name, middleware.name(), message);
                    envelope.repairs = gated.repairs;
                    return envelope.with_call_id(gated.call_id);
                }
            }
            (gated.arguments, gated.repairs, gated.call_id)
        };
        // Checked again with the call's count, under one lock: the hooks awaited in between,
        // and calls running at once may have spent a budget meanwhile.
        let started = {
            let mut usage = self.lock();
            let counter = entry.counter(name);
            match usage.check(&self.budgets, counter, arguments) {
                Some(exceeded) => Err(exceeded),
                None => usage.start(&self.budgets, counter),
            }
        };
        if let Err(exceeded) = started {
            return budget_exceeded(name, exceeded).with_call_id(call_id);
        }
        let running = entry.tool.run(accepted);
        let ran = run::ran(running, self.budgets.call_timeout()).await;
        let mut envelope = run::envelope_of(&*entry.tool, ran, repairs);
        if envelope.error.is_some() {
            self.lock()
                .count(entry.counter(name), arguments, Counted::Failed);
        }
        for middleware in &self.middleware {
            if let Decision::Deny(message) = middleware.after_handler(name, &mut envelope).await {
                let repairs = std::mem::take(&mut envelope.repairs);
                envelope = denied(name, middleware.name(), message);
                envelope.repairs = repairs;
                break;
            }
        }
        envelope.with_call_id(call_id)
    }

    fn unknown_tool(&self, name: &str) -> Envelope {
        let names = self.tools.keys().map(String::as_str);
        // Names echoed are shortened: a registry filled from another server's tool list may
        // hold names of any length.
        let did_you_mean =
            suggest::nearest(name, names).map(|near| shorten_text(near, MAX_ECHOED_NAME_CHARS));
        let shown = shorten_text(name, MAX_ECHOED_NAME_CHARS);
        let message = match &did_you_mean {
            Some(nearest) => format!("there is no tool named {shown:?}; did you mean {nearest:?}?"),
            None => format!("there is no tool named {shown:?}"),
        };
        let mut failure = Failure::new(Reason::UnknownTool, message);
        failure.did_you_mean = did_you_mean;
        failure.tools = self
            .tools
            .keys()
            .take(MAX_LISTED_TOOLS)
            .map(|tool| shorten_text(tool, MAX_ECHOED_NAME_CHARS))
            .collect();
        failure.tools_omitted = self.tools.len().saturating_sub(MAX_LISTED_TOOLS);
        Envelope::failure(shown, failure, None)
    }
}

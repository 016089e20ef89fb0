//! The one-pass coercing decoder: argument text in, a value out with every repair logged —
//! or every issue, never only the first.
//!
//! A repair is made only when the text, read as the model evidently meant it, maps to exactly
//! one value of the target type and nothing is invented, rounded, truncated or guessed
//! (DESIGN.md, 'Repairs: lossless or refuse'). The stages:
//!
//! 1. **text**: strict JSON; only if that fails, the `json_text` repair (fences, prose,
//!    trailing commas, single quotes, Python literals, unquoted keys, comments). Text cut off
//!    before its end is refused with `syntax`. Arguments sent as a JSON string of an object
//!    are read from inside it (`double_encoded`).
//! 2. **walk**: the value is walked with the tool model; each value is repaired where a rule
//!    allows, checked against every constraint (the same checks as `Tool::validate`), and
//!    every issue is collected with its path, in document order; absent required fields
//!    have no place in the document and come after the issues of their object's members,
//!    in field order.
//!
//! Decisions DESIGN.md leaves open, taken here:
//! - A declared default is filled in only when it fits the field's own schema: toolgate
//!   never inserts a value its schema refuses (BFCL has `"default": "false"` on booleans).
//! - Typed tools drop unknown keys with a log entry of rule `drop_unknown_key`.
//! - [`Options::strict`] turns every rule off, `default` included; typed values still get
//!   serde's own defaults (a Rust field needs a value), without a log entry.
//! - Duplicate keys with different values are refused (`syntax`): which one was meant is a
//!   guess. Equal duplicates are accepted. This holds at every depth, inside values of any
//!   type and undeclared keys kept as sent too (a map would keep the last silently).
//! - A call valid as sent passes untouched (issue 43 §1): `key_case` renames a key only
//!   for a field the call left out. Two keys that fold to one field (`Query` and `QUERY` for
//!   `query`) are a `key_case` tie: refused (`syntax` at the field, one issue listing the
//!   keys), whatever their values. The field's exact name and a key that folds to it
//!   (`query` and `Query`, in either order) tie only where the object denies undeclared keys
//!   or a typed tool would drop them; where it keeps them, `Query` is an undeclared key like
//!   any other, as JSON Schema says. With `key_case` off, a key in another case is an
//!   undeclared key like any other.
//! - **Near misses** (issue 43 §2): where an object takes undeclared keys (keeps or drops
//!   them), one whose "did you mean" ([`crate::suggest::nearest`] among the object's field
//!   names) is a field the call left out is what the model meant for that field: refused
//!   (`additionalProperties`, with that "did you mean"), never kept or dropped while the tool
//!   runs without the field (`{"query": "crash", "lables": ["bug"]}` for an optional
//!   `labels`). One that folds to the field alone is renamed by `key_case` instead, as
//!   DESIGN says. A key near a field the call gave is an undeclared key like any other.
//!   [`NearMisses::Undeclared`] turns this off; [`Options::strict`] and the value checker
//!   judge as JSON Schema does.
//! - `null_as_absent` takes a `null` for the field left out only where the field's schema
//!   takes no `null` anywhere (nullable, `{}`, an alternative of a union, an enum value).
//! - A number's integrality is judged on its digits: `5.0`, `1.2e1` are integers;
//!   `1.0000000000000001`, `4.9999999999999999` and `1e-400`, which a float rounds to an
//!   integer, are not (a `type` issue where an integer is wanted; as a number they read as
//!   the nearest float, as every JSON reader gives them). `-0` is the integer 0. A number
//!   beyond a 64-bit float (`1e400`) is a `limit` issue.
//! - An integer is made of the digits, never of the float (issue 27 §1): `9007199254740993.0`,
//!   `9.007199254740993e15` and `"90071992547409930e-1"` are `9007199254740993` at an
//!   integer, an integer `enum` and an integer `const` (a float without text, in a `Value`,
//!   is taken at its shortest text). An integer outside the schema's bounds (a Rust width's
//!   range) is refused with that bound; one beyond `i64::MIN..=u64::MAX`, which a
//!   `serde_json::Value` cannot carry, with a `limit` issue, even for `u128`/`i128` fields
//!   (see `walk/integers.rs`).
//! - A string holding JSON that nests deeper than the room left is a `limit` issue, not a
//!   `type` one.
//! - `wrap_in_array` never wraps a string that starts with `{` or `[` (a failed collection
//!   literal), nor a separated list (`"a, b"`, `"a; b"`, several lines) where the items are
//!   strings: one item or several is a guess, so it is refused and the hint shows the array
//!   it may mean.
//! - A union chooses its alternative first, then repairs and fills defaults within that
//!   alternative only. `anyOf`: a fit as sent (the one filling the fewest defaults), else the
//!   fit with the fewest repairs; ties go to the first. `oneOf`: exactly one fit as sent, else
//!   exactly one fit after repairs whose repaired value, sent again, fits one alternative
//!   (never a value its own schema refuses). When nothing fits, the issues of the
//!   alternative the value was meant for (its discriminator, the only alternative of its JSON
//!   type, or the only one without a structural mismatch) are reported at their own paths;
//!   else a `type` issue listing the types (no alternative takes the value's JSON type: a type
//!   list), an `enum` issue (a union of literals, which also gets `enum_case`), or one
//!   `oneOf`/`anyOf` issue whose `expected` lists what the alternatives want.
//! - Unions nest at most [`MAX_NESTED_UNIONS`] deep at one value. The schema reader refuses
//!   a schema that nests them deeper (or that refers back to itself through them), so a
//!   schema it read never meets the limit; a schema built in code that does gets a `schema`
//!   issue naming the limit (and the cycle, when it refers back to itself) instead of a
//!   stack overflow. `wrap_in_array` wraps a value only while fewer than that many unions
//!   and wraps nest at it: past it the value is not wrapped (a `type` issue), so a tree
//!   (`A = anyOf[array of A, integer]`) answers any value.
//! - `max_depth` counts nested containers (objects and arrays), the same way for strict and
//!   lenient text, for strings holding JSON and for `any` values; it is enforced while the
//!   text is read, so no input can overflow the stack. At most [`MAX_DEPTH`].
//! - A scalar repair (`string_to_number`, `float_to_integer`, `string_to_bool`,
//!   `number_to_bool`, `scalar_to_string`) is logged only when the repaired value passes its
//!   checks: `"300"` for a `u8` is refused with `maximum`, and nothing is logged for it. The
//!   structural repairs (`json_text`, `double_encoded`, `json_string`, `key_case`,
//!   `null_as_absent`) are logged as made, even when what they lead to is refused: the log
//!   then shows how the issues' paths were reached.

mod rules;
pub(crate) mod splice;
mod text;
mod walk;
pub(crate) use walk::filled_default;

use std::fmt;
use std::sync::{Arc, OnceLock};

use serde_json::Value;

pub use crate::limits::{MAX_DEPTH, MAX_NESTED_UNIONS};
pub use crate::read::tokens::is_json_number;
pub(crate) use rules::cap_repairs;
pub use rules::{NearMisses, Options, Repair, Rule, UnknownKeys, MAX_REPAIRS};
pub use text::{read_lenient, read_lenient_value, TextError};
pub use walk::separated_items;
pub(crate) use walk::{null_as_absent, stream_text, Decoder, KeyStep, ObjectRun, Streamed};

mod check_value;
pub(crate) use check_value::every_default_fits;

use crate::model::{Json, ToolModel};
use crate::{Constraint, HintReason, Issue, Path, Report, RetryHint};

/// Why strict JSON text could not be read.
#[derive(Debug)]
pub(crate) enum StrictError {
    /// Nested deeper than allowed.
    TooDeep,
    /// A number beyond the range of a 64-bit float (`1e400`): valid JSON, but no value
    /// toolgate can hold.
    NumberOutOfRange,
    /// Not strict JSON; what the tokenizer read from the text's first character
    /// ([`read_whole`]), or `None` where serde_json's reader found it ([`parse_strict`]).
    NotStrict(Option<text::FirstRead>),
}

/// Whether `error`'s message starts with `prefix`: how serde_json's errors, which carry no
/// code a caller can read, are told apart. Only the first bytes are written, on the stack.
pub(crate) fn message_starts_with(error: &impl std::fmt::Display, prefix: &str) -> bool {
    MessageStart::of(error).starts_with(prefix)
}

/// The first bytes of an error's message, written on the stack: enough to tell serde_json's
/// errors apart without writing (and allocating) the whole message with its position.
struct MessageStart {
    bytes: [u8; MessageStart::KEPT],
    length: usize,
}

impl MessageStart {
    /// Longer than every message start looked for.
    const KEPT: usize = 32;

    fn of(error: &impl std::fmt::Display) -> Self {
        use std::fmt::Write as _;
        let mut start = MessageStart {
            bytes: [0; Self::KEPT],
            length: 0,
        };
        // The writer refuses past `KEPT` bytes, which ends the writing early.
        let _ = write!(start, "{error}");
        start
    }

    fn starts_with(&self, prefix: &str) -> bool {
        self.bytes[..self.length].starts_with(prefix.as_bytes())
    }
}

impl std::fmt::Write for MessageStart {
    fn write_str(&mut self, text: &str) -> std::fmt::Result {
        let room = Self::KEPT - self.length;
        let taken = text.len().min(room);
        self.bytes[self.length..self.length + taken].copy_from_slice(&text.as_bytes()[..taken]);
        self.length += taken;
        if taken < text.len() {
            return Err(std::fmt::Error);
        }
        Ok(())
    }
}

/// Reads strict JSON text with at most `max_depth` nested containers, by serde_json's reader,
/// each float read again with its digits ([`Json::from_number_text`]: rounded, `-0`, spelled
/// otherwise). Text that is not strict JSON is [`StrictError::NotStrict`], not read further.
/// No road reads with it: it is what [`read_whole`] is held to in tests and measured against.
pub(crate) fn parse_strict(text: &str, max_depth: usize) -> Result<Json, StrictError> {
    use serde::de::DeserializeSeed;
    let notes = crate::model::ReadNotes::default();
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let read = crate::model::ArgumentSeed {
        max_depth: max_depth.min(MAX_DEPTH),
        notes: &notes,
    }
    .deserialize(&mut deserializer)
    .and_then(|json| deserializer.end().map(|()| json));
    let mut json = read.map_err(|error| {
        // serde_json's errors carry a kind (syntax, data, end of input) but not which one:
        // its recursion limit (never reached first: `MAX_DEPTH` is below it) and a number
        // past `f64` are known by their message.
        if notes.too_deep.get() || message_starts_with(&error, "recursion limit exceeded") {
            StrictError::TooDeep
        } else if message_starts_with(&error, "number out of range") {
            StrictError::NumberOutOfRange
        } else {
            StrictError::NotStrict(None)
        }
    })?;
    if notes.floats_read.get() {
        crate::model::mark_number_texts(&mut json, text.as_bytes());
    }
    Ok(json)
}

/// Reads a whole text once, strict or lenient, with at most `max_depth` nested containers,
/// each number as its digits say, by the cursor of [`crate::read`]: strict JSON is the
/// value; text that is not is [`StrictError::NotStrict`], with what the lenient rules read
/// from its first character (so lenient text that starts with its value is read once); a
/// number past `f64` or nesting past `max_depth` where everything before it was strict JSON
/// is that error, as a strict reader finds it.
pub(crate) fn read_whole(text: &str, max_depth: usize) -> Result<Json, StrictError> {
    let start = text.len() - text.trim_start_matches(JSON_SPACE).len();
    let mut leniency = crate::read::Leniency::default();
    match crate::read::read_tree_noting(text, start, max_depth.min(MAX_DEPTH), &mut leniency) {
        Ok(read)
            if read.leniency.is_strict()
                && text[read.end..].trim_start_matches(JSON_SPACE).is_empty() =>
        {
            Ok(read.json)
        }
        Ok(read) => Err(StrictError::NotStrict(Some((start, Ok(Box::new(read)))))),
        Err(TextError::TooDeep) if leniency.is_strict() => Err(StrictError::TooDeep),
        Err(TextError::NumberOutOfRange { .. }) if leniency.is_strict() => {
            Err(StrictError::NumberOutOfRange)
        }
        Err(error) => Err(StrictError::NotStrict(Some((start, Err(error))))),
    }
}

/// JSON's white space.
pub(crate) const JSON_SPACE: [char; 4] = [' ', '\t', '\n', '\r'];

/// serde_json's error on text that is not strict JSON: its message says where and what, for
/// a refusal when the `json_text` repair is off (read only then).
fn strict_reader_error(text: &str) -> serde_json::Error {
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Err(error) => error,
        Ok(_) => serde::de::Error::custom("not strict JSON"),
    }
}

/// Most union alternatives tried while decoding or checking one value; past it, the value is
/// refused with a `limit` issue (never accepted on the alternatives tried so far).
pub const MAX_UNION_TRIALS: usize = 10_000;

/// Most values read again by union trials while decoding or checking one value (each trial
/// reads the value it tries): the work of trials is bounded, not only their count.
pub const MAX_TRIAL_NODES: usize = 2_000_000;

/// Arguments accepted: the value, and every repair made to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded<T> {
    /// The arguments, repaired.
    pub value: T,
    /// The repairs, in document order (at most [`MAX_REPAIRS`]).
    pub repairs: Vec<Repair>,
    /// How many repairs were made past [`MAX_REPAIRS`], not logged.
    pub repairs_left_out: usize,
}

impl<T> Decoded<T> {
    /// Whether the call was repaired: a rule changed what it sent ([`Rule::is_repair`]; a
    /// default filled in does not), or repairs were made past the log's cap.
    ///
    /// ```
    /// use toolgate_core::DynamicTool;
    ///
    /// let tool = DynamicTool::from_definition(&serde_json::json!({"name": "t", "parameters":
    ///     {"type": "object", "properties": {"n": {"type": "integer", "default": 3}}}})).unwrap();
    /// assert!(!tool.decode("{}").unwrap().is_repaired());
    /// assert!(tool.decode(r#"{"n": "4"}"#).unwrap().is_repaired());
    /// ```
    pub fn is_repaired(&self) -> bool {
        self.repairs_left_out > 0 || self.repairs.iter().any(|repair| repair.rule.is_repair())
    }
}

/// Arguments refused: every issue, the repairs made on the way, and the retry hint.
///
/// The hint is built when [`Rejected::hint`] is first called, not before: a refusal that
/// nobody renders (a log line, a `Lenient<T>` error, a repair loop that only counts) costs
/// nothing for it. Refusals of a typed tool or a [`crate::DynamicTool`] keep a handle on the
/// tool model for that; the free functions ([`decode_text`], [`decode_value`],
/// [`decode_json`]) borrow the model and so build the hint before they return.
#[derive(Clone)]
pub struct Rejected {
    /// Every issue, in document order.
    pub report: Report,
    /// The repairs made before the issues were found (at most [`MAX_REPAIRS`]).
    pub repairs: Vec<Repair>,
    /// How many repairs were made past [`MAX_REPAIRS`], not logged.
    pub repairs_left_out: usize,
    model: Option<HintModel>,
    hint: OnceLock<Box<RetryHint>>,
}

/// The tool model a refusal builds its hint from, when asked.
#[derive(Clone)]
pub(crate) enum HintModel {
    /// A typed tool's model, built once for the life of the program.
    Static(&'static ToolModel),
    /// A run-time tool's model.
    Shared(Arc<ToolModel>),
}

/// A refusal before its hint: what the walk found.
#[derive(Debug)]
pub(crate) struct Refused {
    pub(crate) report: Report,
    pub(crate) repairs: Vec<Repair>,
    pub(crate) repairs_left_out: usize,
}

impl Refused {
    /// The refusal, its hint to be built from `model` when first asked for.
    pub(crate) fn with_model(self, model: HintModel) -> Rejected {
        Rejected {
            report: self.report,
            repairs: self.repairs,
            repairs_left_out: self.repairs_left_out,
            model: Some(model),
            hint: OnceLock::new(),
        }
    }

    /// The refusal with its hint built now, from a borrowed model.
    pub(crate) fn with_hint_from(self, model: &ToolModel) -> Rejected {
        let hint = RetryHint::build(model, &self.report, HintReason::InvalidArguments);
        Rejected {
            report: self.report,
            repairs: self.repairs,
            repairs_left_out: self.repairs_left_out,
            model: None,
            hint: OnceLock::from(Box::new(hint)),
        }
    }
}

impl Rejected {
    /// The retry hint for the model (built on the first call).
    pub fn hint(&self) -> &RetryHint {
        self.hint.get_or_init(|| {
            Box::new(RetryHint::build(
                self.hint_model(),
                &self.report,
                HintReason::InvalidArguments,
            ))
        })
    }

    /// The retry hint's compact JSON, the text a tool result sends back to the model: equal
    /// to `self.hint().to_json()`, and cheaper when the hint is not built yet, as it is
    /// written straight from the issues and the tool model ([`RetryHint::build_json`])
    /// without making the hint's owned parts (nor keeping them: a later
    /// [`Rejected::hint`] builds them then).
    ///
    /// ```
    /// use toolgate_core::DynamicTool;
    ///
    /// let tool = DynamicTool::from_definition(&serde_json::json!({
    ///     "name": "count",
    ///     "inputSchema": {"type": "object", "properties": {
    ///         "n": {"type": "integer", "maximum": 9}}, "required": ["n"]}
    /// })).unwrap();
    /// let rejected = tool.decode(r#"{"n": 12}"#).unwrap_err();
    /// assert_eq!(rejected.hint_json(), rejected.hint().to_json());
    /// ```
    pub fn hint_json(&self) -> String {
        match self.hint.get() {
            Some(hint) => hint.to_json(),
            None => RetryHint::build_json(
                self.hint_model(),
                &self.report,
                HintReason::InvalidArguments,
            ),
        }
    }

    /// The model the hint is built from: a refusal without one has its hint built already.
    fn hint_model(&self) -> &ToolModel {
        match &self.model {
            Some(HintModel::Static(model)) => model,
            Some(HintModel::Shared(model)) => model,
            None => unreachable!("a refusal without a model has its hint built"),
        }
    }
}

/// Two refusals are equal when their issues, repairs and hints are (which builds the hints).
impl PartialEq for Rejected {
    fn eq(&self, other: &Self) -> bool {
        self.report == other.report
            && self.repairs == other.repairs
            && self.repairs_left_out == other.repairs_left_out
            && self.hint() == other.hint()
    }
}

impl fmt::Debug for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Rejected")
            .field("report", &self.report)
            .field("repairs", &self.repairs)
            .field("hint", &self.hint.get())
            .finish_non_exhaustive()
    }
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.report)
    }
}

impl std::error::Error for Rejected {}

/// A `limit` issue for a number beyond a 64-bit float (`1e400`): valid JSON, but no value
/// toolgate can hold without changing it.
/// The `syntax` issue of argument bytes that are not UTF-8.
pub(crate) fn not_utf8() -> Issue {
    Issue::new(Path::root(), Constraint::Syntax, "the text is not UTF-8")
}

/// The `limit` issue of arguments of `bytes` bytes, past `max_bytes`.
pub(crate) fn oversize(bytes: usize, max_bytes: usize) -> Issue {
    let message = format!("the arguments are {bytes} bytes, more than the limit of {max_bytes}");
    Issue::new(Path::root(), Constraint::Limit, message)
        .with_expected(max_bytes.into())
        .with_got(bytes.into())
}

pub(crate) fn number_out_of_range() -> Issue {
    let message = "a number is beyond the range of a 64-bit float (about ±1.8e308)";
    Issue::new(Path::root(), Constraint::Limit, message).with_expected(Value::from(f64::MAX))
}

/// The `limit` issue of arguments nested deeper than `max_depth` containers.
pub(crate) fn too_deep(max_depth: usize) -> Issue {
    Issue::new(Path::root(), Constraint::Limit, too_deep_message(max_depth))
        .with_expected(max_depth.into())
}

/// What [`too_deep`] says.
pub(crate) fn too_deep_message(max_depth: usize) -> String {
    format!("the arguments nest more than {max_depth} objects and arrays")
}

/// Reads argument text into a JSON tree, with the text repairs `options` allow, logging them.
/// Issues go to `report` (constraint `syntax` or `limit`).
fn read_text(
    text: &[u8],
    options: &Options,
    repairs: &mut Vec<Repair>,
    report: &mut Report,
) -> Option<Json> {
    if text.len() > options.max_bytes {
        report.push(oversize(text.len(), options.max_bytes));
        return None;
    }
    let syntax = |message: String| Issue::new(Path::root(), Constraint::Syntax, message);
    // Text that is not UTF-8 is never JSON, strict or lenient.
    let Ok(text) = std::str::from_utf8(text) else {
        report.push(not_utf8());
        return None;
    };
    let max_depth = options.max_depth.min(MAX_DEPTH);
    let too_deep = || too_deep(max_depth);
    let first = match read_whole(text, max_depth) {
        Ok(json) => return Some(json),
        Err(StrictError::TooDeep) => {
            report.push(too_deep());
            return None;
        }
        Err(StrictError::NumberOutOfRange) => {
            report.push(number_out_of_range());
            return None;
        }
        Err(StrictError::NotStrict(first)) => first,
    };
    let starts_a_value = text.trim_start().starts_with(['{', '[']);
    if !options.allows(Rule::JsonText) {
        // What a strict reader says of it: cut off, or where it is not JSON.
        let error = strict_reader_error(text);
        let message = if error.is_eof() && starts_a_value {
            TextError::Truncated.to_string()
        } else {
            format!("not JSON: {error}")
        };
        report.push(syntax(message));
        return None;
    }
    // Text that starts with a value and ends inside it was cut off, however it was written.
    let cut_off = matches!(first, Some((_, Err(TextError::Truncated))));
    if cut_off && starts_a_value {
        report.push(syntax(TextError::Truncated.to_string()));
        return None;
    }
    match text::read_lenient_from(text, max_depth, first) {
        Ok((json, _)) => {
            repairs.push(Repair {
                path: Path::root(),
                rule: Rule::JsonText,
                from: crate::issue::shorten_str(text),
                // Already cut as `shorten` cuts.
                to: Value::String(walk::json_text_logged(&json)),
            });
            Some(json)
        }
        Err(TextError::TooDeep) => {
            report.push(too_deep());
            None
        }
        Err(TextError::NumberOutOfRange { .. }) => {
            report.push(number_out_of_range());
            None
        }
        Err(error) => {
            report.push(syntax(error.to_string()));
            None
        }
    }
}

/// Decodes argument text against a model into a JSON value: the run-time road.
///
/// ```
/// use toolgate_core::decode::{decode_text, Options};
/// use toolgate_core::model::ToolModel;
///
/// let model = ToolModel::from_json_schema(r#"{"title": "t", "type": "object",
///     "properties": {"n": {"type": "integer", "maximum": 9}}, "required": ["n"]}"#).unwrap();
/// let decoded = decode_text(&model, br#"{"n": "5"}"#, &Options::default()).unwrap();
/// assert_eq!(decoded.value, serde_json::json!({"n": 5}));
/// assert_eq!(decoded.repairs[0].rule.as_str(), "string_to_number");
/// let rejected = decode_text(&model, br#"{"n": 5.5}"#, &Options::default()).unwrap_err();
/// assert_eq!(rejected.report.to_string(), "n: expected integer, got number 5.5");
/// ```
pub fn decode_text(
    model: &ToolModel,
    text: &[u8],
    options: &Options,
) -> Result<Decoded<Value>, Rejected> {
    decode_text_refused(model, text, options).map_err(|refused| refused.with_hint_from(model))
}

/// [`decode_text`] by the tree walk alone: the text read into a tree, then walked. What
/// the streaming walk is tested against (`tests/tests/stream_agrees.rs`); not for use.
#[doc(hidden)]
pub fn decode_text_by_tree(
    model: &ToolModel,
    text: &[u8],
    options: &Options,
) -> Result<Decoded<Value>, Rejected> {
    tree_road(model, text, options).map_err(|refused| refused.with_hint_from(model))
}

/// [`decode_text`] by the streaming walk alone; `None` where it leaves the text to the tree
/// walk. What the differential test compares; not for use.
#[doc(hidden)]
pub fn decode_text_by_stream(
    model: &ToolModel,
    text: &[u8],
    options: &Options,
) -> Option<Result<Decoded<Value>, Rejected>> {
    let decided = stream_road(model, text, options)?;
    Some(decided.map_err(|refused| refused.with_hint_from(model)))
}

/// [`decode_text`], the refusal without its hint: the streaming walk, and the tree walk
/// where the stream leaves the text to it.
pub(crate) fn decode_text_refused(
    model: &ToolModel,
    text: &[u8],
    options: &Options,
) -> Result<Decoded<Value>, Refused> {
    match stream_road(model, text, options) {
        Some(decided) => decided,
        None => tree_road(model, text, options),
    }
}

/// The streaming walk of the run-time road; `None` where it leaves the text to the tree
/// walk (a text over [`Options::max_bytes`] is left to it too, which refuses it).
pub(crate) fn stream_road(
    model: &ToolModel,
    text: &[u8],
    options: &Options,
) -> Option<Result<Decoded<Value>, Refused>> {
    if text.len() > options.max_bytes {
        return None;
    }
    match stream_text::<walk::Walked>(model, text, options) {
        Streamed::Accepted(Decoded {
            value: walk::Walked(Some(value)),
            repairs,
            repairs_left_out,
        }) => Some(Ok(Decoded {
            value,
            repairs,
            repairs_left_out,
        })),
        Streamed::Refused(refused) => Some(Err(refused)),
        Streamed::Unreadable | Streamed::Accepted(_) | Streamed::Stopped => None,
    }
}

/// The text read into a tree (with the text repairs), then walked.
pub(crate) fn tree_road(
    model: &ToolModel,
    text: &[u8],
    options: &Options,
) -> Result<Decoded<Value>, Refused> {
    let mut repairs = Vec::new();
    let mut report = Report::with_cap(options.max_issues);
    match read_text(text, options, &mut repairs, &mut report) {
        // The tokenizer bounds the depth while it reads: no second pass to measure it.
        Some(json) => walk_json(model, json, options, repairs),
        None => Err(Refused {
            report,
            repairs,
            repairs_left_out: 0,
        }),
    }
}

/// Decodes a JSON value against a model (the text stage already done).
pub fn decode_value(
    model: &ToolModel,
    value: &Value,
    options: &Options,
) -> Result<Decoded<Value>, Rejected> {
    decode_value_refused(model, value, options).map_err(|refused| refused.with_hint_from(model))
}

/// [`decode_value`], the refusal without its hint.
pub(crate) fn decode_value_refused(
    model: &ToolModel,
    value: &Value,
    options: &Options,
) -> Result<Decoded<Value>, Refused> {
    // Measured before the tree is built: building it recurses.
    if let Err(report) = within_depth(crate::model::value_depth(value), options) {
        return Err(Refused {
            report,
            repairs: Vec::new(),
            repairs_left_out: 0,
        });
    }
    // The value's members walked as they are (`stream_value`); where the stream leaves the
    // value to the tree walk, it is copied into a tree and walked there.
    match walk::stream_value::<walk::Walked>(model, value, options) {
        Streamed::Accepted(Decoded {
            value: walk::Walked(Some(value)),
            repairs,
            repairs_left_out,
        }) => Ok(Decoded {
            value,
            repairs,
            repairs_left_out,
        }),
        Streamed::Refused(refused) => Err(refused),
        _ => walk_json(model, Json::from(value), options, Vec::new()),
    }
}

/// Decodes an order-keeping JSON tree against a model, after `repairs` made to its text.
pub fn decode_json(
    model: &ToolModel,
    json: Json,
    options: &Options,
    repairs: Vec<Repair>,
) -> Result<Decoded<Value>, Rejected> {
    decode_json_refused(model, json, options, repairs)
        .map_err(|refused| refused.with_hint_from(model))
}

/// [`decode_json`], the refusal without its hint: a tree built elsewhere has its depth
/// measured first.
pub(crate) fn decode_json_refused(
    model: &ToolModel,
    json: Json,
    options: &Options,
    repairs: Vec<Repair>,
) -> Result<Decoded<Value>, Refused> {
    if let Err(report) = within_depth(json.depth(), options) {
        return Err(Refused {
            report,
            repairs,
            repairs_left_out: 0,
        });
    }
    walk_json(model, json, options, repairs)
}

/// `Ok` when a value `depth` containers deep is within `options`' nesting limit; else the
/// report of its one `limit` issue.
fn within_depth(depth: usize, options: &Options) -> Result<(), Report> {
    let max_depth = options.max_depth.min(MAX_DEPTH);
    if depth <= max_depth {
        return Ok(());
    }
    let mut report = Report::with_cap(options.max_issues);
    report.push(too_deep(max_depth));
    Err(report)
}

/// The walk over a tree whose depth is within the limit.
pub(crate) fn walk_json(
    model: &ToolModel,
    json: Json,
    options: &Options,
    repairs: Vec<Repair>,
) -> Result<Decoded<Value>, Refused> {
    let mut decoder = walk::Decoder::new(model, options, repairs);
    let value = decoder.root(json);
    let (report, mut repairs) = decoder.finish();
    let repairs_left_out = cap_repairs(&mut repairs);
    match value {
        Some(value) if report.is_empty() => Ok(Decoded {
            value,
            repairs,
            repairs_left_out,
        }),
        _ => Err(Refused {
            report,
            repairs,
            repairs_left_out,
        }),
    }
}

#[cfg(test)]
mod tests;

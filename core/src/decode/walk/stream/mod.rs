//! The streaming walk of the run-time road: argument text read once, by serde_json's reader,
//! with the tool model driving it, straight into the `serde_json::Value` wanted (typed tools
//! come here where their typed reader does not decide, and make the Rust value of it). No tree of the whole text is built, no `Value` detour, no
//! second parse. A `serde_json::Value` read already (an MCP server's arguments) is walked
//! the same way, through `Value`'s own `Deserializer` ([`stream_value`]), without being
//! copied into a tree.
//!
//! It is the same walk as the tree walk of the parent module, over a stream instead of a
//! tree, and it applies the same rules by calling the same code:
//! - objects and plain arrays are walked as they are read, each member at its path; an
//!   object's rules (what each key names, unknown keys, `null_as_absent`, absent fields and
//!   their defaults) are the tree walk's own state machine, `ObjectRun`, asked key by key;
//! - a scalar that fits its schema as sent is checked by the checker's own checks
//!   (`check_string`, `check_number`, `check_bool`) and handed on as read;
//! - everything else — a scalar to repair or refuse, a union, a value of any type, a map, a
//!   tuple, an array with `uniqueItems`, a string holding JSON, the root's `double_encoded`
//!   — is read into a small [`Json`] tree and decoded by the tree walk's [`Decoder::decode`],
//!   whose value is then handed on.
//!
//! Where the order of what is logged or reported would depend on members not yet read, the stream
//! stops and the caller gives the whole text to the tree walk, which decides with every member in
//! view: a key sent twice (equal or not), a field named by a second key (by another of its names,
//! exactly or by `key_case`, in either order: a field given twice, or a tie,
//! [`ToolModel::key_targets`]), an array outside its size bounds (its issue comes before its
//! elements'), a float anywhere but a `number` or an integer, and at an integer where the text has
//! a number of more than 15 digits or with an exponent (only its digits tell `5.0` from
//! `4.9999999999999999`), a container past the depth limit, `propertyNames` or `const` on a
//! container, and text that is not strict JSON. The
//! stream never decides differently from the tree walk; when it does not stop, its value, repairs
//! and issues are the tree walk's (`tests/tests/stream_agrees.rs` replays every corpus call through
//! both).

mod members;
mod node;
mod walked;

use serde::de::{self, DeserializeSeed, Deserializer, Visitor};

use super::Decoder;
use crate::decode::{Decoded, Options, Refused, MAX_DEPTH};
use crate::model::{Field, Json, ReadNotes, ToolModel};
use crate::plan::Node;
pub(crate) use walked::Walked;

/// What the streaming walk made of a text.
pub(crate) enum Streamed<T> {
    /// Accepted: the value and its repairs.
    Accepted(Decoded<T>),
    /// Refused: every issue (the same as the tree walk's).
    Refused(Refused),
    /// The tree walk must decide (see the module's documentation).
    Stopped,
    /// The text is not strict JSON (or a number in it is past `f64`, or it nests too deep):
    /// the tree road decides, its tokenizer reading the text once, strict or lenient.
    Unreadable,
}

/// Walks strict JSON `text` against `model` into a `T`.
pub(crate) fn stream_text<T: de::DeserializeOwned>(
    model: &ToolModel,
    text: &[u8],
    options: &Options,
) -> Streamed<T> {
    let mut stream = Stream::new(model, options, text, None);
    // Checked once for the whole text, so the reader does not check each string again.
    // Text that is not UTF-8 is never strict JSON: the tree road refuses it, saying so.
    let Ok(utf8) = std::str::from_utf8(text) else {
        return Streamed::Stopped;
    };
    let mut reader = serde_json::Deserializer::from_str(utf8);
    let read = stream.walk_root::<T, _>(model, &mut reader);
    stream.outcome(read, || reader.end().is_ok())
}

/// Walks a value read already (`serde_json::Value`, through its own `Deserializer`)
/// against `model` into a `T`: the same walk as [`stream_text`]'s, with the value's members
/// handed on as they are, not copied into a tree first.
///
/// A value holds no digits: each float is the `f64` it holds, as the tree walk of the value
/// (`Json::from`) sees it too, so no float stops this walk for its digits
/// ([`Stream::floats_are_exact`] is true).
pub(crate) fn stream_value<T: de::DeserializeOwned>(
    model: &ToolModel,
    value: &serde_json::Value,
    options: &Options,
) -> Streamed<T> {
    let mut stream = Stream::new(model, options, b"", Some(true));
    let read = stream.walk_root::<T, _>(model, value);
    stream.outcome(read, || true)
}

impl<'m> Stream<'m> {
    fn new(
        model: &'m ToolModel,
        options: &Options,
        text: &'m [u8],
        floats_exact: Option<bool>,
    ) -> Self {
        Stream {
            decoder: Decoder::new(model, options, Vec::new()),
            stopped: false,
            root_walked: false,
            text,
            floats_exact,
        }
    }

    /// Has the type read the root value from `inner`, walked at the plan's root.
    fn walk_root<'de, T: de::Deserialize<'de>, D>(
        &mut self,
        model: &'m ToolModel,
        inner: D,
    ) -> Result<T, serde_json::Error>
    where
        D: Deserializer<'de, Error = serde_json::Error>,
    {
        let plan = model.plan();
        T::deserialize(Walker {
            stream: self,
            inner,
            node: plan.node(plan.root()),
            field: None,
            root: true,
        })
    }

    /// What the walk made of the input, from what the type read (`read`) and whether the
    /// input held nothing after the value (`ended`, asked only when the value was read).
    fn outcome<T>(
        self,
        read: Result<T, serde_json::Error>,
        ended: impl FnOnce() -> bool,
    ) -> Streamed<T> {
        if self.stopped {
            return Streamed::Stopped;
        }
        // serde_json's errors (not JSON, cut off, a number past `f64`): the tree walk reads
        // the text leniently, or refuses it, with the error already met. A Rust type that
        // refuses what it was given (serde's data errors): the tree walk decides.
        let value = match read {
            Ok(value) => Some(value),
            Err(error) if is_reader_error(&error) => return Streamed::Unreadable,
            // The type refused what it was handed after the root object's last member and
            // absent field were walked (serde's `missing_field` comes after the object's
            // end), with an issue already found: the refusal is certain and its report
            // complete.
            Err(_) if self.root_walked && self.decoder.checker.issue_count() > 0 => None,
            Err(_) => return Streamed::Stopped,
        };
        if !ended() {
            return Streamed::Unreadable;
        }
        let (report, mut repairs) = self.decoder.finish();
        let repairs_left_out = crate::decode::cap_repairs(&mut repairs);
        match value {
            Some(value) if report.is_empty() => Streamed::Accepted(Decoded {
                value,
                repairs,
                repairs_left_out,
            }),
            _ => Streamed::Refused(Refused {
                report,
                repairs,
                repairs_left_out,
            }),
        }
    }
}

/// Whether `error` is the reader's own (the text is not strict JSON, or ends too soon), not
/// a type's refusal of what it was handed (serde's data errors).
fn is_reader_error(error: &serde_json::Error) -> bool {
    matches!(
        error.classify(),
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof
    )
}

/// The message of the error that stops the stream (never shown: the tree walk decides).
const STOP: &str = "the streaming walk leaves this input to the tree walk";

struct Stream<'m> {
    decoder: Decoder<'m>,
    stopped: bool,
    /// Whether the root object's members and absent fields were all walked.
    root_walked: bool,
    /// The text being read.
    text: &'m [u8],
    /// Whether every float of the text is integral exactly when its digits are (see
    /// [`Stream::floats_are_exact`]), found at the first float that asks.
    floats_exact: Option<bool>,
}

impl Stream<'_> {
    /// Whether a float serde_json read from this text is integral exactly when the digits
    /// sent are: true when no run of digits in the whole text (strings included) is longer
    /// than 15 and no digit is followed by an exponent. A decimal of at most 15 significant
    /// digits that is not an integer is further from every integer than a 64-bit float's
    /// rounding reaches (its precision is 15.9 digits); long runs (`4.9999999999999999`)
    /// and exponents (`1e-400`) are where a float rounds digits into an integer, and those
    /// texts are left to the tree walk, which keeps every number's digits. Conservative:
    /// digits inside strings count too. Scanned once per text, at the first float that asks.
    fn floats_are_exact(&mut self) -> bool {
        *self
            .floats_exact
            .get_or_insert_with(|| digits_decide_floats(self.text))
    }

    fn stop<E: de::Error>(&mut self) -> E {
        self.stopped = true;
        E::custom(STOP)
    }

    /// Containers still allowed below the value being walked (itself included).
    fn room(&self) -> usize {
        self.decoder
            .options
            .max_depth
            .min(MAX_DEPTH)
            .saturating_sub(self.decoder.depth)
    }

    /// Reads the value `read` gives into a tree; floats (whose digits count) and values
    /// past the depth limit stop the stream.
    fn buffer<E: de::Error>(
        &mut self,
        read: impl FnOnce(usize, &ReadNotes) -> Result<Json, E>,
    ) -> Result<Json, E> {
        let notes = ReadNotes::default();
        let json = read(self.room(), &notes);
        if notes.floats_read.get() || notes.too_deep.get() {
            return Err(self.stop());
        }
        json
    }
}

/// The scan behind [`Stream::floats_are_exact`].
fn digits_decide_floats(text: &[u8]) -> bool {
    /// Most digits in a run whose float keeps its integrality.
    const EXACT_DIGITS: usize = 15;
    let mut run = 0;
    let mut after_digit = false;
    for &byte in text {
        match byte {
            b'0'..=b'9' => {
                run += 1;
                if run > EXACT_DIGITS {
                    return false;
                }
                after_digit = true;
            }
            b'.' => after_digit = run > 0,
            b'e' | b'E' if after_digit => return false,
            _ => {
                run = 0;
                after_digit = false;
            }
        }
    }
    true
}

/// What the type being built asked its deserializer for, where it matters for what it is
/// handed.
#[derive(Clone, Copy)]
enum Asked {
    Any,
    Option,
    Enum(&'static [&'static str]),
}

/// The deserializer a type reads one value from: serde_json's, with the value's schema.
struct Walker<'s, 'm, D> {
    stream: &'s mut Stream<'m>,
    inner: D,
    node: Node<'m>,
    /// The field this value is the member of, for `null_as_absent`.
    field: Option<&'m Field>,
    root: bool,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Walker<'_, '_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, visitor) = self.visitor(visitor, Asked::Any);
        inner.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, visitor) = self.visitor(visitor, Asked::Option);
        inner.deserialize_option(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (inner, visitor) = self.visitor(visitor, Asked::Enum(variants));
        inner.deserialize_any(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

/// Hands a member's deserializer, wrapped, to the type's own seed.
struct NodeSeed<'s, 'm, S> {
    stream: &'s mut Stream<'m>,
    node: Node<'m>,
    field: Option<&'m Field>,
    seed: S,
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for NodeSeed<'_, '_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, inner: D) -> Result<S::Value, D::Error> {
        self.seed.deserialize(Walker {
            stream: self.stream,
            inner,
            node: self.node,
            field: self.field,
            root: false,
        })
    }
}

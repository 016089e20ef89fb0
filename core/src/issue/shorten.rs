//! How echoed values are kept short: every value, name, key and text an [`Issue`], a retry
//! hint or a repair log shows is shortened here, so that an answer's size does not grow with
//! the schema or the arguments ("Limits and guarantees", `runtime/docs/limits.md`).
//!
//! [`Issue`]: super::Issue

use serde_json::Value;

use crate::values::LISTED_VALUES;
/// Longest compact JSON text of a `got` value kept as it is.
pub const GOT_MAX_CHARS: usize = 80;

/// Shortens a value for [`Issue::got`](super::Issue::got): a string longer than [`GOT_MAX_CHARS`] characters is
/// cut there and ends in `…`; an array or object whose JSON text is longer becomes that text,
/// cut the same way, as a string. Everything else is kept.
///
/// ```
/// use serde_json::json;
/// use toolgate_core::issue::shorten;
///
/// assert_eq!(shorten(json!("short")), json!("short"));
/// let long = shorten(json!("x".repeat(200)));
/// assert_eq!(long.as_str().unwrap().chars().count(), 81);
/// ```
pub fn shorten(value: Value) -> Value {
    match &value {
        Value::String(text) => cut(text).map(Value::String).unwrap_or(value),
        Value::Array(_) | Value::Object(_) => match capped_json_text(&value) {
            Some(long) => Value::String(long),
            None => value,
        },
        _ => value,
    }
}

/// Appends `value` as JSON text to `out`, as `Value`'s `Display` writes it; a string with
/// nothing to escape (nearly every name and enum value) is copied between its quotes
/// without going through the serializer.
pub(crate) fn push_json(out: &mut String, value: &Value) {
    match value {
        Value::String(text) => push_json_str(out, text),
        _ => {
            use std::fmt::Write as _;
            let _ = write!(out, "{value}");
        }
    }
}

/// [`push_json`] of a string: copied between quotes when nothing in it needs escaping,
/// else escaped by serde_json.
fn push_json_str(out: &mut String, text: &str) {
    if needs_escape(text) {
        out.push_str(&serde_json::to_string(text).unwrap_or_default());
        return;
    }
    out.reserve(text.len() + 2);
    out.push('"');
    out.push_str(text);
    out.push('"');
}

/// Appends the JSON text of [`shorten_str`] of `text` to `out`, without making the value:
/// how a message quotes the string it refuses.
pub(crate) fn push_json_shortened(out: &mut String, text: &str) {
    match cut(text) {
        Some(cut) => push_json_str(out, &cut),
        None => push_json_str(out, text),
    }
}

/// [`shorten`] of a string, without copying more of it than is kept.
pub(crate) fn shorten_str(text: &str) -> Value {
    Value::String(cut(text).unwrap_or_else(|| text.to_owned()))
}

/// [`shorten`] of an order-keeping tree, without writing more of it than is kept: the tree
/// as a value when its text is short, else that text cut.
pub(crate) fn shorten_json(json: &crate::model::Json) -> Value {
    match json {
        crate::model::Json::Array(_) | crate::model::Json::Object(_) => {
            match capped_json_text(json) {
                Some(long) => Value::String(long),
                None => json.to_value(),
            }
        }
        crate::model::Json::String(text) => shorten_str(text),
        scalar => scalar.to_value(),
    }
}

/// The compact JSON text of `value`, longer than [`GOT_MAX_CHARS`], cut there and ending in
/// `…`; `None` when the text is that short. At most a few hundred bytes are written, however
/// large the value (a repair of a megabyte array does not print the megabyte to log it).
///
/// Most values echoed are short: their text's length is bounded first, without writing it
/// ([`JsonLength`]), and only a value that may be long is written.
pub(crate) fn capped_json_text(value: &(impl serde::Serialize + JsonLength)) -> Option<String> {
    let mut room = GOT_MAX_CHARS;
    if value.fits_in(&mut room) {
        return None;
    }
    cut(CappedText::of(value).text())
}

/// A bound on the length of a value's compact JSON text, found without writing it.
pub(crate) trait JsonLength {
    /// Whether the text is at most `room` bytes, taking them from `room`. Never true of a
    /// text longer than `room`; may be false of a shorter one (escapes count at their
    /// longest, `\u00XX`).
    fn fits_in(&self, room: &mut usize) -> bool;
}

/// Takes `bytes` from `room`, if there are that many.
fn take(room: &mut usize, bytes: usize) -> bool {
    match room.checked_sub(bytes) {
        Some(left) => {
            *room = left;
            true
        }
        None => false,
    }
}

/// A string's quoted, escaped text: 2 quotes, and per byte 1, or 6 at most where escaped.
fn string_fits(text: &str, room: &mut usize) -> bool {
    if !take(room, text.len() + 2) {
        return false;
    }
    if !needs_escape(text) {
        return true;
    }
    let escaped = text.bytes().filter(|&b| escaped_in_json(b)).count();
    take(room, escaped * 5)
}

/// Whether JSON escapes `byte` in a string: a quote, a backslash or a control character.
fn escaped_in_json(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// Whether `text` holds a byte JSON escapes ([`escaped_in_json`]), looked for eight bytes at
/// a time: the JSON writers copy a string with none between its quotes at once, and nearly
/// every name, value and description has none.
pub(crate) fn needs_escape(text: &str) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // Whether some byte of `word` is below `n` (at most 0x80): exact as a yes or no.
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS != 0;
    let mut chunks = text.as_bytes().chunks_exact(8);
    for chunk in &mut chunks {
        let mut bytes = [0; 8];
        bytes.copy_from_slice(chunk);
        let word = u64::from_ne_bytes(bytes);
        let quote = word ^ (ONES * u64::from(b'"'));
        let backslash = word ^ (ONES * u64::from(b'\\'));
        if below(word, 0x20) || below(quote, 1) || below(backslash, 1) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| escaped_in_json(b))
}

/// A number's text, as serde_json writes it (its `Display`), counted without allocating.
fn number_fits(number: &serde_json::Number, room: &mut usize) -> bool {
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            self.0 += text.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = std::fmt::Write::write_fmt(&mut count, format_args!("{number}"));
    take(room, count.0)
}

/// Brackets and the commas between `count` elements or members.
fn punctuation_fits(count: usize, room: &mut usize) -> bool {
    take(room, 2 + count.saturating_sub(1))
}

/// An object's text: braces, commas, and each member's key, colon and value.
fn members_fit<'a, T: JsonLength + 'a>(
    members: impl ExactSizeIterator<Item = (&'a str, &'a T)>,
    room: &mut usize,
) -> bool {
    punctuation_fits(members.len(), room)
        && members
            .into_iter()
            .all(|(key, value)| string_fits(key, room) && take(room, 1) && value.fits_in(room))
}

impl JsonLength for Value {
    fn fits_in(&self, room: &mut usize) -> bool {
        match self {
            Value::Null => take(room, 4),
            Value::Bool(flag) => take(room, if *flag { 4 } else { 5 }),
            Value::Number(number) => number_fits(number, room),
            Value::String(text) => string_fits(text, room),
            Value::Array(items) => items.fits_in(room),
            Value::Object(members) => members_fit(
                members.iter().map(|(key, value)| (key.as_str(), value)),
                room,
            ),
        }
    }
}

impl JsonLength for crate::model::Json {
    fn fits_in(&self, room: &mut usize) -> bool {
        use crate::model::Json;
        match self {
            Json::Null => take(room, 4),
            Json::Bool(flag) => take(room, if *flag { 4 } else { 5 }),
            Json::Number(number) | Json::RoundedNumber(number) | Json::SpelledNumber(number, _) => {
                number_fits(number, room)
            }
            Json::String(text) => string_fits(text, room),
            Json::Array(items) => items.fits_in(room),
            Json::Object(members) => members_fit(
                members.iter().map(|(key, value)| (key.as_str(), value)),
                room,
            ),
        }
    }
}

impl<T: JsonLength> JsonLength for [T] {
    fn fits_in(&self, room: &mut usize) -> bool {
        punctuation_fits(self.len(), room) && self.iter().all(|item| item.fits_in(room))
    }
}

impl<T: JsonLength> JsonLength for Vec<T> {
    fn fits_in(&self, room: &mut usize) -> bool {
        self.as_slice().fits_in(room)
    }
}

/// The compact JSON text of `value`, cut as [`capped_json_text`] cuts it when it is long,
/// whole when it is short: written once either way.
pub(crate) fn compact_json_text(value: &impl serde::Serialize) -> String {
    let written = CappedText::of(value);
    let text = written.text();
    cut(text).unwrap_or_else(|| text.to_owned())
}

/// The start of a value's compact JSON text: bytes until there are enough for
/// `GOT_MAX_CHARS + 1` characters, then the writing stops. Shorter, it is the whole text.
struct CappedText(Vec<u8>);

impl CappedText {
    const CAP: usize = (GOT_MAX_CHARS + 1) * 4;

    fn of(value: &impl serde::Serialize) -> Self {
        let mut capped = CappedText(Vec::with_capacity(GOT_MAX_CHARS + 1));
        // An error only says the cap was reached: what was written is the start of the text.
        let _ = serde_json::to_writer(&mut capped, value);
        capped
    }

    fn text(&self) -> &str {
        match std::str::from_utf8(&self.0) {
            Ok(text) => text,
            // Cut inside a character at the cap: its start is whole.
            Err(error) => std::str::from_utf8(&self.0[..error.valid_up_to()]).unwrap_or_default(),
        }
    }
}

impl std::io::Write for CappedText {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let room = Self::CAP - self.0.len();
        if room == 0 {
            return Err(std::io::Error::other("long enough"));
        }
        let taken = room.min(bytes.len());
        self.0.extend_from_slice(&bytes[..taken]);
        Ok(taken)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `text` cut at `max` characters, ending in `…` when cut: how a message, a name or an error
/// text is kept within a bound.
///
/// ```
/// use toolgate_core::issue::shorten_text;
///
/// assert_eq!(shorten_text("abc", 3), "abc");
/// assert_eq!(shorten_text("abcd", 3), "abc…");
/// ```
pub fn shorten_text(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// `text` cut after [`GOT_MAX_CHARS`] characters, ending in `…`; `None` when it is that short.
pub(super) fn cut(text: &str) -> Option<String> {
    // No more bytes than the characters kept: no more characters either.
    if text.len() <= GOT_MAX_CHARS {
        return None;
    }
    let (end, _) = text.char_indices().nth(GOT_MAX_CHARS)?;
    Some(format!("{}…", &text[..end]))
}

/// Longest `message` of an issue, in characters; a longer one is cut there and ends in `…`.
/// Messages are written from shortened values, so only a message listing many long values
/// (twenty enum values of eighty characters) comes near it.
pub const MESSAGE_MAX_CHARS: usize = 1000;

/// [`shorten`] of a borrowed value, copying no more of it than is kept: how a value of the
/// schema (a `const`, a default) is echoed without copying it whole first.
///
/// ```
/// use serde_json::json;
/// use toolgate_core::issue::{shorten, shorten_ref};
///
/// let big = json!({"k": "v".repeat(1 << 20)});
/// assert_eq!(shorten_ref(&big), shorten(big.clone()));
/// assert_eq!(shorten_ref(&json!([1, 2])), json!([1, 2]));
/// ```
pub fn shorten_ref(value: &Value) -> Value {
    shorten_borrowed(value).into_owned()
}

/// [`shorten_ref`], borrowing the value when it is kept as it is.
pub(crate) fn shorten_borrowed(value: &Value) -> std::borrow::Cow<'_, Value> {
    use std::borrow::Cow;
    let shortened = match value {
        Value::String(text) => cut(text),
        Value::Array(_) | Value::Object(_) => capped_json_text(value),
        _ => None,
    };
    shortened.map_or(Cow::Borrowed(value), |text| Cow::Owned(Value::String(text)))
}

/// [`shorten_expected`] of a borrowed value, borrowing it when it is kept as it is.
pub(crate) fn shorten_expected_borrowed(expected: &Value) -> std::borrow::Cow<'_, Value> {
    use std::borrow::Cow;
    match expected {
        Value::Array(values) if capped_json_text(values).is_some() => {
            Cow::Owned(shorten_expected(expected.clone()))
        }
        Value::Array(_) => Cow::Borrowed(expected),
        other => shorten_borrowed(other),
    }
}

/// An issue's `expected`, kept short: a list (of allowed values, field names, alternatives)
/// keeps at most [`LISTED_VALUES`] entries, each [`shorten`]ed, and one more entry, the
/// `"… N more"` of [`crate::values::shorten_list`] (written here when the list is longer and
/// has none); any other value is [`shorten`]ed. A list already within these bounds is kept
/// as it is.
///
/// A `const` that is an array is echoed as one value ([`shorten_ref`], a string when its text
/// is long) before it becomes `expected`, so it is not read as a list here.
///
/// ```
/// use serde_json::{json, Value};
/// use toolgate_core::issue::shorten_expected;
///
/// let long = shorten_expected(Value::Array((0..100).map(Value::from).collect()));
/// assert_eq!(long.as_array().unwrap().len(), 21);
/// assert_eq!(long[20], "… 80 more");
/// let wide = shorten_expected(json!(["x".repeat(500)]));
/// assert_eq!(wide[0].as_str().unwrap().chars().count(), 81);
/// ```
pub fn shorten_expected(expected: Value) -> Value {
    let Value::Array(values) = expected else {
        return shorten(expected);
    };
    if capped_json_text(&values).is_none() {
        // Short as a whole (a `const` array of small numbers, say): kept as it is.
        return Value::Array(values);
    }
    let count = values.len();
    let whole = count <= LISTED_VALUES + 1;
    let mut listed: Vec<Value> = Vec::with_capacity(count.min(LISTED_VALUES + 1));
    for value in values
        .into_iter()
        .take(if whole { count } else { LISTED_VALUES })
    {
        listed.push(shorten(value));
    }
    if !whole {
        listed.push(Value::String(format!("… {} more", count - LISTED_VALUES)));
    }
    Value::Array(listed)
}

/// A name or key echoed in an answer (a field's name in a path, a "did you mean", a tool's
/// name): cut after [`GOT_MAX_CHARS`] characters as [`shorten`] cuts a string.
///
/// ```
/// use toolgate_core::issue::shorten_name;
///
/// assert_eq!(shorten_name("origin"), "origin");
/// assert_eq!(shorten_name(&"k".repeat(1000)).chars().count(), 81);
/// ```
pub fn shorten_name(name: &str) -> String {
    cut(name).unwrap_or_else(|| name.to_owned())
}

/// Whether [`shorten_name`] would cut `name`.
pub(crate) fn is_long_name(name: &str) -> bool {
    name.len() > GOT_MAX_CHARS && name.chars().nth(GOT_MAX_CHARS).is_some()
}

/// Most bytes of JSON text one character of an echoed string takes: `\u001f`, six.
const ESCAPED_CHAR_BYTES: usize = 6;

/// Most bytes of JSON text one character of a path's key takes: the key is a JSON string in
/// the path's text (`["a\u001f"]`), and that text is a JSON string again (`\\u001f`), seven.
const PATH_CHAR_BYTES: usize = 7;

/// Most bytes of JSON text one shortened value takes ([`shorten`], [`shorten_name`]): a
/// string of [`GOT_MAX_CHARS`] characters and `…`, each escaped at its longest, and its
/// quotes (a short array or object is at most [`GOT_MAX_CHARS`] characters of text).
pub const VALUE_MAX_BYTES: usize = (GOT_MAX_CHARS + 1) * ESCAPED_CHAR_BYTES + 2;

/// Most bytes of JSON text a path takes in an answer: [`crate::path::SHOWN_SEGMENTS`]
/// segments ([`Path::shown`](crate::Path::shown)), each a key of at most [`GOT_MAX_CHARS`]
/// characters and `…` ([`Path::with_short_keys`](crate::Path::with_short_keys)) in `["` `"]`.
pub const PATH_MAX_BYTES: usize =
    crate::path::SHOWN_SEGMENTS * ((GOT_MAX_CHARS + 1) * PATH_CHAR_BYTES + 6) + 2;

/// Most bytes of JSON text an issue's `expected` takes ([`shorten_expected`]).
pub const EXPECTED_MAX_BYTES: usize = (LISTED_VALUES + 1) * (VALUE_MAX_BYTES + 1) + 2;

/// Most bytes of JSON text of a message of [`MESSAGE_MAX_CHARS`] characters and `…`.
const MESSAGE_MAX_BYTES: usize = (MESSAGE_MAX_CHARS + 1) * ESCAPED_CHAR_BYTES + 2;

/// Room for an answer entry's keys and punctuation (`{"path":…,"constraint":"…",…}`).
const KEYS_BYTES: usize = 128;

/// Most bytes of JSON text one [`Issue`](super::Issue) of a [`Report`](super::Report) takes,
/// whatever the schema and the value (about 25 KiB; an issue of usual names and values is a
/// hundred or two): a path, `expected`, `got` and a message, each kept short as
/// [`Issue::bounded`](super::Issue::bounded) says.
pub const ISSUE_MAX_BYTES: usize =
    KEYS_BYTES + PATH_MAX_BYTES + EXPECTED_MAX_BYTES + VALUE_MAX_BYTES + MESSAGE_MAX_BYTES;

/// Most bytes of JSON text one repair of a repair log takes: a path, a rule, and `from` and
/// `to` shortened (a default filled in from the schema included).
pub const REPAIR_MAX_BYTES: usize = KEYS_BYTES + PATH_MAX_BYTES + 2 * VALUE_MAX_BYTES;

/// Most bytes of JSON text of a report's issues (the array a report serialises as), when the
/// report keeps at most `max_issues` issues (`Options::max_issues`; then one `limit` issue):
/// about 2.5 MiB at the default 100, whatever the schema and the value.
///
/// ```
/// use toolgate_core::issue::{report_max_bytes, ISSUE_MAX_BYTES};
///
/// assert_eq!(report_max_bytes(0), 2 + 2 * (ISSUE_MAX_BYTES + 1));
/// ```
pub const fn report_max_bytes(max_issues: usize) -> usize {
    let kept = if max_issues == 0 { 1 } else { max_issues };
    2 + (kept + 1) * (ISSUE_MAX_BYTES + 1)
}

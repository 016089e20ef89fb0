//! How big a hint may be: the bound on a hint's JSON that follows from each field entry
//! kept short (`parts::FieldParts::bounded`) ([`HINT_MAX_BYTES`]).

use super::{
    MAX_ALLOWED_VALUES, MAX_DESCRIPTION_CHARS, MAX_FIELDS, MAX_MESSAGE_CHARS, MAX_MISSING_FIELDS,
    MAX_QUESTION_CHARS,
};

/// Most bytes of JSON text of a text of `chars` characters and `…`, each escaped at its
/// longest (`\u001f`).
const fn text_bytes(chars: usize) -> usize {
    (chars + 1) * 6 + 2
}

/// Most bytes of JSON text of one [`FieldHint`](super::FieldHint): its path, description, expected type,
/// allowed values, alternatives and allowed keys, bounds, pattern, format and "did you
/// mean", each kept short.
const FIELD_MAX_BYTES: usize = {
    use crate::issue::{EXPECTED_MAX_BYTES, PATH_MAX_BYTES, VALUE_MAX_BYTES};
    let listed = (MAX_ALLOWED_VALUES + 1) * (VALUE_MAX_BYTES + 1) + 2;
    256 + PATH_MAX_BYTES
        + text_bytes(MAX_DESCRIPTION_CHARS)
        + EXPECTED_MAX_BYTES
        + 3 * listed
        + 2 * 48
        + 2 * VALUE_MAX_BYTES
        + text_bytes(MAX_MESSAGE_CHARS)
};

/// Most bytes of JSON text of a [`RetryHint`](super::RetryHint) ([`RetryHint::to_json`](super::RetryHint::to_json)), whatever the schema
/// and the issues (about 157 KiB; a hint of usual names and values is a few hundred bytes):
/// the tool's name, the message, [`MAX_MISSING_FIELDS`] paths, [`MAX_FIELDS`] field entries,
/// the question and an example of at most [`MAX_MISSING_FIELDS`] placeholders, each nested at
/// most [`crate::path::SHOWN_SEGMENTS`] deep.
pub const HINT_MAX_BYTES: usize = {
    use crate::issue::{PATH_MAX_BYTES, VALUE_MAX_BYTES};
    let example = MAX_MISSING_FIELDS
        * (crate::path::SHOWN_SEGMENTS * (VALUE_MAX_BYTES + 4) + text_bytes(MAX_MESSAGE_CHARS))
        + 2;
    256 + VALUE_MAX_BYTES
        + text_bytes(MAX_MESSAGE_CHARS)
        + MAX_MISSING_FIELDS * (PATH_MAX_BYTES + 1)
        + 2
        + MAX_FIELDS * (FIELD_MAX_BYTES + 1)
        + 2
        + 24
        + text_bytes(MAX_QUESTION_CHARS)
        + example
};

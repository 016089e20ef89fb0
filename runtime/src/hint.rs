//! [`RetryHint`]: the issues of a refusal, capped and phrased so a model can fix its call at
//! a glance. A refusal carries its own ([`Rejected::hint`](crate::Rejected::hint),
//! [`Rejected::hint_json`](crate::Rejected::hint_json)); [`RetryHint::build`] makes one from
//! any [`Report`](crate::Report), such as `validate()`'s.

#[doc(inline)]
pub use toolgate_core::hint::{
    FieldHint, HintReason, RetryHint, HINT_MAX_BYTES, MAX_ALLOWED_VALUES, MAX_DESCRIPTION_CHARS,
    MAX_FIELDS, MAX_MESSAGE_CHARS, MAX_MISSING_FIELDS, MAX_QUESTION_CHARS,
};

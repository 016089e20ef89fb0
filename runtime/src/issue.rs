//! Refusals as data: [`Issue`], the [`Constraint`] it broke, and the [`Report`] that holds
//! every issue of one value, with the bounds on the size of each (`toolgate::reference::limits`, 'Limits and
//! guarantees').

#[doc(inline)]
pub use toolgate_core::issue::{
    report_max_bytes, Constraint, Issue, Report, UnknownConstraint, EXPECTED_MAX_BYTES,
    GOT_MAX_CHARS, ISSUE_MAX_BYTES, MESSAGE_MAX_CHARS, PATH_MAX_BYTES, REPAIR_MAX_BYTES,
    VALUE_MAX_BYTES,
};
#[doc(inline)]
pub use toolgate_core::schema_refusal;

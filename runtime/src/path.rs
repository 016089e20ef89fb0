//! Where a value sits inside the arguments: [`Path`] and its [`Segment`]s.

#[doc(inline)]
pub use toolgate_core::path::{Path, PathParseError, Segment, SHOWN_SEGMENTS};

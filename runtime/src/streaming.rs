//! Decoding a call's arguments as they stream in: one [`StreamDecoder`] per call
//! ([`DynamicTool::stream_decoder`](crate::DynamicTool::stream_decoder),
//! [`Tool::stream_decoder`](crate::Tool::stream_decoder)), fed the provider's text deltas.
//! It answers the issues no continuation can mend as soon as they are certain, and decides
//! the call only at its end: `finish` is the one-shot decode of every byte fed, however the
//! text was cut; `cut` refuses a call the provider cut off, even where its text parses.

#[doc(inline)]
pub use toolgate_core::streaming::{
    Cut, NodeState, Partial, PartialValue, StreamDecoder, StreamEvent, StreamState,
};

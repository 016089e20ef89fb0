//! Decoding a model's arguments: what [`Tool::decode`](crate::Tool::decode) and
//! [`DynamicTool::decode`](crate::DynamicTool::decode) take and give. The text a model sent
//! comes out as a value with every repair logged ([`Decoded`]), or refused with every issue
//! and a retry hint ([`Rejected`]); [`Options`] says which repairs are on and the limits.

#[doc(inline)]
pub use toolgate_core::decode::{
    Decoded, Options, Rejected, Repair, Rule, UnknownKeys, MAX_DEPTH, MAX_NESTED_UNIONS,
    MAX_REPAIRS, MAX_TRIAL_NODES, MAX_UNION_TRIALS,
};
#[doc(inline)]
pub use toolgate_core::ToolCache;

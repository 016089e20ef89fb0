//! The bounds of nesting that the decoder, the checker and the schema reader share. They
//! live below all three, so that the reader does not depend on the decoder for them;
//! `decode` re-exports them.

/// The largest `max_depth` accepted (larger settings are lowered to it), and the default:
/// the most nested containers serde_json reads with its own recursion limit on. toolgate
/// does not turn that limit off (serde_json's `unbounded_depth` feature would turn it off
/// for every parse in the user's whole build); it counts depth itself below it.
pub const MAX_DEPTH: usize = 127;

/// Most unions nested at one value (within unions and through references, with no object or
/// array between), in the decoder and the checker; also the most wraps (`wrap_in_array`)
/// and unions together. The schema reader refuses a schema that nests unions deeper.
pub const MAX_NESTED_UNIONS: usize = 32;

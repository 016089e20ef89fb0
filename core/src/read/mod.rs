//! The reader of argument text: one tokenizer, [`tokens::Tokens`], for strict and lenient
//! JSON alike (trailing commas, single quotes, Python literals and escapes, bare keys,
//! comments), which keeps every number's digits and notes what in the text was not strict
//! JSON ([`tokens::Leniency`], the reasons for a `json_text` repair).
//!
//! It is a pull tokenizer that holds no text: it is handed the text read so far at each call
//! and can stop where that text ends and go on when more arrives (the reader streaming
//! partial arguments is to be built on it). What the text around the value may hold (fences,
//! prose) is decided before it, in `decode/text.rs`.
//!
//! - [`tree`]: a value read into a [`crate::model::Json`] tree, for the tree walk.

pub(crate) mod tokens;
pub(crate) mod tree;

#[cfg(test)]
mod oracle;
#[cfg(test)]
mod tests;

pub(crate) use tokens::Leniency;
pub(crate) use tree::{read_tree, read_tree_noting, TreeRead};

/// Where the white space and comments after byte `from` of a whole text end.
pub(crate) fn space_after(text: &str, from: usize) -> Result<usize, crate::decode::TextError> {
    let mut tokens = tokens::Tokens::at(from, 0);
    tokens.end_of_text();
    match tokens.skip_space(text.as_bytes()) {
        Ok(()) => Ok(tokens.position()),
        Err(tokens::Stop::Error(error)) => Err(*error),
        Err(tokens::Stop::More) => unreachable!("the text is all there is"),
    }
}

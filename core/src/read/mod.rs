//! The reader of argument text: one grammar for strict and lenient JSON alike (trailing
//! commas, single quotes, Python literals and escapes, bare keys, comments), which keeps
//! every number's digits and notes what in the text was not strict JSON
//! ([`tokens::Leniency`], the reasons for a `json_text` repair).
//!
//! - [`tokens`]: the grammar, as a pull tokenizer that holds no text: it is handed the text
//!   read so far at each call and can stop where that text ends and go on when more arrives
//!   (the reader streaming partial arguments is to be built on it).
//! - [`cursor`]: a whole text read in one pass, strict JSON on a fast path, every other form
//!   handed to the tokenizer's code where it starts.
//! - [`tree`]: a value read by the cursor into a [`crate::model::Json`] tree, for the tree
//!   walk.
//!
//! What the text around the value may hold (fences, prose) is decided around it, in
//! `decode/text.rs`.

mod cursor;
pub(crate) mod tokens;
pub(crate) mod tree;
pub mod typed;

#[cfg(test)]
mod tests;

pub(crate) use tokens::Leniency;
pub(crate) use tree::{read_tree, read_tree_noting, TreeRead};

/// Where the white space and comments after byte `from` of a whole text end.
pub(crate) fn space_after(text: &str, from: usize) -> Result<usize, crate::decode::TextError> {
    let mut cursor = cursor::Cursor::new(text, from);
    cursor.skip_space()?;
    Ok(cursor.position())
}

//! What the streaming decoder needs to know of one byte or one scalar: whether a piece can
//! move the tokenizer on, and whether a complete scalar is what its schema reads as sent.

use crate::model::{enum_contains_str_in, Kind};
use crate::num::Num;
use crate::plan::{NodeId, Plan};
use crate::read::tokens::Token;
use crate::read::tree;

/// The bytes that may end a token the tokenizer stopped inside, or start another: a quote, a
/// backslash, punctuation, white space or a control character, a comment's marks. Letters,
/// digits and the bytes of other characters only ever continue a token.
pub(super) const MOVES_TOKENS: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = byte < 0x21
            || matches!(
                byte as u8,
                b'"' | b'\'' | b'\\' | b',' | b':' | b'{' | b'}' | b'[' | b']' | b'/' | b'*' | b'#'
            );
        byte += 1;
    }
    table
};

/// The bytes that may end a string the tokenizer stopped inside: its quote (either), a
/// backslash, a control character.
pub(super) const ENDS_STRINGS: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = byte < 0x20 || matches!(byte as u8, b'"' | b'\'' | b'\\');
        byte += 1;
    }
    table
};

/// Whether `token`, a scalar at `node`, is of the form the node's schema reads and within its
/// constraints, so the rules take it unchanged (as the typed reader's fast path judges it:
/// `StringSchema::admits`, an enum's own value, a number's bounds and divisor, an integer
/// from its digits).
pub(super) fn admitted_as_sent(plan: &Plan, node: NodeId, token: &Token<'_>) -> bool {
    let handle = plan.node(node);
    let Some(resolved) = handle.resolved else {
        return false;
    };
    if resolved.constant.is_some() {
        return false;
    }
    match (token, &resolved.kind) {
        (Token::Bool(_), Kind::Boolean) => true,
        (Token::Number(digits), Kind::Integer(_) | Kind::Number(_)) => {
            let number = if tree::is_integer_text(digits) {
                tree::carried_integer(digits).map(Num::Int)
            } else {
                tree::nearest_float(digits, 0).ok().map(Num::Float)
            };
            number.is_some_and(|number| resolved.kind.admits_number(number))
        }
        (Token::String(text), Kind::String(string)) => string.admits(text),
        (Token::String(text), Kind::Enum(enumeration)) => {
            enum_contains_str_in(plan.enum_for(handle.target), enumeration, text)
        }
        _ => false,
    }
}

use proptest::prelude::*;
use serde_json::Value;

use super::tokens::{Stop, Token, Tokens};
use super::*;
use crate::decode::TextError;
use crate::test_support::json_value;

/// Number texts whose digits matter: spelled, rounded, out of range, long, negative zero.
const NUMBER_TEXTS: [&str; 10] = [
    "1e3",
    "5.00",
    "-0",
    "1e400",
    "4.9999999999999999",
    "123456789012345678901234567890",
    "-9223372036854775809",
    "1E-7",
    "0.1",
    "-12",
];

/// Writes `value` as JSON text, each piece spelled as `choices` pick: strict, or as models
/// write it leniently (single quotes, bare keys, Python words and escapes, trailing commas,
/// comments, white space), numbers sometimes as a text of [`NUMBER_TEXTS`].
fn render(value: &Value, choices: &[u8], at: &mut usize, out: &mut String) {
    fn choose(choices: &[u8], at: &mut usize, most: u8) -> u8 {
        let choice = choices
            .get(*at % choices.len().max(1))
            .copied()
            .unwrap_or(0);
        *at += 1;
        choice % most
    }
    match choose(choices, at, 8) {
        0 => out.push(' '),
        1 => out.push_str("\n\t"),
        2 => out.push_str("/* c */"),
        3 => out.push_str("# c\n"),
        4 => out.push_str("// c\n"),
        _ => {}
    }
    match value {
        Value::Null => out.push_str(if choose(choices, at, 4) == 0 {
            "None"
        } else {
            "null"
        }),
        Value::Bool(flag) => out.push_str(match (flag, choose(choices, at, 4) == 0) {
            (true, false) => "true",
            (true, true) => "True",
            (false, false) => "false",
            (false, true) => "False",
        }),
        Value::Number(number) => match choose(choices, at, 6) {
            0 => out.push_str(NUMBER_TEXTS[usize::from(choose(choices, at, 10))]),
            _ => out.push_str(&number.to_string()),
        },
        Value::String(text) => string(text, choose(choices, at, 4), out),
        Value::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                render(item, choices, at, out);
            }
            if !items.is_empty() && choose(choices, at, 5) == 0 {
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(members) => {
            out.push('{');
            for (index, (key, item)) in members.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                let bare = !key.is_empty()
                    && key.bytes().all(|b| b.is_ascii_lowercase())
                    && choose(choices, at, 3) == 0;
                if bare {
                    out.push_str(key);
                } else {
                    let spelling = choose(choices, at, 4);
                    string(key, spelling, out);
                }
                out.push(':');
                render(item, choices, at, out);
            }
            if !members.is_empty() && choose(choices, at, 5) == 0 {
                out.push(',');
            }
            out.push('}');
        }
    }
}

/// A string in double quotes as serde_json writes it (0), in single quotes (1), with Python
/// escapes for some characters (2), or with control characters as they are (3).
fn string(text: &str, spelling: u8, out: &mut String) {
    let quote = if spelling == 1 { '\'' } else { '"' };
    out.push(quote);
    for character in text.chars() {
        match character {
            '"' if quote == '"' => out.push_str("\\\""),
            '\'' if quote == '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            'é' if spelling == 2 => out.push_str("\\xe9"),
            '東' if spelling == 2 => out.push_str("\\U00006771"),
            c if (c as u32) < 0x20 && spelling != 3 => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

/// A text of a value, leniently spelled, perhaps cut or with a few bytes changed: every
/// kind of text the reader meets, valid or not.
fn texts() -> impl Strategy<Value = String> {
    (
        json_value(),
        prop::collection::vec(any::<u8>(), 1..48),
        prop::option::of((
            any::<prop::sample::Index>(),
            "[\\[\\]{}:,'\"\\\\a-z0-9.+\\-e/*# ()]{0,3}",
        )),
        any::<bool>(),
    )
        .prop_map(|(value, choices, edit, cut)| {
            let mut text = String::new();
            render(&value, &choices, &mut 0, &mut text);
            if let Some((index, inserted)) = edit {
                let mut at = index.index(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                if cut {
                    text.truncate(at);
                }
                text.insert_str(at, &inserted);
            }
            text
        })
}

/// The tokens of a whole text, and how it ended.
fn all_tokens(text: &str) -> (Vec<Token<'_>>, Option<TextError>) {
    let mut tokens = Tokens::at(0, 16);
    tokens.end_of_text();
    let mut read = Vec::new();
    loop {
        match tokens.next(text) {
            Ok(Some(token)) => read.push(token),
            Ok(None) => return (read, None),
            Err(Stop::Error(error)) => return (read, Some(*error)),
            Err(Stop::More) => panic!("more asked of a whole text"),
        }
    }
}

fn owned(tokens: Vec<Token<'_>>) -> Vec<String> {
    tokens.iter().map(|token| format!("{token:?}")).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Strict JSON is read as serde_json reads it, and is said to be strict; text that serde_json
    /// refuses is never said to be strict JSON.
    #[test]
    fn strict_exactly_where_serde_json_reads(text in texts()) {
        let start = text.len() - text.trim_start().len();
        let read = read_tree(&text, start, 16);
        let strict = read.as_ref().is_ok_and(|read| {
            read.leniency.is_strict() && text[read.end..].trim_matches([' ', '\t', '\n', '\r']).is_empty()
        });
        let serde = crate::decode::parse_strict(&text, 16);
        prop_assert_eq!(
            crate::decode::read_whole(&text, 16).ok(),
            serde.as_ref().ok().cloned(),
            "{:?}", text
        );
        match serde {
            Ok(json) => {
                prop_assert!(strict, "{:?}", text);
                prop_assert_eq!(&read.unwrap().json, &json);
            }
            Err(crate::decode::StrictError::NotStrict(_)) => prop_assert!(!strict, "{:?}", text),
            Err(_) => prop_assert!(read.is_err(), "{:?}", text),
        }
    }

    /// The cursor reads every text as the tokenizer does token by token: the same value,
    /// end and leniency, or the same error (noting the same leniency before it), at every
    /// depth limit.
    #[test]
    fn the_cursor_reads_as_the_tokenizer(text in texts(), max_depth in 0usize..6) {
        let start = text.len() - text.trim_start().len();
        let (mut by_cursor, mut by_tokens) = (Leniency::default(), Leniency::default());
        let cursor = read_tree_noting(&text, start, max_depth, &mut by_cursor)
            .map(|read| (read.json, read.end, read.leniency));
        let tokens = tree::read_tree_by_tokens(&text, start, max_depth, &mut by_tokens)
            .map(|read| (read.json, read.end, read.leniency));
        prop_assert_eq!(cursor, tokens, "{:?}", text);
        prop_assert_eq!(by_cursor, by_tokens, "{:?}", text);
    }

    /// A number is read as serde_json reads it (with `float_roundtrip`), whatever its size,
    /// inside a container or alone, and with its digits kept where they say more.
    #[test]
    fn numbers_read_as_serde_json_reads_them(
        digits in "-?(0|[1-9][0-9]{0,24})(\\.[0-9]{1,20})?([eE][+-]?[0-9]{1,3})?",
    ) {
        let serde = crate::decode::parse_strict(&digits, 16);
        let alone = read_tree(&digits, 0, 16).map(|read| read.json);
        prop_assert_eq!(alone.as_ref().ok(), serde.as_ref().ok(), "{}", digits);
        let in_array = read_tree(&format!("[{digits}]"), 0, 16).map(|read| read.json);
        prop_assert_eq!(in_array.ok(), alone.ok().map(|json| Json::Array(vec![json])));
        if serde.is_err() {
            let out_of_range = matches!(
                read_tree(&digits, 0, 16),
                Err(TextError::NumberOutOfRange { offset: 0 })
            );
            prop_assert!(out_of_range, "{}", digits);
        }
    }

    /// Given in pieces, each call with a longer text, the tokenizer gives the tokens and the
    /// end it gives the whole text.
    #[test]
    fn resumes_where_the_text_ended(text in texts(), cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6)) {
        let (whole, whole_end) = all_tokens(&text);
        let mut ends: Vec<usize> = cuts.iter().map(|cut| cut.index(text.len() + 1)).collect();
        ends.retain(|&end| text.is_char_boundary(end));
        ends.sort_unstable();
        ends.push(text.len());
        let mut tokens = Tokens::at(0, 16);
        let mut read = Vec::new();
        let mut ended = None;
        'pieces: for (piece, &end) in ends.iter().enumerate() {
            if piece + 1 == ends.len() {
                tokens.end_of_text();
            }
            let given = &text[..end];
            loop {
                match tokens.next(given) {
                    Ok(Some(token)) => read.push(format!("{token:?}")),
                    Ok(None) => break 'pieces,
                    Err(Stop::More) => break,
                    Err(Stop::Error(error)) => {
                        ended = Some(*error);
                        break 'pieces;
                    }
                }
            }
        }
        prop_assert_eq!(read, owned(whole), "{:?}", text);
        prop_assert_eq!(ended, whole_end, "{:?}", text);
    }

    /// Given a character at a time, a tokenizer that takes each byte making no token by
    /// `Tokens::step`, and stops asking once `Tokens::waits_at` says only `More` can come,
    /// stands where one asking `next` at every character stands, and reads the tokens and
    /// the end of the whole text (the bytes a streamed call skips `next` for: white space,
    /// `:` after a key, `,` after a member, an opening quote).
    #[test]
    fn a_byte_that_makes_no_token_steps_the_tokenizer_as_next_would(text in texts()) {
        let (whole, whole_end) = all_tokens(&text);
        let mut stepping = Tokens::at(0, 16);
        let mut asking = Tokens::at(0, 16);
        let (mut stepped, mut asked) = (Vec::new(), Vec::new());
        let (mut stepped_end, mut asked_end) = (None, None);
        for end in text.char_indices().map(|(at, c)| at + c.len_utf8()) {
            let given = &text[..end];
            let byte = given.as_bytes()[end - 1];
            if stepped_end.is_none() && !(byte < 0x80 && stepping.step(byte, end - 1)) {
                stepped_end = read_on(&mut stepping, given, &mut stepped, true);
            }
            if asked_end.is_none() {
                asked_end = read_on(&mut asking, given, &mut asked, false);
            }
            if stepped_end.is_none() && asked_end.is_none() {
                prop_assert_eq!(stepping.position(), asking.position(), "{:?} at {}", text, end);
                prop_assert_eq!(stepping.inside_string(), asking.inside_string());
                prop_assert_eq!(stepping.leniency(), asking.leniency());
            }
        }
        stepping.end_of_text();
        asking.end_of_text();
        if stepped_end.is_none() {
            stepped_end = read_on(&mut stepping, &text, &mut stepped, true);
        }
        if asked_end.is_none() {
            asked_end = read_on(&mut asking, &text, &mut asked, false);
        }
        prop_assert_eq!(&stepped, &owned(whole), "{:?}", text);
        prop_assert_eq!(&stepped, &asked);
        prop_assert_eq!(stepped_end.flatten(), whole_end.clone());
        prop_assert_eq!(asked_end.flatten(), whole_end);
    }
}

/// Reads `tokens` on over `given` until it asks for more (`None`), or the value ended
/// (`Some(None)`) or failed (`Some(Some(error))`); `waiting`: stop where `Tokens::waits_at`
/// says only `More` can come.
fn read_on(
    tokens: &mut Tokens,
    given: &str,
    read: &mut Vec<String>,
    waiting: bool,
) -> Option<Option<TextError>> {
    loop {
        match tokens.next(given) {
            Ok(Some(token)) => {
                read.push(format!("{token:?}"));
                if waiting && tokens.waits_at(given.len()) {
                    return None;
                }
            }
            Ok(None) => return Some(None),
            Err(Stop::More) => return None,
            Err(Stop::Error(error)) => return Some(Some(*error)),
        }
    }
}

#[test]
fn keeps_digits_and_notes_leniency() {
    let read = read_tree(
        "{'a': 1.50, b: [True,], /* c */ \"d\": 4.9999999999999999}",
        0,
        8,
    )
    .expect("lenient text");
    assert!(!read.leniency.is_strict());
    let Json::Object(members) = read.json else {
        panic!("an object")
    };
    assert!(matches!(&members[0].1, Json::SpelledNumber(_, text) if &**text == "1.50"));
    assert!(matches!(&members[2].1, Json::RoundedNumber(_)));
    let strict = read_tree("[1, \"a\", null]", 0, 8).expect("strict text");
    assert!(strict.leniency.is_strict());
    assert_eq!(strict.end, 14);
}

use crate::model::Json;

/// A text given in pieces of the sizes `sizes` picks in turn (1 where it picks none), each
/// call with a longer prefix, as a stream gives it: the tokens read, how it ended, and the
/// bytes the tokenizer looked at.
fn read_in_pieces(text: &str, sizes: &[usize]) -> (Vec<String>, Option<TextError>, u64) {
    let mut tokens = Tokens::at(0, 128);
    let mut read = Vec::new();
    let mut end = 0;
    let mut piece = 0;
    loop {
        end = (end + sizes.get(piece % sizes.len().max(1)).copied().unwrap_or(1)).min(text.len());
        piece += 1;
        while !text.is_char_boundary(end) {
            end += 1;
        }
        if end == text.len() {
            tokens.end_of_text();
        }
        loop {
            match tokens.next(&text[..end]) {
                Ok(Some(token)) => read.push(format!("{token:?}")),
                Ok(None) => return (read, None, tokens.work()),
                Err(Stop::More) => break,
                Err(Stop::Error(error)) => return (read, Some(*error), tokens.work()),
            }
        }
    }
}

/// Texts of one long token of each kind a stream may cut anywhere (the class of
/// `reading_is_linear_however_the_text_is_cut`): a number, a line and a block comment, a bare
/// key, a plain string, a string of escapes, white space, deep nesting; `size` is about the
/// token's length.
fn long_tokens(size: usize) -> Vec<String> {
    let nested = size.min(127);
    vec![
        format!("[{}]", "7".repeat(size)),
        format!("[-1.{}e+{}]", "5".repeat(size), "9".repeat(size / 8)),
        format!("{{\"a\":1 // {}\n}}", "x".repeat(size)),
        format!("{{\"a\":1 # {}\n}}", "y".repeat(size)),
        format!("{{\"a\":1 /* {} */}}", "x*".repeat(size / 2)),
        format!("{{\"a\":1 /* {}*/}}", "*".repeat(size)),
        format!("{{{}:1}}", "k".repeat(size)),
        format!("[\"{}\"]", "s".repeat(size)),
        format!("[\"{}\"]", "\\n\\u0041\\\"".repeat(size / 14)),
        format!("[{}1]", " ".repeat(size)),
        format!("{}{}", "[".repeat(nested), "]".repeat(nested)),
    ]
}

/// At most this many bytes looked at per byte of text, however it is cut.
const WORK_PER_BYTE: u64 = 4;

#[test]
fn reading_is_linear_however_the_text_is_cut() {
    // 100,000-byte tokens fed a byte at a time, and 16 times fewer: the same work per byte.
    let small = long_tokens(100_000 / 16);
    let large = long_tokens(100_000);
    for (small, large) in small.iter().zip(&large) {
        let (small_tokens, small_end, small_work) = read_in_pieces(small, &[1]);
        let (large_tokens, large_end, large_work) = read_in_pieces(large, &[1]);
        assert!(small_end.is_none() && large_end.is_none(), "{:.40}", large);
        assert_eq!(small_tokens.len(), large_tokens.len());
        let per_byte = |work: u64, text: &str| work as f64 / text.len() as f64;
        assert!(
            large_work <= WORK_PER_BYTE * large.len() as u64,
            "{:.40}: {large_work} for {} bytes",
            large,
            large.len()
        );
        assert!(
            per_byte(large_work, large) <= per_byte(small_work, small) * 1.05 + 0.01,
            "{:.40}: {} a byte at 16 times the size, against {}",
            large,
            per_byte(large_work, large),
            per_byte(small_work, small)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any text of the class, cut anywhere into pieces of any sizes, is read as the whole
    /// text is, looking at no more than [`WORK_PER_BYTE`] bytes per byte.
    #[test]
    fn long_tokens_cut_anywhere_are_read_once(
        kind in 0usize..11,
        size in 1usize..3000,
        sizes in prop::collection::vec(1usize..9, 1..6),
    ) {
        let text = &long_tokens(size)[kind];
        let (whole, whole_end, _) = read_in_pieces(text, &[text.len()]);
        let (read, end, work) = read_in_pieces(text, &sizes);
        prop_assert_eq!(read, whole, "{:.40}", text);
        prop_assert_eq!(end, whole_end);
        prop_assert!(work <= WORK_PER_BYTE * text.len() as u64 + 64, "{:.40}: {}", text, work);
    }
}

//! How the hint names a field in its question and placeholders: by its description where
//! that reads as a noun phrase ("the departure airport"), else by its name, the description
//! in brackets ("`query` (words to search for)", "`city` (choose city)").
//!
//! Descriptions are written for people and are often not noun phrases: a clause ("Whether
//! the ticket is refundable"), an instruction ("Choose city", "Specify the unit"), a
//! third-person sentence ("Returns the count"), several sentences, or nothing. The rules:
//! - the description's first sentence is taken: it ends at `.`, `?` or `!` before white space
//!   (or at a blank line), but not after an abbreviation (`e.g.`, `i.e.`, `U.S.`, `No.`, a
//!   single letter); a first sentence that is only "Optional." or "Required." is skipped;
//! - a phrase with an article ("the", "a", "an", "your") is the subject as it is;
//! - a phrase that starts as a clause (`how`, `whether`, ...), or as a verb (an instruction
//!   such as "choose" or "specify", or a third-person form or gerund followed by "the", "a",
//!   "whether"...), follows the field's name in brackets;
//! - any other phrase takes "the";
//! - an empty description is the field's name.
//!
//! The question is "What should \<subject\> be?", which reads right with plural subjects too
//! ("What should the words to search for be?").

use crate::Path;

/// Words that end no sentence though a period follows them (compared lowercased, without
/// their periods).
const ABBREVIATIONS: [&str; 31] = [
    "eg", "ie", "etc", "vs", "no", "nos", "nr", "approx", "incl", "excl", "esp", "cf", "ca", "mr",
    "mrs", "ms", "dr", "st", "inc", "ltd", "co", "corp", "jr", "sr", "fig", "vol", "ref", "est",
    "al", "resp", "min",
];

/// First words that make a phrase a clause: it follows the name in brackets.
const CLAUSE_WORDS: [&str; 10] = [
    "how", "what", "which", "whether", "when", "where", "who", "why", "if", "to",
];

/// First words of instructions, which read as verbs whatever follows ("Choose city").
const INSTRUCTIONS: [&str; 24] = [
    "choose", "select", "enter", "specify", "provide", "pick", "type", "input", "give", "insert",
    "supply", "set", "define", "indicate", "put", "write", "fill", "add", "send", "use", "make",
    "let", "tell", "please",
];

/// Words that, second in a phrase after a word that [`reads_as_verb`], show it is one
/// ("Returns the count", "Sets a limit", "Determines whether ...").
const OBJECT_STARTS: [&str; 22] = [
    "the", "a", "an", "your", "this", "that", "these", "those", "whether", "which", "if", "how",
    "what", "when", "where", "who", "all", "any", "each", "every", "its", "their",
];

/// A first sentence made only of this word says nothing of the value: the next is taken.
const BARE_LABELS: [&str; 4] = ["optional", "required", "deprecated", "note"];

/// The first sentence of `text` (see the module's rules), without its final punctuation.
pub(super) fn first_sentence(text: &str) -> &str {
    let mut rest = text.trim();
    loop {
        let sentence = sentence_at(rest);
        let bare = without_dangling(sentence);
        let after = rest[sentence.len()..].trim_start();
        if is_one_of(&BARE_LABELS, bare) && !after.is_empty() {
            rest = after;
            continue;
        }
        return bare;
    }
}

/// A sentence without its final punctuation, nor an abbreviation that introduces what is
/// not there (`The city, e.g.`: the sentence was cut in the description itself).
fn without_dangling(sentence: &str) -> &str {
    const INTRODUCING: [&str; 6] = ["e.g", "i.e", "eg", "ie", "vs", "cf"];
    let ending = |c: char| c.is_whitespace() || ".!?:;,(".contains(c);
    let mut bare = sentence.trim_end_matches(|c: char| ending(c) && c != '(');
    loop {
        let word_at = bare.rfind(char::is_whitespace).map_or(0, |at| at + 1);
        if word_at == 0 || !is_one_of(&INTRODUCING, &bare[word_at..]) {
            return bare.trim();
        }
        bare = bare[..word_at].trim_end_matches(ending);
    }
}

/// The first sentence of `text`, its final punctuation included.
fn sentence_at(text: &str) -> &str {
    let bytes = text.as_bytes();
    for (at, &byte) in bytes.iter().enumerate() {
        // A blank line ends a paragraph; one line break is a wrapped line.
        if byte == b'\n'
            && text[at + 1..]
                .trim_start_matches([' ', '\t', '\r'])
                .starts_with('\n')
        {
            return &text[..at];
        }
        if !matches!(byte, b'.' | b'?' | b'!') {
            continue;
        }
        let next = bytes.get(at + 1);
        if !next.is_none_or(|b| b.is_ascii_whitespace()) {
            continue; // `3.5`, `example.com`, `?q=`
        }
        if byte == b'.' && ends_abbreviation(&text[..at]) {
            continue;
        }
        return &text[..=at];
    }
    text
}

/// Whether the word ending `before` (a period follows it) is an abbreviation: in
/// [`ABBREVIATIONS`], one letter (`J. Smith`), or letters dotted inside (`U.S`, `e.g`, not
/// `1.5` or `example.com`).
fn ends_abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    let letters = || word.chars().filter(|c| c.is_alphanumeric());
    let dotted = word.contains('.')
        && word
            .split('.')
            .all(|part| part.chars().count() <= 2 && part.chars().all(char::is_alphabetic));
    dotted
        || (letters().count() == 1 && word.chars().all(char::is_alphabetic))
        || ABBREVIATIONS.iter().any(|abbreviation| {
            abbreviation
                .chars()
                .eq(letters().map(|c| c.to_ascii_lowercase()))
        })
}

/// A description as a phrase: its first sentence, first letter lowercased unless it starts
/// an acronym (`URL of the page` stays).
pub(super) fn phrase(description: &str) -> String {
    let first = first_sentence(description);
    let mut chars = first.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && !b.is_uppercase() => {
            let mut phrase = String::with_capacity(first.len() + 2);
            phrase.extend(a.to_lowercase());
            phrase.push_str(&first[a.len_utf8()..]);
            phrase
        }
        _ => first.to_owned(),
    }
}

/// The field at `path` as the subject of a question, its description `description`.
pub(super) fn subject_described(description: Option<&str>, path: &Path) -> String {
    let phrase = description.map(phrase).unwrap_or_default();
    if !phrase.chars().any(char::is_alphanumeric) {
        return format!("`{path}`");
    }
    let mut words = phrase
        .split_whitespace()
        .map(|word| word.trim_matches(|c: char| !c.is_alphanumeric()));
    let first = words.next().unwrap_or_default();
    let second = words.next().unwrap_or_default();
    if is_one_of(&["the", "a", "an", "your"], first) {
        if second.is_empty() {
            return format!("`{path}`"); // An article alone names nothing.
        }
        phrase
    } else if is_one_of(&CLAUSE_WORDS, first)
        || is_one_of(&INSTRUCTIONS, first)
        || (reads_as_verb(first) && is_one_of(&OBJECT_STARTS, second))
    {
        format!("`{path}` ({phrase})")
    } else {
        format!("the {phrase}")
    }
}

/// Whether `word`, followed by an object ("the", "whether"...), is a verb: a third-person
/// form (`returns`, `specifies`, not `address` or `status`) or a gerund (`using`). A bare
/// noun followed by "the" starts a relative clause ("Airport the flight leaves from").
fn reads_as_verb(word: &str) -> bool {
    let ends = |suffix: &str| {
        word.len()
            .checked_sub(suffix.len())
            .and_then(|at| word.get(at..))
            .is_some_and(|end| end.eq_ignore_ascii_case(suffix))
    };
    (ends("s") && !ends("ss") && !ends("us") && !ends("is")) || ends("ing")
}

/// Whether `word` is one of `words` (lowercase ASCII), in any case, without allocating.
fn is_one_of(words: &[&str], word: &str) -> bool {
    words.iter().any(|listed| listed.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subject(description: &str) -> String {
        subject_described(Some(description), &Path::root().key("f"))
    }

    #[test]
    fn descriptions_that_are_no_noun_phrase_follow_the_name() {
        for (description, expected) in [
            ("The departure airport", "the departure airport"),
            ("Words to search for", "the words to search for"),
            ("Choose city", "`f` (choose city)"),
            ("Specify the unit.", "`f` (specify the unit)"),
            ("Returns the count", "`f` (returns the count)"),
            (
                "Whether the ticket is refundable",
                "`f` (whether the ticket is refundable)",
            ),
            ("", "`f`"),
            ("  . ", "`f`"),
            ("Optional. Max results", "the max results"),
            ("URL of the page", "the URL of the page"),
            (
                "Airport the flight leaves from",
                "the airport the flight leaves from",
            ),
            ("Using the default", "`f` (using the default)"),
        ] {
            assert_eq!(subject(description), expected, "{description:?}");
        }
    }

    #[test]
    fn the_first_sentence_ends_at_a_sentence_not_an_abbreviation() {
        for (text, first) in [
            ("The city, e.g. Paris. Required", "The city, e.g. Paris"),
            ("The id, i.e. the key. More", "The id, i.e. the key"),
            ("Ticket No. 5 to close", "Ticket No. 5 to close"),
            ("A U.S. state code. Two letters", "A U.S. state code"),
            ("Which city? Any", "Which city"),
            ("Now! Later", "Now"),
            ("Ratio, 0.5 or 1.5. Other", "Ratio, 0.5 or 1.5"),
            ("The city, e.g.", "The city"),
            ("Site (example.com)", "Site (example.com)"),
            ("First paragraph\n\nSecond one", "First paragraph"),
            ("A line that\nwraps. Then", "A line that\nwraps"),
            ("Name of J. Smith's dog. Other", "Name of J. Smith's dog"),
        ] {
            assert_eq!(first_sentence(text), first, "{text:?}");
        }
    }
}

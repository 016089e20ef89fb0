//! `pattern`: JSON Schema's regular expressions, read with ECMA-262's meaning and matched by a
//! DFA built up front, so that checking a value costs one table lookup per byte whatever the
//! pattern. See [`Pattern`].

mod classes;
mod ecma;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::nfa::thompson;
use regex_automata::{Anchored, Input};
use regex_syntax::hir::{Class, Hir, Look, Repetition};

/// The automaton a pattern is matched with: a dense DFA, searched from the start of the text
/// (a pattern that may match anywhere carries its own search prefix, see `compile`).
type Dfa = dense::DFA<Vec<u32>>;

/// A `pattern`: a regular expression a string must contain a match of. JSON Schema patterns
/// are not anchored: `^` and `$` must be written to anchor them.
///
/// # Dialect
///
/// Patterns are ECMA-262 regular expressions, as JSON Schema says, with ECMA-262's meaning:
///
/// - `\d` is `[0-9]`, `\w` is `[A-Za-z0-9_]`, `\D` and `\W` their complements; `\b` and `\B`
///   are word boundaries in that ASCII sense. Arabic-Indic digits are not `\d`, `é` is not
///   `\w`.
/// - `\s` is ECMA-262's white space and line terminators: tab, line feed, vertical tab, form
///   feed, carriage return, space, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
///   U+205F, U+3000 and U+FEFF. `\S` is its complement.
/// - These classes mean the same inside brackets: `[\d.]` holds the ASCII digits and `.`.
/// - `.` is any character but the line terminators `\n`, `\r`, U+2028 and U+2029.
/// - `^` and `$` are the start and the end of the whole string (there is no multiline flag):
///   `^abc$` does not match `"abc\n"`.
/// - Characters are Unicode scalar values, as with ECMA-262's `u` flag (and as JSON Schema's
///   test suite expects): `^.$` matches one emoji, `\u{1F600}` and the surrogate pair
///   `\uD83D\uDE00` both name it, and `\p{Letter}`, `\p{Script=Greek}`, `\P{L}` are Unicode
///   properties.
/// - Also read: `\t \n \v \f \r \0`, `\cX`, `\xHH`, `\uHHHH`, `[^...]`, ranges, `[]`
///   (nothing) and `[^]` (anything), groups `(...)`, `(?:...)`, `(?<name>...)`, the
///   quantifiers `* + ? {n} {n,} {n,m}` and their lazy forms. As ECMA-262's Annex B allows, a
///   `{` that starts no quantifier, a lone `}` or `]`, and `-` beside a class escape in
///   brackets (`[\w-.]`) are literals, and a backslash before a character that is neither a
///   letter nor a digit (`\.`, `\/`, `\-`) stands for that character.
///
/// Refused, with an error naming the construct: lookahead and lookbehind, backreferences
/// (`\1`, `\k<name>`), octal escapes, modifiers (`(?i)`, `(?i:...)`), escapes ECMA-262 does
/// not define (`\a`, `\A`, `\z`, `\Q`, which other dialects read otherwise), lone surrogates,
/// and groups nested deeper than [`Pattern::MAX_NESTING`].
///
/// # Cost
///
/// Every pattern is compiled up front into a DFA. Checking a string of `n` bytes reads each
/// byte once through the DFA's transition table, plus one step for the end: `n + 1` steps of
/// constant cost, whatever the pattern; there is no backtracking and no fallback to a slower
/// engine. What a pattern may cost is bounded where it is compiled instead: a pattern whose
/// NFA exceeds [`Pattern::MAX_NFA_BYTES`], whose DFA exceeds [`Pattern::MAX_DFA_BYTES`], or
/// whose construction needs more than [`Pattern::MAX_DETERMINIZE_BYTES`] of scratch memory is
/// refused as too costly. Such patterns are rare in tool schemas; they are bounded
/// repetitions of wide classes that are not anchored at the start (`a.{2000}c`,
/// `a[ab]{1000}c`), or very wide ones (`^\p{L}{1,64}$`, whose length is better said with
/// `maxLength`). A DFA kept for matching holds at most [`Pattern::MAX_DFA_BYTES`].
///
/// A schema read at run time (from a server or a registry) also bounds its patterns
/// together: they may build at most [`Pattern::MAX_SCHEMA_AUTOMATA_BYTES`] of automata, so
/// reading a schema costs a few patterns' worth of work however many patterns it holds. The
/// derive and the [`Schema`](super::Schema) builder apply the limits of each pattern only:
/// their patterns are the program's own.
///
/// A pattern that cannot be used is kept with its error ([`Pattern::error`]): the schema
/// reader refuses the schema (a `schema` issue naming the pattern), the derive refuses the
/// type (a compile error), and checking a value against it gives an issue with constraint
/// `schema`, never a panic.
///
/// ```
/// use toolgate_core::model::Pattern;
///
/// let zip = Pattern::new(r"^\d{5}$");
/// assert_eq!(zip.is_match("75001"), Some(true));
/// assert_eq!(zip.is_match("١٢٣٤٥"), Some(false));
/// assert!(Pattern::new("a.{2000}c").is_too_costly());
/// ```
#[derive(Clone)]
pub struct Pattern {
    source: String,
    compiled: Result<Arc<Dfa>, Refusal>,
}

/// Why a pattern cannot be used.
#[derive(Clone, Debug)]
struct Refusal {
    message: String,
    too_costly: bool,
}

impl Refusal {
    fn invalid(message: String) -> Self {
        Refusal {
            message,
            too_costly: false,
        }
    }

    fn too_costly(what: &str, limit: usize, advice: &str) -> Self {
        Refusal {
            message: format!(
                "it is too costly: {what} would need more than {}{advice}",
                bytes(limit)
            ),
            too_costly: true,
        }
    }
}

/// What to suggest when a pattern alone is too costly.
const COST_ADVICE: &str = " (bounded repetitions of wide classes, such as `.{2000}` or \
    `[ab]{1000}`, are the usual cause; `minLength` and `maxLength` bound a length at no cost)";

impl Pattern {
    /// How deeply groups may nest.
    pub const MAX_NESTING: usize = 64;
    /// The largest NFA (the pattern's compiled form, kept while its DFA is built), in bytes.
    pub const MAX_NFA_BYTES: usize = 256 * 1024;
    /// The largest DFA a pattern may keep, in bytes.
    pub const MAX_DFA_BYTES: usize = 1024 * 1024;
    /// The largest scratch memory building a DFA may use, in bytes (beside the DFA itself).
    pub const MAX_DETERMINIZE_BYTES: usize = 512 * 1024;
    /// The most automata memory (NFAs and DFAs, in bytes) the patterns of one schema read at
    /// run time may build together. A pattern refused as too costly counts for the limits it
    /// reached, and a pattern written twice is compiled once; once the budget is spent, the
    /// schema's other patterns are refused without being compiled. So reading a schema costs
    /// a few patterns' worth of work, however many patterns it holds.
    pub const MAX_SCHEMA_AUTOMATA_BYTES: usize = 4 * 1024 * 1024;

    /// Reads and compiles `source`; see [`Pattern::error`] for the outcome.
    pub fn new(source: impl Into<String>) -> Self {
        Self::within(source.into(), Limits::PER_PATTERN).0
    }

    /// Compiles `source` within `limits`; also hands back the bytes of automata built.
    fn within(source: String, limits: Limits) -> (Self, usize) {
        let (compiled, built) = match ecma::parse(&source) {
            Ok(hir) => compile(hir, limits),
            Err(message) => (Err(Refusal::invalid(message)), 0),
        };
        let compiled = compiled.map(Arc::new);
        (Pattern { source, compiled }, built)
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Why the pattern cannot be used, if it cannot: its syntax, an ECMA-262 feature that is
    /// not supported, or its cost.
    pub fn error(&self) -> Option<&str> {
        self.compiled
            .as_ref()
            .err()
            .map(|refusal| refusal.message.as_str())
    }

    /// Whether the pattern was refused for its cost (see the limits on [`Pattern`]).
    pub fn is_too_costly(&self) -> bool {
        self.compiled
            .as_ref()
            .is_err_and(|refusal| refusal.too_costly)
    }

    /// The memory the pattern's DFA holds, in bytes (at most [`Pattern::MAX_DFA_BYTES`]); 0
    /// if the pattern cannot be used.
    pub fn memory_usage(&self) -> usize {
        self.compiled.as_ref().map_or(0, |dfa| dfa.memory_usage())
    }

    /// Whether `text` contains a match; `None` if the pattern cannot be used. Costs one DFA
    /// step per byte of `text`, plus one.
    pub fn is_match(&self, text: &str) -> Option<bool> {
        let dfa = self.compiled.as_ref().ok()?;
        let input = Input::new(text).anchored(Anchored::Yes).earliest(true);
        // The DFA has no quit bytes and no Unicode word boundary, the two reasons a DFA
        // search can fail; were it to fail, the value is not judged.
        dfa.try_search_fwd(&input).ok().map(|found| found.is_some())
    }
}

/// The sizes an NFA and a DFA may reach.
#[derive(Clone, Copy)]
struct Limits {
    nfa: usize,
    dfa: usize,
}

impl Limits {
    const PER_PATTERN: Limits = Limits {
        nfa: Pattern::MAX_NFA_BYTES,
        dfa: Pattern::MAX_DFA_BYTES,
    };

    /// The limits within what is left of a schema's budget.
    fn within_budget(remaining: usize) -> Limits {
        Limits {
            nfa: remaining.min(Pattern::MAX_NFA_BYTES),
            dfa: remaining.min(Pattern::MAX_DFA_BYTES),
        }
    }

    fn narrowed_by_budget(self) -> bool {
        self.nfa < Pattern::MAX_NFA_BYTES || self.dfa < Pattern::MAX_DFA_BYTES
    }

    /// The refusal for an automaton that outgrew its limit.
    fn refusal(self, what: &str, limit: usize) -> Refusal {
        if self.narrowed_by_budget() {
            Refusal::too_costly(
                "the automata of the schema's patterns together",
                Pattern::MAX_SCHEMA_AUTOMATA_BYTES,
                "",
            )
        } else {
            Refusal::too_costly(what, limit, COST_ADVICE)
        }
    }
}

/// Compiles a pattern's `Hir` into its DFA within `limits`; also hands back the bytes of
/// automata built (the limits reached, for a pattern refused as too costly).
fn compile(hir: Hir, limits: Limits) -> (Result<Dfa, Refusal>, usize) {
    // A pattern that does not begin with `^` may match anywhere: it is searched for from
    // every position, through a lazy prefix of whole characters (so that `\B` is never
    // tried inside a multi-byte character).
    let anchored = hir.properties().look_set_prefix().contains(Look::Start);
    let hir = if anchored {
        hir
    } else {
        let any_character = Hir::class(Class::Unicode(classes::any_character()));
        let prefix = Hir::repetition(Repetition {
            min: 0,
            max: None,
            greedy: false,
            sub: Box::new(any_character),
        });
        Hir::concat(vec![prefix, hir])
    };
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .utf8(true)
                .shrink(false)
                .which_captures(thompson::WhichCaptures::None)
                .nfa_size_limit(Some(limits.nfa)),
        )
        .build_from_hir(&hir);
    let nfa = match nfa {
        Ok(nfa) => nfa,
        Err(_) => return (Err(limits.refusal("its NFA", limits.nfa)), limits.nfa),
    };
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Anchored)
                .minimize(false)
                .dfa_size_limit(Some(limits.dfa))
                .determinize_size_limit(Some(Pattern::MAX_DETERMINIZE_BYTES)),
        )
        .build_from_nfa(&nfa);
    match dfa {
        Ok(dfa) => {
            let built = nfa.memory_usage() + dfa.memory_usage();
            (Ok(dfa), built)
        }
        Err(error) if error.is_size_limit_exceeded() => (
            Err(limits.refusal("its DFA", limits.dfa)),
            nfa.memory_usage() + limits.dfa,
        ),
        Err(error) => (Err(Refusal::invalid(error.to_string())), nfa.memory_usage()),
    }
}

/// `1 MiB`, `256 KiB`, `100 bytes`.
fn bytes(count: usize) -> String {
    match count {
        _ if count >= 1 << 20 && count.is_multiple_of(1 << 20) => format!("{} MiB", count >> 20),
        _ if count >= 1 << 10 && count.is_multiple_of(1 << 10) => format!("{} KiB", count >> 10),
        _ => format!("{count} bytes"),
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("Pattern");
        debug.field("source", &self.source);
        match &self.compiled {
            Ok(dfa) => debug.field("dfa_bytes", &dfa.memory_usage()),
            Err(refusal) => debug.field("error", &refusal.message),
        };
        debug.finish()
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source
    }
}

/// The patterns of one schema, compiled within [`Pattern::MAX_SCHEMA_AUTOMATA_BYTES`]
/// together; a source written twice is compiled once (its DFA is shared).
#[derive(Default)]
pub(crate) struct SchemaPatterns {
    spent: usize,
    compiled: HashMap<String, Pattern>,
}

impl SchemaPatterns {
    /// Compiles `source`, or hands back its earlier compilation.
    pub(crate) fn compile(&mut self, source: String) -> Pattern {
        if let Some(pattern) = self.compiled.get(&source) {
            return pattern.clone();
        }
        let remaining = Pattern::MAX_SCHEMA_AUTOMATA_BYTES - self.spent;
        let (pattern, built) = Pattern::within(source.clone(), Limits::within_budget(remaining));
        self.spent = (self.spent + built).min(Pattern::MAX_SCHEMA_AUTOMATA_BYTES);
        self.compiled.insert(source, pattern.clone());
        pattern
    }
}

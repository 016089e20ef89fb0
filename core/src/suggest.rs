//! "Did you mean": the nearest candidate to a near miss, by edit distance.

use std::borrow::Cow;

/// Folds case and drops the separators `_`, `-` and space, so `Premium-Economy`,
/// `premium_economy`, `PremiumEconomy` and `premiumEconomy` all compare equal: the folding of
/// both `enum_case` and `key_case`.
pub fn fold(text: &str) -> String {
    folded(text).collect()
}

/// How many names were folded on this thread: unit tests bound the work of a lookup with it.
#[cfg(test)]
pub(crate) mod work {
    use std::cell::Cell;

    thread_local! {
        static FOLDS: Cell<usize> = const { Cell::new(0) };
    }

    pub(crate) fn count_fold() {
        FOLDS.with(|folds| folds.set(folds.get() + 1));
    }

    thread_local! {
        static CELLS: Cell<usize> = const { Cell::new(0) };
    }

    /// An edit distance measured over `cells` pairs of characters.
    pub(crate) fn count_cells(cells: usize) {
        CELLS.with(|counted| counted.set(counted.get() + cells));
    }

    /// The pairs of characters measured by `run`.
    pub(crate) fn cells_in(run: impl FnOnce()) -> usize {
        let before = CELLS.with(Cell::get);
        run();
        CELLS.with(Cell::get) - before
    }

    /// The folds made by `run`.
    pub(crate) fn folds_in(run: impl FnOnce()) -> usize {
        let before = FOLDS.with(Cell::get);
        run();
        FOLDS.with(Cell::get) - before
    }
}

/// The characters of [`fold`]`(text)`, without building the string.
fn folded(text: &str) -> impl Iterator<Item = char> + '_ {
    #[cfg(test)]
    work::count_fold();
    text.trim()
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
}

/// The length in characters of [`fold`]`(text)`: counted on the bytes for ASCII text (the
/// usual case, and what keeps a "did you mean" over a long list cheap).
fn folded_length(text: &str) -> usize {
    let trimmed = text.trim();
    if trimmed.is_ascii() {
        trimmed
            .bytes()
            .filter(|b| !matches!(b, b'_' | b'-' | b' '))
            .count()
    } else {
        folded(text).count()
    }
}

/// Whether `a` and `b` are equal after [`fold`]ing both; allocates nothing.
///
/// ```
/// use toolgate_core::suggest::fold_eq;
///
/// assert!(fold_eq("Premium-Economy", "premium_economy"));
/// assert!(!fold_eq("business", "economy"));
/// ```
pub fn fold_eq(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        // The usual case, byte by byte.
        return ascii_folded(a).eq(ascii_folded(b));
    }
    folded(a).eq(folded(b))
}

/// The bytes of [`fold`]`(text)` for ASCII `text`, without building the string.
fn ascii_folded(text: &str) -> impl Iterator<Item = u8> + '_ {
    #[cfg(test)]
    work::count_fold();
    text.trim()
        .bytes()
        .filter(|b| !matches!(b, b'_' | b'-' | b' '))
        .map(|b| b.to_ascii_lowercase())
}

/// The most candidates [`nearest`] measures: a longer list (an enum of 100,000 values) gets
/// no suggestion, so the work of "did you mean" stays at most this much per issue, however
/// long the schema's lists (100 issues against a 100,000-value enum would otherwise measure
/// ten million names). The answer's allowed values still list the first of them.
pub const MOST_SUGGESTION_CANDIDATES: usize = 1_000;

/// The longest name (folded, in characters) [`nearest`] measures: a value or a candidate
/// longer than this gets no suggestion. An edit distance costs the product of the lengths
/// compared, so without this bound a 60 KB key beside a 60 KB field name took seconds; with
/// it, one comparison costs at most 256 × 256 steps, and an issue at most that many times
/// [`MOST_SUGGESTION_CANDIDATES`]. No one misspells a name that long by a few characters.
pub const MOST_SUGGESTED_CHARS: usize = 256;

/// The candidate nearest to `got` when it is close: at most a third of the candidate's
/// length in edits (so names shorter than 3 characters must match up to case and
/// separators), after [`fold`]ing both. Names longer than [`MOST_SUGGESTED_CHARS`] are not
/// measured. An edit is an
/// insertion, a deletion, a substitution or a swap of two neighbours (`emial` → `email` is one). The first of equally
/// near candidates wins, so the answer follows the candidates' order. More than
/// [`MOST_SUGGESTION_CANDIDATES`] candidates give no answer.
///
/// ```
/// use toolgate_core::suggest::nearest;
///
/// let cabins = ["economy", "premium_economy", "business", "first"];
/// assert_eq!(nearest("buisness", cabins), Some("business"));
/// assert_eq!(nearest("Premium Economy", cabins), Some("premium_economy"));
/// assert_eq!(nearest("luxury", cabins), None);
/// ```
pub fn nearest<'a>(got: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Both sides short ASCII (nearly always): folded and measured on the stack.
    let short_got = short_ascii_fold(got);
    let got: Cow<'_, str> = match &short_got {
        Some((folded, length)) => String::from_utf8_lossy(&folded[..*length]),
        None => Cow::Owned(fold(got)),
    };
    let got_chars = got.chars().count();
    if got_chars > MOST_SUGGESTED_CHARS {
        return None;
    }
    let got_is_short = short_got.is_some();
    let mut best: Option<(usize, &'a str)> = None;
    for (measured, candidate) in candidates.into_iter().enumerate() {
        if measured == MOST_SUGGESTION_CANDIDATES {
            return None;
        }
        let short = got_is_short.then(|| short_ascii_fold(candidate)).flatten();
        let length = match &short {
            Some((_, length)) => *length,
            None => folded_length(candidate),
        };
        if length > MOST_SUGGESTED_CHARS {
            continue;
        }
        let allowed = length / 3;
        // Each edit changes the length by at most one: a candidate whose length is further
        // off than the edits allowed cannot be near, and is not measured.
        if got_chars.abs_diff(length) > allowed {
            continue;
        }
        let distance = match &short {
            // Bytes one side has and the other lacks need an edit each: when they are more
            // than the edits allowed, the candidate is not measured.
            Some((folded, length))
                if bag_distance(got.as_bytes(), &folded[..*length]) > allowed =>
            {
                continue;
            }
            Some((folded, length)) => {
                osa_distance_short(got.as_bytes(), &folded[..*length], allowed)
            }
            None => {
                #[cfg(test)]
                work::count_cells(got_chars * length);
                strsim::osa_distance(&got, &fold(candidate))
            }
        };
        if distance <= allowed && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Pairs of characters the near-miss checks of one decoding may measure (every undeclared
/// key of an object that takes them, against the object's field names; see
/// [`crate::decode::NearMisses`]): tens of milliseconds at most. Past it, one `limit` issue.
pub const MOST_NEAR_MISS_CELLS: usize = 1 << 24;

/// A list of names folded once, for many "did you mean" lookups against it (every
/// undeclared key of an object against the object's fields): [`nearest`]'s answer, with
/// each candidate's folding, length and characters known beforehand, so a candidate that
/// cannot be near costs a few comparisons. More than [`MOST_SUGGESTION_CANDIDATES`] names
/// answer nothing, as [`nearest`] does.
#[derive(Debug, Default)]
pub(crate) struct FoldedNames {
    names: Vec<FoldedName>,
}

/// One name of [`FoldedNames`].
#[derive(Debug)]
struct FoldedName {
    folded: String,
    /// Its length in characters.
    chars: usize,
    /// Whether it is ASCII of at most [`SHORT`] bytes: measured on the stack.
    short: bool,
    /// Which characters it holds: bit `c % 128` for each character `c`.
    holds: u128,
}

impl FoldedName {
    fn of(name: &str) -> Self {
        let folded = fold(name);
        let holds = folded
            .chars()
            .fold(0u128, |holds, c| holds | 1 << (c as u32 % 128));
        FoldedName {
            chars: folded.chars().count(),
            short: folded.is_ascii() && folded.len() <= SHORT,
            folded,
            holds,
        }
    }

    /// A lower bound of the edit distance to `other`: the characters one holds and the
    /// other lacks (each needs an edit; a swap brings in none), on the side with more.
    fn distance_at_least(&self, other: &FoldedName) -> usize {
        let only_self = (self.holds & !other.holds).count_ones();
        let only_other = (other.holds & !self.holds).count_ones();
        only_self.max(only_other) as usize
    }
}

impl FoldedNames {
    pub(crate) fn new<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> Self {
        if names.len() > MOST_SUGGESTION_CANDIDATES {
            return FoldedNames::default();
        }
        FoldedNames {
            names: names.map(FoldedName::of).collect(),
        }
    }

    /// The index of the name [`nearest`] gives for `got` among these, measuring at most
    /// `cells_left` pairs of characters (taken from it); `None` when that was not enough to
    /// answer. A candidate ruled out by its length or its characters costs nothing; one
    /// measured costs the product of the two lengths.
    pub(crate) fn nearest_within(
        &self,
        got: &str,
        cells_left: &mut usize,
    ) -> Option<Option<usize>> {
        let got = FoldedName::of(got);
        if got.chars > MOST_SUGGESTED_CHARS {
            return Some(None);
        }
        let mut best: Option<(usize, usize)> = None;
        for (at, candidate) in self.names.iter().enumerate() {
            let length = candidate.chars;
            let allowed = length / 3;
            if length > MOST_SUGGESTED_CHARS
                || got.chars.abs_diff(length) > allowed
                || got.distance_at_least(candidate) > allowed
            {
                continue;
            }
            *cells_left = cells_left.checked_sub(got.chars * length)?;
            // Both folded already: measured as they are.
            let distance = if got.short && candidate.short {
                osa_distance_short(got.folded.as_bytes(), candidate.folded.as_bytes(), allowed)
            } else {
                strsim::osa_distance(&got.folded, &candidate.folded)
            };
            if distance <= allowed && best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, at));
            }
        }
        Some(best.map(|(_, at)| at))
    }
}

/// The longest folded name measured on the stack, without allocating.
const SHORT: usize = 64;

/// [`fold`]`(text)` as bytes on the stack, with its length: for ASCII text that folds to at
/// most [`SHORT`] bytes (the names of a schema, nearly always).
fn short_ascii_fold(text: &str) -> Option<([u8; SHORT], usize)> {
    if !text.is_ascii() {
        return None;
    }
    let mut folded = [0; SHORT];
    let mut length = 0;
    for byte in ascii_folded(text) {
        *folded.get_mut(length)? = byte;
        length += 1;
    }
    Some((folded, length))
}

/// A lower bound of the edit distance of two ASCII byte strings: how many bytes one has
/// that the other lacks, counted with repeats, on the side with more. An insertion, a
/// deletion or a substitution lowers that count by at most one and a swap leaves it as it
/// is, so no distance is below it.
fn bag_distance(a: &[u8], b: &[u8]) -> usize {
    // Both are at most `SHORT` bytes long: a byte holds any count.
    let mut counts = [0u8; 128];
    for &byte in a {
        counts[usize::from(byte & 0x7f)] += 1;
    }
    let mut shared = 0;
    for &byte in b {
        let count = &mut counts[usize::from(byte & 0x7f)];
        if *count > 0 {
            *count -= 1;
            shared += 1;
        }
    }
    (a.len() - shared).max(b.len() - shared)
}

/// `strsim::osa_distance` of two byte strings of at most [`SHORT`] bytes, its three rows on
/// the stack: the same distance (insertions, deletions, substitutions and swaps of
/// neighbours), without the allocations. A distance past `limit` is only known to be past
/// it: once two rows in a row are past it, every later row is too (a cell is at least the
/// least of the row above, or of the row two above plus one), and the measure stops.
fn osa_distance_short(a: &[u8], b: &[u8], limit: usize) -> usize {
    debug_assert!(a.len() <= SHORT && b.len() <= SHORT);
    // Distances never pass `SHORT`: a byte holds them. The rows are rotated, not copied.
    let mut rows = [[0u8; SHORT + 1]; 3];
    for (j, cell) in rows[1].iter_mut().enumerate() {
        *cell = j as u8;
    }
    let [mut before_previous, mut previous, mut current] = rows.each_mut();
    let mut previous_past_limit = false;
    for i in 1..=a.len() {
        current[0] = i as u8;
        let mut least = current[0];
        for j in 1..=b.len() {
            let cost = u8::from(a[i - 1] != b[j - 1]);
            let mut distance = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                distance = distance.min(before_previous[j - 2] + 1);
            }
            current[j] = distance;
            least = least.min(distance);
        }
        let past_limit = usize::from(least) > limit;
        if past_limit && previous_past_limit {
            return limit + 1;
        }
        previous_past_limit = past_limit;
        (before_previous, previous, current) = (previous, current, before_previous);
    }
    usize::from(previous[b.len()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_close_ones_only() {
        assert_eq!(
            nearest("destnation", ["origin", "destination"]),
            Some("destination")
        );
        assert_eq!(nearest("x", ["y", "z"]), None);
        assert_eq!(nearest("X", ["y", "x"]), Some("x"));
        assert_eq!(nearest("cabn", ["cabin"]), Some("cabin"));
        assert_eq!(nearest("abc", ["xyz"]), None);
        assert_eq!(nearest("anything", std::iter::empty()), None);
        assert_eq!(fold(" Premium-Economy "), "premiumeconomy");
        assert_eq!(fold("PremiumEconomy"), fold("premium_economy"));
        assert_eq!(nearest("emial", ["email", "uri"]), Some("email"));
    }

    #[test]
    fn a_list_longer_than_the_most_measured_gets_no_suggestion() {
        let names: Vec<String> = (0..=MOST_SUGGESTION_CANDIDATES)
            .map(|i| format!("value_{i}"))
            .collect();
        let within = names[..MOST_SUGGESTION_CANDIDATES]
            .iter()
            .map(String::as_str);
        assert_eq!(nearest("value_12x", within), Some("value_12"));
        assert_eq!(nearest("value_12x", names.iter().map(String::as_str)), None);
    }

    /// The length filter of `nearest` only skips candidates that are too far anyway: the
    /// answers equal those of measuring every candidate.
    #[test]
    fn length_filter_changes_no_answer() {
        fn measured<'a>(got: &str, candidates: &[&'a str]) -> Option<&'a str> {
            let got = fold(got);
            let mut best: Option<(usize, &'a str)> = None;
            for &candidate in candidates {
                let folded = fold(candidate);
                let distance = strsim::osa_distance(&got, &folded);
                if distance <= folded.chars().count() / 3 && best.is_none_or(|(d, _)| distance < d)
                {
                    best = Some((distance, candidate));
                }
            }
            best.map(|(_, c)| c)
        }
        let words = [
            "economy",
            "premium_economy",
            "business",
            "first",
            "luxury",
            "buisness",
            "ecnomy",
            "Premium Economy",
            "frst",
            "firsts",
            "a",
            "ab",
            "abc",
            "abcd",
            "abcdef",
            "abcdefghi",
            "destination",
            "destnation",
            "dest",
            "origin",
            "orign",
            "email",
            "emial",
            "é",
            "Éclair",
        ];
        for got in words {
            for size in 0..words.len() {
                let candidates = &words[size..];
                assert_eq!(
                    nearest(got, candidates.iter().copied()),
                    measured(got, candidates),
                    "{got}"
                );
            }
        }
        assert!(fold_eq(" Premium-Economy ", "premiumeconomy"));
        assert!(!fold_eq("premium", "premiumeconomy"));
        // The folded list answers as `nearest` does.
        for got in words {
            for size in 0..words.len() {
                let candidates = &words[size..];
                let table = FoldedNames::new(candidates.iter().copied());
                let mut unbounded = usize::MAX;
                let found = table.nearest_within(got, &mut unbounded).unwrap();
                assert_eq!(
                    found.map(|at| candidates[at]),
                    nearest(got, candidates.iter().copied()),
                    "{got}"
                );
            }
        }
    }

    proptest::proptest! {
        /// "Did you mean" measures names of bounded length only: whatever the lengths of the
        /// value and the names (near misses of each other, long, ASCII or not), the pairs of
        /// characters measured stay within `MOST_SUGGESTED_CHARS²` a candidate, and a long
        /// name still finds its near miss when both are within the bound.
        #[test]
        fn the_work_of_a_suggestion_is_bounded_by_the_names_lengths(
            length in 1..6000usize,
            candidates in 1..4usize,
            wide in proptest::bool::ANY,
        ) {
            let letter = if wide { "é" } else { "a" };
            let name = letter.repeat(length) + "z";
            let got = letter.repeat(length) + "y";
            let names: Vec<String> = (0..candidates).map(|n| format!("{name}{n}")).collect();
            let mut found = None;
            let cells = work::cells_in(|| {
                found = nearest(&got, names.iter().map(String::as_str)).map(str::to_owned);
            });
            proptest::prop_assert!(cells <= candidates * MOST_SUGGESTED_CHARS * MOST_SUGGESTED_CHARS, "{cells}");
            if length + 2 <= MOST_SUGGESTED_CHARS && length > 6 {
                proptest::prop_assert_eq!(found, Some(names[0].clone()));
            }
        }

        /// The distance measured on the stack is strsim's, for any two short ASCII names.
        #[test]
        fn short_distance_is_strsims(a in "[a-e_ ]{0,70}", b in "[a-eA-E-]{0,70}") {
            if let (Some((fa, la)), Some((fb, lb))) = (short_ascii_fold(&a), short_ascii_fold(&b)) {
                let exact = strsim::osa_distance(&fold(&a), &fold(&b));
                proptest::prop_assert_eq!(osa_distance_short(&fa[..la], &fb[..lb], SHORT), exact);
                // Under a limit: exact up to it, past it only known to be past it.
                for limit in [0, 1, 2, 5, 20] {
                    let bounded = osa_distance_short(&fa[..la], &fb[..lb], limit);
                    if exact <= limit {
                        proptest::prop_assert_eq!(bounded, exact);
                    } else {
                        proptest::prop_assert!(bounded > limit);
                    }
                }
                proptest::prop_assert!(bag_distance(&fa[..la], &fb[..lb]) <= exact);
                let (folded_a, folded_b) = (fold(&a), fold(&b));
                proptest::prop_assert_eq!(&fa[..la], folded_a.as_bytes());
                proptest::prop_assert_eq!(&fb[..lb], folded_b.as_bytes());
            }
        }
    }
}

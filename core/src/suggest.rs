//! "Did you mean": the nearest candidate to a near miss, by edit distance.

/// Folds case and drops the separators `_`, `-` and space, so `Premium-Economy`,
/// `premium_economy`, `PremiumEconomy` and `premiumEconomy` all compare equal: the folding of
/// both `enum_case` and `key_case`.
pub fn fold(text: &str) -> String {
    text.trim()
        .chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// The candidate nearest to `got` when it is close: at most a third of the candidate's
/// length in edits (so names shorter than 3 characters must match up to case and
/// separators), after [`fold`]ing both. An edit is an
/// insertion, a deletion, a substitution or a swap of two neighbours (`emial` → `email` is one). The first of equally
/// near candidates wins, so the answer follows the candidates' order.
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
    let got = fold(got);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let folded = fold(candidate);
        let distance = strsim::osa_distance(&got, &folded);
        let allowed = folded.chars().count() / 3;
        if distance <= allowed && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
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
}

//! Fitting the gathered rules into the budget: the heaviest first, each rule that fits
//! kept and each that does not skipped (so one long rule never starves the lighter ones
//! after it), no line past [`MAX_LINE_CHARS`], and the text written once at the end.

use super::{Gathered, PromptRules, MAX_LINE_CHARS};

/// The last line's text, when rules are left out.
fn note(left_out: usize) -> String {
    format!("({left_out} less important rules left out)")
}

/// The lengths of the fragment a set of kept rules makes, kept up to date rule by rule, so
/// that whether one more rule fits is known without writing the text.
struct Lengths<'g> {
    gathered: &'g Gathered,
    /// Per line: its lead's characters.
    lead: Vec<usize>,
    /// Per line: the clauses kept on it and their characters.
    clauses: Vec<(usize, usize)>,
    /// Per heading: how many of the lines under it are shown.
    under: Vec<usize>,
    /// The characters of the shown lines, and how many there are.
    shown_chars: usize,
    shown: usize,
    kept: Vec<bool>,
    left_out: usize,
}

impl<'g> Lengths<'g> {
    fn new(gathered: &'g Gathered) -> Self {
        let lines = gathered.lines.len();
        Lengths {
            gathered,
            lead: gathered
                .lines
                .iter()
                .map(|line| line.lead.chars().count())
                .collect(),
            clauses: vec![(0, 0); lines],
            under: vec![0; lines],
            shown_chars: 0,
            shown: 0,
            kept: vec![false; gathered.rules.len()],
            left_out: gathered.rules.len() + gathered.over,
        }
    }

    /// The characters of line `index` with `count` clauses of `chars` characters.
    fn line_chars(&self, index: usize, (count, chars): (usize, usize)) -> usize {
        let separators = 2 * count.saturating_sub(1);
        match self.gathered.lines[index].is_heading {
            // `name (a; b):`, or `name:`.
            true if count > 0 => self.lead[index] + 2 + chars + separators + 2,
            true => self.lead[index] + 1,
            // `- path: a, b`.
            false => self.lead[index] + chars + separators,
        }
    }

    fn is_shown(&self, index: usize) -> bool {
        self.clauses[index].0 > 0 || self.under[index] > 0
    }

    /// The fragment's characters with `shown_chars` in `shown` lines and `left_out` rules
    /// left out.
    fn total(shown_chars: usize, shown: usize, left_out: usize) -> usize {
        let body = shown_chars + shown.saturating_sub(1);
        match left_out {
            0 => body,
            _ => body + usize::from(shown > 0) + note(left_out).chars().count(),
        }
    }

    /// Keeps rule `index` if the fragment with it stays within `budget` and its line within
    /// [`MAX_LINE_CHARS`]; whether it did.
    fn try_keep(&mut self, index: usize, budget: usize) -> bool {
        let rule = &self.gathered.rules[index];
        let line = rule.line;
        let (count, chars) = self.clauses[line];
        let grown = (count + 1, chars + rule.text.chars().count());
        let new_chars = self.line_chars(line, grown);
        if new_chars > MAX_LINE_CHARS {
            return false;
        }
        let (mut shown_chars, mut shown) = (self.shown_chars, self.shown);
        if self.is_shown(line) {
            shown_chars = shown_chars - self.line_chars(line, (count, chars)) + new_chars;
        } else {
            shown_chars += new_chars;
            shown += 1;
        }
        let heading = self.gathered.lines[line].heading;
        let opens_heading = match heading {
            Some(heading) if !self.is_shown(line) && !self.is_shown(heading) => Some(heading),
            _ => None,
        };
        if let Some(heading) = opens_heading {
            shown_chars += self.line_chars(heading, self.clauses[heading]);
            shown += 1;
        }
        if Self::total(shown_chars, shown, self.left_out - 1) > budget {
            return false;
        }
        if let Some(heading) = heading {
            if !self.is_shown(line) {
                self.under[heading] += 1;
            }
        }
        self.clauses[line] = grown;
        self.shown_chars = shown_chars;
        self.shown = shown;
        self.left_out -= 1;
        self.kept[index] = true;
        true
    }

    fn total_now(&self) -> usize {
        Self::total(self.shown_chars, self.shown, self.left_out)
    }
}

impl Gathered {
    /// The rules kept within `budget`, by index: the heaviest first (of two equally heavy,
    /// the earlier), each kept if it fits and skipped if not, and the lighter ones after it
    /// still tried. As rules are kept the last line's count shrinks, which may make room
    /// for one skipped before: the rules left out are tried again until none fits.
    pub(super) fn kept_within(&self, budget: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.rules.len()).collect();
        order.sort_by(|&a, &b| {
            self.rules[b]
                .weight
                .cmp(&self.rules[a].weight)
                .then(a.cmp(&b))
        });
        let mut lengths = Lengths::new(self);
        loop {
            let mut added = false;
            for &index in &order {
                if !lengths.kept[index] {
                    added |= lengths.try_keep(index, budget);
                }
            }
            if !added {
                break;
            }
        }
        debug_assert!(
            lengths.kept.iter().all(|kept| !kept) || lengths.total_now() <= budget,
            "kept rules past the budget"
        );
        (0..self.rules.len())
            .filter(|&index| lengths.kept[index])
            .collect()
    }

    /// The fragment: the rules [`Gathered::kept_within`] keeps, and the count of the rest.
    pub(super) fn fit(self, budget: usize) -> PromptRules {
        let kept = self.kept_within(budget);
        let left_out = self.rules.len() + self.over - kept.len();
        let text = self.render(&kept, left_out);
        if text.chars().count() > budget {
            // Nothing fits, not even the count of what is left out.
            return PromptRules {
                text: String::new(),
                left_out,
            };
        }
        PromptRules { text, left_out }
    }

    /// The text of the rules `kept` (indices in order), and the count of those left out.
    pub(super) fn render(&self, kept: &[usize], left_out: usize) -> String {
        let mut clauses: Vec<Vec<&str>> = vec![Vec::new(); self.lines.len()];
        for &index in kept {
            let rule = &self.rules[index];
            clauses[rule.line].push(&rule.text);
        }
        let mut shown = vec![false; self.lines.len()];
        for (index, line) in self.lines.iter().enumerate() {
            if !clauses[index].is_empty() {
                shown[index] = true;
                if let Some(heading) = line.heading {
                    shown[heading] = true;
                }
            }
        }
        let mut text = String::new();
        for (index, line) in self.lines.iter().enumerate() {
            if !shown[index] {
                continue;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&line.lead);
            if line.is_heading {
                if !clauses[index].is_empty() {
                    text.push_str(" (");
                    text.push_str(&clauses[index].join("; "));
                    text.push(')');
                }
                text.push(':');
            } else {
                text.push_str(&clauses[index].join(", "));
            }
        }
        if left_out > 0 {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&note(left_out));
        }
        text
    }
}

//! Layer 1 of the repair loop: the type rules of a set of tools, written from their models as
//! a short fragment for the system prompt, so that the model gets the arguments right before
//! it writes any.
//!
//! [`prompt_rules`] states, per field, the JSON type and the constraints models most often
//! break: integers and numbers as JSON numbers, enum values verbatim, bounds, formats with an
//! example, arrays as JSON arrays, which fields are required (an optional field is left out
//! rather than sent as `null`, unless it takes `null`). The fragment is capped in characters:
//! the least useful rules go first, and a last line counts them.
//!
//! ```
//! use toolgate::prompt::prompt_rules;
//! use toolgate::Tool;
//!
//! /// Book a table.
//! #[derive(Tool, serde::Deserialize)]
//! struct BookTable {
//!     /// Party size
//!     #[tool(range(min = 1, max = 12))]
//!     guests: u8,
//!     /// When, as an RFC 3339 date-time
//!     #[tool(format = "date-time")]
//!     at: String,
//!     /// Anything the restaurant should know
//!     note: Option<String>,
//! }
//!
//! let rules = prompt_rules([BookTable::model()]);
//! assert_eq!(rules.left_out, 0);
//! assert!(rules.text.contains("book_table (required: guests, at):"));
//! assert!(rules.text.contains("- guests: integer, 1 to 12"));
//! assert!(rules.text.contains(r#"- at: string, date-time, e.g. "2026-11-24T14:30:00Z""#));
//! ```
//!
//! Decisions the issue left open, written down here:
//! - Lengths are counted in characters (Unicode scalar values), as JSON Schema counts them.
//! - A rule is one clause about one field (its type, its bounds, its values...), or a tool's
//!   list of required fields, or one of the general lines on top. Each kind has a weight;
//!   the rules are taken heaviest first (the earlier of two equally heavy), each kept if the
//!   fragment with it stays within the budget and skipped if not: a rule that does not fit
//!   never keeps out a lighter one that does (so a smaller budget may keep more, shorter,
//!   rules than a larger one). A field's line goes when its last rule does. The general
//!   lines weigh most.
//! - No line is longer than [`MAX_LINE_CHARS`], whatever the budget (none too): a rule is
//!   at most [`MAX_RULE_CHARS`] (a list in it, the required fields or the enum values, is
//!   shortened to what fits, then `… (N more)`), a field's path at most [`MAX_PATH_CHARS`],
//!   and a clause that would make its line longer is left out (and counted).
//! - A plain string says nothing a model gets wrong: it gets a line only for its constraints.
//! - Names, enum values, patterns and examples come from the schema, which may be someone
//!   else's: each is shortened (at most [`MAX_QUOTED_CHARS`] characters), enum lists are
//!   capped at [`MAX_LISTED_VALUES`] values, fields are followed at most
//!   [`MAX_FIELD_DEPTH`] objects deep, and at most [`MAX_RULES`] rules are gathered (the rest
//!   counted as left out), so a hostile schema cannot make the work or the text grow.

use std::fmt;

use toolgate_core::issue::shorten_text;
use toolgate_core::model::{Kind, Schema, ToolModel};

use clauses::{clauses, has_constraints, join, listed, shorten};

mod clauses;
mod fit;

/// The budget of [`prompt_rules`], in characters.
pub const DEFAULT_PROMPT_BUDGET: usize = 1500;
/// The most characters of a name, value, pattern or example quoted from a schema.
pub const MAX_QUOTED_CHARS: usize = 64;
/// The most enum values listed for one field (then `…` and how many more).
pub const MAX_LISTED_VALUES: usize = 10;
/// How deep nested objects' fields are followed.
pub const MAX_FIELD_DEPTH: usize = 4;
/// The most rules gathered over all tools; the rest are counted as left out.
pub const MAX_RULES: usize = 2000;
/// The most characters of one line of the fragment.
pub const MAX_LINE_CHARS: usize = 400;
/// The most characters of one rule (a list in it is shortened to fit, with a count of the
/// rest; any other text is cut with `…`).
pub const MAX_RULE_CHARS: usize = 240;
/// The most characters of a field's path at the head of its line (then `…`).
pub const MAX_PATH_CHARS: usize = 120;

/// The fragment [`prompt_rules`] wrote, and how many rules the budget left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptRules {
    /// The text, at most the budget in characters (empty when not even the general lines
    /// fit).
    pub text: String,
    /// How many rules were left out (the text's last line says so when it is not zero).
    pub left_out: usize,
}

impl fmt::Display for PromptRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// The type rules of `tools`, within [`DEFAULT_PROMPT_BUDGET`] characters.
pub fn prompt_rules<'m>(tools: impl IntoIterator<Item = &'m ToolModel>) -> PromptRules {
    prompt_rules_within(tools, DEFAULT_PROMPT_BUDGET)
}

/// The type rules of `tools`, within `budget` characters.
///
/// ```
/// use toolgate::prompt::prompt_rules_within;
/// use toolgate::Tool;
///
/// #[derive(Tool, serde::Deserialize)]
/// struct Search {
///     #[tool(length(min = 1, max = 200))]
///     query: String,
///     #[tool(range(min = 1, max = 50))]
///     limit: Option<u32>,
/// }
///
/// let full = prompt_rules_within([Search::model()], 10_000);
/// let short = prompt_rules_within([Search::model()], full.text.chars().count() - 1);
/// assert!(short.left_out > 0);
/// assert!(short.text.chars().count() < full.text.chars().count());
/// assert!(short.text.ends_with(&format!("({} less important rules left out)", short.left_out)));
/// ```
pub fn prompt_rules_within<'m>(
    tools: impl IntoIterator<Item = &'m ToolModel>,
    budget: usize,
) -> PromptRules {
    let mut gathered = Gathered::default();
    for model in tools {
        gathered.tool(model);
    }
    gathered.fit(budget)
}

/// How much a kind of rule is worth keeping: the heavier, the later it is dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Weight {
    PlainString,
    Length,
    Items,
    Nullable,
    Example,
    Pattern,
    Constant,
    Bounds,
    Format,
    Type,
    Values,
    Required,
    General,
}

/// One rule: a clause of a line.
struct Rule {
    line: usize,
    text: String,
    weight: Weight,
}

/// A line of the fragment: a general line, a tool's heading, or a field's.
struct Line {
    /// What comes before the clauses: `- origin: `, `book_flight (required: ...):`.
    lead: String,
    /// The heading this line goes under (`None` for general lines and headings).
    heading: Option<usize>,
    /// Whether the line is written even without a clause of its own (headings are, when a
    /// line under them is).
    is_heading: bool,
}

#[derive(Default)]
struct Gathered {
    lines: Vec<Line>,
    rules: Vec<Rule>,
    /// Rules not gathered (over [`MAX_RULES`]).
    over: usize,
}

const GENERAL: [&str; 3] = [
    "Tool arguments are one JSON object. Integers and numbers go as JSON numbers (3, not \"3\"), booleans as true or false, lists as JSON arrays (not a string holding one).",
    "Enum values go exactly as listed (same case and spelling).",
    "Leave out an optional field you have no value for; send null only where a field allows it.",
];

impl Gathered {
    fn line(&mut self, lead: String, heading: Option<usize>, is_heading: bool) -> usize {
        self.lines.push(Line {
            lead,
            heading,
            is_heading,
        });
        self.lines.len() - 1
    }

    fn rule(&mut self, line: usize, weight: Weight, text: String) {
        if self.rules.len() >= MAX_RULES {
            self.over += 1;
            return;
        }
        let text = shorten(&text);
        self.rules.push(Rule { line, text, weight });
    }

    fn tool(&mut self, model: &ToolModel) {
        if self.lines.is_empty() {
            for general in GENERAL {
                let line = self.line(String::new(), None, false);
                self.rule(line, Weight::General, general.to_owned());
            }
        }
        let name = shorten_text(model.name(), MAX_QUOTED_CHARS);
        let heading = self.line(name, None, true);
        let Some(Kind::Object(object)) = model.resolve(model.input()).map(|s| &s.kind) else {
            // Arguments that are not an object with fields: their type is the one rule.
            self.schema_rules(model, model.input(), heading, 0, "");
            return;
        };
        let required = object.fields.iter().filter(|field| field.required);
        let count = required.clone().count();
        if count > 0 {
            let names = required.map(|field| shorten_text(&field.name, MAX_QUOTED_CHARS));
            self.rule(
                heading,
                Weight::Required,
                listed("required: ", names, count),
            );
        }
        self.fields(model, model.input(), heading, 0, "");
    }

    /// The lines of an object's fields (and of their fields, [`MAX_FIELD_DEPTH`] deep).
    fn fields(
        &mut self,
        model: &ToolModel,
        schema: &Schema,
        heading: usize,
        depth: usize,
        at: &str,
    ) {
        let Some(Kind::Object(object)) = model.resolve(schema).map(|s| &s.kind) else {
            return;
        };
        for field in &object.fields {
            if self.rules.len() >= MAX_RULES {
                self.over += 1;
                continue;
            }
            let path = join(at, &field.name);
            self.schema_rules(model, &field.schema, heading, depth, &path);
        }
    }

    /// The rules of the value at `path`, then those of what it holds.
    fn schema_rules(
        &mut self,
        model: &ToolModel,
        schema: &Schema,
        heading: usize,
        depth: usize,
        path: &str,
    ) {
        let lead = if path.is_empty() {
            "- arguments: ".to_owned()
        } else {
            format!("- {path}: ")
        };
        let line = self.line(lead, Some(heading), false);
        let nullable = model.accepts_null(schema);
        let Some(resolved) = model.resolve(schema) else {
            return;
        };
        let clauses = clauses(model, resolved);
        for (weight, text) in clauses {
            self.rule(line, weight, text);
        }
        if nullable && !matches!(resolved.kind, Kind::Any | Kind::Null) {
            self.rule(line, Weight::Nullable, "or null".to_owned());
        }
        if depth + 1 >= MAX_FIELD_DEPTH {
            return;
        }
        match &resolved.kind {
            Kind::Object(_) => self.fields(model, resolved, heading, depth + 1, path),
            Kind::Array(array) if array.prefix_items.is_empty() => {
                let items = &array.items;
                let item_path = format!("{path}[]");
                match model.resolve(items).map(|s| &s.kind) {
                    Some(Kind::Object(_)) => {
                        self.fields(model, items, heading, depth + 1, &item_path)
                    }
                    Some(kind) if has_constraints(kind) => {
                        self.schema_rules(model, items, heading, depth + 1, &item_path)
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod fit_tests;
#[cfg(test)]
mod tests;

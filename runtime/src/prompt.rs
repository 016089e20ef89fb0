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
//!   over the budget, the lightest rules go first (the later one of two equally light), and
//!   a field's line goes when its last rule does. The general lines weigh most.
//! - A plain string says nothing a model gets wrong: it gets a line only for its constraints.
//! - Names, enum values, patterns and examples come from the schema, which may be someone
//!   else's: each is shortened (at most [`MAX_QUOTED_CHARS`] characters), enum lists are
//!   capped at [`MAX_LISTED_VALUES`] values, fields are followed at most
//!   [`MAX_FIELD_DEPTH`] objects deep, and at most [`MAX_RULES`] rules are gathered (the rest
//!   counted as left out), so a hostile schema cannot make the work or the text grow.

use std::fmt;

use serde_json::Value;
use toolgate_core::issue::shorten_text;
use toolgate_core::model::{Bounds, Kind, Schema, ToolModel};
use toolgate_core::num::Num;

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
        let required: Vec<String> = object
            .fields
            .iter()
            .filter(|field| field.required)
            .map(|field| shorten_text(&field.name, MAX_QUOTED_CHARS))
            .collect();
        if !required.is_empty() {
            self.rule(
                heading,
                Weight::Required,
                format!("required: {}", required.join(", ")),
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

    /// The fragment: the heaviest rules that fit in `budget` characters.
    fn fit(self, budget: usize) -> PromptRules {
        let mut order: Vec<usize> = (0..self.rules.len()).collect();
        // Heaviest first; of two equally heavy, the earlier first.
        order.sort_by(|&a, &b| {
            self.rules[b]
                .weight
                .cmp(&self.rules[a].weight)
                .then(a.cmp(&b))
        });
        let total = self.rules.len() + self.over;
        // The most rules whose fragment fits: the fragment grows with each rule kept, so
        // the count is found by halving.
        let (mut low, mut high) = (0, self.rules.len());
        while low < high {
            let middle = (low + high).div_ceil(2);
            if self
                .render(&order[..middle], total - middle)
                .chars()
                .count()
                <= budget
            {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        let text = self.render(&order[..low], total - low);
        if text.chars().count() > budget {
            return PromptRules {
                text: String::new(),
                left_out: total,
            };
        }
        PromptRules {
            text,
            left_out: total - low,
        }
    }

    fn render(&self, kept: &[usize], left_out: usize) -> String {
        let mut kept = kept.to_vec();
        kept.sort_unstable();
        let mut clauses: Vec<Vec<&str>> = vec![Vec::new(); self.lines.len()];
        for index in kept {
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
            text.push_str(&format!("({left_out} less important rules left out)"));
        }
        text
    }
}

/// A field's path: identifier-like names joined with `.`, others as bracketed JSON strings.
fn join(at: &str, name: &str) -> String {
    let name = shorten_text(name, MAX_QUOTED_CHARS);
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match (at.is_empty(), plain) {
        (true, true) => name,
        (false, true) => format!("{at}.{name}"),
        (_, false) => format!("{at}[{}]", quoted_str(&name)),
    }
}

fn quoted_str(text: &str) -> String {
    Value::String(shorten_text(text, MAX_QUOTED_CHARS)).to_string()
}

fn quoted(value: &Value) -> String {
    match value {
        Value::String(text) => quoted_str(text),
        other => shorten_text(&other.to_string(), MAX_QUOTED_CHARS),
    }
}

/// Whether a value of this kind has a rule beyond its type.
fn has_constraints(kind: &Kind) -> bool {
    !clauses_of_kind(kind)
        .iter()
        .all(|(weight, _)| matches!(weight, Weight::Type | Weight::PlainString))
}

/// The clauses of a schema (references followed): its type and its constraints.
fn clauses(model: &ToolModel, schema: &Schema) -> Vec<(Weight, String)> {
    let mut clauses = clauses_of_kind(&schema.kind);
    if let Kind::Array(array) = &schema.kind {
        // "array of strings": the items' type, when it is one.
        if let Some(items) = model.resolve(&array.items).and_then(|s| s.kind.type_name()) {
            if let Some(clause) = clauses.iter_mut().find(|(w, _)| *w == Weight::Type) {
                clause.1 = format!("array of {}", plural(items));
            }
        }
    }
    if let Some(constant) = &schema.constant {
        clauses.push((Weight::Constant, format!("always {}", quoted(constant))));
    }
    let has_format_example = clauses.iter().any(|(w, _)| *w == Weight::Format);
    if let Some(example) = schema.examples.first() {
        if !has_format_example {
            clauses.push((Weight::Example, format!("e.g. {}", quoted(example))));
        }
    }
    clauses
}

fn plural(type_name: &str) -> String {
    match type_name {
        "null" => "nulls".to_owned(),
        other => format!("{other}s"),
    }
}

fn clauses_of_kind(kind: &Kind) -> Vec<(Weight, String)> {
    let mut clauses = Vec::new();
    match kind {
        Kind::Any | Kind::Ref(_) => {}
        Kind::Never => clauses.push((Weight::Type, "send nothing here".to_owned())),
        Kind::Null => clauses.push((Weight::Type, "null".to_owned())),
        Kind::Boolean => clauses.push((Weight::Type, "boolean".to_owned())),
        Kind::Integer(integer) => {
            clauses.push((Weight::Type, "integer".to_owned()));
            // A width's own range says little a model breaks, but for the sign of an
            // unsigned one: it is written only where the schema narrows it.
            let range = integer.width.map(|width| {
                let (low, high) = width.range();
                (width.signed.then_some(low), high)
            });
            bounds(
                &narrowed(&integer.bounds, range),
                integer.multiple_of,
                &mut clauses,
            );
        }
        Kind::Number(number) => {
            clauses.push((Weight::Type, "number".to_owned()));
            let range = number.width.and_then(|width| width.range());
            let range = range.map(|(low, high)| (Some(low), high));
            bounds(
                &narrowed(&number.bounds, range),
                number.multiple_of,
                &mut clauses,
            );
        }
        Kind::String(string) => {
            clauses.push((Weight::PlainString, "string".to_owned()));
            if let Some(format) = string.format {
                clauses.push((
                    Weight::Format,
                    format!("{format}, e.g. {}", quoted_str(format.example())),
                ));
            }
            if let Some(pattern) = &string.pattern {
                clauses.push((
                    Weight::Pattern,
                    format!(
                        "matching {}",
                        shorten_text(pattern.as_str(), MAX_QUOTED_CHARS)
                    ),
                ));
            }
            if let Some(range) = range(string.min_length, string.max_length, "characters") {
                clauses.push((Weight::Length, range));
            }
        }
        Kind::Enum(enumeration) => {
            let mut listed: Vec<String> = enumeration
                .values
                .iter()
                .take(MAX_LISTED_VALUES)
                .map(|value| quoted(&value.value))
                .collect();
            let more = enumeration.values.len().saturating_sub(MAX_LISTED_VALUES);
            if more > 0 {
                listed.push(format!("… ({more} more)"));
            }
            let text = match listed.as_slice() {
                [one] => format!("exactly {one}"),
                _ => format!("one of {}", listed.join(", ")),
            };
            clauses.push((Weight::Values, text));
        }
        Kind::Array(array) => {
            clauses.push((Weight::Type, "array".to_owned()));
            if let Some(range) = range(array.min_items, array.max_items, "items") {
                clauses.push((Weight::Items, range));
            }
            if array.unique_items {
                clauses.push((Weight::Items, "no duplicates".to_owned()));
            }
        }
        Kind::Map(_) => clauses.push((Weight::Type, "object (any keys)".to_owned())),
        Kind::Object(_) => clauses.push((Weight::Type, "object".to_owned())),
        Kind::Union(union) => {
            let mut types: Vec<&str> = union
                .variants
                .iter()
                .filter_map(|variant| variant.kind.type_name())
                .collect();
            types.dedup();
            if !types.is_empty() {
                clauses.push((Weight::Type, format!("one of: {}", types.join(" or "))));
            }
        }
    }
    clauses
}

/// The bounds without those that only repeat a width's range (`low` where it is worth
/// leaving out, `high`).
fn narrowed(bounds: &Bounds, range: Option<(Option<Num>, Num)>) -> Bounds {
    let mut written = bounds.clone();
    if let Some((low, high)) = range {
        if low.is_some() && written.minimum == low {
            written.minimum = None;
        }
        if written.maximum == Some(high) {
            written.maximum = None;
        }
    }
    written
}

/// `1 to 9`, `at least 1`, `above 0`... of a number's bounds, and its `multipleOf`.
fn bounds(bounds: &Bounds, multiple_of: Option<Num>, clauses: &mut Vec<(Weight, String)>) {
    let low = bounds
        .minimum
        .map(|n| (n, false))
        .or(bounds.exclusive_minimum.map(|n| (n, true)));
    let high = bounds
        .maximum
        .map(|n| (n, false))
        .or(bounds.exclusive_maximum.map(|n| (n, true)));
    let text = match (low, high) {
        (Some((low, false)), Some((high, false))) => Some(format!("{low} to {high}")),
        (low, high) => {
            let parts: Vec<String> = [
                low.map(|(n, exclusive)| {
                    if exclusive {
                        format!("above {n}")
                    } else {
                        format!("at least {n}")
                    }
                }),
                high.map(|(n, exclusive)| {
                    if exclusive {
                        format!("below {n}")
                    } else {
                        format!("at most {n}")
                    }
                }),
            ]
            .into_iter()
            .flatten()
            .collect();
            (!parts.is_empty()).then(|| parts.join(" and "))
        }
    };
    if let Some(text) = text {
        clauses.push((Weight::Bounds, text));
    }
    if let Some(step) = multiple_of {
        clauses.push((Weight::Bounds, format!("a multiple of {step}")));
    }
}

/// `4 to 12 characters`, `at most 5 items`...
fn range(min: Option<u64>, max: Option<u64>, unit: &str) -> Option<String> {
    match (min, max) {
        (Some(min), Some(max)) if min == max => Some(format!("exactly {min} {unit}")),
        (Some(min), Some(max)) => Some(format!("{min} to {max} {unit}")),
        (Some(min), None) if min > 0 => Some(format!("at least {min} {unit}")),
        (_, Some(max)) => Some(format!("at most {max} {unit}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests;

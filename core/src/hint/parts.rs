//! What a hint says, decided once: which issues it shows, and what each field entry takes
//! from the issue and from the schema at its path. [`HintParts`] borrows all it can from the
//! report and the model, so a refusal's hint can be written as JSON straight from them
//! ([`HintParts::write_json`], `Rejected::hint_json`) without building a [`RetryHint`] first;
//! [`HintParts::into_hint`] makes the owned [`RetryHint`] from the same parts, and
//! [`HintParts::of_hint`] lends a built hint to the same writer. So the choices are written
//! once, here, and the two texts cannot differ.

use std::borrow::Cow;

use serde_json::Value;

use super::{
    example::example_input, expected, question, FieldHint, HintReason, RetryHint,
    MAX_DESCRIPTION_CHARS, MAX_FIELDS, MAX_MESSAGE_CHARS, MAX_MISSING_FIELDS,
};
use crate::issue::{shorten_borrowed, shorten_expected_borrowed, shorten_name, GOT_MAX_CHARS};
use crate::model::{Json, Kind, Schema, ToolModel};
use crate::num::Num;
use crate::path::Segment;
use crate::{suggest, Constraint, Issue, Path, Report};

/// The description of an unknown key's entry when a declared key is near it.
const UNKNOWN_KEY_NEAR: &str =
    "not a field here: send it under the key in did_you_mean, or leave it out";
/// The description of an unknown key's entry, the object's keys listed in `allowed_keys`.
const UNKNOWN_KEY_LISTED: &str = "not a field here: leave it out (allowed_keys lists the fields)";
/// The description of an unknown key's entry in an object that declares no key.
const UNKNOWN_KEY: &str = "not a field here: leave it out";

/// Where `path` stands in the schema's order: per key, the position of the field it names
/// in its object (keys the object does not declare after every declared one), per index the
/// index. Only the first [`crate::path::SHOWN_SEGMENTS`] steps count, so the work per path
/// stays bounded however deep it is.
fn schema_order(model: &ToolModel, path: &Path) -> Vec<usize> {
    let mut parent = Path::root();
    let mut order = Vec::new();
    for segment in path.segments().iter().take(crate::path::SHOWN_SEGMENTS) {
        match segment {
            Segment::Key(key) => {
                order.push(super::example::field_position(model, &parent, key));
                parent = parent.key(key.as_str());
            }
            Segment::Index(index) => {
                order.push(*index);
                parent = parent.index(*index);
            }
        }
    }
    order
}

/// A hint's parts, borrowed where they can be (see the module's documentation).
pub(super) struct HintParts<'a> {
    pub(super) tool: Cow<'a, str>,
    pub(super) reason: HintReason,
    pub(super) message: Cow<'a, str>,
    pub(super) missing_fields: Vec<Cow<'a, str>>,
    pub(super) fields: Vec<FieldParts<'a>>,
    pub(super) omitted: usize,
    pub(super) clarifying_question: Option<Cow<'a, str>>,
    pub(super) example_input: Option<Cow<'a, Json>>,
}

/// One field entry's parts: a [`FieldHint`], borrowed where it can be.
pub(super) struct FieldParts<'a> {
    pub(super) path: &'a Path,
    pub(super) constraint: Constraint,
    pub(super) description: Option<Cow<'a, str>>,
    pub(super) expected_type: Option<Cow<'a, Value>>,
    pub(super) allowed_values: Vec<Cow<'a, Value>>,
    pub(super) min: Option<Num>,
    pub(super) max: Option<Num>,
    pub(super) alternatives: Vec<Cow<'a, Value>>,
    pub(super) pattern: Option<Cow<'a, str>>,
    pub(super) format: Option<Cow<'a, str>>,
    pub(super) allowed_keys: Vec<Cow<'a, str>>,
    pub(super) did_you_mean: Option<Cow<'a, str>>,
}

impl<'a> HintParts<'a> {
    /// The parts of the hint for `report`, from `model`.
    pub(super) fn build(model: &'a ToolModel, report: &'a Report, reason: HintReason) -> Self {
        let mut omitted = report.left_out();
        let issues: Vec<&Issue> = report
            .issues()
            .iter()
            // The cap's closing summary is counted in `omitted`, not shown.
            .take(report.len() - usize::from(report.left_out() > 0))
            .collect();
        let missing: Vec<&Issue> = issues
            .iter()
            .copied()
            .filter(|i| i.constraint == Constraint::Required)
            .collect();
        let mut others: Vec<&Issue> = Vec::new();
        for issue in issues
            .iter()
            .copied()
            .filter(|i| i.constraint != Constraint::Required)
        {
            if others.iter().any(|shown| shown.path == issue.path) {
                omitted += 1;
            } else {
                others.push(issue);
            }
        }
        // Shown in the schema's order, whatever order the issues came in (a report read
        // back from a tool's error text may be sorted by name): the sort is stable, so
        // issues at one place keep the document's order.
        let mut missing = missing;
        if missing.len() > 1 {
            missing.sort_by_cached_key(|issue| schema_order(model, &issue.path));
        }
        if others.len() > 1 {
            others.sort_by_cached_key(|issue| schema_order(model, &issue.path));
        }
        omitted += missing.len().saturating_sub(MAX_MISSING_FIELDS);
        omitted += others.len().saturating_sub(MAX_FIELDS);
        let missing = &missing[..missing.len().min(MAX_MISSING_FIELDS)];
        let others = &others[..others.len().min(MAX_FIELDS)];

        // The message leads with what is missing, as the hint does, then the first other
        // issue.
        let message = match (missing, others.first()) {
            ([], Some(first)) => first.to_string(),
            ([], None) => "the value was refused".to_owned(),
            (missing, first) => {
                let paths: Vec<String> =
                    missing.iter().map(|i| i.path.shown().to_string()).collect();
                let fields = if paths.len() == 1 { "field" } else { "fields" };
                match first {
                    Some(first) => {
                        format!("missing required {fields} {}; {first}", paths.join(", "))
                    }
                    None => format!("missing required {fields} {}", paths.join(", ")),
                }
            }
        };
        let message = shortened_text(Cow::Owned(message), MAX_MESSAGE_CHARS);
        let fields: Vec<FieldParts<'a>> = others
            .iter()
            .map(|issue| FieldParts::of(model, issue).bounded())
            .collect();
        let clarifying_question = question(model, missing, others.first().copied(), fields.first());
        HintParts {
            tool: shortened_name(model.name()),
            reason,
            message,
            missing_fields: missing
                .iter()
                .map(|i| Cow::Owned(i.path.shown().to_string()))
                .collect(),
            fields,
            omitted,
            clarifying_question: clarifying_question.map(Cow::Owned),
            example_input: example_input(model, missing).map(Cow::Owned),
        }
    }

    /// A built hint's parts, all borrowed.
    pub(super) fn of_hint(hint: &'a RetryHint) -> Self {
        let values = |values: &'a [Value]| values.iter().map(Cow::Borrowed).collect();
        HintParts {
            tool: Cow::Borrowed(&hint.tool),
            reason: hint.reason,
            message: Cow::Borrowed(&hint.message),
            missing_fields: hint
                .missing_fields
                .iter()
                .map(|p| Cow::Borrowed(&**p))
                .collect(),
            fields: hint
                .fields
                .iter()
                .map(|field| FieldParts {
                    path: &field.path,
                    constraint: field.constraint,
                    description: field.description.as_deref().map(Cow::Borrowed),
                    expected_type: field.expected_type.as_ref().map(Cow::Borrowed),
                    allowed_values: values(&field.allowed_values),
                    min: field.min,
                    max: field.max,
                    alternatives: values(&field.alternatives),
                    pattern: field.pattern.as_deref().map(Cow::Borrowed),
                    format: field.format.as_deref().map(Cow::Borrowed),
                    allowed_keys: field
                        .allowed_keys
                        .iter()
                        .map(|k| Cow::Borrowed(&**k))
                        .collect(),
                    did_you_mean: field.did_you_mean.as_deref().map(Cow::Borrowed),
                })
                .collect(),
            omitted: hint.omitted,
            clarifying_question: hint.clarifying_question.as_deref().map(Cow::Borrowed),
            example_input: hint.example_input.as_ref().map(Cow::Borrowed),
        }
    }

    /// The owned hint of these parts.
    pub(super) fn into_hint(self) -> RetryHint {
        let values =
            |values: Vec<Cow<'a, Value>>| values.into_iter().map(Cow::into_owned).collect();
        RetryHint {
            tool: self.tool.into_owned(),
            reason: self.reason,
            message: self.message.into_owned(),
            missing_fields: self
                .missing_fields
                .into_iter()
                .map(Cow::into_owned)
                .collect(),
            fields: self
                .fields
                .into_iter()
                .map(|field| FieldHint {
                    path: field.path.clone(),
                    constraint: field.constraint,
                    description: field.description.map(Cow::into_owned),
                    expected_type: field.expected_type.map(Cow::into_owned),
                    allowed_values: values(field.allowed_values),
                    min: field.min,
                    max: field.max,
                    alternatives: values(field.alternatives),
                    pattern: field.pattern.map(Cow::into_owned),
                    format: field.format.map(Cow::into_owned),
                    allowed_keys: field
                        .allowed_keys
                        .into_iter()
                        .map(Cow::into_owned)
                        .collect(),
                    did_you_mean: field.did_you_mean.map(Cow::into_owned),
                })
                .collect(),
            omitted: self.omitted,
            clarifying_question: self.clarifying_question.map(Cow::into_owned),
            example_input: self.example_input.map(Cow::into_owned),
        }
    }
}

/// `text` cut after `max` characters (ending in `…`) when it is longer.
fn shortened_text(text: Cow<'_, str>, max: usize) -> Cow<'_, str> {
    if text.len() > max {
        Cow::Owned(crate::issue::shorten_text(&text, max))
    } else {
        text
    }
}

/// A name of the schema, echoed: [`shorten_name`], borrowed when it is short.
fn shortened_name(name: &str) -> Cow<'_, str> {
    if crate::issue::is_long_name(name) {
        Cow::Owned(shorten_name(name))
    } else {
        Cow::Borrowed(name)
    }
}

/// The schema at `path` and the one behind its references.
pub(super) fn schema_pair<'m>(
    model: &'m ToolModel,
    path: &Path,
) -> Option<(&'m Schema, &'m Schema)> {
    let schema = model.schema_at(path)?;
    Some((schema, model.resolve(schema)?))
}

/// The description of a use of a schema: its own, else the one of the schema behind its
/// references.
pub(super) fn description_of<'m>(pair: Option<(&'m Schema, &'m Schema)>) -> Option<&'m str> {
    let (schema, resolved) = pair?;
    schema
        .description
        .as_deref()
        .or(resolved.description.as_deref())
}

/// At most [`super::MAX_ALLOWED_VALUES`] values, each shortened as an issue's `got` is, then
/// `"…"` when there are more, borrowing what is short: how a hint lists allowed values and
/// alternatives, and how its example's placeholders name an enum's values.
pub(super) fn capped_refs<'v>(
    values: impl ExactSizeIterator<Item = &'v Value>,
) -> Vec<Cow<'v, Value>> {
    let more = values.len() > super::MAX_ALLOWED_VALUES;
    let mut shown: Vec<Cow<'v, Value>> = values
        .take(super::MAX_ALLOWED_VALUES)
        .map(shorten_borrowed)
        .collect();
    if more {
        shown.push(Cow::Owned(Value::String("…".into())));
    }
    shown
}

impl<'a> FieldParts<'a> {
    /// What to fix at `issue`'s path: the issue's own parts, and what the schema there says.
    fn of(model: &'a ToolModel, issue: &'a Issue) -> Self {
        // The schema at the issue's path, found once for its description and its kind.
        let at_path = schema_pair(model, &issue.path);
        let mut hint = FieldParts {
            path: &issue.path,
            constraint: issue.constraint,
            description: description_of(at_path).map(Cow::Borrowed),
            expected_type: (issue.constraint == Constraint::Type)
                .then(|| issue.expected.as_ref().map(Cow::Borrowed))
                .flatten(),
            allowed_values: Vec::new(),
            alternatives: Vec::new(),
            min: None,
            max: None,
            pattern: None,
            format: None,
            allowed_keys: Vec::new(),
            did_you_mean: None,
        };
        if issue.constraint == Constraint::AdditionalProperties {
            let parent = issue
                .path
                .parent()
                .and_then(|parent| schema_pair(model, &parent));
            let keys: Vec<&str> = match parent.map(|(_, resolved)| &resolved.kind) {
                Some(Kind::Object(object)) => {
                    object.fields.iter().map(|f| f.name.as_str()).collect()
                }
                _ => Vec::new(),
            };
            let got = match issue.path.last() {
                Some(Segment::Key(key)) => key.as_str(),
                _ => "",
            };
            hint.did_you_mean = match &issue.did_you_mean {
                Some(found) => found.as_deref().map(Cow::Borrowed),
                None => suggest::nearest(got, keys.iter().copied()).map(shortened_name),
            };
            // What to do with the key: send it under the key it means, or leave it out.
            hint.description = Some(Cow::Borrowed(if hint.did_you_mean.is_some() {
                UNKNOWN_KEY_NEAR
            } else if keys.is_empty() {
                UNKNOWN_KEY
            } else {
                UNKNOWN_KEY_LISTED
            }));
            if hint.did_you_mean.is_none() {
                let more = keys.len() > super::MAX_ALLOWED_VALUES;
                hint.allowed_keys = keys
                    .iter()
                    .take(super::MAX_ALLOWED_VALUES)
                    .map(|key| shortened_name(key))
                    .collect();
                if more {
                    hint.allowed_keys.push(Cow::Borrowed("…"));
                }
            }
            return hint;
        }
        hint.alternatives = expected::alternatives(issue);
        if issue.constraint == Constraint::PropertyNames {
            // The path names the key; the schema there is the value's, not the key's: what
            // the key should be is the issue's `expected` (the allowed keys, for an `enum`).
            expected::fill(&mut hint, issue);
            return hint;
        }
        let Some((_, resolved)) = at_path else {
            expected::fill(&mut hint, issue);
            return hint;
        };
        // `"a, b, c"` refused where an array is wanted: show the array it may mean.
        if let (Constraint::Type, Kind::Array(_), Some(Value::String(got))) =
            (issue.constraint, &resolved.kind, &issue.got)
        {
            if let Some(items) = crate::decode::separated_items(got).filter(|_| !got.ends_with('…'))
            {
                hint.did_you_mean = Some(Cow::Owned(Value::from(items).to_string()));
            }
        }
        hint.fill_from_schema(issue, &resolved.kind);
        expected::fill(&mut hint, issue);
        hint
    }

    /// What the schema of the value at the path says of the constraint the issue broke:
    /// the allowed values, bounds, sizes, pattern and format.
    fn fill_from_schema(&mut self, issue: &'a Issue, kind: &'a Kind) {
        let bounds_wanted = matches!(
            issue.constraint,
            Constraint::Minimum
                | Constraint::Maximum
                | Constraint::ExclusiveMinimum
                | Constraint::ExclusiveMaximum
        );
        let sizes_wanted = matches!(
            issue.constraint,
            Constraint::MinLength
                | Constraint::MaxLength
                | Constraint::MinItems
                | Constraint::MaxItems
        );
        match kind {
            Kind::Enum(enumeration) => {
                let values = || enumeration.values.iter().map(|v| &v.value);
                if issue.constraint == Constraint::Enum {
                    self.did_you_mean = match &issue.did_you_mean {
                        // What the check found when it wrote the message.
                        Some(found) => found.as_deref().map(Cow::Borrowed),
                        None => {
                            let names = values().filter_map(Value::as_str);
                            let got = issue.got.as_ref().and_then(Value::as_str).unwrap_or("");
                            suggest::nearest(got, names).map(shortened_name)
                        }
                    };
                }
                self.allowed_values = capped_refs(values());
            }
            Kind::Integer(integer) if bounds_wanted => self.bounds(&integer.bounds),
            Kind::Number(number) if bounds_wanted => self.bounds(&number.bounds),
            Kind::String(string) => {
                if sizes_wanted {
                    self.min = string.min_length.map(Num::from);
                    self.max = string.max_length.map(Num::from);
                }
                self.pattern = string.pattern.as_ref().map(|p| Cow::Borrowed(p.as_str()));
                self.format = string.format.map(|f| Cow::Borrowed(f.as_str()));
            }
            Kind::Array(array) if sizes_wanted => {
                self.min = array.min_items.map(Num::from);
                let tuple = array.tuple_length().map(|length| length as u64);
                self.max = match (array.max_items, tuple) {
                    (Some(max), Some(tuple)) => Some(max.min(tuple)),
                    (max, tuple) => max.or(tuple),
                }
                .map(Num::from);
            }
            _ => {}
        }
    }

    fn bounds(&mut self, bounds: &crate::model::Bounds) {
        self.min = bounds.minimum.or(bounds.exclusive_minimum);
        self.max = bounds.maximum.or(bounds.exclusive_maximum);
    }

    /// This entry with everything it echoes of the schema or the issue kept short: the
    /// description (at most [`MAX_DESCRIPTION_CHARS`] characters), the pattern, the format
    /// and the "did you mean" (as a name is, [`shorten_name`]; a separated list read as an
    /// array, at most [`MAX_MESSAGE_CHARS`]), the values listed (as `expected` is,
    /// [`crate::issue::shorten_expected`], and each allowed value or alternative as `got`
    /// is). A hint's size so does not grow with the schema's.
    fn bounded(mut self) -> Self {
        self.description = self
            .description
            .map(|text| shortened_text(text, MAX_DESCRIPTION_CHARS));
        self.pattern = self.pattern.map(|text| shortened_text(text, GOT_MAX_CHARS));
        self.format = self.format.map(|text| shortened_text(text, GOT_MAX_CHARS));
        self.did_you_mean = self
            .did_you_mean
            .map(|text| shortened_text(text, MAX_MESSAGE_CHARS));
        self.expected_type = self.expected_type.map(|expected| match expected {
            Cow::Borrowed(expected) => shorten_expected_borrowed(expected),
            Cow::Owned(expected) => Cow::Owned(crate::issue::shorten_expected(expected)),
        });
        self
    }
}

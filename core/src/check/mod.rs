//! Checking values against the model: [`Checker`] walks a value with its schema, keeps the
//! path, and collects every [`Issue`] in one pass.
//!
//! The scalar checks here (numbers, strings, enums, array sizes) are the one implementation
//! of each constraint: `Tool::validate` on Rust values and the decoders use the same ones.

mod containers;
mod unions;
mod value;

use std::borrow::Borrow;
use std::borrow::Cow;
use std::fmt::Write as _;

use serde_json::Value;

use crate::model::{EnumSchema, Field, Kind, Schema, ToolModel, MOST_FOLLOWED_REFERENCES};
use crate::num::Num;
use crate::values::{count_of, json_equal, json_type, shorten_list, LISTED_VALUES};
use crate::{Constraint, Issue, Path, Report, ToolArg};

pub use unions::union_alternatives;
pub(crate) use unions::{admits_within, chosen_alternative, union_literals, JsonKind, Sent};

#[derive(Clone, Debug)]
pub(crate) enum Step<'m> {
    Key(Cow<'m, str>),
    Index(usize),
}

/// Walks a value with the schema of a [`ToolModel`] and collects its issues.
///
/// Generated code calls [`Checker::field`] for each field; the [`ToolArg`] impls of the
/// standard types call the scalar checks.
///
/// ```
/// use toolgate_core::model::{Field, Schema, ToolModel};
/// use toolgate_core::{Checker, Constraint};
///
/// let model = ToolModel::new(
///     "t",
///     None,
///     Schema::object(vec![Field::required("n", Schema::integer().maximum(9))]),
///     Default::default(),
/// );
/// let mut checker = Checker::new(&model);
/// let fields = checker.fields(model.input());
/// checker.field(fields, 0, &12u8);
/// let report = checker.finish().unwrap_err();
/// assert_eq!(report.issues()[0].constraint, Constraint::Maximum);
/// assert_eq!(report.to_string(), "n: 12 is greater than the maximum 9");
/// ```
#[derive(Debug)]
pub struct Checker<'m> {
    model: &'m ToolModel,
    path: Vec<Step<'m>>,
    report: Report,
}

/// `expected` of a `type` issue: the JSON type names a schema accepts.
fn expected_type(schema: &Schema, kind: &Kind) -> String {
    let base = match kind {
        Kind::Enum(_) => "one of the allowed values",
        Kind::Never => "no value (the schema allows none)",
        other => other.type_name().unwrap_or("a value"),
    };
    if schema.nullable {
        format!("{base} or null")
    } else {
        base.to_owned()
    }
}

/// The path `steps` lead to, as issues write it (long names shortened).
pub(crate) fn path_of<'m>(steps: impl IntoIterator<Item = impl Borrow<Step<'m>>>) -> Path {
    steps
        .into_iter()
        .map(|step| match step.borrow() {
            Step::Key(key) => crate::path::Segment::Key(crate::issue::shorten_name(key)),
            Step::Index(index) => crate::path::Segment::Index(*index),
        })
        .collect()
}

impl<'m> Checker<'m> {
    /// A checker for values of `model`, keeping at most [`Report::DEFAULT_CAP`] issues.
    pub fn new(model: &'m ToolModel) -> Self {
        Self::with_report(model, Report::new())
    }

    /// A checker that adds to `report` (and keeps its cap).
    pub fn with_report(model: &'m ToolModel, report: Report) -> Self {
        Checker {
            model,
            path: Vec::new(),
            report,
        }
    }

    /// The model being checked against.
    pub fn model(&self) -> &'m ToolModel {
        self.model
    }

    /// The path of the value being checked, every key longer than
    /// [`crate::issue::GOT_MAX_CHARS`] characters cut there as [`Path::with_short_keys`]
    /// cuts it: the path of an issue or a repair, which echo it.
    pub fn path(&self) -> Path {
        path_of(&self.path)
    }

    /// Records an issue at the current path.
    pub fn issue(
        &mut self,
        constraint: Constraint,
        message: impl Into<String>,
        expected: Option<Value>,
        got: Option<Value>,
    ) {
        let mut issue = Issue::new(self.path(), constraint, message);
        if let Some(expected) = expected {
            issue = issue.with_expected(expected);
        }
        if let Some(got) = got {
            issue = issue.with_got(got);
        }
        self.report.push_shortened(issue);
    }

    /// How many issues were found so far (those the cap left out included).
    pub fn issue_count(&self) -> usize {
        self.report.len() + self.report.left_out()
    }

    /// The issues written so far.
    pub(crate) fn issues(&self) -> &[Issue] {
        self.report.issues()
    }

    /// `Ok(())`, or the report of every issue found.
    pub fn finish(self) -> Result<(), Report> {
        self.report.into_result()
    }

    /// The report so far.
    pub fn into_report(self) -> Report {
        self.report
    }

    /// The schema behind references; an issue with constraint `schema` if a reference
    /// leads nowhere: to a name that is not defined, back to itself, or through more
    /// references in a row than [`ToolModel::resolve`] follows (the message says which:
    /// a long chain is a limit, not a cycle).
    pub fn resolve(&mut self, schema: &'m Schema) -> Option<&'m Schema> {
        let resolved = self.model.resolve(schema);
        if resolved.is_none() {
            self.unresolved(schema);
        }
        resolved
    }

    /// The `schema` issue of `schema`, a reference that leads nowhere (see
    /// [`Checker::resolve`]).
    pub(crate) fn unresolved(&mut self, schema: &Schema) {
        let message = unresolved_message(self.model, schema);
        self.issue(Constraint::Schema, message, None, None);
    }

    /// The alternative `index` of a union schema (what generated code of a data-carrying
    /// enum checks a variant against); `None`, with a `schema` issue, when there is none.
    pub fn variant(&mut self, schema: &'m Schema, index: usize) -> Option<&'m Schema> {
        match self.resolve(schema).map(|s| &s.kind) {
            Some(Kind::Union(union)) if index < union.variants.len() => {
                Some(&union.variants[index])
            }
            Some(_) => {
                self.issue(
                    Constraint::Schema,
                    "the schema of this value has no such alternative",
                    None,
                    None,
                );
                None
            }
            None => None,
        }
    }

    /// The fields of an object schema (empty, with a `schema` issue, for other kinds).
    pub fn fields(&mut self, schema: &'m Schema) -> &'m [Field] {
        match self.resolve(schema).map(|s| &s.kind) {
            Some(Kind::Object(object)) => &object.fields,
            Some(_) => {
                self.issue(
                    Constraint::Schema,
                    "the schema of this value is not an object with fields",
                    None,
                    None,
                );
                &[]
            }
            None => &[],
        }
    }

    /// Checks `value` as the field `fields[index]` (what generated code calls per field).
    pub fn field<T: ToolArg + ?Sized>(&mut self, fields: &'m [Field], index: usize, value: &T) {
        if let Some(field) = fields.get(index) {
            self.path.push(Step::Key(Cow::Borrowed(&field.name)));
            value.check(&field.schema, self);
            self.path.pop();
        }
    }

    /// A checker at the same path with an empty report: for trying a value without
    /// touching this checker's report.
    pub(crate) fn fork(&self) -> Checker<'m> {
        Checker {
            model: self.model,
            path: self.path.clone(),
            report: Report::with_cap(self.report.cap()),
        }
    }

    /// Puts the checker at `path` (a reader that keeps its own path hands it over).
    pub(crate) fn set_path(&mut self, path: impl IntoIterator<Item = Step<'m>>) {
        self.path.clear();
        self.path.extend(path);
    }

    pub(crate) fn path_push_field(&mut self, name: &'m str) {
        self.path.push(Step::Key(Cow::Borrowed(name)));
    }

    pub(crate) fn path_push_key(&mut self, key: &str) {
        self.path.push(Step::Key(Cow::Owned(key.to_owned())));
    }

    pub(crate) fn path_push_index(&mut self, index: usize) {
        self.path.push(Step::Index(index));
    }

    pub(crate) fn path_pop(&mut self) {
        self.path.pop();
    }

    /// Checks `value` as element `index` of an array.
    pub fn item<T: ToolArg + ?Sized>(&mut self, index: usize, schema: &'m Schema, value: &T) {
        self.path.push(Step::Index(index));
        value.check(schema, self);
        self.path.pop();
    }

    /// Checks `value` as the member `key` of a map.
    pub fn entry<T: ToolArg + ?Sized>(&mut self, key: &str, schema: &'m Schema, value: &T) {
        self.path.push(Step::Key(Cow::Owned(key.to_owned())));
        value.check(schema, self);
        self.path.pop();
    }

    /// A `type` issue: `value` is not what `schema` wants.
    pub fn type_issue(&mut self, schema: &Schema, kind: &Kind, value: Value) {
        let expected = expected_type(schema, kind);
        let message = match &value {
            Value::Null => format!("expected {expected}, got null"),
            other => format!(
                "expected {expected}, got {} {}",
                json_type(other),
                crate::issue::shorten(other.clone())
            ),
        };
        self.issue(
            Constraint::Type,
            message,
            Some(Value::String(expected)),
            Some(value),
        );
    }

    /// Checks `const`; `true` when there is none or it matches.
    pub fn check_const(&mut self, schema: &Schema, value: impl FnOnce() -> Value) -> bool {
        let Some(constant) = &schema.constant else {
            return true;
        };
        let value = value();
        if json_equal(constant, &value) {
            return true;
        }
        // The constant as it is echoed: a const of a megabyte is not copied per issue.
        let shown = crate::issue::shorten_ref(constant);
        self.issue(
            Constraint::Const,
            format!(
                "expected {shown}, got {}",
                crate::issue::shorten(value.clone())
            ),
            Some(shown),
            Some(value),
        );
        false
    }

    /// Checks a number against an `integer` or `number` schema: type, bounds, `multipleOf`.
    pub fn check_number(&mut self, value: Num, schema: &'m Schema) {
        let Some(resolved) = self.resolve(schema) else {
            return;
        };
        let got = || value.to_json().map(Value::Number).unwrap_or(Value::Null);
        if !self.check_const(resolved, got) {
            return;
        }
        // Most numbers pass: told at once, the issues written only where one does not.
        if resolved.kind.admits_number(value) {
            return;
        }
        let (bounds, multiple_of) = match &resolved.kind {
            Kind::Integer(integer) if value.is_integral() => (&integer.bounds, integer.multiple_of),
            Kind::Number(number) => (&number.bounds, number.multiple_of),
            Kind::Enum(enumeration) => return self.check_enum(&got(), enumeration),
            Kind::Any => return,
            kind => return self.type_issue(resolved, kind, got()),
        };
        let checks = [
            (
                bounds.minimum,
                Constraint::Minimum,
                "is less than the minimum",
            ),
            (
                bounds.maximum,
                Constraint::Maximum,
                "is greater than the maximum",
            ),
            (
                bounds.exclusive_minimum,
                Constraint::ExclusiveMinimum,
                "is not greater than",
            ),
            (
                bounds.exclusive_maximum,
                Constraint::ExclusiveMaximum,
                "is not less than",
            ),
        ];
        for (bound, constraint, words) in checks {
            let Some(bound) = bound else { continue };
            let fails = match constraint {
                Constraint::Minimum => value < bound,
                Constraint::Maximum => value > bound,
                Constraint::ExclusiveMinimum => value <= bound,
                _ => value >= bound,
            };
            if fails || !value.is_finite() {
                let expected = bound.to_json().map(Value::Number);
                self.issue(
                    constraint,
                    format!("{value} {words} {bound}"),
                    expected,
                    Some(got()),
                );
            }
        }
        if let Some(divisor) = multiple_of {
            if !value.is_multiple_of(divisor) {
                let expected = divisor.to_json().map(Value::Number);
                self.issue(
                    Constraint::MultipleOf,
                    format!("{value} is not a multiple of {divisor}"),
                    expected,
                    Some(got()),
                );
            }
        }
    }

    /// Checks a boolean against its schema.
    pub fn check_bool(&mut self, value: bool, schema: &'m Schema) {
        let Some(resolved) = self.resolve(schema) else {
            return;
        };
        if !self.check_const(resolved, || Value::Bool(value)) {
            return;
        }
        match &resolved.kind {
            Kind::Boolean | Kind::Any => {}
            Kind::Enum(enumeration) => self.check_enum(&Value::Bool(value), enumeration),
            kind => self.type_issue(resolved, kind, Value::Bool(value)),
        }
    }

    /// Checks a string against a `string` or `enum` schema.
    pub fn check_string(&mut self, value: &str, schema: &'m Schema) {
        let Some(resolved) = self.resolve(schema) else {
            return;
        };
        let got = || Value::String(value.to_owned());
        if !self.check_const(resolved, got) {
            return;
        }
        let string = match &resolved.kind {
            Kind::String(string) => string,
            Kind::Enum(enumeration) => return self.check_enum(&got(), enumeration),
            Kind::Any => return,
            kind => return self.type_issue(resolved, kind, got()),
        };
        // Most strings pass: told at once, the issues written only where one does not.
        if string.admits(value) {
            return;
        }
        // What messages show of the string, as JSON; made only when a check fails.
        let shown = || {
            let mut text = String::with_capacity(value.len().min(200) + 64);
            crate::issue::push_json_shortened(&mut text, value);
            text
        };
        if !string.length_within(value) {
            let length = value.chars().count() as u64;
            if let Some(min) = string.min_length.filter(|&min| length < min) {
                let message = format!(
                    "{} has {}, fewer than the minimum {min}",
                    shown(),
                    count_of(length, "character")
                );
                self.issue(
                    Constraint::MinLength,
                    message,
                    Some(min.into()),
                    Some(got()),
                );
            }
            if let Some(max) = string.max_length.filter(|&max| length > max) {
                let message = format!(
                    "{} has {}, more than the maximum {max}",
                    shown(),
                    count_of(length, "character")
                );
                self.issue(
                    Constraint::MaxLength,
                    message,
                    Some(max.into()),
                    Some(got()),
                );
            }
        }
        if let Some(pattern) = &string.pattern {
            match pattern.is_match(value) {
                Some(true) => {}
                Some(false) => {
                    // The pattern is echoed as a value is: shortened when long.
                    let pattern = crate::issue::shorten_name(pattern.as_str());
                    let mut message = shown();
                    message.push_str(" does not match the pattern ");
                    message.push_str(&pattern);
                    self.issue(
                        Constraint::Pattern,
                        message,
                        Some(pattern.into()),
                        Some(got()),
                    );
                }
                None => {
                    let pattern = crate::issue::shorten_name(pattern.as_str());
                    let message = format!("the pattern {pattern} does not compile");
                    self.issue(Constraint::Schema, message, Some(pattern.into()), None);
                }
            }
        }
        if let Some(format) = string.format {
            if !format.matches(value) {
                let mut message = shown();
                message.push_str(" is not ");
                message.push_str(format.describe());
                self.issue(
                    Constraint::Format,
                    message,
                    Some(format.as_str().into()),
                    Some(got()),
                );
            }
        }
    }

    /// Checks that `value` is one of the enum's values, naming the nearest one when close.
    /// A long list is shortened in the issue (see [`shorten_list`]): an issue's size does
    /// not grow with the schema.
    pub fn check_enum(&mut self, value: &Value, enumeration: &EnumSchema) {
        let table = self.model.enum_index(enumeration);
        self.check_enum_in(value, enumeration, table);
    }

    /// [`Checker::check_enum`], with the enum's table (`None`: scanned) found already.
    pub(crate) fn check_enum_in(
        &mut self,
        value: &Value,
        enumeration: &EnumSchema,
        table: Option<&crate::plan::EnumTable>,
    ) {
        if crate::model::enum_contains_in(table, enumeration, value) {
            return;
        }
        if self.skip_when_full(Constraint::Enum) {
            return;
        }
        if enumeration.values.is_empty() {
            // `{"type": "string", "enum": [true, false]}`: the reader kept no value.
            self.issue(
                Constraint::Enum,
                format!(
                    "the tool's schema allows no value here: its `enum` lists no value that its `type` allows, so {} is refused (leave the field out if it is optional)",
                    crate::issue::shorten(value.clone())
                ),
                Some(Value::Array(Vec::new())),
                Some(crate::issue::shorten(value.clone())),
            );
            return;
        }
        let allowed = || enumeration.values.iter().map(|v| &v.value);
        // Values as JSON (`"1" is not one of 1, "one", true`): `"1"` and `1` read apart.
        let mut message = String::with_capacity(96);
        crate::issue::push_json(&mut message, &crate::issue::shorten_borrowed(value));
        message.push_str(" is not one of ");
        for (at, shown) in allowed().take(LISTED_VALUES).enumerate() {
            if at > 0 {
                message.push_str(", ");
            }
            crate::issue::push_json(&mut message, &crate::issue::shorten_borrowed(shown));
        }
        if enumeration.values.len() > LISTED_VALUES {
            let _ = write!(message, ", … ({} values in all)", enumeration.values.len());
        }
        let near = value.as_str().and_then(|text| {
            let names = allowed().filter_map(Value::as_str);
            crate::suggest::nearest(text, names)
        });
        // A name of the schema, echoed: shortened when long.
        let near = near.map(crate::issue::shorten_name);
        if let Some(near) = &near {
            let _ = write!(message, " (did you mean {near:?}?)");
        }
        let issue = Issue::new(self.path(), Constraint::Enum, message)
            .with_expected(shorten_list(allowed().cloned(), enumeration.values.len()))
            .with_got(value.clone());
        // Only a string has a nearest name; for another value the hint looks for none either.
        let issue = if value.is_string() {
            issue.with_did_you_mean(near.as_deref())
        } else {
            issue
        };
        self.report.push_shortened(issue);
    }

    /// Once the report holds all the issues it keeps, an issue is only counted: building its
    /// message (a "did you mean" search, a list of values) would be work for nothing.
    /// Returns whether the issue was counted that way.
    pub(crate) fn skip_when_full(&mut self, constraint: Constraint) -> bool {
        if !self.report.is_full() {
            return false;
        }
        self.report
            .push(Issue::new(Path::root(), constraint, String::new()));
        true
    }
}

#[cfg(test)]
mod tests;

/// Why `schema` resolves to no schema of values: a name that is not defined, references
/// that lead back to themselves, or more references in a row than [`ToolModel::resolve`]
/// follows (a limit, named as one; with the cycle too when there is one). Follows the
/// chain once, to its end or its first repeated name.
fn unresolved_message(model: &ToolModel, schema: &Schema) -> String {
    let limit = format!(
        "the schema's references lead to references more than {MOST_FOLLOWED_REFERENCES} in a row, the most followed (`model::MOST_FOLLOWED_REFERENCES`)"
    );
    let mut at = schema;
    let mut seen = std::collections::HashSet::new();
    while let Kind::Ref(name) = &at.kind {
        if !seen.insert(name.as_str()) {
            let cycle =
                "the schema's references lead back to themselves without a value in between";
            return if seen.len() <= MOST_FOLLOWED_REFERENCES {
                cycle.to_owned()
            } else {
                format!(
                    "{limit}, and {}",
                    cycle.trim_start_matches("the schema's references ")
                )
            };
        }
        match model.definitions().get(name) {
            Some(next) => at = next,
            None => return "the schema refers to a definition it does not hold".to_owned(),
        }
    }
    limit
}

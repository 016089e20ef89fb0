//! Unions (`oneOf`, `anyOf`, type lists): which alternative a refused value was meant for,
//! and what to report when that cannot be told. Shared by the decoder and the value checker,
//! so both roads name the same issue.
//!
//! When no alternative fits, the alternative the value was meant for is chosen, in order:
//!
//! 1. for a union told apart by a discriminator (a required field that each alternative
//!    holds to its own literal string, by `const` or a one-value `enum`): the one whose
//!    literal the value sends; if it sends none of them, none is chosen;
//! 2. the only one that accepts the value's JSON type (unless the value is an object that
//!    shares no key with that alternative's fields: it has another shape altogether);
//! 3. the only one without a structural mismatch (a `type`, `const`, `enum` or union issue
//!    at the value itself, or a `required` or `additionalProperties` issue among its own
//!    members).
//!
//! Then the issues inside that alternative are reported at their own paths
//! (`labels[0].confidence` `enum`). When none can be chosen: a `type` issue if no alternative
//! takes the value's JSON type (a type list such as `["string", "number"]`), an `enum` issue
//! if every alternative is a literal (`anyOf: [{"const": "uk"}, {"const": "world"}]`), else
//! one `oneOf`/`anyOf` issue whose `expected` lists what the alternatives want (their types,
//! tag values or constants), shortened as [`super::shorten_list`] does.

use serde_json::Value;

use super::Checker;
use crate::model::{EnumSchema, EnumValue, Json, Kind, Schema, ToolModel, UnionMode, UnionSchema};
use crate::path::Path;
use crate::values::{json_equal, json_type, list_values, shorten_list, LISTED_VALUES};
use crate::{Constraint, Report};

/// The JSON type of a value, as unions tell their alternatives apart (integers are numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonKind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonKind {
    /// The JSON type of a value.
    pub(crate) fn of_value(value: &Value) -> Self {
        match value {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Bool,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }

    /// The JSON type of a value as read from argument text.
    pub(crate) fn of_json(json: &Json) -> Self {
        match json {
            Json::Null => JsonKind::Null,
            Json::Bool(_) => JsonKind::Bool,
            Json::Number(_) | Json::RoundedNumber(_) | Json::SpelledNumber(..) => JsonKind::Number,
            Json::String(_) => JsonKind::String,
            Json::Array(_) => JsonKind::Array,
            Json::Object(_) => JsonKind::Object,
        }
    }
}

/// Most schemas [`admits`] and [`type_names`] look at for one union: alternatives that are
/// unions again are looked through, and a schema may share them many times over (`A =
/// anyOf[B, B]`, `B = anyOf[C, C]`...), so the walk is bounded, not only its depth.
const MAX_SCHEMAS_VISITED: usize = 1024;

/// Whether `schema` takes values of JSON type `kind` at all (whatever its other constraints),
/// looking at no more than `budget` schemas; past it, `true` (it may).
fn admits(model: &ToolModel, schema: &Schema, kind: JsonKind, budget: &mut usize) -> bool {
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    if kind == JsonKind::Null && model.accepts_null(schema) {
        return true;
    }
    let Some(resolved) = model.resolve(schema) else {
        return false;
    };
    if let Some(constant) = &resolved.constant {
        return JsonKind::of_value(constant) == kind;
    }
    match &resolved.kind {
        Kind::Any => true,
        Kind::Null => kind == JsonKind::Null,
        Kind::Never | Kind::Ref(_) => false,
        Kind::Boolean => kind == JsonKind::Bool,
        Kind::Integer(_) | Kind::Number(_) => kind == JsonKind::Number,
        Kind::String(_) => kind == JsonKind::String,
        Kind::Enum(enumeration) => enumeration
            .values
            .iter()
            .any(|v| JsonKind::of_value(&v.value) == kind),
        Kind::Array(_) => kind == JsonKind::Array,
        Kind::Map(_) | Kind::Object(_) => kind == JsonKind::Object,
        Kind::Union(union) => union
            .variants
            .iter()
            .any(|variant| admits(model, variant, kind, budget)),
    }
}

/// [`admits`] within a budget of its own.
pub(crate) fn admits_within(model: &ToolModel, schema: &Schema, kind: JsonKind) -> bool {
    let mut budget = MAX_SCHEMAS_VISITED;
    admits(model, schema, kind, &mut budget)
}

/// Whether a trial's report shows that the value does not have the alternative's shape at
/// all: a `type`, `const`, `enum` or union issue at the value itself (`here`), or a
/// `required` or `additionalProperties` issue among its own members.
pub(crate) fn structural_mismatch(report: &Report, here: &Path) -> bool {
    report.iter().any(|issue| match issue.constraint {
        Constraint::Type
        | Constraint::OneOf
        | Constraint::AnyOf
        | Constraint::Const
        | Constraint::Enum => issue.path == *here,
        Constraint::Required | Constraint::AdditionalProperties => {
            issue.path.parent().as_ref() == Some(here)
        }
        _ => false,
    })
}

/// The literal string a schema holds its value to: its `const`, or the one value of its
/// `enum` (OpenAPI generators write a discriminator as `{"enum": ["Age"]}`).
fn literal_string<'s>(model: &'s ToolModel, schema: &'s Schema) -> Option<&'s str> {
    let resolved = model.resolve(schema)?;
    if let Some(constant) = &resolved.constant {
        return constant.as_str();
    }
    match &resolved.kind {
        Kind::Enum(enumeration) => match enumeration.values.as_slice() {
            [only] => only.value.as_str(),
            _ => None,
        },
        _ => None,
    }
}

/// The discriminator of a union of objects: a required field of every alternative held to
/// one literal string (its `const`, or an `enum` of one value), distinct across
/// alternatives; and those strings, in the alternatives' order. A tag in the sense of
/// [`UnionSchema::tag`] is one.
pub(crate) fn discriminator<'s>(
    model: &'s ToolModel,
    union: &'s UnionSchema,
) -> Option<(&'s str, Vec<&'s str>)> {
    let object = |variant: &'s Schema| match &model.resolve(variant)?.kind {
        Kind::Object(object) => Some(object),
        _ => None,
    };
    let first = object(union.variants.first()?)?;
    'candidates: for candidate in &first.fields {
        let mut seen: Vec<&str> = Vec::with_capacity(union.variants.len());
        for variant in &union.variants {
            let variant = object(variant)?;
            let literal = model
                .field_named(variant, &candidate.name)
                .filter(|field| field.required)
                .and_then(|field| literal_string(model, &field.schema));
            match literal {
                Some(literal) if !seen.contains(&literal) => seen.push(literal),
                _ => continue 'candidates,
            }
        }
        return Some((&candidate.name, seen));
    }
    None
}

/// Whether an object value shares no key with the fields an object alternative declares (it
/// has keys, the alternative has fields, none meet): it has another shape altogether.
fn foreign_object(model: &ToolModel, schema: &Schema, keys: &[&str]) -> bool {
    let Some(Kind::Object(object)) = model.resolve(schema).map(|s| &s.kind) else {
        return false;
    };
    !keys.is_empty()
        && !object.fields.is_empty()
        && !keys
            .iter()
            .any(|key| model.field_named(object, key).is_some())
}

/// What a union's trials are judged on: the sent value's JSON type, its keys if it is an
/// object, and a function giving the string it sends for a key (for the discriminator).
pub(crate) struct Sent<'v> {
    /// The value's JSON type.
    pub(crate) kind: JsonKind,
    /// Its keys, when it is an object.
    pub(crate) keys: Vec<&'v str>,
    /// The string members of an object, by key.
    pub(crate) strings: Vec<(&'v str, &'v str)>,
}

/// The alternative of a union that a value no alternative accepts was meant for, if it can
/// be told (see the module's documentation); `reports` holds each alternative's trial
/// report, in order, and `here` is the value's path.
pub(crate) fn chosen_alternative(
    model: &ToolModel,
    union: &UnionSchema,
    sent: &Sent<'_>,
    reports: &[Report],
    here: &Path,
) -> Option<usize> {
    if let Some((tag, literals)) = discriminator(model, union) {
        // A union told apart by a tag: the tag sent names the alternative, or none is known.
        let tag_sent = sent.strings.iter().find(|(key, _)| *key == tag)?.1;
        return literals.iter().position(|literal| *literal == tag_sent);
    }
    let admitting: Vec<usize> = (0..union.variants.len())
        .filter(|&i| admits_within(model, &union.variants[i], sent.kind))
        .collect();
    if let [only] = admitting.as_slice() {
        // An object that shares no key with the only object alternative is not that object.
        return (!foreign_object(model, &union.variants[*only], &sent.keys)).then_some(*only);
    }
    let candidates: Vec<usize> = if admitting.is_empty() {
        (0..union.variants.len()).collect()
    } else {
        admitting
    };
    let mut shaped = candidates.into_iter().filter(|&i| {
        reports
            .get(i)
            .is_some_and(|r| !structural_mismatch(r, here))
    });
    let first = shaped.next()?;
    shaped.next().is_none().then_some(first)
}

/// The literals a schema allows, when it allows nothing else (a `const`, or an `enum`).
fn literals(model: &ToolModel, schema: &Schema) -> Option<Vec<Value>> {
    let resolved = model.resolve(schema)?;
    if let Some(constant) = &resolved.constant {
        return Some(vec![constant.clone()]);
    }
    match &resolved.kind {
        Kind::Enum(enumeration) => Some(enumeration.value_list()),
        _ => None,
    }
}

/// Every literal of a union whose alternatives are all literals (`anyOf: [{"const": "uk"},
/// {"const": "world"}]`), in order: such a union is an `enum`. `None` for other unions.
pub(crate) fn union_literals(model: &ToolModel, union: &UnionSchema) -> Option<Vec<Value>> {
    let mut all: Vec<Value> = Vec::new();
    for variant in &union.variants {
        for literal in literals(model, variant)? {
            if !all.iter().any(|seen| json_equal(seen, &literal)) {
                all.push(literal);
            }
        }
    }
    (!all.is_empty()).then_some(all)
}

/// The JSON type names a schema takes, added to `names` once each, looking at no more than
/// `budget` schemas.
fn type_names(model: &ToolModel, schema: &Schema, names: &mut Vec<String>, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    fn add(names: &mut Vec<String>, name: &str) {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    }
    let Some(resolved) = model.resolve(schema) else {
        return;
    };
    if let Some(constant) = &resolved.constant {
        add(names, json_type(constant));
    } else {
        match &resolved.kind {
            Kind::Enum(enumeration) => {
                for value in &enumeration.values {
                    add(names, json_type(&value.value));
                }
            }
            Kind::Union(union) => {
                for variant in &union.variants {
                    type_names(model, variant, names, budget);
                }
            }
            kind => add(names, kind.type_name().unwrap_or("any value")),
        }
    }
    if schema.nullable || resolved.nullable {
        add(names, "null");
    }
}

/// What each alternative of a union wants, for an issue's `expected`: the tag values of a
/// tagged union; else each alternative's constant or enum values, or its type name. Repeats
/// are listed once.
pub fn union_alternatives(model: &ToolModel, union: &UnionSchema) -> Vec<Value> {
    if let Some((_, literals)) = discriminator(model, union) {
        return literals.into_iter().map(Value::from).collect();
    }
    let mut listed: Vec<Value> = Vec::new();
    let mut push = |value: Value| {
        if !listed.iter().any(|seen| json_equal(seen, &value)) {
            listed.push(value);
        }
    };
    let mut budget = MAX_SCHEMAS_VISITED;
    for variant in &union.variants {
        match literals(model, variant) {
            Some(values) => values.into_iter().for_each(&mut push),
            None => {
                let mut names = Vec::new();
                type_names(model, variant, &mut names, &mut budget);
                names.into_iter().map(Value::String).for_each(&mut push);
            }
        }
    }
    listed
}

impl<'m> Checker<'m> {
    /// A `oneOf`/`anyOf` issue: the value fits `fitting` of the union's alternatives (more
    /// than one, for `oneOf`; none, when which alternative was meant cannot be told).
    /// `expected` lists what the alternatives want (see [`union_alternatives`]).
    pub fn union_issue(&mut self, union: &UnionSchema, fitting: usize, value: Value) {
        let (constraint, wanted) = match union.mode {
            UnionMode::OneOf => (Constraint::OneOf, "exactly one"),
            UnionMode::AnyOf => (Constraint::AnyOf, "at least one"),
        };
        if self.skip_when_full(constraint) {
            return;
        }
        let alternatives = union_alternatives(self.model(), union);
        let count = alternatives.len();
        let shown: Vec<Value> = alternatives
            .iter()
            .take(LISTED_VALUES)
            .map(crate::issue::shorten_ref)
            .collect();
        let more = if count > LISTED_VALUES { ", …" } else { "" };
        let total = union.variants.len();
        let message = format!(
            "the value fits {fitting} of the {total} alternatives ({}{more}); {wanted} must fit",
            list_values(&shown)
        );
        let got = crate::issue::shorten(value);
        self.issue(
            constraint,
            message,
            Some(shorten_list(alternatives, count)),
            Some(got),
        );
    }

    /// The issue of a value that no alternative of `union` accepts, when the alternative it
    /// was meant for cannot be told: `type` when no alternative takes its JSON type `kind`
    /// (a type list), `enum` when every alternative is a literal, else the union's own issue.
    pub(crate) fn no_alternative_issue(
        &mut self,
        union: &UnionSchema,
        kind: JsonKind,
        value: Value,
    ) {
        let model = self.model();
        if !union
            .variants
            .iter()
            .any(|variant| admits_within(model, variant, kind))
        {
            let mut names = Vec::new();
            let mut budget = MAX_SCHEMAS_VISITED;
            for variant in &union.variants {
                type_names(self.model(), variant, &mut names, &mut budget);
            }
            let expected = match names.as_slice() {
                [one] => Value::String(one.clone()),
                _ => Value::from(names.clone()),
            };
            let message = format!(
                "expected {}, got {} {}",
                names.join(" or "),
                json_type(&value),
                crate::issue::shorten(value.clone())
            );
            self.issue(Constraint::Type, message, Some(expected), Some(value));
            return;
        }
        if let Some(values) = union_literals(self.model(), union) {
            let enumeration = EnumSchema {
                values: values
                    .into_iter()
                    .map(|value| EnumValue {
                        value,
                        aliases: Vec::new(),
                    })
                    .collect(),
            };
            self.check_enum(&value, &enumeration);
            return;
        }
        self.union_issue(union, 0, value);
    }

    /// Adds the issues of a trial's report (kept up to this report's cap).
    pub(crate) fn absorb(&mut self, report: Report) {
        self.report.append(report);
    }
}

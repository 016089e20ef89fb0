//! The walk: one pass over the JSON tree with the schema, repairing where a rule allows and
//! checking every constraint with the [`Checker`]'s checks.

use serde_json::{Map, Value};

use super::{read_lenient_value, Options, Repair, Rule, UnknownKeys};
use crate::check::Checker;
use crate::issue::shorten;
use crate::model::{
    Additional, ArraySchema, EnumSchema, Field, Json, Kind, MapSchema, ObjectSchema, Schema,
    ToolModel, UnionMode, UnionSchema,
};
use crate::num::Num;
use crate::{suggest, Constraint, Report};

/// Largest integer a float holds exactly; integral floats beyond it are not turned into
/// integers (the digits would be invented).
const EXACT_FLOAT_INTEGER: f64 = 9_007_199_254_740_992.0;

pub(crate) struct Decoder<'m> {
    checker: Checker<'m>,
    model: &'m ToolModel,
    options: Options,
    repairs: Vec<Repair>,
    depth: usize,
}

/// A string read as a number: trimmed, an optional `+`, then JSON number syntax.
fn parse_number(text: &str) -> Option<Num> {
    let trimmed = text.trim();
    let unsigned = trimmed.strip_prefix('+').unwrap_or(trimmed);
    if unsigned.starts_with(['+', '-']) && trimmed.starts_with('+') {
        return None;
    }
    let number: serde_json::Number = unsigned.parse().ok()?;
    let number = Num::from_json(&number);
    number.is_finite().then_some(number)
}

fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" | "t" | "y" => Some(true),
        "false" | "no" | "off" | "0" | "f" | "n" => Some(false),
        _ => None,
    }
}

fn number_value(number: Num) -> Value {
    number.to_json().map_or(Value::Null, Value::Number)
}

impl<'m> Decoder<'m> {
    pub(crate) fn new(model: &'m ToolModel, options: &Options, repairs: Vec<Repair>) -> Self {
        Decoder {
            checker: Checker::with_report(model, Report::with_cap(options.max_issues)),
            model,
            options: options.clone(),
            repairs,
            depth: 0,
        }
    }

    /// A decoder for trying a value at the current path without touching this one's report.
    fn trial(&self, options: Options) -> Decoder<'m> {
        Decoder {
            checker: self.checker.fork(),
            model: self.model,
            options,
            repairs: Vec::new(),
            depth: self.depth,
        }
    }

    pub(crate) fn finish(self) -> (Report, Vec<Repair>) {
        (self.checker.into_report(), self.repairs)
    }

    fn allows(&self, rule: Rule) -> bool {
        self.options.allows(rule)
    }

    fn repair(&mut self, rule: Rule, from: Value, to: Value) {
        self.repairs.push(Repair {
            path: self.checker.path(),
            rule,
            from: shorten(from),
            to: shorten(to),
        });
    }

    fn type_issue(&mut self, schema: &Schema, got: Value) -> Option<Value> {
        self.checker.type_issue(schema, &schema.kind, got);
        None
    }

    /// A string that should hold a JSON object or array: read strictly, else leniently
    /// (then logged as `json_text` too), with the nesting still allowed at this depth.
    fn inner_json(&mut self, text: &str) -> Option<Json> {
        let room = self
            .options
            .max_depth
            .min(super::MAX_DEPTH)
            .saturating_sub(self.depth);
        if let Ok(json) = super::parse_strict(text.as_bytes(), room) {
            return Some(json);
        }
        if !self.allows(Rule::JsonText) {
            return None;
        }
        let json = read_lenient_value(text, room).ok()?;
        self.repair(
            Rule::JsonText,
            Value::String(text.to_owned()),
            Value::String(json.to_value().to_string()),
        );
        Some(json)
    }

    /// The arguments: a JSON string of an object is read from inside (`double_encoded`); a
    /// string at the root is never read by `json_string`, so switching `double_encoded` off
    /// refuses it.
    pub(crate) fn root(&mut self, json: Json) -> Option<Value> {
        let input = self.model.input();
        let Json::String(text) = &json else {
            return self.decode(json, input);
        };
        let resolved = self.checker.resolve(input)?;
        if !matches!(resolved.kind, Kind::Object(_) | Kind::Map(_)) {
            return self.decode(json, input);
        }
        if self.allows(Rule::DoubleEncoded) {
            let mark = self.repairs.len();
            if let Some(inner @ Json::Object(_)) = self.inner_json(text) {
                self.repair(
                    Rule::DoubleEncoded,
                    Value::String(text.clone()),
                    inner.to_value(),
                );
                let logged = self.repairs.remove(self.repairs.len() - 1);
                self.repairs.insert(mark, logged);
                return self.decode(inner, input);
            }
            self.repairs.truncate(mark);
        }
        self.type_issue(resolved, json.into_value())
    }

    fn decode(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        self.decode_kind(json, schema)
    }

    fn decode_kind(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        let resolved = self.checker.resolve(schema)?;
        if json == Json::Null {
            if resolved.nullable || matches!(resolved.kind, Kind::Any | Kind::Null) {
                self.checker.check_const(resolved, || Value::Null);
                return Some(Value::Null);
            }
            return self.type_issue(resolved, Value::Null);
        }
        let value = match &resolved.kind {
            Kind::Any => Some(json.into_value()),
            Kind::Null | Kind::Ref(_) => self.type_issue(resolved, json.into_value()),
            Kind::Boolean => self.boolean(json, resolved),
            Kind::Integer(_) | Kind::Number(_) => self.number(json, resolved),
            Kind::String(_) => self.string(json, resolved),
            Kind::Enum(enumeration) => self.enumeration(json, enumeration),
            Kind::Array(array) => self.array(json, resolved, array),
            Kind::Map(map) => self.map(json, resolved, map),
            Kind::Object(object) => self.object(json, resolved, object),
            Kind::Union(union) => self.union(json, union),
        }?;
        // Scalars check their `const` with their other constraints; the rest check it here.
        let checked_already = matches!(
            resolved.kind,
            Kind::Boolean | Kind::Integer(_) | Kind::Number(_) | Kind::String(_)
        );
        if resolved.constant.is_some() && !checked_already {
            self.checker.check_const(resolved, || value.clone());
        }
        Some(value)
    }

    fn repair_if_accepted(
        &mut self,
        rule: Option<Rule>,
        from: Value,
        to: &Value,
        check: impl FnOnce(&mut Checker<'m>),
    ) {
        let before = self.checker.issue_count();
        check(&mut self.checker);
        if let (Some(rule), true) = (rule, self.checker.issue_count() == before) {
            self.repair(rule, from, to.clone());
        }
    }

    fn number(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        let integer = matches!(schema.kind, Kind::Integer(_));
        let (number, original, sent_as) = match json {
            Json::Number(number) => (Num::from_json(&number), Value::Number(number), None),
            Json::String(text) if self.allows(Rule::StringToNumber) => match parse_number(&text) {
                Some(number) => (number, Value::String(text), Some(Rule::StringToNumber)),
                None => return self.type_issue(schema, Value::String(text)),
            },
            other => return self.type_issue(schema, other.into_value()),
        };
        let (number, rule) = match number {
            Num::Float(float) if integer => {
                let rule = sent_as.unwrap_or(Rule::FloatToInteger);
                if float.fract() != 0.0 || !self.allows(rule) {
                    return self.type_issue(schema, original);
                }
                if float.abs() > EXACT_FLOAT_INTEGER {
                    // Outside the integer's range, say which bound; inside it, the digits of a
                    // float this large cannot be trusted.
                    let before = self.checker.issue_count();
                    self.checker.check_number(Num::Float(float), schema);
                    if self.checker.issue_count() == before {
                        let message = "an integer beyond 2^53 sent as a float cannot be read exactly; send it as an integer";
                        self.checker.issue(
                            Constraint::Type,
                            message,
                            Some(Value::from("integer")),
                            Some(original),
                        );
                    }
                    return None;
                }
                (Num::from_i128(float as i128), Some(rule))
            }
            number => (number, sent_as),
        };
        let value = match (&original, rule) {
            (Value::Number(_), None) => original.clone(),
            _ => number_value(number),
        };
        self.repair_if_accepted(rule, original, &value, |checker| {
            checker.check_number(number, schema)
        });
        Some(value)
    }

    fn boolean(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        let (flag, original, rule) = match json {
            Json::Bool(flag) => (flag, Value::Bool(flag), None),
            Json::String(text) if self.allows(Rule::StringToBool) => match parse_bool(&text) {
                Some(flag) => (flag, Value::String(text), Some(Rule::StringToBool)),
                None => return self.type_issue(schema, Value::String(text)),
            },
            Json::Number(number) if self.allows(Rule::NumberToBool) => {
                // `0`, `1`, `0.0` and `1.0` all compare equal to the integers.
                let as_number = Num::from_json(&number);
                let flag = if as_number == Num::Int(0) {
                    false
                } else if as_number == Num::Int(1) {
                    true
                } else {
                    return self.type_issue(schema, Value::Number(number));
                };
                (flag, Value::Number(number), Some(Rule::NumberToBool))
            }
            other => return self.type_issue(schema, other.into_value()),
        };
        let value = Value::Bool(flag);
        self.repair_if_accepted(rule, original, &value, |checker| {
            checker.check_bool(flag, schema)
        });
        Some(value)
    }

    fn string(&mut self, json: Json, schema: &'m Schema) -> Option<Value> {
        let (text, original, rule) = match json {
            Json::String(text) => (text, None, None),
            scalar @ (Json::Number(_) | Json::Bool(_)) if self.allows(Rule::ScalarToString) => {
                let original = scalar.into_value();
                (
                    original.to_string(),
                    Some(original),
                    Some(Rule::ScalarToString),
                )
            }
            other => return self.type_issue(schema, other.into_value()),
        };
        let value = Value::String(text);
        let Value::String(text) = &value else {
            unreachable!("made a string just above")
        };
        let from = original.unwrap_or(Value::Null);
        self.repair_if_accepted(rule, from, &value, |checker| {
            checker.check_string(text, schema)
        });
        Some(value)
    }

    fn enumeration(&mut self, json: Json, enumeration: &'m EnumSchema) -> Option<Value> {
        let value = json.into_value();
        let allowed = enumeration.value_list();
        if allowed
            .iter()
            .any(|candidate| crate::check::json_equal(candidate, &value))
        {
            return Some(value);
        }
        // A declared alias is part of the schema, as serde takes it: no repair to log.
        if let Some(aliased) = value.as_str().and_then(|text| {
            enumeration
                .values
                .iter()
                .find(|v| v.aliases.iter().any(|a| a == text))
        }) {
            return Some(aliased.value.clone());
        }
        if let Some((rule, canonical)) = self.enum_repair(&value, enumeration) {
            self.repair(rule, value, canonical.clone());
            return Some(canonical);
        }
        self.checker.check_enum(&value, &allowed);
        None
    }

    /// The one allowed value `value` means, and by which rule.
    fn enum_repair(&self, value: &Value, enumeration: &EnumSchema) -> Option<(Rule, Value)> {
        match value {
            Value::String(text) => {
                if let Some(number) =
                    parse_number(text).filter(|_| self.allows(Rule::StringToNumber))
                {
                    let as_number = number_value(number);
                    if let Some(found) = enumeration
                        .values
                        .iter()
                        .find(|v| crate::check::json_equal(&v.value, &as_number))
                    {
                        return Some((Rule::StringToNumber, found.value.clone()));
                    }
                }
                if !self.allows(Rule::EnumCase) {
                    return None;
                }
                let folded = suggest::fold(text);
                let mut matches = enumeration.values.iter().filter(|v| {
                    v.value.as_str().is_some_and(|s| suggest::fold(s) == folded)
                        || v.aliases.iter().any(|a| suggest::fold(a) == folded)
                });
                let first = matches.next()?;
                matches
                    .next()
                    .is_none()
                    .then(|| (Rule::EnumCase, first.value.clone()))
            }
            Value::Number(_) | Value::Bool(_) if self.allows(Rule::ScalarToString) => {
                let text = value.to_string();
                let found = enumeration
                    .values
                    .iter()
                    .find(|v| v.value.as_str() == Some(text.as_str()))?;
                Some((Rule::ScalarToString, found.value.clone()))
            }
            _ => None,
        }
    }

    /// A string that holds JSON where a container is expected: its value, logged.
    fn container_from_string(&mut self, text: &str, wants: fn(&Json) -> bool) -> Option<Json> {
        if !self.allows(Rule::JsonString) || !text.trim_start().starts_with(['[', '{']) {
            return None;
        }
        // `json_string` comes first in the log, before a `json_text` its reading needed.
        let mark = self.repairs.len();
        match self.inner_json(text).filter(wants) {
            Some(inner) => {
                self.repair(
                    Rule::JsonString,
                    Value::String(text.to_owned()),
                    inner.to_value(),
                );
                let logged = self.repairs.remove(self.repairs.len() - 1);
                self.repairs.insert(mark, logged);
                Some(inner)
            }
            None => {
                self.repairs.truncate(mark);
                None
            }
        }
    }

    fn array(&mut self, json: Json, schema: &'m Schema, array: &'m ArraySchema) -> Option<Value> {
        let items = match json {
            Json::Array(items) => items,
            Json::String(text) => {
                match self.container_from_string(&text, |j| matches!(j, Json::Array(_))) {
                    Some(Json::Array(items)) => items,
                    _ => return self.wrap(Json::String(text), schema, array),
                }
            }
            other => return self.wrap(other, schema, array),
        };
        let count = items.len();
        // Issues of the array itself come before those of its elements (document order).
        self.checker.check_array_size(count, array, || {
            Value::Array(items.iter().map(Json::to_value).collect())
        });
        let mut out = Vec::with_capacity(count);
        // One container deeper: what strings holding JSON may still add is bounded by it.
        self.depth += 1;
        for (index, item) in items.into_iter().enumerate() {
            self.checker.path_push_index(index);
            if let Some(value) = self.decode(item, &array.items) {
                out.push(value);
            }
            self.checker.path_pop();
        }
        self.depth -= 1;
        if array.unique_items {
            self.checker.check_unique(&out);
        }
        Some(Value::Array(out))
    }

    /// One item where an array of such items is expected (`wrap_in_array`), if the item
    /// decodes without issues; a `type` issue otherwise.
    fn wrap(&mut self, item: Json, schema: &'m Schema, array: &'m ArraySchema) -> Option<Value> {
        if self.allows(Rule::WrapInArray) && item != Json::Null {
            let mut trial = self.trial(self.options.clone());
            trial.checker.path_push_index(0);
            let decoded = trial.decode(item.clone(), &array.items);
            let (report, repairs) = trial.finish();
            if let (Some(value), true) = (decoded, report.is_empty()) {
                let wrapped = Value::Array(vec![value]);
                self.repair(Rule::WrapInArray, item.into_value(), wrapped.clone());
                self.repairs.extend(repairs);
                self.checker.check_array_size(1, array, || wrapped.clone());
                return Some(wrapped);
            }
        }
        self.type_issue(schema, item.into_value())
    }

    fn map(&mut self, json: Json, schema: &'m Schema, map: &'m MapSchema) -> Option<Value> {
        let members = match json {
            Json::Object(members) => members,
            Json::String(text) => {
                match self.container_from_string(&text, |j| matches!(j, Json::Object(_))) {
                    Some(Json::Object(members)) => members,
                    _ => return self.type_issue(schema, Value::String(text)),
                }
            }
            other => return self.type_issue(schema, other.into_value()),
        };
        let mut out = Map::new();
        self.depth += 1;
        for (key, member) in self.unique_members(members) {
            self.checker.path_push_key(&key);
            if let Some(value) = self.decode(member, &map.values) {
                out.insert(key, value);
            }
            self.checker.path_pop();
        }
        self.depth -= 1;
        Some(Value::Object(out))
    }

    /// The members with repeated keys removed: an equal repeat is dropped, a different one
    /// is a `syntax` issue (which was meant would be a guess).
    fn unique_members(&mut self, members: Vec<(String, Json)>) -> Vec<(String, Json)> {
        let mut out: Vec<(String, Json)> = Vec::with_capacity(members.len());
        // Where each key first came, so repeats are found in linear time on any size.
        let mut first_at: std::collections::HashMap<String, usize> =
            std::collections::HashMap::with_capacity(members.len());
        for (key, member) in members {
            match first_at.get(&key) {
                None => {
                    first_at.insert(key.clone(), out.len());
                    out.push((key, member));
                }
                Some(&index) if out[index].1 == member => {}
                Some(_) => {
                    self.checker.path_push_key(&key);
                    let message = format!("the key {key:?} appears twice with different values");
                    self.checker.issue(Constraint::Syntax, message, None, None);
                    self.checker.path_pop();
                }
            }
        }
        out
    }

    /// Which field a key names: by name or alias, else by case and separator folding
    /// (`key_case`) when exactly one field matches and that field is not also present.
    fn field_for(
        &self,
        key: &str,
        object: &'m ObjectSchema,
        present: &[bool],
    ) -> Option<(usize, bool)> {
        let exact = object
            .fields
            .iter()
            .position(|f| f.name == key || f.aliases.iter().any(|a| a == key));
        if let Some(index) = exact {
            return Some((index, false));
        }
        if !self.allows(Rule::KeyCase) {
            return None;
        }
        let folded = fold_key(key);
        let mut candidates = object.fields.iter().enumerate().filter(|(_, f)| {
            fold_key(&f.name) == folded || f.aliases.iter().any(|a| fold_key(a) == folded)
        });
        let (index, _) = candidates.next()?;
        (candidates.next().is_none() && !present[index]).then_some((index, true))
    }

    fn object(
        &mut self,
        json: Json,
        schema: &'m Schema,
        object: &'m ObjectSchema,
    ) -> Option<Value> {
        let members = match json {
            Json::Object(members) => members,
            Json::String(text) => {
                match self.container_from_string(&text, |j| matches!(j, Json::Object(_))) {
                    Some(Json::Object(members)) => members,
                    _ => return self.type_issue(schema, Value::String(text)),
                }
            }
            other => return self.type_issue(schema, other.into_value()),
        };
        let members = self.unique_members(members);
        let mut present: Vec<bool> = object
            .fields
            .iter()
            .map(|f| {
                members
                    .iter()
                    .any(|(k, _)| *k == f.name || f.aliases.contains(k))
            })
            .collect();
        let mut out = Map::new();
        self.depth += 1;
        for (key, member) in members {
            match self.field_for(&key, object, &present) {
                Some((index, by_case)) => {
                    let field = &object.fields[index];
                    present[index] = true;
                    self.checker.path_push_field(&field.name);
                    if by_case {
                        self.repair(
                            Rule::KeyCase,
                            Value::String(key),
                            Value::String(field.name.clone()),
                        );
                    }
                    self.field_value(field, member, &mut out);
                    self.checker.path_pop();
                }
                None => self.unknown_key(key, member, object, &mut out),
            }
        }
        self.depth -= 1;
        for (field, _) in object
            .fields
            .iter()
            .zip(&present)
            .filter(|(_, present)| !**present)
        {
            self.checker.path_push_field(&field.name);
            if field.required {
                let expected = Value::String(field.name.clone());
                self.checker
                    .issue(Constraint::Required, "is required", Some(expected), None);
            } else {
                self.fill_default(field, &mut out);
            }
            self.checker.path_pop();
        }
        Some(Value::Object(out))
    }

    fn field_value(&mut self, field: &'m Field, member: Json, out: &mut Map<String, Value>) {
        let accepts_null = self
            .model
            .resolve(&field.schema)
            .is_some_and(|s| s.nullable || matches!(s.kind, Kind::Any | Kind::Null));
        if member == Json::Null
            && !field.required
            && !accepts_null
            && self.allows(Rule::NullAsAbsent)
        {
            self.repair(Rule::NullAsAbsent, Value::Null, Value::Null);
            self.fill_default(field, out);
            return;
        }
        if let Some(value) = self.decode(member, &field.schema) {
            out.insert(field.name.clone(), value);
        }
    }

    /// An absent optional field gets its default, when it has one that fits its schema.
    fn fill_default(&mut self, field: &'m Field, out: &mut Map<String, Value>) {
        let Some(default) = &field.schema.default else {
            return;
        };
        if !self.allows(Rule::Default) {
            return;
        }
        let mut check = self.checker.fork();
        check.check_value(default, &field.schema);
        if check.finish().is_ok() {
            self.repair(Rule::Default, Value::Null, default.clone());
            out.insert(field.name.clone(), default.clone());
        }
    }

    fn unknown_key(
        &mut self,
        key: String,
        member: Json,
        object: &'m ObjectSchema,
        out: &mut Map<String, Value>,
    ) {
        self.checker.path_push_key(&key);
        match &object.additional {
            Additional::Schema(extra) => {
                if let Some(value) = self.decode(member, extra) {
                    out.insert(key, value);
                }
            }
            Additional::Deny => {
                let mut message = format!("unknown field {key:?}");
                if let Some(near) =
                    suggest::nearest(&key, object.fields.iter().map(|f| f.name.as_str()))
                {
                    message.push_str(&format!(" (did you mean {near:?}?)"));
                }
                let expected = Value::Array(
                    object
                        .fields
                        .iter()
                        .map(|f| Value::String(f.name.clone()))
                        .collect(),
                );
                self.checker.issue(
                    Constraint::AdditionalProperties,
                    message,
                    Some(expected),
                    Some(Value::String(key)),
                );
            }
            Additional::Allow => match self.options.unknown_keys {
                UnknownKeys::Keep => {
                    out.insert(key, member.into_value());
                }
                UnknownKeys::Drop if self.allows(Rule::DropUnknownKey) => {
                    self.repair(Rule::DropUnknownKey, member.into_value(), Value::Null);
                }
                UnknownKeys::Drop => {
                    let message = format!("unknown field {key:?}");
                    self.checker.issue(
                        Constraint::AdditionalProperties,
                        message,
                        None,
                        Some(Value::String(key)),
                    );
                }
            },
        }
        self.checker.path_pop();
    }

    /// Tries each alternative: first as sent (no repairs), then with repairs. `oneOf` needs
    /// exactly one to fit; `anyOf` takes the first that does.
    fn union(&mut self, json: Json, union: &'m UnionSchema) -> Option<Value> {
        let strict = Options {
            unknown_keys: self.options.unknown_keys,
            ..Options::strict()
        };
        for options in [strict, self.options.clone()] {
            let mut fitting = Vec::new();
            for variant in &union.variants {
                let mut trial = self.trial(options.clone());
                let value = trial.decode(json.clone(), variant);
                let (report, repairs) = trial.finish();
                if let (Some(value), true) = (value, report.is_empty()) {
                    fitting.push((value, repairs));
                }
            }
            let count = fitting.len();
            if count == 0 {
                continue;
            }
            if union.mode == UnionMode::OneOf && count > 1 {
                let message = format!(
                    "the value fits {count} of the {} alternatives; exactly one must fit",
                    union.variants.len()
                );
                self.checker.issue(
                    Constraint::OneOf,
                    message,
                    Some(union.variants.len().into()),
                    Some(json.into_value()),
                );
                return None;
            }
            let (value, repairs) = fitting.swap_remove(0);
            self.repairs.extend(repairs);
            return Some(value);
        }
        let (constraint, wanted) = match union.mode {
            UnionMode::OneOf => (Constraint::OneOf, "exactly one"),
            UnionMode::AnyOf => (Constraint::AnyOf, "at least one"),
        };
        let message = format!(
            "the value fits none of the {} alternatives; {wanted} must fit",
            union.variants.len()
        );
        self.checker.issue(
            constraint,
            message,
            Some(union.variants.len().into()),
            Some(json.into_value()),
        );
        None
    }
}

/// A key folded for `key_case`: lowercase, without `_`, `-` and spaces
/// (`userName`, `user_name` and `User-Name` fold the same).
fn fold_key(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '_' | '-' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

//! The walk through containers: arrays (with `json_string` and `wrap_in_array`), maps,
//! objects (keys by name, alias or `key_case`; `null_as_absent`; defaults; unknown keys) and
//! unions.

use serde_json::{Map, Value};

use super::Decoder;
use crate::decode::{Repair, Rule, UnknownKeys};
use crate::model::{
    Additional, ArraySchema, Field, Json, MapSchema, ObjectSchema, Schema, UnionMode, UnionSchema,
};
use crate::{suggest, Constraint};

impl<'m> Decoder<'m> {
    /// A string that holds JSON where a container is expected: its value, logged.
    fn container_from_string(&mut self, text: &str, wants: fn(&Json) -> bool) -> Option<Json> {
        if !self.allows(Rule::JsonString) || !text.trim_start().starts_with(['[', '{']) {
            return None;
        }
        // `json_string` comes first in the log, before a `json_text` its reading needed.
        let mark = self.repairs.len();
        match self.inner_json(text).filter(wants) {
            Some(inner) => {
                self.repair_at(
                    mark,
                    Rule::JsonString,
                    Value::String(text.to_owned()),
                    inner.to_value(),
                );
                Some(inner)
            }
            None => {
                self.repairs.truncate(mark);
                None
            }
        }
    }

    pub(super) fn array(
        &mut self,
        json: Json,
        schema: &'m Schema,
        array: &'m ArraySchema,
    ) -> Option<Value> {
        let items = match json {
            Json::Array(items) => items,
            Json::String(text) => {
                match self.container_from_string(&text, |j| matches!(j, Json::Array(_))) {
                    Some(Json::Array(items)) => items,
                    // A string that starts like an array but is not one: `json_string`
                    // refuses it; wrapping it as one string would be a guess.
                    _ if text.trim_start().starts_with('[') => {
                        return self.type_issue(schema, Value::String(text))
                    }
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
        // Where each decoded element was sent, for `uniqueItems` messages.
        let mut sent_at = Vec::with_capacity(if array.unique_items { count } else { 0 });
        // One container deeper: what strings holding JSON may still add is bounded by it.
        self.depth += 1;
        for (index, item) in items.into_iter().enumerate() {
            self.checker.path_push_index(index);
            if let Some(value) = self.decode(item, &array.items) {
                out.push(value);
                if array.unique_items {
                    sent_at.push(index);
                }
            }
            self.checker.path_pop();
        }
        self.depth -= 1;
        if array.unique_items {
            self.checker.check_unique_at(out.iter().zip(sent_at));
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

    /// The members of an object, or of a string holding one (`json_string`); a `type` issue
    /// for anything else.
    fn members(&mut self, json: Json, schema: &'m Schema) -> Option<Vec<(String, Json)>> {
        let refused = match json {
            Json::Object(members) => return Some(members),
            Json::String(text) => {
                match self.container_from_string(&text, |j| matches!(j, Json::Object(_))) {
                    Some(Json::Object(members)) => return Some(members),
                    _ => Value::String(text),
                }
            }
            other => other.into_value(),
        };
        self.type_issue(schema, refused);
        None
    }

    pub(super) fn map(
        &mut self,
        json: Json,
        schema: &'m Schema,
        map: &'m MapSchema,
    ) -> Option<Value> {
        let members = self.members(json, schema)?;
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
        // Where each key first came: a scan for small objects, a map for large ones, so
        // repeats are found in linear time on any size without allocating for the usual few.
        let mut first_at: Option<std::collections::HashMap<String, usize>> =
            (members.len() > 32).then(std::collections::HashMap::new);
        for (key, member) in members {
            let seen = match &first_at {
                Some(map) => map.get(&key).copied(),
                None => out.iter().position(|(k, _)| *k == key),
            };
            match seen {
                None => {
                    if let Some(map) = &mut first_at {
                        map.insert(key.clone(), out.len());
                    }
                    out.push((key, member));
                }
                // Equal as JSON values (`4.0` and `4` are one number): nothing to choose between.
                Some(index)
                    if crate::check::json_equal(&out[index].1.to_value(), &member.to_value()) => {}
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
        let mut candidates = object.fields.iter().enumerate().filter(|(_, f)| {
            suggest::fold_eq(&f.name, key) || f.aliases.iter().any(|a| suggest::fold_eq(a, key))
        });
        let (index, _) = candidates.next()?;
        (candidates.next().is_none() && !present[index]).then_some((index, true))
    }

    pub(super) fn object(
        &mut self,
        json: Json,
        schema: &'m Schema,
        object: &'m ObjectSchema,
    ) -> Option<Value> {
        let members = self.members(json, schema)?;
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
        let mut given = vec![false; object.fields.len()];
        self.depth += 1;
        for (key, member) in members {
            match self.field_for(&key, object, &present) {
                Some((index, _)) if given[index] => {
                    // The field came already under another of its names: which was meant
                    // would be a guess (serde refuses this as a duplicate field too).
                    self.checker.path_push_key(&key);
                    let message = format!(
                        "the field {:?} is given twice (also as {key:?})",
                        object.fields[index].name
                    );
                    self.checker.issue(Constraint::Syntax, message, None, None);
                    self.checker.path_pop();
                }
                Some((index, by_case)) => {
                    let field = &object.fields[index];
                    present[index] = true;
                    given[index] = true;
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
            if field.required {
                self.checker.missing_field(field);
            } else {
                self.checker.path_push_field(&field.name);
                self.fill_default(field, &mut out);
                self.checker.path_pop();
            }
        }
        Some(Value::Object(out))
    }

    fn field_value(&mut self, field: &'m Field, member: Json, out: &mut Map<String, Value>) {
        let accepts_null = self.model.accepts_null(&field.schema);
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
        match (&object.additional, self.options.unknown_keys) {
            (Additional::Schema(extra), _) => {
                self.checker.path_push_key(&key);
                if let Some(value) = self.decode(member, extra) {
                    out.insert(key, value);
                }
                self.checker.path_pop();
            }
            (Additional::Allow, UnknownKeys::Keep) => {
                out.insert(key, member.into_value());
            }
            (Additional::Allow, UnknownKeys::Drop) if self.allows(Rule::DropUnknownKey) => {
                self.checker.path_push_key(&key);
                self.repair(Rule::DropUnknownKey, member.into_value(), Value::Null);
                self.checker.path_pop();
            }
            // Denied, or a typed tool that may not drop it.
            (Additional::Deny, _) | (Additional::Allow, UnknownKeys::Drop) => {
                self.checker.unknown_field(&key, object)
            }
        }
    }

    /// Tries each alternative once. A fit that needed no repair (defaults aside) is what was
    /// meant: `anyOf` takes the first such, else the first fit; `oneOf` needs exactly one fit
    /// as sent, or else exactly one fit after repairs. Every trial spends from a budget shared
    /// by the whole decoding, so nested unions cannot take exponential time.
    pub(super) fn union(&mut self, json: Json, union: &'m UnionSchema) -> Option<Value> {
        let mut fits: Vec<(Value, Vec<Repair>, bool)> = Vec::new();
        for variant in &union.variants {
            if !self.spend_trial() {
                return None;
            }
            let mut trial = self.trial(self.options.clone());
            let value = trial.decode(json.clone(), variant);
            let (report, repairs) = trial.finish();
            if let (Some(value), true) = (value, report.is_empty()) {
                let as_sent = repairs.iter().all(|r| r.rule == Rule::Default);
                fits.push((value, repairs, as_sent));
                if as_sent && union.mode == UnionMode::AnyOf {
                    break;
                }
            }
        }
        let as_sent: Vec<usize> = (0..fits.len()).filter(|&i| fits[i].2).collect();
        let chosen = match (union.mode, as_sent.as_slice(), fits.len()) {
            (UnionMode::AnyOf, [first, ..], _) => Some(*first),
            (UnionMode::AnyOf, [], 0) => None,
            (UnionMode::AnyOf, [], _) => Some(0),
            (UnionMode::OneOf, [only], _) => Some(*only),
            (UnionMode::OneOf, [], 1) => Some(0),
            (UnionMode::OneOf, [], 0) => None,
            (UnionMode::OneOf, _, count) => {
                self.checker.union_issue(
                    union.mode,
                    count,
                    union.variants.len(),
                    json.into_value(),
                );
                return None;
            }
        };
        if let Some(index) = chosen {
            let (value, repairs, _) = fits.swap_remove(index);
            self.repairs.extend(repairs);
            return Some(value);
        }
        self.checker
            .union_issue(union.mode, 0, union.variants.len(), json.into_value());
        None
    }
}

//! The walk through containers: arrays (with `json_string` and `wrap_in_array`), maps,
//! objects (keys by name, alias or `key_case`; `null_as_absent`; defaults; unknown keys).

use serde_json::{Map, Value};

use super::object::{null_as_absent, KeyStep, ObjectRun};
use super::{Decoder, InnerJson};
use crate::decode::Rule;
use crate::model::{ArraySchema, Field, Json, Kind, MapSchema, ObjectSchema, Schema, ToolModel};
use crate::plan::Node;

use crate::Constraint;

/// The items of a string that reads as a separated list (`"a, b, c"`, `"a; b"`, several
/// lines): at least two non-empty items, split on line breaks, else `;`, else `,`. Such a
/// string where an array of strings is wanted is ambiguous (one item, or several?), so
/// `wrap_in_array` refuses it, and the retry hint shows the array it may mean.
///
/// ```
/// use toolgate_core::decode::separated_items;
///
/// assert_eq!(separated_items("a, b ,c"), Some(vec!["a", "b", "c"]));
/// assert_eq!(separated_items("x; y"), Some(vec!["x", "y"]));
/// assert_eq!(separated_items("one item"), None);
/// ```
pub fn separated_items(text: &str) -> Option<Vec<&str>> {
    let separator: &[char] = if text.trim().contains('\n') {
        &['\n']
    } else if text.contains(';') {
        &[';']
    } else {
        &[',']
    };
    let items: Vec<&str> = text
        .split(separator)
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .collect();
    (items.len() >= 2).then_some(items)
}

impl<'m> Decoder<'m> {
    /// A string that holds JSON where a container is expected: its value, logged.
    fn container_from_string(&mut self, text: &str, wants: fn(&Json) -> bool) -> InnerJson {
        if !self.allows(Rule::JsonString) || !text.trim_start().starts_with(['[', '{']) {
            return InnerJson::NotJson;
        }
        // `json_string` comes first in the log, before a `json_text` its reading needed.
        let mark = self.repairs.len();
        match self.inner_json(text, false) {
            InnerJson::Read(inner) if wants(&inner) => {
                self.repair_at(
                    mark,
                    Rule::JsonString,
                    crate::issue::shorten_str(text),
                    crate::issue::shorten_json(&inner),
                );
                InnerJson::Read(inner)
            }
            InnerJson::TooDeep => {
                self.repairs.truncate(mark);
                InnerJson::TooDeep
            }
            InnerJson::Read(_) | InnerJson::NotJson => {
                self.repairs.truncate(mark);
                InnerJson::NotJson
            }
        }
    }

    pub(super) fn array(
        &mut self,
        json: Json,
        node: Node<'m>,
        schema: &'m Schema,
        array: &'m ArraySchema,
    ) -> Option<Value> {
        let items = match json {
            Json::Array(items) => items,
            Json::String(text) => {
                match self.container_from_string(&text, |j| matches!(j, Json::Array(_))) {
                    InnerJson::Read(Json::Array(items)) => items,
                    InnerJson::TooDeep => return self.too_deep_in_string(),
                    // A string that starts like a collection but is not the array wanted (a
                    // failed collection literal, `"{\"a\", \"b\"}"`, or an object): wrapping
                    // it as one string would be a guess.
                    _ if text.trim_start().starts_with(['[', '{']) => {
                        return self.type_issue(schema, Value::String(text))
                    }
                    // `"a, b, c"` where strings are wanted: one item or three? Refused; the
                    // hint shows the array it may mean.
                    _ if self.items_are_strings(node, array)
                        && separated_items(&text).is_some() =>
                    {
                        return self.type_issue(schema, Value::String(text))
                    }
                    _ => return self.wrap(Json::String(text), node, schema, array),
                }
            }
            other => return self.wrap(other, node, schema, array),
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
        // Past a tuple's elements there is only the `maxItems` issue above.
        let held = array.tuple_length().unwrap_or(usize::MAX);
        let model = self.model;
        // Past the prefix, every item has one node.
        let items_node = node.item(model, array, array.prefix_items.len());
        self.in_members(|this| {
            for (index, item) in items.into_iter().enumerate().take(held) {
                this.checker.path_push_index(index);
                let item_node = match index < array.prefix_items.len() {
                    true => node.item(model, array, index),
                    false => items_node,
                };
                if let Some(value) = this.decode(item, item_node) {
                    out.push(value);
                    if array.unique_items {
                        sent_at.push(index);
                    }
                }
                this.checker.path_pop();
            }
        });
        if array.unique_items {
            self.checker.check_unique_at(out.iter().zip(sent_at));
        }
        Some(Value::Array(out))
    }

    /// Whether the array's items are strings (or string enum values).
    fn items_are_strings(&self, node: Node<'m>, array: &'m ArraySchema) -> bool {
        node.item(self.model, array, 0)
            .resolved
            .is_some_and(|items| match &items.kind {
                Kind::String(_) => true,
                Kind::Enum(enumeration) => enumeration.values.iter().any(|v| v.value.is_string()),
                _ => false,
            })
    }

    /// One item where an array of such items is expected (`wrap_in_array`), if the item
    /// decodes without issues; a `type` issue otherwise.
    fn wrap(
        &mut self,
        item: Json,
        node: Node<'m>,
        schema: &'m Schema,
        array: &'m ArraySchema,
    ) -> Option<Value> {
        // A wrapped item is the same value again: wraps count with the unions around them,
        // so an array of itself (`A = array of A`) stops wrapping instead of wrapping
        // forever. Past the cap the value is not wrapped: a `type` issue, whatever the
        // alternatives around (the cap is a function of the schema's path, not of the
        // trials made before).
        if self.allows(Rule::WrapInArray) && item != Json::Null && self.may_wrap() {
            let mut trial = self.wrap_trial();
            trial.checker.path_push_index(0);
            let decoded = trial.decode(item.clone(), node.item(self.model, array, 0));
            let (report, repairs) = trial.finish();
            if self.nesting_exceeded() {
                self.nesting_issue();
                return None;
            }
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
                    InnerJson::Read(Json::Object(members)) => return Some(members),
                    InnerJson::TooDeep => {
                        self.too_deep_in_string();
                        return None;
                    }
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
        node: Node<'m>,
        schema: &'m Schema,
        map: &'m MapSchema,
    ) -> Option<Value> {
        let members = self.members(json, schema)?;
        let mut out = Map::new();
        let (values, keys) = (
            node.map_values(self.model, map),
            node.map_keys(self.model, map),
        );
        self.in_members(|this| {
            for (key, member) in this.unique_members(members) {
                this.check_key(&key, keys);
                this.checker.path_push_key(&key);
                if let Some(value) = this.decode(member, values) {
                    out.insert(key, value);
                }
                this.checker.path_pop();
            }
        });
        Some(Value::Object(out))
    }

    /// A value of any type, kept as sent; a key repeated with a different value anywhere
    /// inside it is refused (`syntax`), as in declared objects: a map would keep the last
    /// silently. Recursion is bounded by the depth limit the text was read with.
    pub(super) fn any_value(&mut self, json: Json) -> Option<Value> {
        let before = self.checker.issue_count();
        let value = match json {
            Json::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (index, item) in items.into_iter().enumerate() {
                    self.checker.path_push_index(index);
                    out.extend(self.any_value(item));
                    self.checker.path_pop();
                }
                Value::Array(out)
            }
            Json::Object(members) => {
                let mut out = Map::new();
                for (key, member) in self.unique_members(members) {
                    self.checker.path_push_key(&key);
                    if let Some(value) = self.any_value(member) {
                        out.insert(key, value);
                    }
                    self.checker.path_pop();
                }
                Value::Object(out)
            }
            other => {
                if let Some(digits) = super::integers::uncarried_literal(&other) {
                    let digits = digits.to_owned();
                    self.refuse_uncarried(&digits, other.into_value());
                    return None;
                }
                other.into_value()
            }
        };
        (self.checker.issue_count() == before).then_some(value)
    }

    /// The members with repeated keys removed: an equal repeat is dropped, a different one
    /// is a `syntax` issue (which was meant would be a guess).
    fn unique_members(&mut self, members: Vec<(String, Json)>) -> Vec<(String, Json)> {
        // Nearly always no key repeats: the members stay where they are.
        if !has_repeated_key(&members) {
            return members;
        }
        let mut out: Vec<(String, Json)> = Vec::with_capacity(members.len());
        // Where each key first came (a map: this path is only taken when keys repeat).
        let mut first_at = std::collections::HashMap::with_capacity(members.len());
        for (key, member) in members {
            match first_at.get(&key).copied() {
                None => {
                    first_at.insert(key.clone(), out.len());
                    out.push((key, member));
                }
                // Equal as JSON values (`4.0` and `4` are one number): nothing to choose between.
                Some(index)
                    if crate::values::json_equal(&out[index].1.to_value(), &member.to_value()) => {}
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

    pub(super) fn object(
        &mut self,
        json: Json,
        node: Node<'m>,
        schema: &'m Schema,
        object: &'m ObjectSchema,
    ) -> Option<Value> {
        let members = self.members(json, schema)?;
        let members = self.unique_members(members);
        let mut run = ObjectRun::new(self, object, node);
        run.look_ahead(self, members.iter().map(|(key, _)| key.as_str()));
        let mut out = Map::new();
        self.in_members(|this| {
            for (key, member) in members {
                match run.key(this, &key) {
                    KeyStep::Field(field, field_node) => {
                        let absent = match member {
                            Json::Null => null_as_absent(this, field, field_node),
                            _ => None,
                        };
                        let value = match absent {
                            Some(filled) => filled,
                            None => this.decode(member, field_node),
                        };
                        if let Some(value) = value {
                            out.insert(field.name.clone(), value);
                        }
                    }
                    KeyStep::Extra(extra) => {
                        if let Some(value) = this.decode(member, extra) {
                            out.insert(key, value);
                        }
                    }
                    KeyStep::Keep => {
                        if let Some(value) = this.any_value(member) {
                            out.insert(key, value);
                        }
                    }
                    KeyStep::Drop => {
                        run.dropped(this, &key, member.into_value());
                        continue;
                    }
                    // Every key is in view: nothing is left undecided.
                    KeyStep::Skip | KeyStep::Undecided => continue,
                }
                this.checker.path_pop();
            }
        });
        // Keys as they come out (after `key_case`), each against `propertyNames`.
        if let Some(keys) = node.object_keys(self.model, object) {
            for key in out.keys() {
                self.check_key(key, Some(keys));
            }
        }
        while let Some((field, default)) = run.next_absent(self) {
            out.insert(field.name.clone(), default);
        }
        Some(Value::Object(out))
    }

    /// Checks `key` against `keys`, the schema of keys (`propertyNames`), when there is one:
    /// [`Checker::check_key`](crate::Checker::check_key), with the schema's node.
    fn check_key(&mut self, key: &str, keys: Option<Node<'m>>) {
        let Some(keys) = keys else { return };
        let mut check = Decoder::checking(crate::Checker::new(self.model));
        check.decode(Json::String(key.to_owned()), keys);
        if let Err(report) = check.into_checker().finish() {
            self.checker.key_refused(key, &report);
        }
    }

    /// The default an absent optional field gets (logged `default`), when it has one that
    /// fits its schema and the rule is on, within what a call's defaults may add
    /// ([`Decoder::spend_default`], which counts a default that does not fit too). Whether
    /// it fits is judged once per model ([`crate::plan::Plan::field_default`]).
    pub(super) fn default_value(&mut self, field: &'m Field, node: Node<'m>) -> Option<Value> {
        let default = field.schema.default.as_ref()?;
        if !self.allows(Rule::Default) || !self.spend_default(&field.name, default) {
            return None;
        }
        let model = self.model;
        let filled = model
            .plan()
            .field_default_at(node.id, &field.schema, || filled_default(model, field))?;
        self.repair(Rule::Default, Value::Null, filled.clone());
        Some(filled)
    }
}

/// Whether two members share a key: a scan for small objects, a set for large ones, so the
/// check is linear on any size and allocates nothing for the usual few.
fn has_repeated_key(members: &[(String, Json)]) -> bool {
    if members.len() > 32 {
        let mut seen = std::collections::HashSet::with_capacity(members.len());
        return !members.iter().all(|(key, _)| seen.insert(key.as_str()));
    }
    members
        .iter()
        .enumerate()
        .any(|(at, (key, _))| members[..at].iter().any(|(earlier, _)| earlier == key))
}

/// The value an absent `field` (of `model`, with a default) is given: its default, when it
/// fits the field's schema (checked as a value, every repair off), an integer field's
/// default written with a fraction or an exponent (`5.0`, `1e3`) handed on as the integer
/// its digits say, as a value sent so would be (issue 27 §1); `None` where it does not fit.
pub(crate) fn filled_default(model: &ToolModel, field: &Field) -> Option<Value> {
    let default = field.schema.default.as_ref()?;
    model.check_against(&field.schema, default).ok()?;
    let integral = match model.resolve(&field.schema).map(|schema| &schema.kind) {
        Some(Kind::Integer(_)) => match default {
            Value::Number(number) => {
                super::integers::float_spelled_integer(&Json::Number(number.clone()))
                    .and_then(super::integers::carried)
            }
            _ => None,
        },
        _ => None,
    };
    Some(integral.unwrap_or_else(|| default.clone()))
}

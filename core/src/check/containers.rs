//! Checking arrays and maps: size, uniqueness, and every element or member against its
//! schema (what `ToolArg` of `Vec`, maps and flattened maps call).

use serde_json::Value;

use super::Checker;
use crate::model::{Additional, ArraySchema, Kind, Schema};
use crate::values::{canonical, count_of, json_equal};
use crate::{Constraint, ToolArg};

impl<'m> Checker<'m> {
    /// Checks the members of a `#[serde(flatten)]` map against the object's
    /// `additionalProperties` schema (what generated code calls), in key order.
    pub fn additional_entries<'v, T: ToolArg + 'v>(
        &mut self,
        schema: &'m Schema,
        entries: impl Iterator<Item = (&'v String, &'v T)>,
    ) {
        let values = match self.resolve(schema).map(|s| &s.kind) {
            Some(Kind::Object(object)) => match &object.additional {
                Additional::Schema(values) => &**values,
                _ => return,
            },
            _ => return,
        };
        let mut entries: Vec<(&String, &T)> = entries.collect();
        entries.sort_unstable_by_key(|(key, _)| *key);
        for (key, value) in entries {
            self.entry(key, values, value);
        }
    }

    /// Checks an array's elements and size against an `array` schema.
    pub fn check_array<T: ToolArg>(&mut self, items: &[T], schema: &'m Schema) {
        self.check_elements(items.len(), |index| &items[index], schema);
    }

    /// Checks a tuple's elements (a Rust tuple's, a derived tuple struct's) against an
    /// `array` schema, each against its own schema (`prefixItems`).
    pub fn check_tuple(&mut self, elements: &[&dyn ToolArg], schema: &'m Schema) {
        self.check_elements(elements.len(), |index| elements[index], schema);
    }

    fn check_elements<'v>(
        &mut self,
        count: usize,
        element: impl Fn(usize) -> &'v dyn ToolArg,
        schema: &'m Schema,
    ) {
        let Some(resolved) = self.resolve(schema) else {
            return;
        };
        let got = || Value::Array((0..count).map(|i| element(i).to_json_value()).collect());
        if !self.check_const(resolved, got) {
            return;
        }
        let array = match &resolved.kind {
            Kind::Array(array) => array,
            Kind::Any => return,
            kind => return self.type_issue(resolved, kind, got()),
        };
        self.check_array_size(count, array, got);
        if array.unique_items {
            self.check_unique(
                &(0..count)
                    .map(|i| element(i).to_json_value())
                    .collect::<Vec<_>>(),
            );
        }
        // Past a tuple's elements there is only the `maxItems` issue above.
        let held = array.tuple_length().unwrap_or(usize::MAX).min(count);
        for index in 0..held {
            self.item(index, array.item_schema(index), element(index));
        }
    }

    /// `minItems` and `maxItems` of an array of `count` elements (`got` gives the elements).
    /// A tuple that allows no elements past its own has their count as its `maxItems`
    /// (elements past it are reported once, as too many, not each as a value none fits).
    pub fn check_array_size(&mut self, count: usize, array: &ArraySchema, got: impl Fn() -> Value) {
        let count = count as u64;
        let max_items = array.most_items();
        if let Some(min) = array.min_items.filter(|&min| count < min) {
            let message = format!("{}, fewer than the minimum {min}", count_of(count, "item"));
            self.issue(Constraint::MinItems, message, Some(min.into()), Some(got()));
        }
        if let Some(max) = max_items.filter(|&max| count > max) {
            let message = format!("{}, more than the maximum {max}", count_of(count, "item"));
            self.issue(Constraint::MaxItems, message, Some(max.into()), Some(got()));
        }
    }

    /// A `uniqueItems` issue for the first pair of equal elements.
    pub fn check_unique(&mut self, values: &[Value]) {
        self.check_unique_at(values.iter().zip(0..));
    }

    /// [`Checker::check_unique`] for elements sent at the given indices. Equal elements are
    /// found in linear time: each is keyed by its canonical JSON text (numbers by value, so
    /// `1` and `1.0` are equal).
    pub fn check_unique_at<'v>(
        &mut self,
        values: impl Iterator<Item = (&'v Value, usize)> + Clone,
    ) {
        let repeat = if values.clone().nth(16).is_none() {
            // A few elements: compare pairs, nothing to allocate.
            let list: Vec<(&Value, usize)> = values.clone().collect();
            (1..list.len()).find_map(|second| {
                let (value, index) = list[second];
                list[..second]
                    .iter()
                    .find(|(earlier, _)| json_equal(earlier, value))
                    .map(|(_, first)| (*first, index))
            })
        } else {
            let mut first_at: std::collections::HashMap<String, usize> =
                std::collections::HashMap::new();
            values.clone().find_map(|(value, index)| {
                let key = canonical(value);
                match first_at.get(&key) {
                    Some(&first) => Some((first, index)),
                    None => {
                        first_at.insert(key, index);
                        None
                    }
                }
            })
        };
        if let Some((first, index)) = repeat {
            let message = format!("items [{first}] and [{index}] are equal");
            let got = Value::Array(values.map(|(v, _)| v.clone()).collect());
            self.issue(
                Constraint::UniqueItems,
                message,
                Some(Value::Bool(true)),
                Some(got),
            );
        }
    }

    /// Checks the wire name of an enum variant against the schema of its place (what
    /// derived enums call; the name is compared without building a JSON value).
    pub fn check_variant(&mut self, name: &str, schema: &'m Schema) {
        let Some(resolved) = self.resolve(schema) else {
            return;
        };
        let listed = match &resolved.kind {
            Kind::Enum(enumeration) => enumeration
                .values
                .iter()
                .any(|v| v.value.as_str() == Some(name)),
            _ => false,
        };
        if !listed || resolved.constant.is_some() {
            self.check_value(&Value::String(name.to_owned()), schema);
        }
    }

    /// Checks the members of a map against a `map` schema, in the order given.
    pub fn check_map<'v, T: ToolArg + 'v>(
        &mut self,
        entries: impl Iterator<Item = (&'v str, &'v T)> + Clone,
        schema: &'m Schema,
    ) {
        let Some(resolved) = self.resolve(schema) else {
            return;
        };
        let got = || {
            Value::Object(
                entries
                    .clone()
                    .map(|(k, v)| (k.to_owned(), v.to_json_value()))
                    .collect(),
            )
        };
        if !self.check_const(resolved, got) {
            return;
        }
        let map = match &resolved.kind {
            Kind::Map(map) => map,
            Kind::Any => return,
            kind => return self.type_issue(resolved, kind, got()),
        };
        for (key, value) in entries {
            self.check_key(key, map.property_names.as_deref());
            self.entry(key, &map.values, value);
        }
    }

    /// Checks a key against `propertyNames` (`keys`, when there is one): a key that fails it
    /// is one `propertyNames` issue at the key's path, whose message, `expected` and `got`
    /// come from the first keyword the key fails (`"colour" is not one of red, green`).
    pub fn check_key(&mut self, key: &str, keys: Option<&'m Schema>) {
        let Some(keys) = keys else { return };
        let name = Value::String(key.to_owned());
        if let Err(report) = self.model().check_against(keys, &name) {
            self.key_refused(key, &report);
        }
    }

    /// The `propertyNames` issue of `key`, which `report` (its check against the schema of
    /// keys) refused.
    pub(crate) fn key_refused(&mut self, key: &str, report: &crate::Report) {
        let name = Value::String(key.to_owned());
        if self.skip_when_full(Constraint::PropertyNames) {
            return;
        }
        let Some(first) = report.issues().first() else {
            return;
        };
        let message = format!(
            "the key {} is not allowed: {}",
            crate::issue::shorten(name.clone()),
            first.message
        );
        let expected = first.expected.clone();
        self.path_push_key(key);
        self.issue(
            Constraint::PropertyNames,
            message,
            expected,
            Some(crate::issue::shorten(name)),
        );
        self.path_pop();
    }
}

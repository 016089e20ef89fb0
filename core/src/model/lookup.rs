//! Lookup tables for wide objects and long enums: which field a key names (by wire name,
//! alias or folded name) and which value a string means (as sent, by alias or folded), in
//! constant time instead of a scan over the schema for every key or value.
//!
//! A tool's schema may come from someone else's server, and an object of 40,000 properties
//! checked key by key against every field is quadratic work per call (seconds). The tables
//! are built once per model, on first use, for every object of more than
//! [`SCANNED_FIELDS`] fields and every enum of more than [`SCANNED_VALUES`] values; smaller
//! ones are scanned (faster for the usual few).

use std::collections::HashMap;

use super::{Additional, EnumSchema, Kind, ObjectSchema, Schema, ToolModel};
use crate::suggest;

/// Objects with at most this many fields are scanned rather than indexed.
pub const SCANNED_FIELDS: usize = 16;

/// Enums with at most this many values are scanned rather than indexed.
pub const SCANNED_VALUES: usize = 16;

/// Which field (or enum value) a folded name means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldedMatch {
    /// Exactly one (by its name or an alias).
    One(usize),
    /// Several fold to this name: a tie, which `key_case` and `enum_case` never resolve.
    Tie,
}

fn insert_folded(folded: &mut HashMap<String, FoldedMatch>, name: &str, at: usize) {
    folded
        .entry(suggest::fold(name))
        .and_modify(|found| {
            if *found != FoldedMatch::One(at) {
                *found = FoldedMatch::Tie;
            }
        })
        .or_insert(FoldedMatch::One(at));
}

/// The tables of one object.
#[derive(Debug, Default)]
pub struct FieldIndex {
    /// Wire names and aliases → field.
    exact: HashMap<String, usize>,
    /// Folded wire names and aliases → field (or a tie).
    folded: HashMap<String, FoldedMatch>,
}

impl FieldIndex {
    fn of(object: &ObjectSchema) -> Self {
        let mut index = FieldIndex::default();
        for (at, field) in object.fields.iter().enumerate() {
            for name in std::iter::once(&field.name).chain(&field.aliases) {
                index.exact.entry(name.clone()).or_insert(at);
                insert_folded(&mut index.folded, name, at);
            }
        }
        index
    }

    /// The field whose wire name or alias is `key`.
    pub fn exact(&self, key: &str) -> Option<usize> {
        self.exact.get(key).copied()
    }

    /// The field whose folded wire name or alias equals `key` folded.
    pub fn folded(&self, key: &str) -> Option<FoldedMatch> {
        self.folded.get(&suggest::fold(key)).copied()
    }
}

/// The tables of one enum: its string values and their aliases.
#[derive(Debug, Default)]
pub struct EnumIndex {
    /// String values → value.
    strings: HashMap<String, usize>,
    /// Aliases → value.
    aliases: HashMap<String, usize>,
    /// Folded string values and aliases → value (or a tie).
    folded: HashMap<String, FoldedMatch>,
}

impl EnumIndex {
    fn of(enumeration: &EnumSchema) -> Self {
        let mut index = EnumIndex::default();
        for (at, value) in enumeration.values.iter().enumerate() {
            if let Some(text) = value.value.as_str() {
                index.strings.entry(text.to_owned()).or_insert(at);
                insert_folded(&mut index.folded, text, at);
            }
            for alias in &value.aliases {
                index.aliases.entry(alias.clone()).or_insert(at);
                insert_folded(&mut index.folded, alias, at);
            }
        }
        index
    }

    /// The value that is the string `text`.
    pub fn string(&self, text: &str) -> Option<usize> {
        self.strings.get(text).copied()
    }

    /// The value that has `text` as an alias.
    pub fn alias(&self, text: &str) -> Option<usize> {
        self.aliases.get(text).copied()
    }

    /// The value whose folded string or alias equals `text` folded.
    pub fn folded(&self, text: &str) -> Option<FoldedMatch> {
        self.folded.get(&suggest::fold(text)).copied()
    }
}

/// The tables of every wide object and long enum of a model, keyed by the part's address
/// inside the model (a model never changes after it is built: its parts are reachable only
/// by `&`).
#[derive(Debug, Default)]
pub(crate) struct Lookups {
    by_object: HashMap<usize, FieldIndex>,
    by_enum: HashMap<usize, EnumIndex>,
}

impl Lookups {
    pub(crate) fn of(model: &ToolModel) -> Self {
        let mut by_object = HashMap::new();
        let mut by_enum = HashMap::new();
        let mut pending: Vec<&Schema> = std::iter::once(model.input())
            .chain(model.definitions().values())
            .collect();
        while let Some(schema) = pending.pop() {
            match &schema.kind {
                Kind::Object(object) => {
                    if object.fields.len() > SCANNED_FIELDS {
                        by_object.insert(address(object), FieldIndex::of(object));
                    }
                    pending.extend(object.fields.iter().map(|f| &f.schema));
                    if let Additional::Schema(extra) = &object.additional {
                        pending.push(extra);
                    }
                }
                Kind::Array(array) => pending.extend(array.schemas()),
                Kind::Map(map) => pending.push(&map.values),
                Kind::Union(union) => pending.extend(&union.variants),
                Kind::Enum(enumeration) if enumeration.values.len() > SCANNED_VALUES => {
                    by_enum.insert(address(enumeration), EnumIndex::of(enumeration));
                }
                _ => {}
            }
        }
        Lookups { by_object, by_enum }
    }

    pub(crate) fn object(&self, object: &ObjectSchema) -> Option<&FieldIndex> {
        self.by_object.get(&address(object))
    }

    pub(crate) fn enumeration(&self, enumeration: &EnumSchema) -> Option<&EnumIndex> {
        self.by_enum.get(&address(enumeration))
    }
}

fn address<T>(part: &T) -> usize {
    part as *const T as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Field;

    #[test]
    fn indexes_wide_objects_with_ties() {
        let mut fields: Vec<Field> = (0..40)
            .map(|i| Field::required(format!("f{i}"), Schema::string()))
            .collect();
        fields.push(Field::optional("user_id", Schema::string()));
        fields.push(Field::optional("UserId", Schema::string()));
        let model = ToolModel::new("t", None, Schema::object(fields), Default::default());
        let indexes = Lookups::of(&model);
        let Kind::Object(object) = &model.input().kind else {
            unreachable!()
        };
        let index = indexes.object(object).expect("a wide object is indexed");
        assert_eq!(index.exact("f7"), Some(7));
        assert_eq!(index.exact("F7"), None);
        assert_eq!(index.folded("F7"), Some(FoldedMatch::One(7)));
        assert_eq!(index.folded("USER-ID"), Some(FoldedMatch::Tie));
    }
}

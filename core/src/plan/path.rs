//! One step along a path over the model: what the child at a key or an index of a value of
//! a schema is declared as. Everything that walks a path over the model takes its steps
//! here: [`ToolModel::schema_at`] (and so the retry hint), the runtime's `foreign` path
//! alignment and the repair loop's merge.

use crate::model::{Additional, Field, Kind, Schema, ToolModel};
use crate::path::Segment;
use crate::plan::KeyMatch;

/// What the child at one segment of a value is declared as (see [`ToolModel::step`]).
#[derive(Clone, Copy, Debug)]
pub enum Step<'m> {
    /// A field of an object, by its wire name or an alias (or, with folding, the one field
    /// the key folds to): its index among the object's fields, and the field.
    Field(usize, &'m Field),
    /// An undeclared key of an object whose undeclared keys have a schema
    /// (`additionalProperties`): that schema.
    Extra(&'m Schema),
    /// A member of a map: the schema of its values.
    MapValue(&'m Schema),
    /// An item of an array: its schema (`prefixItems`, else `items`).
    Item(&'m Schema),
    /// Nothing the schema declares: an undeclared key an object takes as it is or refuses, a
    /// key that folds to several fields, a segment of the other kind (an index into an
    /// object), a scalar, a union, a reference that leads nowhere.
    Undeclared,
}

impl<'m> Step<'m> {
    /// The schema of the child, where one is declared.
    pub fn schema(self) -> Option<&'m Schema> {
        match self {
            Step::Field(_, field) => Some(&field.schema),
            Step::Extra(schema) | Step::MapValue(schema) | Step::Item(schema) => Some(schema),
            Step::Undeclared => None,
        }
    }
}

impl ToolModel {
    /// What the child at `segment` of a value of `schema` (a schema of this model) is
    /// declared as: references followed, a key matched to a field by the model's one key
    /// rule ([`ToolModel::key_match`]; by folded name too where `folding`).
    ///
    /// ```
    /// use toolgate_core::model::{Field, Schema, ToolModel};
    /// use toolgate_core::path::Segment;
    /// use toolgate_core::plan::Step;
    ///
    /// let input = Schema::object(vec![Field::required("passengers", Schema::integer()).alias("pax")]);
    /// let model = ToolModel::new("t", None, input, Default::default());
    /// let key = |key: &str| Segment::Key(key.to_owned());
    /// assert!(matches!(model.step(model.input(), &key("pax"), false), Step::Field(0, _)));
    /// assert!(matches!(model.step(model.input(), &key("PAX"), false), Step::Undeclared));
    /// assert!(matches!(model.step(model.input(), &key("PAX"), true), Step::Field(0, _)));
    /// ```
    #[doc(hidden)]
    pub fn step<'m>(&'m self, schema: &'m Schema, segment: &Segment, folding: bool) -> Step<'m> {
        let Some(resolved) = self.resolve(schema) else {
            return Step::Undeclared;
        };
        match (&resolved.kind, segment) {
            (Kind::Object(object), Segment::Key(key)) => {
                match self.key_match(object, key, folding) {
                    KeyMatch::Exact(at) | KeyMatch::Folded(at) => {
                        Step::Field(at, &object.fields[at])
                    }
                    KeyMatch::Ambiguous | KeyMatch::Unknown => match &object.additional {
                        Additional::Schema(extra) => Step::Extra(extra),
                        _ => Step::Undeclared,
                    },
                }
            }
            (Kind::Map(map), Segment::Key(_)) => Step::MapValue(&map.values),
            (Kind::Array(array), Segment::Index(index)) => Step::Item(array.item_schema(*index)),
            _ => Step::Undeclared,
        }
    }
}

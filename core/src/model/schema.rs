//! The schema of one value ([`Schema`]) and its parts: the [`Kind`] of value with that
//! kind's constraints, bounds in exact numeric form, objects and their [`Field`]s, unions.

use serde_json::Value;

use super::{Format, Num, Pattern, ToolModel};

/// The schema of one value: what kind of value it is, with its constraints and annotations.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema {
    /// What kind of value, with the constraints of that kind.
    pub kind: Kind,
    /// Whether `null` is accepted too (JSON Schema `"type": [..., "null"]`).
    pub nullable: bool,
    /// What the value means, for the model.
    pub description: Option<String>,
    /// The value used when the field is absent.
    pub default: Option<Value>,
    /// Example values.
    pub examples: Vec<Value>,
    /// The one value allowed (`const`).
    pub constant: Option<Value>,
    /// Annotations kept as written, keyword and value, written back in this order after the
    /// other keywords: `title` (below the root), `$comment`, `deprecated`, `readOnly`,
    /// `writeOnly`, `contentMediaType`, `contentEncoding`, `contentSchema`, and a `format`
    /// the model does not know (see [`super::read::keywords`]). They constrain nothing.
    pub annotations: Vec<(String, Value)>,
}

/// The kinds of values the model describes.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Any JSON value.
    Any,
    /// No value at all: the `false` schema (written back as `{"not": {}}`).
    Never,
    /// Only `null`.
    Null,
    /// `true` or `false`.
    Boolean,
    /// A whole number, possibly of a fixed width.
    Integer(IntegerSchema),
    /// Any number.
    Number(NumberSchema),
    /// A string.
    String(StringSchema),
    /// One of a list of values.
    Enum(EnumSchema),
    /// A list of values of one schema.
    Array(ArraySchema),
    /// An object with any keys, all values of one schema.
    Map(MapSchema),
    /// An object with declared fields.
    Object(ObjectSchema),
    /// One of several schemas (`oneOf` / `anyOf`).
    Union(UnionSchema),
    /// The schema of that name in [`ToolModel::definitions`].
    Ref(String),
}

impl Kind {
    /// Whether `number` is a value of this kind as it is: a `number` within its bounds and
    /// `multipleOf`, or an `integer` that is integral and within them. `false` for any other
    /// kind. The one test of a number taken unchanged (the checker's, the typed reader's, a
    /// streamed call's).
    pub(crate) fn admits_number(&self, number: crate::num::Num) -> bool {
        let (bounds, multiple_of) = match self {
            Kind::Integer(integer) if number.is_integral() => {
                (&integer.bounds, integer.multiple_of)
            }
            Kind::Number(schema) => (&schema.bounds, schema.multiple_of),
            _ => return false,
        };
        bounds.admits(number) && multiple_of.is_none_or(|divisor| number.is_multiple_of(divisor))
    }

    /// The JSON Schema type name of this kind (`"object"` for maps, `None` for kinds that are
    /// not one type).
    pub fn type_name(&self) -> Option<&'static str> {
        Some(match self {
            Kind::Null => "null",
            Kind::Boolean => "boolean",
            Kind::Integer(_) => "integer",
            Kind::Number(_) => "number",
            Kind::String(_) => "string",
            Kind::Array(_) => "array",
            Kind::Map(_) | Kind::Object(_) => "object",
            Kind::Any | Kind::Never | Kind::Enum(_) | Kind::Union(_) | Kind::Ref(_) => return None,
        })
    }

    /// The schemas directly inside this kind, every one, in the plan's order: an array's
    /// `prefixItems` then `items`; a map's values then `propertyNames`; an object's fields,
    /// its `additionalProperties` schema, then `propertyNames`; a union's alternatives. A
    /// reference's body is not inside it (it is a definition). Every walk over a model's
    /// schemas (counting and renaming references, writing, `schema_text`) takes its
    /// children from here, so none misses one (issue 43 §8).
    ///
    /// ```
    /// use toolgate_core::model::ToolModel;
    ///
    /// let model = ToolModel::from_json_schema(r#"{"type": "object",
    ///     "additionalProperties": {"type": "integer"}, "propertyNames": {"maxLength": 3}}"#).unwrap();
    /// assert_eq!(model.input().kind.children().len(), 2);
    /// ```
    pub fn children(&self) -> Vec<&Schema> {
        match self {
            Kind::Array(array) => array.schemas().collect(),
            Kind::Map(map) => std::iter::once(&*map.values)
                .chain(map.property_names.as_deref())
                .collect(),
            Kind::Object(object) => {
                let mut inside: Vec<&Schema> = object.fields.iter().map(|f| &f.schema).collect();
                if let Additional::Schema(extra) = &object.additional {
                    inside.push(extra);
                }
                inside.extend(object.property_names.as_deref());
                inside
            }
            Kind::Union(union) => union.variants.iter().collect(),
            _ => Vec::new(),
        }
    }

    /// [`Kind::children`], to change them.
    pub fn children_mut(&mut self) -> Vec<&mut Schema> {
        match self {
            Kind::Array(array) => array.schemas_mut().collect(),
            Kind::Map(map) => std::iter::once(&mut *map.values)
                .chain(map.property_names.as_deref_mut())
                .collect(),
            Kind::Object(object) => {
                let mut inside: Vec<&mut Schema> =
                    object.fields.iter_mut().map(|f| &mut f.schema).collect();
                if let Additional::Schema(extra) = &mut object.additional {
                    inside.push(extra);
                }
                inside.extend(object.property_names.as_deref_mut());
                inside
            }
            Kind::Union(union) => union.variants.iter_mut().collect(),
            _ => Vec::new(),
        }
    }
}

/// Lower and upper bounds of a number.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bounds {
    /// `minimum`: the value is at least this.
    pub minimum: Option<Num>,
    /// `maximum`: the value is at most this.
    pub maximum: Option<Num>,
    /// `exclusiveMinimum`: the value is above this.
    pub exclusive_minimum: Option<Num>,
    /// `exclusiveMaximum`: the value is below this.
    pub exclusive_maximum: Option<Num>,
}

impl Bounds {
    /// Whether `value` is within every bound set (a NaN or an infinity is within none).
    ///
    /// ```
    /// use toolgate_core::model::Bounds;
    /// use toolgate_core::num::Num;
    ///
    /// let bounds = Bounds { minimum: Some(Num::Int(1)), exclusive_maximum: Some(Num::Float(9.5)), ..Bounds::default() };
    /// assert!(bounds.admits(Num::Int(9)) && !bounds.admits(Num::Float(9.5)));
    /// assert!(!bounds.admits(Num::Float(f64::NAN)) && Bounds::default().admits(Num::Float(f64::NAN)));
    /// ```
    pub fn admits(&self, value: Num) -> bool {
        let none = self.minimum.is_none()
            && self.maximum.is_none()
            && self.exclusive_minimum.is_none()
            && self.exclusive_maximum.is_none();
        none || (value.is_finite()
            && self.minimum.is_none_or(|bound| value >= bound)
            && self.maximum.is_none_or(|bound| value <= bound)
            && self.exclusive_minimum.is_none_or(|bound| value > bound)
            && self.exclusive_maximum.is_none_or(|bound| value < bound))
    }

    /// Sets `minimum` and `maximum` from a width's range where they are not written: a
    /// width is a range too.
    ///
    /// No bound is set that says nothing the gate does not hold already (issue 43 §8): a
    /// side an exclusive bound holds within the range (`exclusiveMinimum: 5` on a `u8` has
    /// no `minimum: 0` beside it), and an edge of the integers every road carries
    /// ([`crate::num::is_carried_edge`]: `i64`'s minimum, `u64`'s maximum, both of `i128`'s),
    /// past which every integer is refused whatever the schema says.
    pub fn fill_range(&mut self, range: Option<(Num, Num)>) {
        if let Some((low, high)) = range {
            let held = |edge: Num, exclusive: Option<Num>, holds: fn(Num, Num) -> bool| {
                crate::num::is_carried_edge(edge) || exclusive.is_some_and(|b| holds(b, edge))
            };
            if !held(low, self.exclusive_minimum, |bound, edge| bound >= edge) {
                self.minimum.get_or_insert(low);
            }
            if !held(high, self.exclusive_maximum, |bound, edge| bound <= edge) {
                self.maximum.get_or_insert(high);
            }
        }
    }
}

/// The fixed width of an integer type; its range is a constraint too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntWidth {
    /// Number of bits: 8, 16, 32, 64 or 128.
    pub bits: u8,
    /// Whether negative values exist.
    pub signed: bool,
}

impl IntWidth {
    /// The JSON Schema `format` name: `int8` … `int128`, `uint8` … `uint128`.
    pub fn format_name(self) -> String {
        format!("{}int{}", if self.signed { "" } else { "u" }, self.bits)
    }

    /// Reads a `format` name written by [`IntWidth::format_name`].
    pub fn from_format_name(name: &str) -> Option<IntWidth> {
        let (signed, bits) = match name.strip_prefix('u') {
            Some(rest) => (false, rest.strip_prefix("int")?),
            None => (true, name.strip_prefix("int")?),
        };
        let bits = bits
            .parse()
            .ok()
            .filter(|b| [8, 16, 32, 64, 128].contains(b))?;
        Some(IntWidth { bits, signed })
    }

    /// The smallest and largest value of the Rust type, as an `i128` holds them (`u128`'s
    /// cut at `i128::MAX`): what a bound written for the type must be within.
    ///
    /// ```
    /// use toolgate_core::model::IntWidth;
    /// assert_eq!(IntWidth { bits: 8, signed: true }.type_range(), (-128, 127));
    /// assert_eq!(IntWidth { bits: 128, signed: false }.type_range(), (0, i128::MAX));
    /// ```
    pub fn type_range(self) -> (i128, i128) {
        let bits = u32::from(self.bits);
        match (self.signed, bits) {
            (true, 128) => (i128::MIN, i128::MAX),
            (false, 128) => (0, i128::MAX),
            (true, _) => (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1),
            (false, _) => (0, (1i128 << bits) - 1),
        }
    }

    /// The smallest and largest value of the type that toolgate carries: the type's range,
    /// a 128-bit type's cut to [`crate::num::CARRIED_INTEGERS`] (an integer beyond it is
    /// refused whatever the width). It is the range a width puts in the bounds, so no
    /// written schema states a bound the gate does not hold (`i128` is
    /// `-9223372036854775808..=18446744073709551615`, not `±1.7014118346046923e+38`).
    ///
    /// ```
    /// use toolgate_core::model::IntWidth;
    /// use toolgate_core::num::Num;
    /// let (low, high) = IntWidth { bits: 128, signed: false }.range();
    /// assert_eq!((low, high), (Num::Int(0), Num::Int(u64::MAX as i128)));
    /// ```
    pub fn range(self) -> (Num, Num) {
        let (low, high) = self.type_range();
        let carried = crate::num::CARRIED_INTEGERS;
        (
            Num::Int(low.max(*carried.start())),
            Num::Int(high.min(*carried.end())),
        )
    }
}

/// The fixed width of a float type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatWidth {
    /// `f32`, written as `"format": "float"` where asked for, range ±3.4028235e38.
    F32,
    /// `f64`, written as `"format": "double"` where asked for.
    F64,
}

impl FloatWidth {
    /// The JSON Schema `format` name.
    pub fn format_name(self) -> &'static str {
        match self {
            FloatWidth::F32 => "float",
            FloatWidth::F64 => "double",
        }
    }

    /// The finite range of the type, where it narrows JSON's numbers (`f32` only).
    pub fn range(self) -> Option<(Num, Num)> {
        match self {
            FloatWidth::F32 => Some((Num::from(f32::MIN), Num::from(f32::MAX))),
            FloatWidth::F64 => None,
        }
    }
}

/// Constraints of an integer.
///
/// Equal when they check the same values and write the same schema: a width that is not
/// written (see [`IntegerSchema::width_format`]) is the Rust type's business, not the
/// schema's, so a derived `u8` equals its schema read back, whose integer has no width.
#[derive(Clone, Debug, Default)]
pub struct IntegerSchema {
    /// The Rust width, if the value goes into one.
    pub width: Option<IntWidth>,
    /// Whether the written schema names the width as its `format` (`"format": "uint8"`).
    /// Only where someone asked for it: the schema's text named it (the schema compiler and
    /// the run-time road), a field said `#[tool(format = "uint8")]`, or the tool said
    /// `#[tool(width_formats)]` (schemars' convention). A width taken from a Rust type alone
    /// is not written: its range is in the bounds already, and strict providers drop it.
    pub width_format: bool,
    /// Bounds (the width's range is already folded into `minimum`/`maximum`).
    pub bounds: Bounds,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
}

/// Constraints of a number (equal as [`IntegerSchema`]s are).
#[derive(Clone, Debug, Default)]
pub struct NumberSchema {
    /// The Rust width, if the value goes into one.
    pub width: Option<FloatWidth>,
    /// Whether the written schema names the width as its `format` (`"format": "float"`):
    /// as [`IntegerSchema::width_format`].
    pub width_format: bool,
    /// Bounds.
    pub bounds: Bounds,
    /// `multipleOf`.
    pub multiple_of: Option<Num>,
}

impl IntegerSchema {
    /// The width the written schema names as its `format`: the width when
    /// [`IntegerSchema::width_format`] asks for it, `None` otherwise.
    pub fn written_width(&self) -> Option<IntWidth> {
        self.width.filter(|_| self.width_format)
    }
}

impl NumberSchema {
    /// The width the written schema names as its `format` (see
    /// [`IntegerSchema::written_width`]).
    pub fn written_width(&self) -> Option<FloatWidth> {
        self.width.filter(|_| self.width_format)
    }
}

impl PartialEq for IntegerSchema {
    fn eq(&self, other: &Self) -> bool {
        self.written_width() == other.written_width()
            && self.bounds == other.bounds
            && self.multiple_of == other.multiple_of
    }
}

impl PartialEq for NumberSchema {
    fn eq(&self, other: &Self) -> bool {
        self.written_width() == other.written_width()
            && self.bounds == other.bounds
            && self.multiple_of == other.multiple_of
    }
}

/// Constraints of a string.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StringSchema {
    /// `minLength`, in characters (Unicode scalar values).
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `pattern`: a regular expression the string must contain a match of.
    pub pattern: Option<Pattern>,
    /// `format`.
    pub format: Option<Format>,
}

impl StringSchema {
    /// Whether `value` passes every constraint: its length, the pattern (one that does not
    /// compile passes none), the format. What [`crate::Checker::check_string`] tells at once
    /// before it says which failed.
    ///
    /// ```
    /// use toolgate_core::model::{Kind, Schema};
    ///
    /// let schema = Schema::string().pattern("^[A-Z]{3}$").max_length(3);
    /// let Kind::String(string) = &schema.kind else { unreachable!() };
    /// assert!(string.admits("CDG") && !string.admits("Paris"));
    /// ```
    pub fn admits(&self, value: &str) -> bool {
        self.length_within(value)
            && self
                .pattern
                .as_ref()
                .is_none_or(|pattern| pattern.is_match(value) == Some(true))
            && self.format.is_none_or(|format| format.matches(value))
    }

    /// Whether `value`'s length, in characters, is within `minLength` and `maxLength`.
    pub fn length_within(&self, value: &str) -> bool {
        if self.min_length.is_none() && self.max_length.is_none() {
            return true;
        }
        let length = value.chars().count() as u64;
        self.min_length.is_none_or(|min| length >= min)
            && self.max_length.is_none_or(|max| length <= max)
    }
}

/// One allowed value of an enum, with the other spellings accepted for it.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumValue {
    /// The value, as sent on the wire.
    pub value: Value,
    /// Other spellings accepted (serde `alias`), strings only.
    pub aliases: Vec<String>,
}

/// The allowed values of an enum.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EnumSchema {
    /// The values, in declaration order.
    pub values: Vec<EnumValue>,
}

impl EnumSchema {
    /// Whether `value` is one of the values (numbers compare by value).
    pub fn contains(&self, value: &Value) -> bool {
        self.values
            .iter()
            .any(|v| crate::values::json_equal(&v.value, value))
    }

    /// The values as JSON.
    pub fn value_list(&self) -> Vec<Value> {
        self.values.iter().map(|v| v.value.clone()).collect()
    }
}

/// A list of values, or a tuple: the first elements each with its own schema
/// (`prefixItems`), the rest with `items`.
#[derive(Clone, Debug, PartialEq)]
pub struct ArraySchema {
    /// The schemas of the first elements, in order (`prefixItems`; draft-07's array form of
    /// `items`); empty for a plain list. Like JSON Schema's, they do not make the elements
    /// required: `minItems` does.
    pub prefix_items: Vec<Schema>,
    /// The schema of every element after `prefix_items` (of every element of a plain list);
    /// [`Kind::Never`], JSON Schema's `false`, where no more elements are allowed.
    pub items: Box<Schema>,
    /// `minItems`.
    pub min_items: Option<u64>,
    /// `maxItems`.
    pub max_items: Option<u64>,
    /// `uniqueItems`.
    pub unique_items: bool,
}

impl ArraySchema {
    /// The most items the array takes: `maxItems`, or a tuple's length where it allows no
    /// element past its own, whichever is less.
    pub fn most_items(&self) -> Option<u64> {
        let tuple_max = self.tuple_length().map(|length| length as u64);
        match (self.max_items, tuple_max) {
            (Some(max), Some(tuple)) => Some(max.min(tuple)),
            (max, tuple) => max.or(tuple),
        }
    }

    /// Whether an array of `count` items is within `minItems` and [`ArraySchema::most_items`].
    pub fn admits_size(&self, count: usize) -> bool {
        let count = count as u64;
        self.min_items.is_none_or(|min| count >= min)
            && self.most_items().is_none_or(|max| count <= max)
    }

    /// The schema of the element at `index`.
    pub fn item_schema(&self, index: usize) -> &Schema {
        self.prefix_items.get(index).unwrap_or(&self.items)
    }

    /// How many elements the array may hold when `items` allows none past the prefix.
    pub fn tuple_length(&self) -> Option<usize> {
        matches!(self.items.kind, Kind::Never).then_some(self.prefix_items.len())
    }

    /// The element schemas: the prefix, then `items`.
    pub fn schemas(&self) -> impl Iterator<Item = &Schema> {
        self.prefix_items
            .iter()
            .chain(std::iter::once(&*self.items))
    }

    /// The element schemas, to change: the prefix, then `items`.
    pub fn schemas_mut(&mut self) -> impl Iterator<Item = &mut Schema> {
        self.prefix_items
            .iter_mut()
            .chain(std::iter::once(&mut *self.items))
    }
}

/// An object with free keys.
#[derive(Clone, Debug, PartialEq)]
pub struct MapSchema {
    /// The schema of every value.
    pub values: Box<Schema>,
    /// `propertyNames`: the schema of every key, a string (see [`ObjectSchema::property_names`]).
    pub property_names: Option<Box<Schema>>,
}

/// What an object does with keys it does not declare.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Additional {
    /// Allowed (JSON Schema's default). Typed tools drop them with a log entry; dynamic
    /// tools keep them.
    #[default]
    Allow,
    /// Refused with an `additionalProperties` issue (serde's `deny_unknown_fields`).
    Deny,
    /// Allowed when they match this schema.
    Schema(Box<Schema>),
}

/// An object with declared fields.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectSchema {
    /// The fields, in declaration order.
    pub fields: Vec<Field>,
    /// What happens to other keys.
    pub additional: Additional,
    /// `propertyNames`: the schema every key (declared or not) must meet, a string schema
    /// (`pattern`, `minLength`/`maxLength`, `format`, `enum`...). `None` when it constrains
    /// nothing: the reader leaves out a `propertyNames` that any string meets. A key that
    /// fails it is a `propertyNames` issue at the key's path; a key is never repaired to meet
    /// it (only `key_case` renames keys, towards declared fields).
    pub property_names: Option<Box<Schema>>,
}

impl ObjectSchema {
    /// The field with this wire name.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|field| field.name == name)
    }
}

/// One field of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// The wire name.
    pub name: String,
    /// The Rust name, when it differs from the wire name.
    pub rust_name: Option<String>,
    /// Other wire names accepted (serde `alias`).
    pub aliases: Vec<String>,
    /// Whether the field must be present.
    pub required: bool,
    /// The field's value.
    pub schema: Schema,
}

/// How a union picks its alternative.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnionMode {
    /// `oneOf`: exactly one alternative matches.
    OneOf,
    /// `anyOf`: at least one alternative matches.
    AnyOf,
}

/// One of several schemas.
#[derive(Clone, Debug, PartialEq)]
pub struct UnionSchema {
    /// `oneOf` or `anyOf`.
    pub mode: UnionMode,
    /// The alternatives, in order.
    pub variants: Vec<Schema>,
}

impl UnionSchema {
    /// The discriminator of a tagged union: a required field of every alternative with a
    /// `const` string value, distinct across alternatives (alternatives that are references
    /// are followed through `model`). Untagged unions give `None`.
    pub fn tag<'s>(&'s self, model: &'s ToolModel) -> Option<&'s str> {
        let object = |variant: &'s Schema| match &model.resolve(variant)?.kind {
            Kind::Object(object) => Some(object),
            _ => None,
        };
        let first = object(self.variants.first()?)?;
        'candidates: for candidate in &first.fields {
            let mut seen = Vec::new();
            for variant in &self.variants {
                let object = object(variant)?;
                match object.field(&candidate.name) {
                    Some(field) if field.required => match &field.schema.constant {
                        Some(Value::String(tag)) if !seen.contains(&tag) => seen.push(tag),
                        _ => continue 'candidates,
                    },
                    _ => continue 'candidates,
                }
            }
            return Some(&candidate.name);
        }
        None
    }
}

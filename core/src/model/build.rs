//! Building models by hand or from generated code: constructors and chained setters on
//! [`Schema`] and [`Field`]. Named types are collected by [`super::Definitions`].

use serde_json::Value;

use super::*;

impl Schema {
    /// A schema of this kind with no annotations.
    pub fn new(kind: Kind) -> Self {
        Schema {
            kind,
            nullable: false,
            description: None,
            default: None,
            examples: Vec::new(),
            constant: None,
            annotations: Vec::new(),
        }
    }

    /// Any JSON value.
    pub fn any() -> Self {
        Self::new(Kind::Any)
    }

    /// `true` or `false`.
    pub fn boolean() -> Self {
        Self::new(Kind::Boolean)
    }

    /// Any whole number.
    pub fn integer() -> Self {
        Self::new(Kind::Integer(IntegerSchema::default()))
    }

    /// A whole number of a Rust width, its range as `minimum`/`maximum`.
    pub fn integer_of(width: IntWidth) -> Self {
        let mut bounds = Bounds::default();
        bounds.fill_range(Some(width.range()));
        Self::new(Kind::Integer(IntegerSchema {
            width: Some(width),
            width_format: false,
            bounds,
            multiple_of: None,
        }))
    }

    /// Any number.
    pub fn number() -> Self {
        Self::new(Kind::Number(NumberSchema::default()))
    }

    /// A number of a Rust float width (`f32` also bounds the range).
    pub fn number_of(width: FloatWidth) -> Self {
        let mut bounds = Bounds::default();
        bounds.fill_range(width.range());
        Self::new(Kind::Number(NumberSchema {
            width: Some(width),
            width_format: false,
            bounds,
            multiple_of: None,
        }))
    }

    /// Any string.
    pub fn string() -> Self {
        Self::new(Kind::String(StringSchema::default()))
    }

    /// One of these values.
    pub fn enumeration(values: Vec<EnumValue>) -> Self {
        Self::new(Kind::Enum(EnumSchema { values }))
    }

    /// Only `null` (`{"type": "null"}`): the schema of `()`.
    pub fn null() -> Self {
        Self::new(Kind::Null)
    }

    /// A list of `items`.
    pub fn array(items: Schema) -> Self {
        Self::new(Kind::Array(ArraySchema {
            prefix_items: Vec::new(),
            items: Box::new(items),
            min_items: None,
            max_items: None,
            unique_items: false,
        }))
    }

    /// A tuple: exactly these elements, in order (`prefixItems` with `items: false` and
    /// `minItems`), the schema of a Rust tuple.
    ///
    /// ```
    /// # use toolgate_core::model::Schema;
    /// let pair = Schema::tuple(vec![Schema::string(), Schema::integer()]);
    /// assert_eq!(
    ///     pair.to_json_value(),
    ///     serde_json::json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false, "minItems": 2})
    /// );
    /// ```
    pub fn tuple(elements: Vec<Schema>) -> Self {
        let length = elements.len() as u64;
        Self::new(Kind::Array(ArraySchema {
            prefix_items: elements,
            items: Box::new(Schema::new(Kind::Never)),
            min_items: Some(length),
            max_items: None,
            unique_items: false,
        }))
    }

    /// An object with free keys, values of `values`.
    pub fn map(values: Schema) -> Self {
        Self::new(Kind::Map(MapSchema {
            values: Box::new(values),
            property_names: None,
        }))
    }

    /// An object with these fields; other keys allowed.
    pub fn object(fields: Vec<Field>) -> Self {
        Self::new(Kind::Object(ObjectSchema {
            fields,
            additional: Additional::Allow,
            property_names: None,
        }))
    }

    /// One of `variants`: `oneOf` (exactly one matches) or `anyOf` (at least one).
    ///
    /// ```
    /// use toolgate_core::model::{Schema, UnionMode};
    ///
    /// let id = Schema::union(UnionMode::AnyOf, vec![Schema::string(), Schema::integer()]);
    /// assert_eq!(id.to_json_value(), serde_json::json!({"anyOf": [{"type": "string"}, {"type": "integer"}]}));
    /// ```
    pub fn union(mode: UnionMode, variants: Vec<Schema>) -> Self {
        Self::new(Kind::Union(UnionSchema { mode, variants }))
    }

    /// Sets the one value allowed (`const`).
    pub fn with_constant(mut self, value: Value) -> Self {
        self.constant = Some(value);
        self
    }

    /// A reference to the named schema in the model's definitions.
    pub fn reference(name: impl Into<String>) -> Self {
        Self::new(Kind::Ref(name.into()))
    }

    /// Sets the description (an empty one clears it).
    pub fn with_description(mut self, description: impl Into<String>) -> Self {
        let description = description.into();
        self.description = (!description.is_empty()).then_some(description);
        self
    }

    /// Sets the description to the empty text: a schema's `"description": ""`, kept as
    /// written ([`Schema::with_description`] clears it).
    pub fn with_empty_description(mut self) -> Self {
        self.description = Some(String::new());
        self
    }

    /// Adds annotations, keyword and value, in order (see [`Schema::annotations`]): what a
    /// generated type's `#[tool(annotations = "...")]` keeps of its schema (`title`,
    /// `$comment`, `deprecated`, an unknown `format`...).
    pub fn with_annotations(mut self, annotations: Vec<(String, Value)>) -> Self {
        for (key, value) in annotations {
            // A keyword given again (a field's `title` over its type's) replaces the one
            // held, in its place: a schema writes each keyword once.
            match self.annotations.iter_mut().find(|(held, _)| *held == key) {
                Some((_, held)) => *held = value,
                None => self.annotations.push((key, value)),
            }
        }
        self
    }

    /// Sets the default value.
    pub fn with_default(mut self, default: Value) -> Self {
        self.default = Some(default);
        self
    }

    /// Adds an example value.
    pub fn with_example(mut self, example: Value) -> Self {
        self.examples.push(example);
        self
    }

    /// Accepts `null` too (`any` and `null` schemas accept it already and stay as they are).
    pub fn nullable(mut self) -> Self {
        self.nullable = !matches!(self.kind, Kind::Any | Kind::Null);
        self
    }

    /// Refuses keys the object does not declare (serde's `deny_unknown_fields`).
    /// Only objects have fields; on other kinds this changes nothing.
    pub fn deny_unknown_fields(mut self) -> Self {
        if let Kind::Object(object) = &mut self.kind {
            object.additional = Additional::Deny;
        }
        self
    }

    fn bounds_mut(&mut self) -> Option<&mut Bounds> {
        match &mut self.kind {
            Kind::Integer(integer) => Some(&mut integer.bounds),
            Kind::Number(number) => Some(&mut number.bounds),
            _ => None,
        }
    }

    fn string_mut(&mut self) -> Option<&mut StringSchema> {
        match &mut self.kind {
            Kind::String(string) => Some(string),
            _ => None,
        }
    }

    fn array_mut(&mut self) -> Option<&mut ArraySchema> {
        match &mut self.kind {
            Kind::Array(array) => Some(array),
            _ => None,
        }
    }

    /// Sets `minimum` on a number or integer (replacing a width's own bound).
    /// The number and string setters below change nothing on kinds they do not fit; the
    /// derive refuses such combinations at compile time.
    pub fn minimum(mut self, bound: impl Into<Num>) -> Self {
        if let Some(bounds) = self.bounds_mut() {
            bounds.minimum = Some(bound.into());
        }
        self
    }

    /// Sets `maximum` on a number or integer (replacing a width's own bound).
    pub fn maximum(mut self, bound: impl Into<Num>) -> Self {
        if let Some(bounds) = self.bounds_mut() {
            bounds.maximum = Some(bound.into());
        }
        self
    }

    /// Sets `exclusiveMinimum` on a number or integer. A width's own `minimum` that the
    /// bound holds already is taken out (a `u8` above 5 writes no `minimum: 0`), as
    /// [`Bounds::fill_range`] leaves it out when the bound comes first.
    pub fn exclusive_minimum(mut self, bound: impl Into<Num>) -> Self {
        // (A carried edge is never a width's own bound: one there was set, and stays.)
        let width_low = self.width_range().map(|(low, _)| low);
        let width_low = width_low.filter(|edge| !crate::num::is_carried_edge(*edge));
        if let Some(bounds) = self.bounds_mut() {
            let bound = bound.into();
            bounds.exclusive_minimum = Some(bound);
            if bounds.minimum.is_some() && bounds.minimum == width_low && width_low <= Some(bound) {
                bounds.minimum = None;
            }
        }
        self
    }

    /// Sets `exclusiveMaximum` on a number or integer (a width's own `maximum` it holds
    /// already is taken out, as with [`Schema::exclusive_minimum`]).
    pub fn exclusive_maximum(mut self, bound: impl Into<Num>) -> Self {
        let width_high = self.width_range().map(|(_, high)| high);
        let width_high = width_high.filter(|edge| !crate::num::is_carried_edge(*edge));
        if let Some(bounds) = self.bounds_mut() {
            let bound = bound.into();
            bounds.exclusive_maximum = Some(bound);
            if bounds.maximum.is_some() && bounds.maximum == width_high && Some(bound) <= width_high
            {
                bounds.maximum = None;
            }
        }
        self
    }

    /// The range of the Rust width of a number or integer, if it has one.
    fn width_range(&self) -> Option<(Num, Num)> {
        match &self.kind {
            Kind::Integer(integer) => integer.width.map(IntWidth::range),
            Kind::Number(number) => number.width.and_then(FloatWidth::range),
            _ => None,
        }
    }

    /// Sets `multipleOf` on a number or integer.
    pub fn multiple_of(mut self, divisor: impl Into<Num>) -> Self {
        let divisor = Some(divisor.into());
        match &mut self.kind {
            Kind::Integer(integer) => integer.multiple_of = divisor,
            Kind::Number(number) => number.multiple_of = divisor,
            _ => {}
        }
        self
    }

    /// Sets `minLength` on a string or `minItems` on an array.
    pub fn min_length(mut self, length: u64) -> Self {
        if let Some(string) = self.string_mut() {
            string.min_length = Some(length);
        } else if let Some(array) = self.array_mut() {
            array.min_items = Some(length);
        }
        self
    }

    /// Sets `maxLength` on a string or `maxItems` on an array.
    pub fn max_length(mut self, length: u64) -> Self {
        if let Some(string) = self.string_mut() {
            string.max_length = Some(length);
        } else if let Some(array) = self.array_mut() {
            array.max_items = Some(length);
        }
        self
    }

    /// Sets `pattern` on a string.
    pub fn pattern(mut self, pattern: &str) -> Self {
        if let Some(string) = self.string_mut() {
            string.pattern = Some(Pattern::new(pattern));
        }
        self
    }

    /// Sets `format` on a string.
    pub fn format(mut self, format: Format) -> Self {
        if let Some(string) = self.string_mut() {
            string.format = Some(format);
        }
        self
    }

    /// Writes a number's Rust width as its `format` (`"format": "int32"`, `"double"`):
    /// `#[tool(format = "int32")]` on an `i32` field. Without it, a derived schema says the
    /// range by its bounds alone (see [`IntegerSchema::width_format`]).
    pub fn width_format(mut self) -> Self {
        name_width(&mut self.kind);
        self
    }

    /// [`Schema::width_format`] on this schema and every schema inside it.
    pub fn width_formats(mut self) -> Self {
        let mut pending = vec![&mut self];
        while let Some(schema) = pending.pop() {
            name_width(&mut schema.kind);
            pending.extend(schema.kind.children_mut());
        }
        self
    }

    /// Sets `uniqueItems` on an array.
    pub fn unique_items(mut self) -> Self {
        if let Some(array) = self.array_mut() {
            array.unique_items = true;
        }
        self
    }

    /// Changes the schema of an array's elements.
    pub fn items(mut self, change: impl FnOnce(Schema) -> Schema) -> Self {
        if let Some(array) = self.array_mut() {
            let items = std::mem::replace(&mut *array.items, Schema::any());
            *array.items = change(items);
        }
        self
    }

    /// Changes the schema of a map's values.
    ///
    /// ```
    /// use toolgate_core::model::Schema;
    ///
    /// let scores = Schema::map(Schema::integer()).values(|v| v.minimum(0));
    /// assert_eq!(
    ///     scores.to_json_value(),
    ///     serde_json::json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}})
    /// );
    /// ```
    pub fn values(mut self, change: impl FnOnce(Schema) -> Schema) -> Self {
        if let Kind::Map(map) = &mut self.kind {
            let values = std::mem::replace(&mut *map.values, Schema::any());
            *map.values = change(values);
        }
        self
    }

    /// Changes the schema of a map's keys (`propertyNames`; a plain string schema to start
    /// from): what `#[tool(keys(...))]` makes of a map field.
    ///
    /// ```
    /// use toolgate_core::model::Schema;
    ///
    /// let scores = Schema::map(Schema::integer()).keys(|keys| keys.pattern("^[a-z]+$"));
    /// assert_eq!(
    ///     scores.to_json_value(),
    ///     serde_json::json!({"type": "object", "additionalProperties": {"type": "integer"},
    ///         "propertyNames": {"type": "string", "pattern": "^[a-z]+$"}})
    /// );
    /// ```
    pub fn keys(mut self, change: impl FnOnce(Schema) -> Schema) -> Self {
        let keys = match &mut self.kind {
            Kind::Map(map) => &mut map.property_names,
            Kind::Object(object) => &mut object.property_names,
            _ => return self,
        };
        let current = keys.take().map_or_else(Schema::string, |keys| *keys);
        *keys = Some(Box::new(change(current)));
        self
    }

    /// Allows only these values (JSON Schema's `enum`), keeping the annotations: what
    /// `#[tool(enum_values = [...])]` makes of a number, string or bool field.
    ///
    /// ```
    /// use toolgate_core::model::Schema;
    ///
    /// let sides = Schema::integer().with_enum(vec![4.into(), 6.into(), 20.into()]);
    /// assert_eq!(sides.to_json_value(), serde_json::json!({"type": "integer", "enum": [4, 6, 20]}));
    /// ```
    pub fn with_enum(mut self, values: Vec<Value>) -> Self {
        let values = values
            .into_iter()
            .map(|value| EnumValue {
                value,
                aliases: Vec::new(),
            })
            .collect();
        self.kind = Kind::Enum(EnumSchema { values });
        self
    }

    /// Allows keys the object does not declare when their values fit `values` (JSON
    /// Schema's `additionalProperties` with a schema): what a `#[serde(flatten)]` map field
    /// makes of its struct. Only objects have fields; on other kinds this changes nothing.
    ///
    /// ```
    /// use toolgate_core::model::{Field, Schema};
    ///
    /// let labels = Schema::object(vec![Field::required("title", Schema::string())])
    ///     .additional(Schema::string());
    /// assert_eq!(
    ///     labels.to_json_value()["additionalProperties"],
    ///     serde_json::json!({"type": "string"})
    /// );
    /// ```
    pub fn additional(mut self, values: Schema) -> Self {
        if let Kind::Object(object) = &mut self.kind {
            object.additional = Additional::Schema(Box::new(values));
        }
        self
    }
}

impl EnumValue {
    /// A string value with no aliases.
    pub fn new(value: impl Into<String>) -> Self {
        EnumValue {
            value: Value::String(value.into()),
            aliases: Vec::new(),
        }
    }

    /// Adds another accepted spelling.
    pub fn alias(mut self, alias: impl Into<String>) -> Self {
        self.aliases.push(alias.into());
        self
    }
}

impl Field {
    /// A field that must be present.
    pub fn required(name: impl Into<String>, schema: Schema) -> Self {
        Field {
            name: name.into(),
            rust_name: None,
            aliases: Vec::new(),
            required: true,
            schema,
        }
    }

    /// A field that may be absent.
    pub fn optional(name: impl Into<String>, schema: Schema) -> Self {
        Field {
            required: false,
            ..Field::required(name, schema)
        }
    }

    /// Records the Rust name (kept only when it differs from the wire name).
    pub fn rust_name(mut self, rust_name: impl Into<String>) -> Self {
        let rust_name = rust_name.into();
        self.rust_name = (rust_name != self.name).then_some(rust_name);
        self
    }

    /// Adds another accepted wire name.
    pub fn alias(mut self, alias: impl Into<String>) -> Self {
        self.aliases.push(alias.into());
        self
    }
}

/// Marks a number's width, if it has one, to be written as its `format`.
fn name_width(kind: &mut Kind) {
    match kind {
        Kind::Integer(integer) => integer.width_format = integer.width.is_some(),
        Kind::Number(number) => number.width_format = number.width.is_some(),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_bound_integers() {
        let Kind::Integer(u8_schema) = Schema::integer_of(IntWidth {
            bits: 8,
            signed: false,
        })
        .kind
        else {
            panic!()
        };
        assert_eq!(u8_schema.bounds.minimum, Some(Num::Int(0)));
        assert_eq!(u8_schema.bounds.maximum, Some(Num::Int(255)));
        let (min, max) = IntWidth {
            bits: 64,
            signed: true,
        }
        .range();
        assert_eq!((min, max), (Num::from(i64::MIN), Num::from(i64::MAX)));
        assert_eq!(
            IntWidth::from_format_name("uint16"),
            Some(IntWidth {
                bits: 16,
                signed: false
            })
        );
        assert_eq!(IntWidth::from_format_name("int7"), None);
    }

    #[test]
    fn setters_fit_their_kinds() {
        let schema = Schema::string().min_length(2).max_length(3).pattern("^a");
        let Kind::String(string) = &schema.kind else {
            panic!()
        };
        assert_eq!((string.min_length, string.max_length), (Some(2), Some(3)));
        let schema = Schema::array(Schema::string())
            .max_length(5)
            .unique_items()
            .items(|s| s.max_length(40));
        let Kind::Array(array) = &schema.kind else {
            panic!()
        };
        assert_eq!(array.max_items, Some(5));
        assert!(array.unique_items);
        assert_eq!(array.items.kind, Schema::string().max_length(40).kind);
        assert_eq!(
            Field::required("a", Schema::any()).rust_name("a").rust_name,
            None
        );
    }
}

//! Reading the keywords of each kind: enums, the typed schemas (`integer`, `string`, ...),
//! objects and their fields.

use super::*;

impl Reader {
    /// The element schemas of an array: the tuple's (`prefixItems`, or draft-07's array form
    /// of `items`) and the rest's (`items`, or draft-07's `additionalItems`; any value when
    /// absent).
    fn array_elements(&mut self, m: &mut Members<'_>, pointer: &str) -> (Vec<Schema>, Schema) {
        let schemas = |this: &mut Self, list: &[Json], key: &str| -> Vec<Schema> {
            list.iter()
                .enumerate()
                .map(|(index, item)| this.schema(item, &format!("{pointer}/{key}/{index}"), &[]))
                .collect()
        };
        let prefix = match m.take("prefixItems") {
            Some(Json::Array(list)) => Some(schemas(self, list, "prefixItems")),
            Some(_) => {
                self.error(
                    &format!("{pointer}/prefixItems"),
                    "`prefixItems` must be an array of schemas",
                );
                None
            }
            None => None,
        };
        let rest = |this: &mut Self, json: Option<&Json>, key: &str| match json {
            Some(json) => this.schema(json, &format!("{pointer}/{key}"), &[]),
            None => Schema::any(),
        };
        match (prefix, m.take("items")) {
            (Some(_), Some(Json::Array(_))) => {
                self.error(
                    &format!("{pointer}/items"),
                    "`items` is an array (draft-07's tuple) beside `prefixItems` (2020-12's): write one of them",
                );
                (Vec::new(), Schema::any())
            }
            (None, Some(Json::Array(list))) => {
                let prefix = schemas(self, list, "items");
                let additional = m.take("additionalItems");
                (prefix, rest(self, additional, "additionalItems"))
            }
            (prefix, items) => {
                if m.take("additionalItems").is_some() {
                    self.warnings.push(
                        &format!("{pointer}/additionalItems"),
                        "additionalItems",
                        WarningKind::Inapplicable,
                        || {
                            "`additionalItems` applies only beside an array of `items` (draft-07's tuple); here it constrains nothing".to_owned()
                        },
                    );
                }
                (prefix.unwrap_or_default(), rest(self, items, "items"))
            }
        }
    }

    pub(super) fn enumeration(
        &mut self,
        m: &mut Members<'_>,
        values: &Json,
        type_names: &[String],
        pointer: &str,
    ) -> Schema {
        let Json::Array(values) = values else {
            self.error(&format!("{pointer}/enum"), "`enum` must be an array");
            return Schema::any();
        };
        let mut nullable = false;
        let mut enumeration = EnumSchema::default();
        // A value written twice (`["a", "a"]`, `[1, 1.0]`) is one value: `enum` is a set, so
        // the model holds each value once, the first spelling (issue 27 §9, G3: the schema
        // compiler would write two variants of one wire name). Repeats are found by each
        // value's canonical text, in linear time: a list of 100,000 values is read at once,
        // not compared pair by pair.
        let mut seen = std::collections::HashSet::new();
        for value in values {
            match value {
                Json::Null => nullable = true,
                other => {
                    let value = other.to_value();
                    if seen.insert(crate::values::canonical(&value)) {
                        enumeration.values.push(EnumValue {
                            value,
                            aliases: Vec::new(),
                        });
                    }
                }
            }
        }
        // A value `type` rules out can never be valid: the schema contradicts itself. The
        // values that fit are kept (none: the empty `enum`, which refuses every value).
        let fits = |value: &EnumValue| {
            let declared = super::write::enum_type(std::slice::from_ref(value));
            type_names.is_empty()
                || declared.is_some_and(|declared| {
                    type_names
                        .iter()
                        .any(|name| name == declared || (name == "number" && declared == "integer"))
                })
        };
        // An integral float is an integer to JSON Schema (`5.0`, `9.223372036854775808e18`):
        // at an `integer`, it is that integer (issue 27 §1).
        let integers_only = type_names.iter().any(|name| name == "integer")
            && !type_names.iter().any(|name| name == "number");
        if integers_only {
            for value in &mut enumeration.values {
                if let Some(integer) = integral_float(&value.value) {
                    value.value = integer;
                }
            }
        }
        let (kept, ruled_out): (Vec<EnumValue>, Vec<EnumValue>) =
            std::mem::take(&mut enumeration.values)
                .into_iter()
                .partition(|value| fits(value));
        enumeration.values = kept;
        if !ruled_out.is_empty() {
            self.contradiction(
                pointer,
                type_names,
                &ruled_out,
                enumeration.values.is_empty(),
            );
        }
        match m.take("x-enum-aliases") {
            Some(Json::Object(aliases)) => {
                for (value, names) in aliases {
                    let at = format!("{pointer}/x-enum-aliases/{}", escape_pointer_token(value));
                    let target = enumeration
                        .values
                        .iter_mut()
                        .find(|v| v.value.as_str() == Some(value.as_str()));
                    match (target, names) {
                        (Some(target), Json::Array(names))
                            if names.iter().all(|n| n.as_str().is_some()) =>
                        {
                            target.aliases = names
                                .iter()
                                .filter_map(|n| n.as_str().map(str::to_owned))
                                .collect();
                        }
                        (None, _) => {
                            self.error(&at, format!("{value:?} is not one of the `enum` values"))
                        }
                        _ => self.error(&at, "aliases must be an array of strings"),
                    }
                }
            }
            Some(_) => self.error(
                &format!("{pointer}/x-enum-aliases"),
                "`x-enum-aliases` must be an object",
            ),
            None => {}
        }
        let schema = Schema::new(Kind::Enum(enumeration));
        if nullable {
            schema.nullable()
        } else {
            schema
        }
    }

    /// Reports `enum` values that `type` rules out.
    fn contradiction(
        &mut self,
        pointer: &str,
        type_names: &[String],
        ruled_out: &[EnumValue],
        none_left: bool,
    ) {
        let at = format!("{pointer}/enum");
        self.warnings
            .push(&at, "enum", WarningKind::Contradiction, || {
                let shown: Vec<String> = ruled_out
                    .iter()
                    .take(crate::values::LISTED_VALUES)
                    .map(|v| v.value.to_string())
                    .collect();
                let more = ruled_out.len().saturating_sub(shown.len());
                let more = if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                };
                let consequence = if none_left {
                    "no value fits: the value refuses whatever is sent for it"
                } else {
                    "only the other values are accepted"
                };
                format!(
                    "`type` {} contradicts the `enum` values {}{more}: {consequence}",
                    type_names.join(", "),
                    shown.join(", ")
                )
            });
    }

    /// `format` on a number or integer that names no width: an annotation (JSON Schema
    /// 2020-12), kept and reported.
    fn format_annotation(&mut self, name: String, type_name: &str, pointer: &str) -> Value {
        self.warnings.push(
            &format!("{pointer}/format"),
            "format",
            WarningKind::UnknownFormat,
            || format!("unknown {type_name} format {name:?}: kept as an annotation, not checked"),
        );
        Value::String(name)
    }

    pub(super) fn typed(&mut self, m: &mut Members<'_>, type_name: &str, pointer: &str) -> Schema {
        let mut annotation = None;
        let kind = match type_name {
            "null" => Kind::Null,
            "boolean" => Kind::Boolean,
            "integer" => {
                let width = self.string(m, "format", pointer).and_then(|name| {
                    let width = IntWidth::from_format_name(&name);
                    if width.is_none() {
                        // `int7`, `uint12`: a width the model cannot hold is a range it
                        // cannot check. Any other name is an annotation.
                        let digits = name.strip_prefix('u').unwrap_or(&name);
                        let sized = digits.strip_prefix("int").is_some_and(|bits| {
                            !bits.is_empty() && bits.bytes().all(|b| b.is_ascii_digit())
                        });
                        if sized {
                            self.error(
                                &format!("{pointer}/format"),
                                format!("unknown integer format {name:?}"),
                            );
                        } else {
                            annotation = Some(self.format_annotation(name, "integer", pointer));
                        }
                    }
                    width
                });
                let mut bounds = self.bounds(m, pointer);
                bounds.fill_range(width.map(IntWidth::range));
                Kind::Integer(IntegerSchema {
                    width,
                    width_format: width.is_some(),
                    bounds,
                    multiple_of: self.multiple_of(m, pointer),
                })
            }
            "number" => {
                let width =
                    self.string(m, "format", pointer)
                        .and_then(|name| match name.as_str() {
                            "float" => Some(FloatWidth::F32),
                            "double" => Some(FloatWidth::F64),
                            _ => {
                                annotation = Some(self.format_annotation(name, "number", pointer));
                                None
                            }
                        });
                let mut bounds = self.bounds(m, pointer);
                bounds.fill_range(width.and_then(FloatWidth::range));
                Kind::Number(NumberSchema {
                    width,
                    width_format: width.is_some(),
                    bounds,
                    multiple_of: self.multiple_of(m, pointer),
                })
            }
            "string" => {
                let pattern = self
                    .string(m, "pattern", pointer)
                    .map(|source| self.patterns.compile(source));
                if let Some(pattern) = &pattern {
                    if let Some(error) = pattern.error() {
                        self.error(
                            &format!("{pointer}/pattern"),
                            format!("the pattern {:?} cannot be used: {error}", pattern.as_str()),
                        );
                    }
                }
                let format = self.string(m, "format", pointer).and_then(|name| {
                    let format = Format::from_name(&name);
                    if format.is_none() {
                        // `"json"`, `"textarea"`: an annotation in JSON Schema 2020-12.
                        annotation = Some(self.format_annotation(name, "string", pointer));
                    }
                    format
                });
                Kind::String(StringSchema {
                    min_length: self.count(m, "minLength", pointer),
                    max_length: self.count(m, "maxLength", pointer),
                    pattern,
                    format,
                })
            }
            "array" => {
                let (prefix_items, items) = self.array_elements(m, pointer);
                Kind::Array(ArraySchema {
                    prefix_items,
                    items: Box::new(items),
                    min_items: self.count(m, "minItems", pointer),
                    max_items: self.count(m, "maxItems", pointer),
                    unique_items: match m.take("uniqueItems") {
                        Some(Json::Bool(unique)) => *unique,
                        Some(_) => {
                            self.error(
                                &format!("{pointer}/uniqueItems"),
                                "`uniqueItems` must be a boolean",
                            );
                            false
                        }
                        None => false,
                    },
                })
            }
            "object" => self.object(m, pointer),
            other => {
                self.error(
                    &format!("{pointer}/type"),
                    format!("unknown type {other:?}"),
                );
                Kind::Any
            }
        };
        let mut schema = Schema::new(kind);
        if let Some(format) = annotation {
            schema.annotations.push(("format".to_owned(), format));
        }
        schema
    }

    fn object(&mut self, m: &mut Members<'_>, pointer: &str) -> Kind {
        let additional = match m.take("additionalProperties") {
            None | Some(Json::Bool(true)) => Additional::Allow,
            Some(Json::Bool(false)) => Additional::Deny,
            Some(schema) => Additional::Schema(Box::new(self.schema(
                schema,
                &format!("{pointer}/additionalProperties"),
                &[],
            ))),
        };
        let property_names = m
            .take("propertyNames")
            .and_then(|keys| self.property_names(keys, &format!("{pointer}/propertyNames")));
        if !m.has("properties") && !m.has("required") {
            if let Additional::Schema(values) = additional {
                return Kind::Map(MapSchema {
                    values,
                    property_names,
                });
            }
        }
        let mut fields = Vec::new();
        match m.take("properties") {
            Some(Json::Object(properties)) => {
                for (name, property) in properties {
                    let at = format!("{pointer}/properties/{}", escape_pointer_token(name));
                    fields.push(self.field(name, property, &at));
                }
            }
            Some(_) => self.error(
                &format!("{pointer}/properties"),
                "`properties` must be an object",
            ),
            None => {}
        }
        match m.take("required") {
            Some(Json::Array(names)) => {
                // Field positions by name: a wide schema is read in linear time.
                let mut position: std::collections::HashMap<String, usize> = fields
                    .iter()
                    .enumerate()
                    .map(|(at, field)| (field.name.clone(), at))
                    .collect();
                for (index, name) in names.iter().enumerate() {
                    let at = format!("{pointer}/required/{index}");
                    let Some(name) = name.as_str() else {
                        self.error(&at, "`required` must be an array of names");
                        continue;
                    };
                    match position.get(name) {
                        Some(&at) => fields[at].required = true,
                        // Required but not declared: present, with any value.
                        None => {
                            position.insert(name.to_owned(), fields.len());
                            fields.push(Field::required(name, Schema::any()));
                        }
                    }
                }
            }
            Some(_) => self.error(
                &format!("{pointer}/required"),
                "`required` must be an array of names",
            ),
            None => {}
        }
        Kind::Object(ObjectSchema {
            fields,
            additional,
            property_names,
        })
    }

    /// `propertyNames`: keys are strings, so a schema without `type` (`{"enum": [...]}`,
    /// `{"pattern": "..."}`) is read as a string schema; one that every string meets
    /// (`{"type": "string"}`, `true`) constrains nothing and gives `None`.
    fn property_names(&mut self, keys: &Json, pointer: &str) -> Option<Box<Schema>> {
        let keys = match keys {
            Json::Object(members) if !members.iter().any(|(key, _)| is_type_or_union(key)) => {
                let mut typed = vec![("type".to_owned(), Json::String("string".into()))];
                typed.extend(members.iter().cloned());
                self.schema(&Json::Object(typed), pointer, &[])
            }
            other => self.schema(other, pointer, &[]),
        };
        let plain = Schema {
            description: None,
            annotations: Vec::new(),
            examples: Vec::new(),
            ..keys.clone()
        };
        (plain != Schema::string() && plain != Schema::any()).then(|| Box::new(keys))
    }

    fn field(&mut self, name: &str, property: &Json, pointer: &str) -> Field {
        let mut field = Field::optional(name, Schema::any());
        let mut aliases = None;
        let mut rust_name = None;
        if let Json::Object(members) = property {
            // The field's own `x-` keywords; the rest is the value's schema.
            let mut rest = Vec::new();
            for (key, value) in members {
                match (key.as_str(), value) {
                    ("x-aliases", Json::Array(names))
                        if names.iter().all(|n| n.as_str().is_some()) =>
                    {
                        aliases = Some(
                            names
                                .iter()
                                .filter_map(|n| n.as_str().map(str::to_owned))
                                .collect(),
                        );
                    }
                    ("x-rust-name", Json::String(rust)) => rust_name = Some(rust.clone()),
                    ("x-aliases" | "x-rust-name", _) => self.error(
                        &format!("{pointer}/{key}"),
                        format!(
                            "`{key}` must be {}",
                            if key == "x-aliases" {
                                "an array of strings"
                            } else {
                                "a string"
                            }
                        ),
                    ),
                    _ => rest.push((key.clone(), value.clone())),
                }
            }
            field.schema = self.schema(&Json::Object(rest), pointer, &[]);
        } else {
            field.schema = self.schema(property, pointer, &[]);
        }
        field.aliases = aliases.unwrap_or_default();
        field.rust_name = rust_name;
        field
    }
}

/// Keywords that give a schema its type or its alternatives.
fn is_type_or_union(key: &str) -> bool {
    matches!(
        key,
        "type" | "$ref" | "anyOf" | "oneOf" | "allOf" | "not" | "const"
    )
}

/// An integral float as the integer it is, where a `serde_json::Value` holds it (`i64`,
/// `u64`); `None` for any other value.
fn integral_float(value: &serde_json::Value) -> Option<serde_json::Value> {
    let number = value.as_number().filter(|n| n.is_f64())?;
    let float = number
        .as_f64()
        .filter(|f| f.fract() == 0.0 && f.abs() < 2f64.powi(64))?;
    // Exact: an integral float below 2^64 is an integer of at most 64 bits.
    let integer = Num::from_i128(float as i128);
    integer
        .to_json()
        .filter(|n| n.is_i64() || n.is_u64())
        .map(serde_json::Value::Number)
}

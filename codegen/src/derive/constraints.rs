//! Constraints: checked against the field's [`Shape`], then held as [`Setter`]s — the calls
//! on `toolgate::model::Schema` that apply them. The same setters build the schema the derive
//! checks `example`s against at expansion time and the tokens of the generated code, so the
//! two cannot drift apart.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, ToTokens};
use serde_json::Value;
use toolgate_core::format::Format;
use toolgate_core::model::{FloatWidth, IntWidth, Schema};

use super::attrs::{error_at, ListArg, NumberLiteral, RawConstraints, RawRange};
use super::shape::Shape;

mod enum_values;

/// A number as the setters take it.
#[derive(Clone, Copy, Debug)]
pub enum Bound {
    Int(i128),
    Float(f64),
}

impl Bound {
    fn of(literal: &NumberLiteral) -> Bound {
        literal
            .integer
            .map_or(Bound::Float(literal.value), Bound::Int)
    }

    fn num(self) -> toolgate_core::num::Num {
        match self {
            Bound::Int(value) => toolgate_core::num::Num::from(value),
            Bound::Float(value) => toolgate_core::num::Num::from(value),
        }
    }
}

impl ToTokens for Bound {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        let (negative, literal) = match *self {
            Bound::Int(value) => (
                value < 0,
                Literal::i128_suffixed(value.unsigned_abs() as i128),
            ),
            Bound::Float(value) => (value < 0.0, Literal::f64_suffixed(value.abs())),
        };
        tokens.extend(if negative {
            quote!(-#literal)
        } else {
            quote!(#literal)
        });
    }
}

/// One call on `Schema`.
#[derive(Clone, Debug)]
pub enum Setter {
    Minimum(Bound),
    Maximum(Bound),
    ExclusiveMinimum(Bound),
    ExclusiveMaximum(Bound),
    MultipleOf(Bound),
    MinLength(u64),
    MaxLength(u64),
    Pattern(String),
    Format(Format),
    /// `format = "int32"` on an `i32` (the type's own width): write the width as `format`.
    WidthFormat,
    UniqueItems,
    Items(Vec<Setter>),
    Values(Vec<Setter>),
    /// `keys(...)`: the schema of a map's keys (`propertyNames`).
    Keys(Vec<Setter>),
    /// `enum_values`: replaces the value's kind, so it comes after the others.
    Enum(Vec<Value>),
    Constant(Value),
    /// Only inside `items(...)` and `values(...)`: a field's description is the field's.
    Description(String),
    /// Only inside `items(...)` and `values(...)`: `annotations = "..."`, a checked JSON
    /// object (a field's are the field's).
    Annotations(String),
}

/// Applies the setters to a schema (what the generated code does at run time).
pub fn apply(schema: Schema, setters: &[Setter]) -> Schema {
    setters.iter().fold(schema, |schema, setter| match setter {
        Setter::Minimum(bound) => schema.minimum(bound.num()),
        Setter::Maximum(bound) => schema.maximum(bound.num()),
        Setter::ExclusiveMinimum(bound) => schema.exclusive_minimum(bound.num()),
        Setter::ExclusiveMaximum(bound) => schema.exclusive_maximum(bound.num()),
        Setter::MultipleOf(bound) => schema.multiple_of(bound.num()),
        Setter::MinLength(length) => schema.min_length(*length),
        Setter::MaxLength(length) => schema.max_length(*length),
        Setter::Pattern(pattern) => schema.pattern(pattern),
        Setter::Format(format) => schema.format(*format),
        Setter::WidthFormat => schema.width_format(),
        Setter::UniqueItems => schema.unique_items(),
        Setter::Items(inner) => schema.items(|items| apply(items, inner)),
        Setter::Values(inner) => schema.values(|values| apply(values, inner)),
        Setter::Keys(inner) => schema.keys(|keys| apply(keys, inner)),
        Setter::Enum(values) => schema.with_enum(values.clone()),
        Setter::Constant(value) => schema.with_constant(value.clone()),
        // `description = ""` is kept as written (`with_description` clears an empty one).
        Setter::Description(text) if text.is_empty() => schema.with_empty_description(),
        Setter::Description(text) => schema.with_description(text),
        Setter::Annotations(text) => {
            schema.with_annotations(toolgate_core::model::annotation_members(text))
        }
    })
}

/// The setters as chained calls.
pub fn tokens(setters: &[Setter]) -> TokenStream {
    let mut calls = TokenStream::new();
    for setter in setters {
        calls.extend(match setter {
            Setter::Minimum(bound) => quote!(.minimum(#bound)),
            Setter::Maximum(bound) => quote!(.maximum(#bound)),
            Setter::ExclusiveMinimum(bound) => quote!(.exclusive_minimum(#bound)),
            Setter::ExclusiveMaximum(bound) => quote!(.exclusive_maximum(#bound)),
            Setter::MultipleOf(bound) => quote!(.multiple_of(#bound)),
            Setter::MinLength(length) => quote!(.min_length(#length)),
            Setter::MaxLength(length) => quote!(.max_length(#length)),
            Setter::Pattern(pattern) => quote!(.pattern(#pattern)),
            Setter::Format(format) => {
                let variant = format_ident!("{}", format!("{format:?}"));
                quote!(.format(::toolgate::model::Format::#variant))
            }
            Setter::WidthFormat => quote!(.width_format()),
            Setter::UniqueItems => quote!(.unique_items()),
            Setter::Items(inner) => {
                let inner = tokens(inner);
                quote!(.items(|items| items #inner))
            }
            Setter::Values(inner) => {
                let inner = tokens(inner);
                quote!(.values(|values| values #inner))
            }
            Setter::Keys(inner) => {
                let inner = tokens(inner);
                quote!(.keys(|keys| keys #inner))
            }
            Setter::Enum(values) => {
                let values = values.iter().map(super::literals::json);
                quote!(.with_enum(::std::vec::Vec::from([#(#values),*])))
            }
            Setter::Constant(value) => {
                let value = super::literals::json(value);
                quote!(.with_constant(#value))
            }
            Setter::Description(text) if text.is_empty() => quote!(.with_empty_description()),
            Setter::Description(text) => quote!(.with_description(#text)),
            Setter::Annotations(text) => {
                quote!(.with_annotations(::toolgate::__private::annotations(#text)))
            }
        });
    }
    calls
}

/// The schema values of `shape` have before constraints (types toolgate cannot see into are
/// `any`): what the example check starts from.
pub fn base_schema(shape: &Shape) -> Schema {
    match shape {
        Shape::Bool => Schema::boolean(),
        Shape::Integer { bits, signed } => Schema::integer_of(IntWidth {
            bits: *bits,
            signed: *signed,
        }),
        Shape::Float { bits: 32 } => Schema::number_of(FloatWidth::F32),
        Shape::Float { .. } => Schema::number_of(FloatWidth::F64),
        Shape::String => Schema::string(),
        Shape::Option(inner) => base_schema(inner).nullable(),
        Shape::Box(inner) => base_schema(inner),
        Shape::Array(inner) => Schema::array(base_schema(inner)),
        Shape::Map(values) => Schema::map(base_schema(values)),
        Shape::Null => Schema::null(),
        Shape::Any | Shape::Named => Schema::any(),
    }
}

/// Compares two literals exactly (as integers when both are).
fn greater(a: &NumberLiteral, b: &NumberLiteral) -> bool {
    match (a.integer, b.integer) {
        (Some(a), Some(b)) => a > b,
        _ => a.value > b.value,
    }
}

fn at_least(a: &NumberLiteral, b: &NumberLiteral) -> bool {
    match (a.integer, b.integer) {
        (Some(a), Some(b)) => a >= b,
        _ => a.value >= b.value,
    }
}

/// The range of an integer type, `u128`'s cut at `i128::MAX` (a larger literal is refused
/// when read: [`toolgate_core::model::IntWidth::type_range`]).
pub fn integer_range(bits: u8, signed: bool) -> (i128, i128) {
    toolgate_core::model::IntWidth { bits, signed }.type_range()
}

/// The `format` that names a number's Rust width (`"int32"`, `"uint8"`, `"double"`).
fn width_format_name(shape: &Shape) -> Option<String> {
    match shape {
        Shape::Integer { bits, signed } => {
            Some(format!("{}int{bits}", if *signed { "" } else { "u" }))
        }
        Shape::Float { bits: 32 } => Some("float".to_owned()),
        Shape::Float { .. } => Some("double".to_owned()),
        _ => None,
    }
}

fn type_name(bits: u8, signed: bool) -> String {
    format!("{}{bits}", if signed { 'i' } else { 'u' })
}

/// Checks constraints against a shape and turns them into setters; every error goes to
/// `errors`, at the tokens it is about.
pub struct Planner<'e> {
    pub errors: &'e mut darling::error::Accumulator,
}

impl Planner<'_> {
    fn bound_fits(&mut self, literal: &NumberLiteral, shape: &Shape, key: &str) -> bool {
        match shape {
            Shape::Integer { bits, signed } => {
                let Some(value) = literal.whole() else {
                    self.errors.push(error_at(
                        &literal.expr,
                        format!(
                            "`{key}` of an integer field must be an integer, not {}",
                            literal.text()
                        ),
                    ));
                    return false;
                };
                let (min, max) = integer_range(*bits, *signed);
                if value < min || value > max {
                    let name = type_name(*bits, *signed);
                    self.errors.push(error_at(
                        &literal.expr,
                        format!("{value} is outside the range of `{name}` ({min}..={max})"),
                    ));
                    return false;
                }
                true
            }
            Shape::Float { bits: 32 } if literal.value.abs() > f64::from(f32::MAX) => {
                let message = format!(
                    "{} is outside the range of `f32` (-3.4028235e38..=3.4028235e38)",
                    literal.text()
                );
                self.errors.push(error_at(&literal.expr, message));
                false
            }
            _ => true,
        }
    }

    fn misfit(&mut self, key: &syn::Path, applies_to: &str, shape: &Shape, element_fits: bool) {
        let name = key.get_ident().map(ToString::to_string).unwrap_or_default();
        let mut message = format!(
            "`{name}` applies to {applies_to}, but this is {}",
            shape.describe()
        );
        if element_fits {
            message.push_str(&format!(
                "; to constrain each element, write `items({name} ...)`"
            ));
        }
        self.errors.push(error_at(key, message));
    }

    fn range(&mut self, range: &ListArg<RawRange>, shape: &Shape, exclusive: bool) -> bool {
        let key = if exclusive {
            "exclusive_range"
        } else {
            "range"
        };
        let RawRange { min, max } = &range.value;
        if min.is_none() && max.is_none() {
            self.errors.push(error_at(
                &range.meta,
                format!("`{key}` needs `min`, `max` or both"),
            ));
            return false;
        }
        let mut fits = true;
        for bound in min.iter().chain(max) {
            fits &= self.bound_fits(bound, shape, key);
        }
        if let (Some(min), Some(max)) = (min, max) {
            let empty = if exclusive {
                at_least(min, max)
            } else {
                greater(min, max)
            };
            if empty {
                let relation = if exclusive {
                    "not below"
                } else {
                    "greater than"
                };
                let message = format!(
                    "`{key}`: min ({}) is {relation} max ({}), so no value fits",
                    min.text(),
                    max.text()
                );
                self.errors.push(error_at(&range.meta, message));
                fits = false;
            }
        }
        fits
    }

    /// For integers, whether any value is left between all the bounds.
    fn integers_left(&mut self, constraints: &RawConstraints, bits: u8, signed: bool) {
        let integer = |bound: &Option<NumberLiteral>| bound.as_ref().and_then(|b| b.whole());
        let (mut low, mut high) = integer_range(bits, signed);
        if let Some(range) = &constraints.range {
            low = low.max(integer(&range.value.min).unwrap_or(low));
            high = high.min(integer(&range.value.max).unwrap_or(high));
        }
        if let Some(range) = &constraints.exclusive_range {
            low = low.max(integer(&range.value.min).map_or(low, |m| m.saturating_add(1)));
            high = high.min(integer(&range.value.max).map_or(high, |m| m.saturating_sub(1)));
            if low > high {
                let (min, max) = integer_range(bits, signed);
                let name = type_name(bits, signed);
                let message = format!("no `{name}` fits these bounds: within `{name}`'s own range ({min}..={max}) they leave nothing");
                self.errors.push(error_at(&range.meta, message));
            }
        }
    }

    fn length(&mut self, length: &ListArg<RawRange>) -> Option<(Option<u64>, Option<u64>)> {
        let RawRange { min, max } = &length.value;
        if min.is_none() && max.is_none() {
            self.errors.push(error_at(
                &length.meta,
                "`length` needs `min`, `max` or both",
            ));
            return None;
        }
        let mut count = |literal: &Option<NumberLiteral>| -> Result<Option<u64>, ()> {
            let Some(literal) = literal else {
                return Ok(None);
            };
            match literal.integer.and_then(|n| u64::try_from(n).ok()) {
                Some(count) => Ok(Some(count)),
                None => {
                    let message = format!(
                        "`length` counts characters or elements: {} is not a whole number ≥ 0",
                        literal.text()
                    );
                    self.errors.push(error_at(&literal.expr, message));
                    Err(())
                }
            }
        };
        let (low, high) = (count(min), count(max));
        let (Ok(low), Ok(high)) = (low, high) else {
            return None;
        };
        if let (Some(low), Some(high)) = (low, high) {
            if low > high {
                self.errors.push(error_at(
                    &length.meta,
                    format!("`length`: min ({low}) is greater than max ({high}), so no value fits"),
                ));
                return None;
            }
        }
        Some((low, high))
    }

    /// Checks `constraints` on a value of `shape` (through `Option` and `Box`) and returns
    /// the setters that apply them.
    pub fn plan(&mut self, constraints: &RawConstraints, shape: &Shape) -> Vec<Setter> {
        let value = shape.value();
        let element = match value {
            Shape::Array(element) => Some(element.value()),
            _ => None,
        };
        let is_number =
            |shape: &Shape| matches!(shape, Shape::Integer { .. } | Shape::Float { .. });
        let is_string = |shape: &Shape| matches!(shape, Shape::String);
        let mut setters = Vec::new();
        // The exclusive bounds are set first: one takes out the width's own bound it holds
        // already (`Schema::exclusive_minimum`), and an inclusive bound written beside it is
        // then set, and kept.
        let mut inclusive = Vec::new();
        let ranges = [
            (&constraints.range, false),
            (&constraints.exclusive_range, true),
        ];
        for (range, exclusive) in ranges {
            let Some(range) = range else { continue };
            if !is_number(value) {
                self.misfit(&range.key, "numbers", value, element.is_some_and(is_number));
            } else if self.range(range, value, exclusive) {
                let (low, high) = (
                    range.value.min.as_ref().map(Bound::of),
                    range.value.max.as_ref().map(Bound::of),
                );
                if exclusive {
                    setters.extend(
                        low.map(Setter::ExclusiveMinimum)
                            .into_iter()
                            .chain(high.map(Setter::ExclusiveMaximum)),
                    );
                } else {
                    inclusive.extend(
                        low.map(Setter::Minimum)
                            .into_iter()
                            .chain(high.map(Setter::Maximum)),
                    );
                }
            }
        }
        setters.append(&mut inclusive);
        if let Shape::Integer { bits, signed } = value {
            self.integers_left(constraints, *bits, *signed);
        }
        if let Some(divisor) = &constraints.multiple_of {
            if !is_number(value) {
                self.misfit(
                    &divisor.key,
                    "numbers",
                    value,
                    element.is_some_and(is_number),
                );
            } else if divisor.value.value <= 0.0 {
                self.errors.push(error_at(
                    &divisor.value.expr,
                    "`multiple_of` must be greater than 0",
                ));
            } else if (matches!(value, Shape::Integer { .. }) && divisor.value.whole().is_none())
                || self.bound_fits(&divisor.value, value, "multiple_of")
            {
                // A divisor that is not a whole number is taken on an integer field as on
                // a float one (`multiple_of = 0.5`: every integer passes; `1.5`: the
                // multiples of 3): JSON Schema allows it, and a generated type keeps its
                // schema's `multipleOf` exactly (issue 27 §5).
                setters.push(Setter::MultipleOf(Bound::of(&divisor.value)));
            }
        }
        if let Some(length) = &constraints.length {
            if !matches!(value, Shape::String | Shape::Array(_)) {
                self.misfit(&length.key, "strings and arrays", value, false);
            } else if let Some((low, high)) = self.length(length) {
                setters.extend(
                    low.map(Setter::MinLength)
                        .into_iter()
                        .chain(high.map(Setter::MaxLength)),
                );
            }
        }
        if let Some(pattern) = &constraints.pattern {
            if !is_string(value) {
                self.misfit(
                    &pattern.key,
                    "strings",
                    value,
                    element.is_some_and(is_string),
                );
            } else if let Some(error) = toolgate_core::model::Pattern::new(pattern.value.value())
                .error()
                .map(str::to_owned)
            {
                // The same compiler, with the same limits, as the run time's.
                self.errors.push(error_at(
                    &pattern.value,
                    format!("the pattern cannot be used: {error}"),
                ));
            } else {
                setters.push(Setter::Pattern(pattern.value.value()));
            }
        }
        if let Some(format) = &constraints.format {
            let named_width = width_format_name(value)
                .filter(|_| Format::from_name(&format.value.value()).is_none());
            if let Some(width) = named_width {
                // A number's format is its Rust width, written only when asked for.
                if format.value.value() == width {
                    setters.push(Setter::WidthFormat);
                } else {
                    self.errors.push(error_at(
                        &format.value,
                        format!(
                            "a number's `format` names its Rust width, here {width:?} \
                             (without it, the schema's bounds say the range)"
                        ),
                    ));
                }
            } else if !is_string(value) {
                self.misfit(
                    &format.key,
                    "strings",
                    value,
                    element.is_some_and(is_string),
                );
            } else {
                match Format::from_name(&format.value.value()) {
                    Some(known) => setters.push(Setter::Format(known)),
                    None => {
                        let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
                        let mut message = format!(
                            "unknown format {:?}; toolgate checks {}",
                            format.value.value(),
                            names.join(", ")
                        );
                        if let Some(near) = toolgate_core::suggest::nearest(
                            &format.value.value(),
                            names.iter().copied(),
                        ) {
                            message.push_str(&format!(" (did you mean {near:?}?)"));
                        }
                        self.errors.push(error_at(&format.value, message));
                    }
                }
            }
        }
        if constraints.unique.is_present() {
            if matches!(value, Shape::Array(_)) {
                setters.push(Setter::UniqueItems);
            } else {
                let key: syn::Path = syn::Ident::new("unique", constraints.unique.span()).into();
                self.misfit(&key, "arrays", value, false);
            }
        }
        if let Some(items) = &constraints.items {
            match value {
                Shape::Array(element) => {
                    let inner = self.plan_element(&items.value, element);
                    setters.push(Setter::Items(inner));
                }
                _ => self.misfit(&items.key, "arrays", value, false),
            }
        }
        if let Some(values) = &constraints.values {
            match value {
                Shape::Map(element) => {
                    let inner = self.plan_element(&values.value, element);
                    setters.push(Setter::Values(inner));
                }
                _ => self.misfit(&values.key, "maps", value, false),
            }
        }
        if let Some(keys) = &constraints.keys {
            match value {
                // Keys are strings: their constraints are planned as a string's.
                Shape::Map(_) => {
                    let inner = self.plan_element(&keys.value, &Shape::String);
                    setters.push(Setter::Keys(inner));
                }
                _ => self.misfit(&keys.key, "maps", value, false),
            }
        }
        if let Some(listed) = &constraints.enum_values {
            if let Some(values) = self.enum_values(listed, value, &setters) {
                setters.push(Setter::Enum(values));
            }
        }
        if let Some(constant) = &constraints.constant {
            let schema = apply(base_schema(value), &setters);
            let misfits = super::literals::misfits(&constant.value, &schema);
            if misfits.is_empty() {
                setters.push(Setter::Constant(constant.value.clone()));
            }
            for misfit in misfits {
                self.errors.push(error_at(
                    &constant.expr,
                    format!("this constant does not fit the field: {misfit}"),
                ));
            }
        }
        setters
    }

    /// [`Planner::plan`] for the elements of an array or the values of a map, where a
    /// `description` describes each element.
    fn plan_element(&mut self, constraints: &RawConstraints, shape: &Shape) -> Vec<Setter> {
        let mut setters = self.plan(constraints, shape);
        if let Some(text) = &constraints.description {
            setters.push(Setter::Description(text.clone()));
        }
        let annotations = constraints.annotations.as_ref();
        if let Some(text) =
            annotations.and_then(|t| super::fields::annotations_text(t, self.errors))
        {
            setters.push(Setter::Annotations(text));
        }
        setters
    }
}

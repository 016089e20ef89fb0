//! [`ToolArg`] for the standard types: `bool`, the integers and floats, `()`, tuples,
//! `String`, `Option`, `Box`, `Vec` and the string-keyed maps; and the typed readers of those
//! that have one.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

use serde_json::Value;

use crate::model::{Definitions, FloatWidth, IntWidth, Schema};
use crate::num::Num;
use crate::plan::NodeId;
use crate::read::typed::{Read, Reader, Unread::Fallback};
use crate::{Checker, ToolArg};

impl ToolArg for bool {
    fn describe(_: &mut Definitions) -> Schema {
        Schema::boolean()
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        checker.check_bool(*self, schema);
    }

    fn to_json_value(&self) -> Value {
        Value::Bool(*self)
    }

    fn read_arg(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Self> {
        reader.boolean(node)
    }
}

macro_rules! integers {
    ($($ty:ty => $bits:expr, $signed:expr;)*) => {$(
        impl ToolArg for $ty {
            fn describe(_: &mut Definitions) -> Schema {
                Schema::integer_of(IntWidth { bits: $bits, signed: $signed })
            }

            fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
                checker.check_number(Num::from(*self), schema);
            }

            fn to_json_value(&self) -> Value {
                Num::from(*self).to_json().map(Value::Number).unwrap_or(Value::Null)
            }

            fn read_arg(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Self> {
                read_integer(reader, node)
            }
        }
    )*};
}

integers! {
    i8 => 8, true; i16 => 16, true; i32 => 32, true; i64 => 64, true; i128 => 128, true;
    isize => usize::BITS as u8, true;
    u8 => 8, false; u16 => 16, false; u32 => 32, false; u64 => 64, false; u128 => 128, false;
    usize => usize::BITS as u8, false;
}

macro_rules! floats {
    ($($ty:ty => $width:expr, $read:expr;)*) => {$(
        impl ToolArg for $ty {
            fn describe(_: &mut Definitions) -> Schema {
                Schema::number_of($width)
            }

            fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
                checker.check_number(Num::from(*self), schema);
            }

            fn to_json_value(&self) -> Value {
                Num::from(*self).to_json().map(Value::Number).unwrap_or(Value::Null)
            }

            fn read_arg(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Self> {
                $read(reader, node)
            }
        }
    )*};
}

// An `f32` is left to the full roads: its width's rules decide what a wider number becomes.
floats! {
    f32 => FloatWidth::F32, |_: &mut Reader<'_, '_>, _| Err(crate::__typed::Unread::Fallback);
    f64 => FloatWidth::F64, read_f64;
}

/// `()` is `null`: the type of a field whose schema is `{"type": "null"}`.
impl ToolArg for () {
    fn describe(_: &mut Definitions) -> Schema {
        Schema::null()
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        checker.check_value(&Value::Null, schema);
    }

    fn to_json_value(&self) -> Value {
        Value::Null
    }
}

// A Rust tuple is a JSON array of exactly its elements, each with its own schema
// (`prefixItems`, `items: false`, `minItems`), as serde reads and writes it.
macro_rules! tuples {
    ($(($($element:ident $index:tt),+))*) => {$(
        impl<$($element: ToolArg),+> ToolArg for ($($element,)+) {
            fn describe(definitions: &mut Definitions) -> Schema {
                Schema::tuple(vec![$($element::describe(definitions)),+])
            }

            fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
                checker.check_tuple(&[$(&self.$index as &dyn ToolArg),+], schema);
            }

            fn to_json_value(&self) -> Value {
                Value::Array(vec![$(self.$index.to_json_value()),+])
            }
        }
    )*};
}

tuples! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
}

impl ToolArg for String {
    fn describe(_: &mut Definitions) -> Schema {
        Schema::string()
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        checker.check_string(self, schema);
    }

    fn to_json_value(&self) -> Value {
        Value::String(self.clone())
    }

    fn read_arg(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Self> {
        read_string(reader, node)
    }
}

/// `Option<T>` is `T` or `null` where it is an element; as a struct field the derive makes it
/// an optional field of `T`'s schema instead, and `None` is an absent field.
impl<T: ToolArg> ToolArg for Option<T> {
    fn describe(definitions: &mut Definitions) -> Schema {
        T::describe(definitions).nullable()
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        if let Some(value) = self {
            value.check(schema, checker);
        }
    }

    fn to_json_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToolArg::to_json_value)
    }

    fn is_absent(&self) -> bool {
        self.is_none()
    }

    fn read_arg(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Self> {
        read_option(reader, node)
    }
}

impl<T: ToolArg> ToolArg for Box<T> {
    fn describe(definitions: &mut Definitions) -> Schema {
        T::describe(definitions)
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        (**self).check(schema, checker);
    }

    fn to_json_value(&self) -> Value {
        (**self).to_json_value()
    }

    fn is_absent(&self) -> bool {
        (**self).is_absent()
    }

    fn read_arg(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Self> {
        T::read_arg(reader, node).map(Box::new)
    }
}

impl<T: ToolArg> ToolArg for Vec<T> {
    fn describe(definitions: &mut Definitions) -> Schema {
        Schema::array(T::describe(definitions))
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        checker.check_array(self, schema);
    }

    fn to_json_value(&self) -> Value {
        Value::Array(self.iter().map(ToolArg::to_json_value).collect())
    }

    fn read_arg(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Self> {
        read_vec(reader, node)
    }
}

impl<T: ToolArg> ToolArg for BTreeMap<String, T> {
    fn describe(definitions: &mut Definitions) -> Schema {
        Schema::map(T::describe(definitions))
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        checker.check_map(self.iter().map(|(k, v)| (k.as_str(), v)), schema);
    }

    fn to_json_value(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(k, v)| (k.clone(), v.to_json_value()))
                .collect(),
        )
    }
}

/// Members are checked in key order, so issues come in the same order on every run.
impl<T: ToolArg, S: BuildHasher> ToolArg for HashMap<String, T, S> {
    fn describe(definitions: &mut Definitions) -> Schema {
        Schema::map(T::describe(definitions))
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        let mut entries: Vec<(&str, &T)> = self.iter().map(|(k, v)| (k.as_str(), v)).collect();
        entries.sort_unstable_by_key(|(k, _)| *k);
        checker.check_map(entries.into_iter(), schema);
    }

    fn to_json_value(&self) -> Value {
        Value::Object(
            self.iter()
                .map(|(k, v)| (k.clone(), v.to_json_value()))
                .collect(),
        )
    }
}

/// `String`'s reader.
fn read_string(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<String> {
    reader.string(node).map(Cow::into_owned)
}

/// An integer type's reader: the number read, checked, and held by the type.
fn read_integer<T: TryFrom<i128>>(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<T> {
    match reader.number(node)? {
        Num::Int(n) => T::try_from(n).map_err(|_| Fallback),
        Num::Float(_) => Err(Fallback),
    }
}

/// `f64`'s reader.
fn read_f64(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<f64> {
    reader.number(node).map(Num::as_f64)
}

/// `Option<T>`'s reader: `null` where the node takes it, else a `T` at the same node.
fn read_option<T: ToolArg>(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Option<T>> {
    if reader.at_null()? {
        reader.null(node)?;
        return Ok(None);
    }
    reader.value(node, T::read_arg).map(Some)
}

/// `Vec<T>`'s reader: every item read (a refused one too, so every issue is written).
fn read_vec<T: ToolArg>(reader: &mut Reader<'_, '_>, node: NodeId) -> Read<Vec<T>> {
    let mut array = reader.array(node)?;
    let mut items = Vec::new();
    while let Some(item) = reader.item(&mut array, node)? {
        if let Some(item) = reader.field_value(item, T::read_arg)? {
            items.push(item);
        }
    }
    Ok(items)
}

//! The members of an object and the elements of an array, walked as they are read.

use std::borrow::Cow;

use serde::de::{
    self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;

use super::{NodeSeed, Stream};
use crate::decode::walk::object::{KeyStep, ObjectRun};
use crate::model::{ArraySchema, Field, Json, ObjectSchema};
use crate::plan::Node;

/// What the next value of an object is, once its key was handed on.
enum Pending<'m> {
    Nothing,
    /// A declared field's value, with its schema's node.
    Field(&'m Field, Node<'m>),
    /// An absent field's default.
    Default(Value),
    /// An undeclared key's value, under `additionalProperties`' schema.
    Extra(Node<'m>),
    /// An undeclared key's value, kept as sent.
    Kept,
}

/// The members of an object, handed on by their field names, then the defaults of absent
/// fields: the object rules of [`ObjectRun`], asked key by key as serde reads them.
pub(super) struct Members<'s, 'm, A> {
    stream: &'s mut Stream<'m>,
    map: A,
    run: ObjectRun<'m>,
    pending: Pending<'m>,
    /// Whether the members sent are still being read (else the absent fields are gone over).
    reading: bool,
    done: bool,
}

/// A key as read: borrowed from the text when it has no escapes.
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(KeySeed)
    }
}

impl<'de> Visitor<'de> for KeySeed {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a key")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key.to_owned()))
    }

    fn visit_string<E>(self, key: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(key))
    }
}

impl<'s, 'm, A> Members<'s, 'm, A> {
    /// The members of `object`, the values' schema of `node`, read from `map`.
    pub(super) fn new(
        stream: &'s mut Stream<'m>,
        map: A,
        object: &'m ObjectSchema,
        node: Node<'m>,
    ) -> Self {
        let run = ObjectRun::new(&stream.decoder, object, node);
        Members {
            stream,
            map,
            run,
            pending: Pending::Nothing,
            reading: true,
            done: false,
        }
    }

    /// Whether every member was read and every absent field gone over.
    pub(super) fn finished(&self) -> bool {
        self.done
    }
}

impl<'de, A: MapAccess<'de>> Members<'_, '_, A> {
    /// Reads the value of a key that is not handed on into a tree.
    fn buffer_value(&mut self) -> Result<Json, A::Error> {
        let map = &mut self.map;
        self.stream.buffer(|room, notes| {
            map.next_value_seed(crate::model::ArgumentSeed {
                max_depth: room,
                notes,
            })
        })
    }
}

/// Hands `key` on to the type's key seed.
fn hand<'de, K: DeserializeSeed<'de>, E: de::Error>(
    seed: K,
    key: &str,
) -> Result<Option<K::Value>, E> {
    let handed: de::value::StrDeserializer<'_, E> = key.into_deserializer();
    seed.deserialize(handed).map(Some)
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Members<'_, '_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        while self.reading {
            let Some(key) = self.map.next_key_seed(KeySeed)? else {
                self.reading = false;
                break;
            };
            let decoder = &mut self.stream.decoder;
            match self.run.key(decoder, &key) {
                KeyStep::Field(field, node) => {
                    self.pending = Pending::Field(field, node);
                    return hand(seed, &field.name);
                }
                KeyStep::Extra(node) => {
                    self.pending = Pending::Extra(node);
                    return hand(seed, &key);
                }
                KeyStep::Keep => {
                    self.pending = Pending::Kept;
                    return hand(seed, &key);
                }
                KeyStep::Drop => {
                    let member = self.buffer_value()?;
                    let decoder = &mut self.stream.decoder;
                    self.run.dropped(decoder, &key, member.into_value());
                }
                KeyStep::Skip => {
                    self.buffer_value()?;
                }
                KeyStep::Undecided => return Err(self.stream.stop()),
            }
        }
        if self.done {
            return Ok(None);
        }
        let decoder = &mut self.stream.decoder;
        match self.run.next_absent(decoder) {
            Some((field, default)) => {
                decoder.checker.path_push_field(&field.name);
                self.pending = Pending::Default(default);
                hand(seed, &field.name)
            }
            None => {
                self.done = true;
                Ok(None)
            }
        }
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, A::Error> {
        let pending = std::mem::replace(&mut self.pending, Pending::Nothing);
        let value = match pending {
            Pending::Nothing => return Err(de::Error::custom("a value asked for without its key")),
            Pending::Field(field, node) => self.map.next_value_seed(NodeSeed {
                stream: &mut *self.stream,
                node,
                field: Some(field),
                seed,
            }),
            Pending::Extra(node) => self.map.next_value_seed(NodeSeed {
                stream: &mut *self.stream,
                node,
                field: None,
                seed,
            }),
            Pending::Default(default) => seed.deserialize(default).map_err(de::Error::custom),
            Pending::Kept => {
                let member = self.buffer_value()?;
                let kept = self.stream.decoder.any_value(member).unwrap_or(Value::Null);
                seed.deserialize(kept).map_err(de::Error::custom)
            }
        };
        self.stream.decoder.checker.path_pop();
        value
    }
}

/// The elements of a plain array, each at its index.
pub(super) struct Items<'s, 'm, A> {
    stream: &'s mut Stream<'m>,
    seq: A,
    /// The node of every element: a streamed array has no `prefixItems`.
    items: Node<'m>,
    count: usize,
    done: bool,
}

impl<'s, 'm, A> Items<'s, 'm, A> {
    /// The elements of `array`, the values' schema of `node` (without `prefixItems`), read
    /// from `seq`.
    pub(super) fn new(
        stream: &'s mut Stream<'m>,
        seq: A,
        array: &'m ArraySchema,
        node: Node<'m>,
    ) -> Self {
        debug_assert!(array.prefix_items.is_empty(), "only plain arrays stream");
        let items = node.item(stream.decoder.model, array, 0);
        Items {
            stream,
            seq,
            items,
            count: 0,
            done: false,
        }
    }

    /// The elements read so far.
    pub(super) fn count(&self) -> usize {
        self.count
    }

    /// Whether the array's end was read.
    pub(super) fn finished(&self) -> bool {
        self.done
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Items<'_, '_, A> {
    type Error = A::Error;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, A::Error> {
        self.stream.decoder.checker.path_push_index(self.count);
        let element = self.seq.next_element_seed(NodeSeed {
            stream: &mut *self.stream,
            node: self.items,
            field: None,
            seed,
        });
        self.stream.decoder.checker.path_pop();
        match element? {
            Some(value) => {
                self.count += 1;
                Ok(Some(value))
            }
            None => {
                self.done = true;
                Ok(None)
            }
        }
    }
}

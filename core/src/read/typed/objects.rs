//! Objects in the typed reader: fields read by the index the plan's key table matches, and
//! from the first key that is not a field's exact name on, every key by the one object state
//! machine ([`ObjectRun`]); the fields left out at the object's end.

use serde_json::Value;

use super::Unread::{Fallback, Refused as ValueRefused};
use super::{Member, Read, Reader, NO_MEMBER};
use crate::decode::{Decoder, KeyStep, ObjectRun};
use crate::model::{Kind, ObjectSchema};
use crate::plan::{KeyMatch, KeyTable, Node, NodeId};

/// One object being read: its schema, key table, the fields given so far.
pub struct ObjectRead<'m> {
    object: &'m ObjectSchema,
    /// The object's node.
    node: NodeId,
    /// The object rules' state, from the first key not read as a field's exact name on.
    run: Option<Box<ObjectRun<'m>>>,
    keys: &'m KeyTable,
    children: &'m [NodeId],
    given: u64,
    next_in_order: usize,
    first: bool,
    refusals_before: usize,
}

impl ObjectRead<'_> {
    /// The node of field `at`'s value.
    pub fn child(&self, at: usize) -> NodeId {
        self.children[at]
    }
}

impl<'t, 'm> Reader<'t, 'm> {
    /// Starts reading the object at `node`.
    pub fn object(&mut self, node: NodeId) -> Read<ObjectRead<'m>> {
        let (handle, resolved) = self.resolved(node)?;
        let Kind::Object(object) = &resolved.kind else {
            return Err(Fallback);
        };
        // `propertyNames` judges every key, declared ones too: the full roads read it.
        if object.fields.len() > 64
            || resolved.constant.is_some()
            || object.property_names.is_some()
        {
            return Err(Fallback);
        }
        let target = self.open(b'{', handle)?;
        Ok(ObjectRead {
            object,
            node,
            run: None,
            keys: self.plan.keys_for(Some(target)),
            children: self.plan.children(target),
            given: 0,
            next_in_order: 0,
            first: true,
            refusals_before: self.refusals,
        })
    }

    /// The next field of `object` (its index), or `None` at its end, where every required
    /// field was given.
    pub fn field(&mut self, object: &mut ObjectRead<'m>) -> Read<Option<usize>> {
        loop {
            let byte = self.next_byte()?;
            if byte == b'}' {
                return self.close(object).map(|()| None);
            }
            if !object.first {
                if byte != b',' {
                    return Err(Fallback);
                }
                self.cursor.advance();
                self.next_byte()?;
            }
            object.first = false;
            let key = self.cursor.plain_key().ok_or(Fallback)?;
            if object.run.is_none() {
                if let Some(at) = exact_field(object, key) {
                    object.given |= 1 << at;
                    object.next_in_order = at + 1;
                    self.members[self.depth - 1] = at as Member;
                    return Ok(Some(at));
                }
            }
            if let Some(at) = self.key_by_rules(object, key)? {
                return Ok(Some(at));
            }
        }
    }

    /// A key not read as a field's exact name (or any key once one was not), as the object's
    /// rules decide it: a field's index (by `key_case`, an alias), or `None` where its value
    /// was read and dropped (`drop_unknown_key`) or refused (an undeclared key, keys that
    /// tie...).
    #[cold]
    fn key_by_rules(&mut self, object: &mut ObjectRead<'m>, key: &str) -> Read<Option<usize>> {
        if !self.decides {
            return Err(Fallback);
        }
        // The object's own path: no member of it is being read.
        self.members[self.depth - 1] = NO_MEMBER;
        let handle = self.plan.node(object.node);
        let decoder = self.decoder();
        let run = run_of(object, decoder, handle);
        let before = decoder.issue_count();
        match run.key(decoder, key) {
            KeyStep::Field(field, _) => {
                let fields = &object.object.fields;
                let at = fields
                    .iter()
                    .position(|declared| std::ptr::eq(declared, field))
                    .ok_or(Fallback)?;
                object.given |= 1 << at;
                self.members[self.depth - 1] = at as Member;
                Ok(Some(at))
            }
            KeyStep::Drop => {
                let sent = self.member_as_sent()?;
                let run = object.run.as_ref().ok_or(Fallback)?;
                run.dropped(self.decoder(), key, sent);
                Ok(None)
            }
            KeyStep::Skip => {
                self.member_as_sent()?;
                if self.decoder().issue_count() > before {
                    self.refusals += 1;
                }
                Ok(None)
            }
            KeyStep::Extra(_) | KeyStep::Keep | KeyStep::Undecided => Err(Fallback),
        }
    }

    /// The member's value at the position, as sent (strict JSON).
    fn member_as_sent(&mut self) -> Read<Value> {
        let room = self.max_depth - self.depth;
        let json = self.cursor.tree(room).map_err(|_| Fallback)?;
        match self.cursor.leniency().is_strict() {
            true => Ok(json.into_value()),
            false => Err(Fallback),
        }
    }

    /// The end of an object: its required fields left out are refused; `Err(Refused)` where
    /// it or one of its members was.
    fn close(&mut self, object: &mut ObjectRead<'m>) -> Read<()> {
        self.cursor.advance();
        self.depth -= 1;
        let every_field = u64::MAX >> (64 - object.object.fields.len().max(1));
        if object.run.is_some() || object.given & every_field != every_field {
            self.absent_fields(object)?;
        }
        match self.refusals == object.refusals_before {
            true => Ok(()),
            false => Err(ValueRefused),
        }
    }

    /// The fields an object left out, as the object rules decide them ([`ObjectRun`]'s
    /// `next_absent`): a required one refused (its `required` issue); one with a default is
    /// the full roads' (they fill it in and log it). Optional fields without a default left
    /// out ask nothing of the rules.
    #[inline(never)]
    fn absent_fields(&mut self, object: &mut ObjectRead<'m>) -> Read<()> {
        let decided = object.object.fields.iter().enumerate().any(|(at, field)| {
            object.given & (1 << at) == 0 && (field.required || field.schema.default.is_some())
        });
        if object.run.is_none() && !decided {
            return Ok(());
        }
        if !self.decides {
            return Err(Fallback);
        }
        let handle = self.plan.node(object.node);
        let decoder = self.decoder();
        let run = run_of(object, decoder, handle);
        let before = decoder.issue_count();
        if run.next_absent(decoder).is_some() {
            return Err(Fallback);
        }
        if decoder.issue_count() > before {
            self.refusals += 1;
        }
        Ok(())
    }
}

/// The object rules' state of `object`, made at the first question asked of them from the
/// fields read so far.
fn run_of<'r, 'm>(
    object: &'r mut ObjectRead<'m>,
    decoder: &Decoder<'m>,
    handle: Node<'m>,
) -> &'r mut ObjectRun<'m> {
    let (schema, given, next_in_order) = (object.object, object.given, object.next_in_order);
    object.run.get_or_insert_with(|| {
        Box::new(ObjectRun::resume(
            decoder,
            schema,
            handle,
            given,
            next_in_order,
        ))
    })
}

/// The field `key` names by its exact name (the one after the last one read looked at
/// first), where that field was not given yet.
#[inline]
fn exact_field(object: &ObjectRead<'_>, key: &str) -> Option<usize> {
    let at = match object.object.fields.get(object.next_in_order) {
        Some(field) if field.name == key && object.keys.answers_first(object.next_in_order) => {
            object.next_in_order
        }
        _ => match object.keys.key_match(object.object, key, false) {
            KeyMatch::Exact(at) => at,
            _ => return None,
        },
    };
    (object.given & (1 << at) == 0).then_some(at)
}

//! The issues only a JSON object can have: an absent field, an unknown key. (Checking a
//! whole JSON value, `Checker::check_value`, is the decoder's walk with repairs off: it is
//! written in `decode/check_value.rs`.)

use serde_json::Value;

use super::Checker;
use crate::model::ObjectSchema;
use crate::{suggest, Constraint, Issue};

impl<'m> Checker<'m> {
    /// A `required` issue for an absent field (at the field's path).
    pub fn missing_field(&mut self, field: &'m crate::model::Field) {
        self.path_push_field(&field.name);
        self.issue(
            Constraint::Required,
            "is required",
            Some(Value::String(field.name.clone())),
            None,
        );
        self.path_pop();
    }

    /// An `additionalProperties` issue for a key the object does not declare (at the key's
    /// path), naming the nearest declared key when one is close.
    pub fn unknown_field(&mut self, key: &str, object: &ObjectSchema) {
        if self.skip_when_full(Constraint::AdditionalProperties) {
            return;
        }
        let near = suggest::nearest(key, object.fields.iter().map(|f| f.name.as_str()));
        self.unknown_field_near(key, near, object);
    }

    /// The issue of an undeclared key, `near` the field it is a near miss of (its "did you
    /// mean", found by the caller).
    pub(crate) fn unknown_field_near(
        &mut self,
        key: &str,
        near: Option<&str>,
        object: &ObjectSchema,
    ) {
        if self.skip_when_full(Constraint::AdditionalProperties) {
            return;
        }
        let shown_key = crate::issue::shorten_str(key);
        let mut message = format!("unknown field {shown_key}");
        let near = near.map(crate::issue::shorten_name);
        if let Some(near) = &near {
            message.push_str(&format!(" (did you mean {near:?}?)"));
        }
        let names = object.fields.iter().map(|f| Value::String(f.name.clone()));
        let expected = crate::values::shorten_list(names, object.fields.len());
        self.path_push_key(key);
        let issue = Issue::new(self.path(), Constraint::AdditionalProperties, message)
            .with_expected(expected)
            .with_got(shown_key)
            .with_did_you_mean(near.as_deref());
        self.report.push_shortened(issue);
        self.path_pop();
    }
}

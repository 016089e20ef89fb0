//! Checking a JSON value against a schema: the same constraint checks as for Rust values,
//! plus what only JSON can get wrong (types, absent and unknown keys, unions). This is the
//! checker without repairs; the derive uses it on `example` values at compile time.

use serde_json::Value;

use super::{json_type, Checker};
use crate::model::{Additional, Kind, ObjectSchema, Schema, UnionMode};
use crate::num::Num;
use crate::{suggest, Constraint, ToolArg};

impl<'m> Checker<'m> {
    /// Checks a JSON value against `schema`, collecting every issue.
    ///
    /// An object's keys may be a field's wire name or one of its aliases (as serde accepts);
    /// unknown keys are an `additionalProperties` issue only where the schema denies them.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgate_core::model::{Field, Schema, ToolModel};
    /// use toolgate_core::Checker;
    ///
    /// let input = Schema::object(vec![Field::required("n", Schema::integer().maximum(9))]).deny_unknown_fields();
    /// let model = ToolModel::new("t", None, input, Default::default());
    /// let mut checker = Checker::new(&model);
    /// checker.check_value(&json!({"n": 12, "m": 1}), model.input());
    /// let report = checker.finish().unwrap_err();
    /// assert_eq!(report.to_string(), "n: 12 is greater than the maximum 9\nm: unknown field \"m\"");
    /// ```
    pub fn check_value(&mut self, value: &Value, schema: &'m Schema) {
        let Some(resolved) = self.resolve(schema) else {
            return;
        };
        if value.is_null() && (resolved.nullable || matches!(resolved.kind, Kind::Null | Kind::Any))
        {
            self.check_const(resolved, || Value::Null);
            return;
        }
        match (&resolved.kind, value) {
            (Kind::Any, _) => {
                self.check_const(resolved, || value.clone());
            }
            (Kind::Boolean, Value::Bool(flag)) => self.check_bool(*flag, resolved),
            (Kind::Integer(_) | Kind::Number(_), Value::Number(number)) => {
                self.check_number(Num::from_json(number), resolved)
            }
            (Kind::String(_), Value::String(text)) => self.check_string(text, resolved),
            (Kind::Enum(enumeration), _) => {
                if self.check_const(resolved, || value.clone()) && !enumeration.contains(value) {
                    self.check_enum(value, &enumeration.value_list());
                }
            }
            (Kind::Array(_), Value::Array(items)) => self.check_array(items, resolved),
            (Kind::Map(_), Value::Object(members)) => {
                self.check_map(members.iter().map(|(k, v)| (k.as_str(), v)), resolved)
            }
            (Kind::Object(object), Value::Object(members)) => {
                if self.check_const(resolved, || value.clone()) {
                    self.check_object(members, object);
                }
            }
            (Kind::Union(union), _) => {
                if self.check_const(resolved, || value.clone()) {
                    self.check_union(value, union.mode, &union.variants);
                }
            }
            (kind, _) => self.type_issue(resolved, kind, value.clone()),
        }
    }

    fn check_object(&mut self, members: &serde_json::Map<String, Value>, object: &'m ObjectSchema) {
        for field in &object.fields {
            let present = std::iter::once(&field.name)
                .chain(&field.aliases)
                .find_map(|name| members.get(name));
            match present {
                Some(member) => self.field(std::slice::from_ref(field), 0, member),
                None if field.required => {
                    self.path_push_field(&field.name);
                    self.issue(
                        Constraint::Required,
                        "is required",
                        Some(Value::String(field.name.clone())),
                        None,
                    );
                    self.path_pop();
                }
                None => {}
            }
        }
        let declared = |key: &str| {
            object
                .fields
                .iter()
                .any(|f| f.name == key || f.aliases.iter().any(|a| a == key))
        };
        for (key, member) in members.iter().filter(|(key, _)| !declared(key)) {
            match &object.additional {
                Additional::Allow => {}
                Additional::Schema(extra) => self.entry(key, extra, member),
                Additional::Deny => {
                    let mut message = format!("unknown field {key:?}");
                    let names = object.fields.iter().map(|f| f.name.as_str());
                    if let Some(near) = suggest::nearest(key, names) {
                        message.push_str(&format!(" (did you mean {near:?}?)"));
                    }
                    self.path_push_key(key);
                    let expected = Value::Array(
                        object
                            .fields
                            .iter()
                            .map(|f| Value::String(f.name.clone()))
                            .collect(),
                    );
                    self.issue(
                        Constraint::AdditionalProperties,
                        message,
                        Some(expected),
                        Some(Value::String(key.clone())),
                    );
                    self.path_pop();
                }
            }
        }
    }

    fn check_union(&mut self, value: &Value, mode: UnionMode, variants: &'m [Schema]) {
        let matching = variants
            .iter()
            .filter(|variant| {
                let mut trial = Checker::new(self.model());
                trial.check_value(value, variant);
                trial.finish().is_ok()
            })
            .count();
        let (fits, constraint, wanted) = match mode {
            UnionMode::OneOf => (matching == 1, Constraint::OneOf, "exactly one"),
            UnionMode::AnyOf => (matching >= 1, Constraint::AnyOf, "at least one"),
        };
        if !fits {
            let message = format!(
                "{} {} matches {matching} of the {} alternatives; {wanted} must match",
                json_type(value),
                crate::issue::shorten(value.clone()),
                variants.len()
            );
            self.issue(
                constraint,
                message,
                Some(Value::from(variants.len())),
                Some(value.clone()),
            );
        }
    }
}

/// A JSON value is checked as a JSON value: against the full schema, not only `const`.
impl ToolArg for Value {
    fn describe(_: &mut crate::model::Definitions) -> Schema {
        Schema::any()
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        checker.check_value(self, schema);
    }

    fn to_json_value(&self) -> Value {
        self.clone()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::{EnumValue, Field, ToolModel, UnionSchema};

    fn issues(value: Value, schema: Schema) -> Vec<String> {
        let model = ToolModel::new("t", None, schema, Default::default());
        let mut checker = Checker::new(&model);
        checker.check_value(&value, model.input());
        checker
            .into_report()
            .issues()
            .iter()
            .map(|i| format!("{} {}", i.path, i.constraint))
            .collect()
    }

    #[test]
    fn objects_report_missing_wrong_and_unknown_keys() {
        let schema = Schema::object(vec![
            Field::required("a", Schema::integer()),
            Field::required("b", Schema::string()).alias("bee"),
            Field::optional("c", Schema::boolean()),
        ])
        .deny_unknown_fields();
        assert_eq!(
            issues(json!({"a": "x", "bee": "ok", "d": 1}), schema.clone()),
            ["a type", "d additionalProperties"]
        );
        assert_eq!(
            issues(json!({}), schema.clone()),
            ["a required", "b required"]
        );
        assert_eq!(issues(json!([]), schema), [" type"]);
    }

    #[test]
    fn nullable_enum_and_nested_arrays() {
        let colours = Schema::enumeration(["red", "blue"].map(EnumValue::new).to_vec()).nullable();
        assert!(issues(Value::Null, colours.clone()).is_empty());
        assert_eq!(issues(json!("green"), colours), [" enum"]);
        let grid = Schema::array(Schema::array(Schema::integer().minimum(0)));
        assert_eq!(
            issues(json!([[1, -1], [2, "x"]]), grid),
            ["[0][1] minimum", "[1][1] type"]
        );
    }

    #[test]
    fn unions_count_matching_alternatives() {
        let union = |mode| {
            Schema::new(Kind::Union(UnionSchema {
                mode,
                variants: vec![Schema::integer(), Schema::number().minimum(0)],
            }))
        };
        assert_eq!(issues(json!(5), union(UnionMode::OneOf)), [" oneOf"]);
        assert!(issues(json!(5), union(UnionMode::AnyOf)).is_empty());
        assert!(issues(json!(-1), union(UnionMode::OneOf)).is_empty());
        assert_eq!(issues(json!("x"), union(UnionMode::AnyOf)), [" anyOf"]);
    }
}

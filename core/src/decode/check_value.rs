//! Checking a JSON value against a schema: the same constraint checks as for Rust values,
//! plus what only JSON can get wrong (types, absent and unknown keys, unions). This is the
//! decoder's walk with every repair off, so it lives here, beside the walk, and the checker
//! (`check`) does not depend on the decoder. The derive uses it on `example` values at
//! compile time.

use serde_json::Value;

use crate::check::Checker;
use crate::model::{Kind, Schema, ToolModel};
use crate::{Report, ToolArg};

impl ToolModel {
    /// Checks `value` against `schema`, a schema of this model (its references resolve in
    /// the model's definitions): every issue, no repairs. For defaults and examples.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolgate_core::model::{Schema, ToolModel};
    ///
    /// let model = ToolModel::new("t", None, Schema::object(vec![]), Default::default());
    /// let digit = Schema::integer().minimum(0).maximum(9);
    /// assert!(model.check_against(&digit, &json!(7)).is_ok());
    /// assert!(model.check_against(&digit, &json!("7")).is_err());
    /// ```
    pub fn check_against(&self, schema: &Schema, value: &Value) -> Result<(), Report> {
        let mut checker = Checker::new(self);
        checker.check_value(value, schema);
        checker.finish()
    }
}

impl<'m> Checker<'m> {
    /// Checks a JSON value against `schema`, collecting every issue.
    ///
    /// The value takes the decoder's walk with every repair off (but `float_to_integer`:
    /// JSON Schema counts `1.0` as an integer), so it meets the same rules as arguments do:
    /// an object's keys may be a field's wire name or one of its aliases (as serde accepts),
    /// never both; unknown keys are an `additionalProperties` issue only where the schema
    /// denies them; union alternatives are tried within the decoder's budget.
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
    /// // In the value's key order (a `serde_json::Map` sorts its keys).
    /// assert_eq!(report.to_string(), "m: unknown field \"m\"\nn: 12 is greater than the maximum 9");
    /// ```
    pub fn check_value(&mut self, value: &Value, schema: &'m Schema) {
        let checker = std::mem::replace(self, Checker::new(self.model()));
        let mut decoder = crate::decode::Decoder::checking(checker);
        decoder.check(value, schema);
        *self = decoder.into_checker();
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

    /// Any value: what was sent, as the rules decide it at the value's schema (a union, a
    /// map, anything a `Value` field stands for).
    fn read_arg(
        reader: &mut crate::__typed::Reader<'_, '_>,
        node: crate::plan::NodeId,
    ) -> crate::__typed::Read<Self> {
        reader.any(node)
    }
}

/// Whether every field default of `model` fits the field's own schema (what
/// [`ToolModel::defaults_fit`] keeps): the plan's verdicts, over every object of the model.
pub(crate) fn every_default_fits(model: &ToolModel) -> bool {
    let plan = model.plan();
    plan.schemas().all(|schema| {
        let Kind::Object(object) = &schema.kind else {
            return true;
        };
        object.fields.iter().all(|field| {
            field.schema.default.is_none()
                || plan
                    .field_default(&field.schema, || super::filled_default(model, field))
                    .is_some()
        })
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::{EnumValue, Field, UnionMode, UnionSchema};
    use crate::Constraint;

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
    fn a_field_under_its_name_and_an_alias_is_refused_as_the_decoder_does() {
        let schema = Schema::object(vec![Field::required("b", Schema::string())
            .alias("bee")
            .alias("bees")]);
        let both = json!({"b": "one", "bee": "two", "bees": "three"});
        assert_eq!(
            issues(both.clone(), schema.clone()),
            ["bee syntax", "bees syntax"]
        );
        // Equal values too: which name was meant is still a guess.
        assert_eq!(
            issues(json!({"b": "x", "bee": "x"}), schema.clone()),
            ["bee syntax"]
        );
        assert!(issues(json!({"bee": "x"}), schema.clone()).is_empty());
        let model = ToolModel::new("t", None, schema, Default::default());
        let decoded =
            crate::decode::decode_value(&model, &both, &crate::decode::Options::default());
        let decoder_says: Vec<String> = decoded
            .unwrap_err()
            .report
            .issues()
            .iter()
            .map(|i| format!("{} {} {}", i.path, i.constraint, i.message))
            .collect();
        let mut checker = Checker::new(&model);
        checker.check_value(&both, model.input());
        let checker_says: Vec<String> = checker
            .into_report()
            .issues()
            .iter()
            .map(|i| format!("{} {} {}", i.path, i.constraint, i.message))
            .collect();
        assert_eq!(checker_says, decoder_says);
    }

    #[test]
    fn union_trials_are_bounded_as_the_decoders_are() {
        // Each level tries two alternatives that both read the rest: 2^40 checks unbounded.
        let model = ToolModel::from_json_schema(
            r##"{"title": "t", "type": "object", "properties": {"v": {"$ref": "#/$defs/T"}},
                "$defs": {"T": {"anyOf": [
                    {"type": "array", "items": {"$ref": "#/$defs/T"}},
                    {"type": "array", "items": {"$ref": "#/$defs/T"}, "maxItems": 5}]}}}"##,
        )
        .unwrap();
        let mut deep = json!("x");
        for _ in 0..40 {
            deep = json!([deep]);
        }
        let value = json!({ "v": deep });
        let mut checker = Checker::new(&model);
        checker.check_value(&value, model.input());
        let report = checker.into_report();
        let limits: Vec<_> = report
            .issues()
            .iter()
            .filter(|issue| issue.constraint == Constraint::Limit)
            .collect();
        assert!(!limits.is_empty(), "{report}");
        assert!(
            limits[0].message.contains("union alternatives tried"),
            "{report}"
        );
        assert_eq!(limits[0].path.to_string(), "v");
        // The decoder refuses it too (its own bounded trials; one walker for both is
        // issue 12's aim).
        let rejected =
            crate::decode::decode_value(&model, &value, &crate::decode::Options::default())
                .unwrap_err();
        assert!(!rejected.report.is_empty());
        // A value the trials can settle within the budget is still checked exactly.
        let mut shallow = json!(["x"]);
        for _ in 0..3 {
            shallow = json!([shallow]);
        }
        let mut checker = Checker::new(&model);
        checker.check_value(&json!({ "v": shallow }), model.input());
        let report = checker.into_report();
        assert!(
            report
                .issues()
                .iter()
                .all(|i| i.constraint != Constraint::Limit),
            "{report}"
        );
        assert!(!report.is_empty());
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
        // No alternative takes a string: the issue is the type, as for a type list.
        assert_eq!(issues(json!("x"), union(UnionMode::AnyOf)), [" type"]);
    }
}

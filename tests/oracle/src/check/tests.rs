use serde_json::json;

use super::*;
use crate::model::{EnumValue, Field, Schema};

fn model(fields: Vec<Field>) -> ToolModel {
    ToolModel::new("t", None, Schema::object(fields), Default::default())
}

fn issues_of<T: ToolArg>(schema: Schema, value: &T) -> Vec<Issue> {
    let model = model(vec![Field::required("v", schema)]);
    let mut checker = Checker::new(&model);
    let fields = checker.fields(model.input());
    checker.field(fields, 0, value);
    checker.into_report().into_issues()
}

#[test]
fn enum_misses_name_the_nearest_value() {
    let cabins = Schema::enumeration(["economy", "business"].map(EnumValue::new).to_vec());
    let issues = issues_of(cabins.clone(), &"buisness".to_owned());
    assert_eq!(issues[0].constraint, Constraint::Enum);
    assert_eq!(
        issues[0].message,
        r#""buisness" is not one of "economy", "business" (did you mean "business"?)"#
    );
    assert_eq!(issues[0].expected, Some(json!(["economy", "business"])));
    assert!(issues_of(cabins.clone(), &"business".to_owned()).is_empty());
    assert!(!issues_of(cabins, &"luxury".to_owned())[0]
        .message
        .contains("did you mean"));
}

#[test]
fn type_mismatches_say_what_was_wanted() {
    let issues = issues_of(Schema::integer(), &2.5f64);
    assert_eq!(issues[0].constraint, Constraint::Type);
    assert_eq!(issues[0].message, "expected integer, got number 2.5");
    let issues = issues_of(Schema::string(), &true);
    assert_eq!(issues[0].message, "expected string, got boolean true");
    assert_eq!(issues[0].expected, Some(json!("string")));
}

#[test]
fn all_number_constraints_are_checked_together() {
    let schema = Schema::number()
        .minimum(10)
        .exclusive_maximum(0)
        .multiple_of(4);
    let constraints: Vec<Constraint> = issues_of(schema, &3.0f64)
        .iter()
        .map(|i| i.constraint)
        .collect();
    assert_eq!(
        constraints,
        [
            Constraint::Minimum,
            Constraint::ExclusiveMaximum,
            Constraint::MultipleOf
        ]
    );
}

#[test]
fn const_is_checked_first() {
    let mut schema = Schema::string();
    schema.constant = Some(json!("fixed"));
    let issues = issues_of(schema, &"other".to_owned());
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].constraint, Constraint::Const);
}

#[test]
fn numbers_and_bools_are_checked_against_enum_values() {
    let sides = Schema::integer().with_enum(vec![json!(4), json!(6)]);
    assert!(issues_of(sides.clone(), &6u8).is_empty());
    let issues = issues_of(sides, &5u8);
    assert_eq!(issues[0].constraint, Constraint::Enum);
    assert_eq!(issues[0].message, "5 is not one of 4, 6");
    let only_true = Schema::boolean().with_enum(vec![json!(true)]);
    assert!(issues_of(only_true.clone(), &true).is_empty());
    assert_eq!(issues_of(only_true, &false)[0].constraint, Constraint::Enum);
}

#[test]
fn unit_is_null() {
    assert!(issues_of(Schema::null(), &()).is_empty());
    let issues = issues_of(Schema::string(), &());
    assert_eq!(issues[0].constraint, Constraint::Type);
}

#[test]
fn arrays_report_size_uniqueness_and_items_with_paths() {
    let schema = Schema::array(Schema::integer().maximum(5))
        .max_length(2)
        .unique_items();
    let issues = issues_of(schema, &vec![1u8, 9, 1]);
    let found: Vec<(String, Constraint)> = issues
        .iter()
        .map(|i| (i.path.to_string(), i.constraint))
        .collect();
    assert_eq!(
        found,
        [
            ("v".to_owned(), Constraint::MaxItems),
            ("v".to_owned(), Constraint::UniqueItems),
            ("v[1]".to_owned(), Constraint::Maximum)
        ]
    );
    assert_eq!(issues[0].message, "3 items, more than the maximum 2");
    assert_eq!(issues[1].message, "items [0] and [2] are equal");
}

#[test]
fn maps_are_checked_in_key_order_with_quoted_keys() {
    let schema = Schema::map(Schema::string().max_length(1));
    let value: std::collections::HashMap<String, String> = [
        ("b".to_owned(), "xx".to_owned()),
        ("Content-Type".to_owned(), "yy".to_owned()),
    ]
    .into();
    let paths: Vec<String> = issues_of(schema, &value)
        .iter()
        .map(|i| i.path.to_string())
        .collect();
    assert_eq!(paths, [r#"v["Content-Type"]"#, "v.b"]);
}

#[test]
fn a_broken_pattern_or_reference_is_a_schema_issue() {
    let issues = issues_of(Schema::string().pattern("(unclosed"), &"x".to_owned());
    assert_eq!(issues[0].constraint, Constraint::Schema);
    let issues = issues_of(Schema::reference("Nowhere"), &"x".to_owned());
    assert_eq!(issues[0].constraint, Constraint::Schema);
}

#[test]
fn json_equality_compares_numbers_by_value() {
    assert!(json_equal(&json!([1, {"a": 2.0}]), &json!([1.0, {"a": 2}])));
    assert!(!json_equal(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
    assert_eq!(count_of(1, "item"), "1 item");
    assert_eq!(count_of(0, "item"), "0 items");
}

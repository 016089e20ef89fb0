//! Hostile input F3: named types that share their parts. `D40 = {l: D39, r: D39}`, down to
//! `D0`, is 41 small types, but written inline at every use it is 2⁴⁰ schemas (the model
//! overflowed the stack, or reached 24 GB). A type used more than once is now described once
//! per model, written once under `$defs`, and referenced where it is used; a type used once
//! stays inline. The same chain compiled from JSON Schema is checked in `tests/bfcl`
//! (`tests/schemas/shared_fan_out.json`).

use std::cell::Cell;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use toolgate::check::Checker;
use toolgate::decode::Rule;
use toolgate::model::{Definitions, Kind, Schema, ToolModel};
use toolgate::{Constraint, Path, Tool, ToolArg};

thread_local! {
    /// How many times [`Note::describe`] ran on this thread.
    static NOTES_DESCRIBED: Cell<usize> = const { Cell::new(0) };
}

/// More calls of [`Note::describe`] on one thread than any test here needs.
const MAX_NOTES_DESCRIBED: usize = 100;

/// A string whose `describe` counts its calls: the work of building a model, measured at
/// the bottom of the chain.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
#[serde(transparent)]
pub struct Note(String);

impl ToolArg for Note {
    fn describe(_: &mut Definitions) -> Schema {
        let described = NOTES_DESCRIBED.get() + 1;
        NOTES_DESCRIBED.set(described);
        // Each model describes it once; a few models are built per thread. Inlining every
        // use would call it 2⁴⁰ times per model: stop such a build here.
        assert!(
            described <= MAX_NOTES_DESCRIBED,
            "Note described {described} times on one thread: models are not built linearly"
        );
        Schema::string().max_length(20)
    }

    fn check<'m>(&self, schema: &'m Schema, checker: &mut Checker<'m>) {
        checker.check_string(&self.0, schema);
    }

    fn to_json_value(&self) -> Value {
        Value::String(self.0.clone())
    }
}

/// The bottom of the chain
#[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct D0 {
    /// How many
    #[tool(range(max = 9))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
    /// A remark
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<Note>,
}

/// `$name = {l: $below, r: $below}` for each name, each level on the one before.
macro_rules! fan_out {
    ($below:ident => $name:ident $(=> $rest:ident)*) => {
        /// Two halves of the level below
        #[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
        pub struct $name {
            /// The left half
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub l: Option<Box<$below>>,
            /// The right half
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub r: Option<Box<$below>>,
        }
        fan_out!($name $(=> $rest)*);
    };
    ($top:ident) => {};
}

fan_out!(D0 => D1 => D2 => D3 => D4 => D5 => D6 => D7 => D8 => D9 => D10
    => D11 => D12 => D13 => D14 => D15 => D16 => D17 => D18 => D19 => D20
    => D21 => D22 => D23 => D24 => D25 => D26 => D27 => D28 => D29 => D30
    => D31 => D32 => D33 => D34 => D35 => D36 => D37 => D38 => D39 => D40);

/// The path `l.r.l.r...` 40 keys long, then `last` when given.
fn deep_path(last: Option<&str>) -> Path {
    let mut path = Path::root();
    for level in 0..40 {
        path = path.key(if level % 2 == 0 { "l" } else { "r" });
    }
    match last {
        Some(key) => path.key(key),
        None => path,
    }
}

/// The arguments `{"l": {"r": ... {<bottom>} ...}}`, 40 levels deep.
fn deep_value(bottom: Value) -> Value {
    let mut value = bottom;
    for level in (0..40).rev() {
        let key = if level % 2 == 0 { "l" } else { "r" };
        value = json!({ key: value });
    }
    value
}

#[test]
fn each_shared_type_is_described_once_and_defined_once() {
    NOTES_DESCRIBED.set(0);
    let model = ToolModel::of::<D40>("d40", None);
    // D0 is described once, and with it its note: not once per path to it (2⁴⁰).
    assert_eq!(NOTES_DESCRIBED.get(), 1);
    // D0 to D39 are each used twice; D40 is the arguments, written in place.
    let mut expected: Vec<String> = (0..40).map(|level| format!("D{level}")).collect();
    expected.sort();
    let names: Vec<String> = model.definitions().keys().cloned().collect();
    assert_eq!(names, expected);
    assert!(
        model == *D40::model(),
        "the model is built the same way twice"
    );
    let Kind::Object(arguments) = &model.input().kind else {
        panic!("the arguments are an object")
    };
    assert_eq!(arguments.fields[0].schema.kind, Kind::Ref("D39".into()));
}

#[test]
fn the_json_schema_grows_with_the_number_of_types() {
    let forty = D40::json_schema();
    let twenty = D20::json_schema();
    // One definition more per level (about 200 bytes): twice the levels, about twice the
    // text. Written inline, it was 2⁴⁰ copies of the bottom.
    assert!(forty.len() < 41 * 300, "{} bytes", forty.len());
    assert!(
        forty.len() * 10 < twenty.len() * 21,
        "{} / {}",
        forty.len(),
        twenty.len()
    );
    let schema: Value = serde_json::from_str(forty).unwrap();
    // A reference keeps the description of its field.
    assert_eq!(
        schema["properties"]["l"],
        json!({"$ref": "#/$defs/D39", "description": "The left half"})
    );
    assert_eq!(schema["$defs"]["D0"]["properties"]["count"]["maximum"], 9);
    // Another validator reads the references the same way.
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(validator.is_valid(&deep_value(json!({"count": 9}))));
    assert!(!validator.is_valid(&deep_value(json!({"count": 12}))));
    // Read back, the text gives the same model.
    let read_back = ToolModel::from_json_schema(forty).unwrap();
    assert!(
        read_back == *D40::model(),
        "the JSON Schema reads back to its model"
    );
}

#[test]
fn a_deep_value_decodes_with_its_repairs() {
    let text = deep_value(json!({"count": "7", "note": null})).to_string();
    let decoded = D40::decode(&text).unwrap();
    let repairs: Vec<(String, Rule)> = decoded
        .repairs
        .iter()
        .map(|repair| (repair.path.to_string(), repair.rule))
        .collect();
    assert_eq!(
        repairs,
        [
            (deep_path(Some("count")).to_string(), Rule::StringToNumber),
            (deep_path(Some("note")).to_string(), Rule::NullAsAbsent),
        ]
    );
    assert_eq!(
        decoded.value.to_json_value(),
        deep_value(json!({"count": 7}))
    );
}

#[test]
fn a_deep_issue_is_reported_and_hinted_with_the_fields_descriptions() {
    let text = deep_value(json!({"count": 12, "note": "x".repeat(30)})).to_string();
    let rejected = D40::decode(&text).unwrap_err();
    let issues: Vec<(String, Constraint)> = rejected
        .report
        .issues()
        .iter()
        .map(|issue| (issue.path.to_string(), issue.constraint))
        .collect();
    assert_eq!(
        issues,
        [
            (deep_path(Some("count")).to_string(), Constraint::Maximum),
            (deep_path(Some("note")).to_string(), Constraint::MaxLength),
        ]
    );
    let hint = rejected.hint();
    assert_eq!(hint.fields[0].description.as_deref(), Some("How many"));
    assert_eq!(hint.fields[0].max, Some(9u8.into()));
    assert_eq!(hint.fields[1].description.as_deref(), Some("A remark"));
    // A field that is a reference: the description of the field, not of its type.
    let rejected = D40::decode(r#"{"l": {"r": 5}}"#).unwrap_err();
    assert_eq!(rejected.report.issues()[0].constraint, Constraint::Type);
    assert_eq!(
        rejected.hint().fields[0].description.as_deref(),
        Some("The right half")
    );
    // The checker of typed values walks the same references.
    let valid: D40 = serde_json::from_value(deep_value(json!({"count": 3}))).unwrap();
    assert!(valid.validate().is_ok());
    let invalid: D40 = serde_json::from_value(deep_value(json!({"count": 12}))).unwrap();
    let report = invalid.validate().unwrap_err();
    assert_eq!(
        report.issues()[0].path.to_string(),
        deep_path(Some("count")).to_string()
    );
}

#[test]
fn schema_at_follows_references_and_keeps_field_descriptions() {
    let model = D40::model();
    let left = model.schema_at(&Path::root().key("l")).unwrap();
    assert_eq!(left.kind, Kind::Ref("D39".into()));
    assert_eq!(left.description.as_deref(), Some("The left half"));
    let count = model.schema_at(&deep_path(Some("count"))).unwrap();
    assert_eq!(count.description.as_deref(), Some("How many"));
    let bottom = model.resolve(model.schema_at(&deep_path(None)).unwrap());
    assert_eq!(
        bottom.and_then(|s| s.description.as_deref()),
        Some("The bottom of the chain")
    );
}

#[test]
fn the_schemars_bridge_defines_each_shared_type_once() {
    let schema = serde_json::to_value(schemars::schema_for!(D40)).unwrap();
    let definitions = schema["$defs"].as_object().unwrap();
    assert_eq!(definitions.len(), 40);
    assert_eq!(schema["properties"]["r"]["$ref"], "#/$defs/D39");
    assert_eq!(schema["properties"]["r"]["description"], "The right half");
    assert_eq!(definitions["D1"]["properties"]["l"]["$ref"], "#/$defs/D0");
    assert!(schema.to_string().len() < 41 * 300);
}

/// Its one field of type `Leaf` is written inline.
#[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct UsesOnce {
    /// The leaf
    pub leaf: Leaf,
}

/// A leaf
#[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Leaf {
    /// A name
    pub name: String,
}

/// `Leaf` twice: once nullable, once required.
#[derive(Tool, Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct UsesTwice {
    /// May be null
    #[tool(nullable)]
    pub first: Option<Leaf>,
    /// Must be there
    pub second: Leaf,
}

#[test]
fn a_type_used_once_stays_inline() {
    assert!(UsesOnce::model().definitions().is_empty());
    assert_eq!(
        serde_json::from_str::<Value>(UsesOnce::json_schema()).unwrap()["properties"]["leaf"],
        json!({"type": "object", "properties": {"name": {"type": "string", "description": "A name"}},
            "required": ["name"], "description": "The leaf"})
    );
}

#[test]
fn a_nullable_use_of_a_shared_type_takes_null() {
    assert_eq!(
        UsesTwice::model().definitions().keys().collect::<Vec<_>>(),
        ["Leaf"]
    );
    let schema: Value = serde_json::from_str(UsesTwice::json_schema()).unwrap();
    assert_eq!(
        schema["properties"]["first"],
        json!({"anyOf": [{"$ref": "#/$defs/Leaf"}, {"type": "null"}], "description": "May be null"})
    );
    let decoded = UsesTwice::decode(r#"{"first": null, "second": {"name": "b"}}"#).unwrap();
    assert_eq!(decoded.value.first, None);
    assert!(decoded.repairs.is_empty());
    let mut checker = Checker::new(UsesTwice::model());
    let fields = checker.fields(UsesTwice::model().input());
    checker.check_value(&Value::Null, &fields[0].schema);
    assert!(checker.finish().is_ok());
    // The required use still refuses null.
    let rejected = UsesTwice::decode(r#"{"first": null, "second": null}"#).unwrap_err();
    assert_eq!(rejected.report.issues()[0].path.to_string(), "second");
}

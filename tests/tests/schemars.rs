//! With the `schemars` feature, derived types are `schemars::JsonSchema`, with the same
//! schema as `Tool::json_schema()`: they plug into schemars-based frameworks as they are.

use serde_json::Value;
use toolgate::Tool;
use toolgate_tests::fixtures::flight::BookFlight;
use toolgate_tests::fixtures::tree::MakeTree;

fn ours<T: Tool>() -> Value {
    let mut value: Value = serde_json::from_str(T::json_schema()).unwrap();
    value.as_object_mut().unwrap().remove("title");
    value
}

#[test]
fn schema_for_matches_the_tool_schema() {
    let theirs = serde_json::to_value(schemars::schema_for!(BookFlight)).unwrap();
    let mut theirs = theirs.as_object().unwrap().clone();
    assert_eq!(
        theirs.remove("$schema"),
        Some(Value::from("https://json-schema.org/draft/2020-12/schema"))
    );
    // schemars titles a root schema with the type's name.
    assert_eq!(theirs.remove("title"), Some(Value::from("BookFlight")));
    assert_eq!(Value::Object(theirs), ours::<BookFlight>());
}

#[test]
fn recursive_definitions_land_in_the_generator() {
    let theirs = serde_json::to_value(schemars::schema_for!(MakeTree)).unwrap();
    assert_eq!(theirs["properties"]["root"]["$ref"], "#/$defs/TreeNode");
    assert_eq!(theirs["$defs"], ours::<MakeTree>()["$defs"]);
}

#[test]
fn nested_in_a_schemars_type() {
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Batch {
        bookings: Vec<BookFlight>,
    }
    let theirs = serde_json::to_value(schemars::schema_for!(Batch)).unwrap();
    let mut expected = ours::<BookFlight>();
    expected.as_object_mut().unwrap().remove("description");
    let mut item = theirs["properties"]["bookings"]["items"].clone();
    item.as_object_mut().unwrap().remove("description");
    assert_eq!(item, expected);
}

mod first {
    /// A node of the first kind
    #[derive(toolgate::Tool)]
    #[allow(dead_code)]
    pub struct Node {
        pub label: String,
        pub children: Vec<Node>,
    }
}

mod second {
    /// A node of the second kind
    #[derive(toolgate::Tool)]
    #[allow(dead_code)]
    pub struct Node {
        pub weight: u8,
        pub children: Vec<Node>,
    }
}

#[test]
fn two_recursive_types_of_one_name_keep_their_own_definitions() {
    #[derive(schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Both {
        a: first::Node,
        b: second::Node,
    }
    let theirs = serde_json::to_value(schemars::schema_for!(Both)).unwrap();
    let defs = theirs["$defs"].as_object().unwrap();
    assert!(
        defs["Node"]["properties"].get("label").is_some(),
        "{theirs}"
    );
    assert!(
        defs["Node2"]["properties"].get("weight").is_some(),
        "{theirs}"
    );
    assert_eq!(
        theirs["properties"]["a"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Node"
    );
    assert_eq!(
        theirs["properties"]["b"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Node2"
    );
    assert_eq!(
        defs["Node2"]["properties"]["children"]["items"]["$ref"],
        "#/$defs/Node2"
    );
}

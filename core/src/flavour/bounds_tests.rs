//! Issue 27 §7: a free-form map is refused by the strict flavours wherever it sits; every
//! flavour's output is held to [`MAX_FLAVOURED_BYTES`]; a tool's description is sent once.

use proptest::prelude::*;
use serde_json::json;

use super::*;

fn model(schema: Value) -> ToolModel {
    ToolModel::from_json_schema(&schema.to_string()).expect("a usable schema")
}

fn strict_flavours() -> [Flavour; 2] {
    [Flavour::OpenAiStrict, Flavour::AnthropicStrict]
}

#[test]
fn a_nullable_free_form_map_is_refused_by_the_strict_flavours() {
    // The reproduction: `anyOf: [{type: object, additionalProperties: {type: string}},
    // {type: null}]`, which the model writes `type: [object, null]`.
    let tool = model(
        json!({"title": "t", "type": "object", "properties": {"labels": {"anyOf": [
        {"type": "object", "additionalProperties": {"type": "string"}}, {"type": "null"}]}}}),
    );
    for flavour in strict_flavours() {
        let error = tool.schema_for(flavour).unwrap_err();
        assert!(
            error.to_string().contains("free-form keys") && error.to_string().contains("labels"),
            "{flavour}: {error}"
        );
    }
}

#[test]
fn a_free_form_map_is_refused_in_every_position() {
    let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    let open = json!({"type": "object"});
    let positions = |inner: &Value| {
        [
            json!({"m": inner}),
            json!({"m": {"type": "array", "items": inner}}),
            json!({"m": {"type": "array", "prefixItems": [{"type": "string"}, inner], "items": false}}),
            json!({"m": {"anyOf": [{"type": "string"}, inner]}}),
            json!({"m": {"oneOf": [{"type": "string"}, inner]}}),
            json!({"m": {"type": "object", "additionalProperties": inner}}),
            json!({"m": {"$ref": "#/$defs/d"}}),
            json!({"m": {"type": "object", "properties": {"deeper": {"type": "array", "items": {"anyOf": [inner, {"type": "null"}]}}}}}),
        ]
    };
    for inner in [&map, &open] {
        for properties in positions(inner) {
            let tool = model(
                json!({"title": "t", "type": "object", "properties": properties,
                "$defs": {"d": inner}}),
            );
            for flavour in strict_flavours() {
                match tool.schema_for(flavour) {
                    Err(FlavourError::Inexpressible { what, .. }) => {
                        assert!(what.contains("free-form keys"), "{flavour}: {what}")
                    }
                    other => panic!("{flavour}: {properties} gave {other:?}"),
                }
            }
        }
    }
    // `patternProperties` (which the reader refuses, so only a hand-written schema has it).
    let schema: Json = serde_json::from_value(json!({"title": "t", "type": "object",
        "properties": {"p": {"type": "object", "properties": {"a": {"type": "string"}},
            "patternProperties": {"^x": {"type": "string"}}}}}))
    .unwrap();
    for flavour in strict_flavours() {
        let error = flavoured("t", flavour, schema.clone(), true).unwrap_err();
        assert!(error.to_string().contains("`patternProperties`"), "{error}");
    }
    // The root with no property is a tool without arguments: closed to `{}`.
    let none = model(json!({"title": "t", "type": "object"}));
    for flavour in strict_flavours() {
        let schema = none.schema_for(flavour).unwrap().schema.to_value();
        assert_eq!(schema["additionalProperties"], false, "{flavour}");
    }
}

#[test]
fn a_definition_with_a_long_description_used_everywhere_is_refused_while_inlined() {
    // The reproduction: a 64 KB description in a definition used by 2,000 properties (a
    // 127 KB schema) was 128 MB once inlined for Gemini.
    let properties: serde_json::Map<String, Value> = (0..2000)
        .map(|i| (format!("p{i}"), json!({"$ref": "#/$defs/big"})))
        .collect();
    let names: Vec<&String> = properties.keys().collect();
    let tool = model(
        json!({"title": "t", "type": "object", "properties": properties,
        "required": names, "$defs": {"big": {"type": "string", "description": "d".repeat(64 * 1024)}}}),
    );
    match tool.schema_for(Flavour::Gemini).unwrap_err() {
        FlavourError::OverLimit {
            limit, max, found, ..
        } => {
            assert_eq!(limit, "bytes of schema once definitions are inlined");
            assert_eq!(max, MAX_FLAVOURED_BYTES);
            // Stopped at the first copy past the bound.
            assert!(found <= MAX_FLAVOURED_BYTES + 64 * 1024 + 100, "{found}");
        }
        other => panic!("{other}"),
    }
    // The flavours that keep references write it once.
    for flavour in Flavour::ALL {
        if flavour != Flavour::Gemini {
            let flavoured = tool.schema_for(flavour).unwrap();
            assert!(flavoured.size.bytes < 200 * 1024, "{flavour}");
        }
    }
}

#[test]
fn a_tool_s_description_and_name_are_sent_once() {
    let tool = model(
        json!({"title": "note", "description": "Write a note.", "type": "object",
        "properties": {"text": {"type": "string"}}, "required": ["text"]}),
    );
    for flavour in Flavour::ALL {
        let flavoured = tool.schema_for(flavour).unwrap();
        let definition = flavoured
            .definition(tool.name(), tool.description())
            .to_string();
        let times = definition.matches("Write a note.").count();
        assert_eq!(times, 1, "{flavour}: {definition}");
        if flavour != Flavour::JsonSchema {
            assert_eq!(
                definition.matches("\"note\"").count(),
                1,
                "{flavour}: {definition}"
            );
        }
    }
    // What a flavour added to the root's description stays, once.
    let bounded = model(
        json!({"title": "t", "description": "Tags.", "type": "object",
        "properties": {"a": {"type": "string"}}, "propertyNames": {"maxLength": 1}}),
    );
    let flavoured = bounded.schema_for(Flavour::OpenAiStrict).unwrap();
    let definition = flavoured
        .definition(bounded.name(), bounded.description())
        .to_value();
    assert_eq!(definition["function"]["description"], "Tags.");
    assert_eq!(
        definition["function"]["parameters"]["description"],
        "(propertyNames: {\"maxLength\":1,\"type\":\"string\"})"
    );
}

/// Issue 43 §8: a definition read back keeps every description it holds: the tool's, and
/// its arguments' root one (a flavour's note, or any other text), joined as the flavour
/// wrote them; written again, each is sent once.
#[test]
fn a_definition_read_back_keeps_its_root_description() {
    let tools = [
        json!({"title": "t", "description": "Tags.", "type": "object",
            "properties": {"a": {"type": "string"}}, "propertyNames": {"maxLength": 1}}),
        json!({"title": "t", "description": "Write a note.", "type": "object",
            "properties": {"text": {"type": "string", "maxLength": 3}}}),
    ];
    let mut noted = 0;
    for tool in tools.map(model) {
        for flavour in Flavour::ALL {
            let Ok(flavoured) = tool.schema_for(flavour) else {
                continue;
            };
            let written = flavoured.schema.get("description").and_then(Json::as_str);
            let definition = flavoured
                .definition(tool.name(), tool.description())
                .to_value();
            let Ok(read) = ToolModel::from_definition(&definition) else {
                continue; // A provider's own dialect (Gemini's `parameters`) may not read back.
            };
            assert_eq!(read.description(), written, "{flavour}: {definition}");
            noted += usize::from(written.is_some_and(|text| text.contains("(")));
        }
    }
    assert!(noted > 0, "no flavour's note was read back");
    // Two other texts: both kept, the tool's first.
    let read = ToolModel::from_definition(&json!({"name": "t", "description": "Tool doc",
        "parameters": {"type": "object", "description": "Root doc", "properties": {}}}))
    .unwrap();
    assert_eq!(read.description(), Some("Tool doc\n\nRoot doc"));
}

/// A definition holding a long text in one of its keywords, used by many properties.
fn big_schema(keyword: usize, chars: usize, uses: usize, nested: bool) -> Value {
    let text = "x".repeat(chars);
    let definition = match keyword {
        0 => json!({"type": "string", "description": text}),
        1 => json!({"type": "string", "enum": [text, "b"]}),
        2 => json!({"const": text}),
        3 => json!({"type": "string", "examples": [text]}),
        _ => json!({"type": "string", "pattern": format!("^{text}$")}),
    };
    let mut definitions = serde_json::Map::new();
    definitions.insert("big".into(), definition);
    let used = if nested {
        // A second definition using the first twice: each use of it is two copies.
        definitions.insert(
            "pair".into(),
            json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/big"},
                "b": {"$ref": "#/$defs/big"}}, "required": ["a", "b"]}),
        );
        "#/$defs/pair"
    } else {
        "#/$defs/big"
    };
    let properties: serde_json::Map<String, Value> = (0..uses)
        .map(|i| (format!("p{i}"), json!({"$ref": used})))
        .collect();
    json!({"title": "t", "type": "object", "properties": properties, "$defs": definitions})
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Schemas with big descriptions, enums, consts, examples or patterns used by many
    /// references: every flavour's output is within [`MAX_FLAVOURED_BYTES`] or the tool is
    /// refused with an `OverLimit`, and the work is bounded (the inlining stops before it
    /// copies past the bound).
    #[test]
    fn every_flavour_s_output_is_within_the_byte_bound(
        keyword in 0usize..5,
        chars in prop_oneof![Just(10usize), 1000usize..70_000],
        uses in prop_oneof![1usize..40, 500usize..2500],
        nested in any::<bool>(),
    ) {
        let Ok(tool) = ToolModel::from_json_schema(&big_schema(keyword, chars, uses, nested).to_string()) else {
            return Ok(());
        };
        for flavour in Flavour::ALL {
            match tool.schema_for(flavour) {
                Ok(flavoured) => {
                    prop_assert!(flavoured.size.bytes <= MAX_FLAVOURED_BYTES, "{flavour}");
                    prop_assert_eq!(flavoured.size.bytes, flavoured.schema.to_string().len());
                }
                Err(FlavourError::OverLimit { limit, max, found, .. }) => {
                    prop_assert!(found > max, "{flavour}: {limit}");
                }
                Err(other) => prop_assert!(!other.to_string().is_empty()),
            }
        }
    }
}

#[test]
fn a_tuple_anthropic_strict_cannot_say_is_described_not_closed_empty() {
    let tool = model(
        json!({"title": "t", "type": "object", "properties": {"pair": {
        "type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": false}},
        "required": ["pair"]}),
    );
    let flavoured = tool.schema_for(Flavour::AnthropicStrict).unwrap();
    let pair = &flavoured.schema.to_value()["properties"]["pair"];
    assert!(pair.get("items").is_none(), "{pair}");
    let description = pair["description"].as_str().unwrap();
    assert!(
        description.contains("prefixItems") && description.contains("items: false"),
        "{description}"
    );
}

/// Issue 43 §4, §8: every integer width, in every flavour, writes the range the gate holds
/// as integers (a 128-bit width's is the carried range), never a float such as
/// `1.7014118346046923e+38`, and no edge of the carried integers, which is no bound of its
/// own.
#[test]
fn every_width_writes_its_carried_range_exactly_in_every_flavour() {
    for bits in [8, 16, 32, 64, 128] {
        for signed in [false, true] {
            let width = crate::model::IntWidth { bits, signed };
            let (low, high) = width.range();
            let tool = ToolModel::new(
                "t",
                None,
                crate::model::Schema::object(vec![crate::model::Field::required(
                    "n",
                    crate::model::Schema::integer_of(width),
                )]),
                Default::default(),
            );
            for flavour in Flavour::ALL {
                let Ok(written) = tool.schema_for(flavour) else {
                    continue;
                };
                let text = serde_json::to_string(&written.schema.to_value()).unwrap();
                assert!(!text.contains("e+"), "{flavour:?} {width:?}: {text}");
                // An edge of the carried integers is no bound of the width's: not written.
                for bound in [low, high] {
                    let carried = crate::num::is_carried_edge(bound);
                    if text.contains("imum") && bound != crate::num::Num::Int(0) {
                        let written = text.contains(&format!(":{bound}"))
                            || text.contains(&format!(": {bound}"));
                        assert_eq!(written, !carried, "{flavour:?} {bound}: {text}");
                    }
                }
            }
        }
    }
}

proptest! {
    /// Issue 43 §8: a width's range is not written beside an exclusive bound that already
    /// holds that side (`exclusiveMinimum: 5` on a `u8` has no `minimum: 0` beside it), and
    /// the values taken are the same: those within the width and the bound.
    #[test]
    fn a_width_range_is_not_written_beside_a_tighter_exclusive_bound(
        bits in prop::sample::select(vec![8u8, 16, 32, 64]),
        signed in any::<bool>(),
        low_at in any::<bool>(),
        offset in 0i128..1000,
        value in any::<i64>(),
    ) {
        let width = crate::model::IntWidth { bits, signed };
        let (low, high) = width.type_range();
        let (keyword, bound) = if low_at {
            ("exclusiveMinimum", (low + offset).min(high - 1))
        } else {
            ("exclusiveMaximum", (high - offset).max(low + 1))
        };
        let text = format!(
            r#"{{"type": "object", "properties": {{"n": {{"type": "integer", "format": "{}", "{keyword}": {bound}}}}}}}"#,
            width.format_name()
        );
        let tool = ToolModel::from_json_schema(&text).unwrap();
        let written: Value = serde_json::from_str(tool.json_schema()).unwrap();
        let n = &written["properties"]["n"];
        let beside = if low_at { "minimum" } else { "maximum" };
        prop_assert!(n.get(beside).is_none(), "{n}");
        // The derive's road: the width's schema, then the bound.
        let field = crate::model::Schema::integer_of(width);
        let field = if low_at {
            field.exclusive_minimum(bound)
        } else {
            field.exclusive_maximum(bound)
        };
        let built = ToolModel::new(
            "t",
            None,
            crate::model::Schema::object(vec![crate::model::Field::required("n", field)]),
            Default::default(),
        );
        let built: Value = serde_json::from_str(built.json_schema()).unwrap();
        prop_assert!(built["properties"]["n"].get(beside).is_none(), "{}", built);
        let value = i128::from(value) % (high - low + 1).max(1) + if signed { 0 } else { low };
        let within = (low..=high).contains(&value)
            && if low_at { value > bound } else { value < bound };
        let checked = tool.check_against(tool.input(), &serde_json::json!({"n": value as i64}));
        prop_assert_eq!(checked.is_ok(), within, "{} {}", value, n);
    }
}

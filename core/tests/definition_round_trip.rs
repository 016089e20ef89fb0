//! Issue 30 §6: every tool definition the flavours write reads back. For any tool name and
//! description, any of a set of tool shapes, every flavour and every provider that takes
//! it, the definition of the flavoured schema (`FlavouredSchema::definition`,
//! `Provider::definition`) is read by `ToolModel::from_definition`
//! as that tool: the same name, the description the flavour wrote (the tool's, and any note
//! it added at the root), and the arguments schema the flavour wrote, as if read bare.

use proptest::prelude::*;
use toolgate_core::flavour::Flavour;
use toolgate_core::model::{Json, ToolModel};
use toolgate_core::provider::Provider;

/// Tool shapes: flat, nested, optional and nullable fields, enums, arrays, maps, a union, a
/// shared definition, constraints some flavours move into descriptions.
const SHAPES: [&str; 6] = [
    r##"{"type": "object", "properties": {"city": {"type": "string", "minLength": 1}}, "required": ["city"]}"##,
    r##"{"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 10}, "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3}}}"##,
    r##"{"type": "object", "properties": {"cabin": {"enum": ["economy", "business"]}, "note": {"type": ["string", "null"]}}, "required": ["cabin"], "additionalProperties": false}"##,
    r##"{"type": "object", "properties": {"to": {"$ref": "#/$defs/Place"}, "from": {"$ref": "#/$defs/Place"}}, "required": ["to"], "$defs": {"Place": {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}}, "required": ["code"]}}}"##,
    r##"{"type": "object", "properties": {"labels": {"type": "object", "additionalProperties": {"type": "number"}}, "target": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}}"##,
    r##"{"type": "object", "properties": {"x": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5}}, "required": ["x"], "additionalProperties": {"type": "string", "maxLength": 8}}"##,
];

fn model(shape: usize, name: &str, description: &str) -> ToolModel {
    let bare =
        ToolModel::from_json_schema(SHAPES[shape]).unwrap_or_else(|e| panic!("{shape}: {e}"));
    ToolModel::new(
        name,
        Some(description.to_owned()),
        bare.input().clone(),
        bare.definitions().clone(),
    )
}

fn read(json: &Json) -> ToolModel {
    ToolModel::from_definition(&json.to_value()).expect("a written definition reads")
}

/// Descriptions: any printable text, and texts made of the pieces a flavour's note and the
/// joining of descriptions are made of (brackets, spaces, blank lines, notes a flavour writes,
/// a note's first characters), so a tool's text that is a prefix of the note, holds it, or
/// repeats it is generated often.
fn description() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("(".to_owned()),
        Just(")".to_owned()),
        Just(" ".to_owned()),
        Just("\n\n".to_owned()),
        Just("(additionalProperties: false)".to_owned()),
        Just("(additional".to_owned()),
        Just("(maxItems: 3)".to_owned()),
        Just("Tags.".to_owned()),
        "[a-z(): ]{1,4}",
    ];
    prop_oneof![
        "[ -~]{1,60}",
        prop::collection::vec(piece, 1..6).prop_map(|pieces| pieces.concat()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_written_definition_reads_back(
        shape in 0..SHAPES.len(),
        name in "[a-zA-Z][a-zA-Z0-9_-]{0,40}",
        description in description(),
    ) {
        let description = description.trim().to_owned();
        prop_assume!(!description.is_empty());
        let tool = model(shape, &name, &description);
        for flavour in Flavour::ALL {
            let Ok(flavoured) = tool.schema_for(flavour) else {
                continue; // the flavour cannot express this tool: it writes no definition
            };
            // The flavour's own envelope, and every provider's that takes the flavour
            // (OpenAI Chat Completions' and Responses').
            let mut definitions = vec![flavoured.definition(tool.name(), tool.description())];
            for provider in flavour.providers() {
                let written = provider.definition(&flavoured, tool.name(), tool.description());
                definitions.push(written.expect("the provider takes its flavour"));
            }
            for definition in &definitions {
            let read_back = read(definition);
            prop_assert_eq!(read_back.name(), tool.name(), "{}", flavour);
            // The description the flavour wrote: the tool's, with what the flavour noted at
            // the root (`(additionalProperties: false)`), which the envelope keeps apart
            // and reading joins again (issue 43 §8: no root description lost on read).
            let bare = read(&flavoured.schema);
            prop_assert_eq!(read_back.description(), bare.description(), "{}", flavour);
            prop_assert!(
                read_back.description().is_some_and(|d| d.starts_with(&description)),
                "{}",
                flavour
            );
            // The arguments: what the flavour wrote, read bare (the envelope adds nothing to
            // them and takes nothing from them but the name and description it carries).
            prop_assert!(
                read_back.input() == bare.input(),
                "{}: {} against {}",
                flavour,
                read_back.json_schema(),
                bare.json_schema()
            );
            prop_assert!(read_back.definitions() == bare.definitions(), "{}", flavour);
            }
        }
    }

    /// A provider writes no definition for a flavour it does not take.
    #[test]
    fn a_provider_writes_only_its_own_flavours(shape in 0..SHAPES.len()) {
        let tool = model(shape, "t", "d");
        for flavour in Flavour::ALL {
            let Ok(flavoured) = tool.schema_for(flavour) else { continue };
            for provider in Provider::ALL {
                let written = provider.definition(&flavoured, "t", Some("d"));
                prop_assert_eq!(written.is_some(), provider.flavours().contains(&flavour));
            }
        }
    }
}

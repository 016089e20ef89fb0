//! The tools as `tools/list` gives them.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool as McpTool};
use serde_json::Value;
use toolgate_core::flavour::{Flavour, FlavourError};
use toolgate_core::model::ToolModel;

use crate::boundary::{ToolDefinition, Toolbox};

/// Every tool of `toolbox` as MCP lists it, in name order.
///
/// - `inputSchema` is the arguments' schema through [`Flavour::Mcp`], as
///   [`FlavouredSchema::definition`](crate::flavour::FlavouredSchema::definition) writes it:
///   `type: object` at the root (a root union of objects says so), and the tool's name and
///   description beside the schema, not repeated in its root's `title` and `description`.
/// - `outputSchema`, when the tool declares its result, is the result's schema through the
///   same flavour (MCP's `structuredContent` is an object, and so is its schema).
///
/// A toolbox holds only tools whose arguments and result are objects, so the flavour refuses
/// a schema only past its size bound, or nested deeper than `serde_json` reads. Such a schema
/// is listed as the model writes it (`{}` where that is not a JSON object) and a warning is
/// logged; the tool is still served, its calls gated by the full model.
pub(super) fn listing(toolbox: &Toolbox) -> Vec<McpTool> {
    toolbox
        .listed()
        .map(|(definition, input, output)| listed(definition, input, output))
        .collect()
}

fn listed(definition: &ToolDefinition, input: &ToolModel, output: Option<&ToolModel>) -> McpTool {
    let name = definition.name.as_str();
    let description = definition.description.as_deref();
    let input_schema = match input.schema_for(Flavour::Mcp) {
        Ok(flavoured) => {
            let mut written = flavoured.definition(name, description).to_value();
            written["inputSchema"].take()
        }
        Err(error) => as_written(name, &error, &definition.input_schema),
    };
    let tool = McpTool::new_with_raw(
        name.to_owned(),
        description.map(|text| Cow::Owned(text.to_owned())),
        Arc::new(object(input_schema)),
    );
    let output_schema = output.map(|model| match model.schema_for(Flavour::Mcp) {
        Ok(flavoured) => flavoured.schema.to_value(),
        Err(error) => as_written(
            name,
            &error,
            definition.output_schema.as_ref().unwrap_or(&Value::Null),
        ),
    });
    match output_schema {
        Some(schema) => tool.with_raw_output_schema(Arc::new(object(schema))),
        None => tool,
    }
}

/// The schema as the model writes it, for a tool whose schema the flavour refused.
fn as_written(tool: &str, error: &FlavourError, schema: &Value) -> Value {
    tracing::warn!(tool, %error, "listed with its schema as the model writes it");
    schema.clone()
}

/// A schema's members; `{}` for a schema that is not a JSON object.
fn object(schema: Value) -> JsonObject {
    match schema {
        Value::Object(members) => members,
        _ => JsonObject::new(),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use serde_json::json;

    use super::*;

    /// Argument schemas (a toolbox takes only arguments that are objects): an object, a root
    /// union of objects (no `type`), one that repeats the tool's name and description in its
    /// root and declares a result that is a union of objects, one whose result is an object.
    fn shape(index: usize, name: &str, description: &str) -> (Value, Option<Value>) {
        let object = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
        match index {
            0 => (object, None),
            1 => (
                json!({"anyOf": [
                    {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                    {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}
                ]}),
                None,
            ),
            2 => (
                json!({"title": name, "description": description, "type": "object",
                    "properties": {"n": {"type": "integer", "minimum": 0}}}),
                Some(json!({"anyOf": [
                    {"type": "object", "properties": {"ok": {"type": "boolean"}}},
                    {"type": "object", "properties": {"error": {"type": "string"}}}
                ]})),
            ),
            _ => (
                object,
                Some(json!({"type": "object", "properties": {"n": {"type": "integer"}}})),
            ),
        }
    }

    const SHAPES: usize = 4;

    fn server_listing(definition: &Value) -> McpTool {
        let mut toolbox = Toolbox::new();
        let handler = |_: Value| async { Ok::<_, String>(Value::Null) };
        toolbox.add_runtime_tool(definition, handler).unwrap();
        let mut listing = listing(&toolbox);
        assert_eq!(listing.len(), 1);
        listing.remove(0)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every listed tool is written through the MCP flavour: its `inputSchema` is the
        /// flavour's (an object at the root wherever the arguments can be one, the name and
        /// description said once), its `outputSchema` an object or absent, and what is listed
        /// reads back as the same tool.
        #[test]
        fn every_listed_tool_is_written_through_the_mcp_flavour(
            index in 0..SHAPES,
            name in "[a-zA-Z][a-zA-Z0-9_-]{0,40}",
            description in "[!-~][ -~]{0,59}",
        ) {
            let (input, output) = shape(index, &name, &description);
            let mut definition = json!({"name": name, "description": description, "inputSchema": input});
            if let Some(output) = output {
                definition["outputSchema"] = output;
            }
            let listed = server_listing(&definition);
            let schema = &listed.input_schema;
            prop_assert_eq!(listed.name.as_ref(), name.as_str());
            prop_assert_eq!(listed.description.as_deref(), Some(description.as_str()));
            prop_assert!(schema.get("title").is_none_or(|title| title != &json!(name)));
            prop_assert!(schema.get("description").is_none_or(|text| text != &json!(description)));
            prop_assert_eq!(schema.get("type"), Some(&json!("object")));
            if let Some(output) = &listed.output_schema {
                prop_assert_eq!(output.get("type"), Some(&json!("object")));
            }
            prop_assert_eq!(listed.output_schema.is_some(), index >= 2);
            // What is listed reads back as the same tool.
            let written = serde_json::to_value(&listed).unwrap();
            let again = server_listing(&written);
            prop_assert_eq!(&again, &listed);
        }
    }
}

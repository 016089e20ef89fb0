//! Arbitrary bytes as a tool definition (OpenAI, MCP, Anthropic, BFCL or a bare schema) for
//! `ToolModel::from_definition_text` (non-UTF-8 input is skipped).
//!
//! - It never panics.
//! - `Ok(model)`: `model.json_schema()` reads back with `ToolModel::from_json_schema` into an
//!   equal model, and the written schema is stable (writing the read-back model gives the
//!   same text).
//! - Decoding `{}`, `{"a": 1}`, `[]` and `"x"` with `DynamicTool::from_model(model)` does not
//!   panic; a refusal is well formed (non-empty capped report, hint within its caps).

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolgate::model::ToolModel;
use toolgate::DynamicTool;
use toolgate_fuzz::check_rejected;

const ARGUMENTS: [&str; 4] = ["{}", r#"{"a": 1}"#, "[]", r#""x""#];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(model) = ToolModel::from_definition_text(text) else {
        return;
    };
    let schema = model.json_schema();
    let back = match ToolModel::from_json_schema(schema) {
        Ok(back) => back,
        Err(errors) => panic!("the model's own schema is refused: {errors:?}\nschema: {schema}"),
    };
    assert!(
        back == model,
        "the schema reads back into another model\nschema: {schema}\nread:    {model:?}\nback:    {back:?}"
    );
    assert_eq!(
        back.json_schema(),
        schema,
        "the written schema is not stable"
    );
    let tool = DynamicTool::from_model(model);
    for arguments in ARGUMENTS {
        if let Err(rejected) = tool.decode(arguments) {
            check_rejected(&rejected, arguments.as_bytes());
        }
    }
});

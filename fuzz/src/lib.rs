//! Invariants shared by the fuzz targets. A failed assertion is a finding: libFuzzer reports
//! it as a crash and saves the input under `fuzz/artifacts/<target>/`.

use std::sync::OnceLock;

use serde_json::Value;
use toolgate::{DynamicTool, Rejected, Repair};
use toolgate_core::values::json_equal;

pub mod doc_check;
pub mod hostile;
pub mod refs;
pub mod text;

/// The run-time tools of `definitions` (tool definitions in any form
/// `ToolModel::from_definition_text` reads, properties in the text's order), read once per
/// target and kept: a fixture that cannot be read is the harness's fault, a panic.
pub fn dynamic_tools(
    cell: &'static OnceLock<Vec<DynamicTool>>,
    definitions: &[&str],
) -> &'static [DynamicTool] {
    cell.get_or_init(|| {
        definitions
            .iter()
            .map(|text| {
                let model = toolgate_core::model::ToolModel::from_definition_text(text)
                    .unwrap_or_else(|errors| panic!("fixture schema refused: {errors:?}\n{text}"));
                DynamicTool::from_model(model)
            })
            .collect()
    })
}

/// Whether the checks for findings already reported run too (`TOOLGATE_FUZZ_KNOWN=1`): by
/// default a target skips the inputs of a finding it has reported (each such skip names
/// the finding), so a long run goes on to new ones instead of stopping at the known one.
pub fn check_known() -> bool {
    static KNOWN: OnceLock<bool> = OnceLock::new();
    *KNOWN.get_or_init(|| std::env::var_os("TOOLGATE_FUZZ_KNOWN").is_some())
}

/// Whether the targets print the inputs they build (`TOOLGATE_FUZZ_PRINT=1`), to read what
/// a crash input or a seed means: `cargo fuzz run <target> <file>` with the variable set.
pub fn print_inputs() -> bool {
    static PRINT: OnceLock<bool> = OnceLock::new();
    *PRINT.get_or_init(|| std::env::var_os("TOOLGATE_FUZZ_PRINT").is_some())
}

/// Most issues a report holds: the cap (100) plus one closing `limit` issue.
pub const MAX_REPORT_ISSUES: usize = 101;

/// A refusal is well formed: a non-empty, capped report and a retry hint whose JSON form is
/// valid JSON within the hint's caps.
pub fn check_rejected(rejected: &Rejected, input: &[u8]) {
    let report = &rejected.report;
    assert!(
        !report.is_empty(),
        "refused with an empty report; input {:?}",
        String::from_utf8_lossy(input)
    );
    assert!(
        report.len() <= MAX_REPORT_ISSUES,
        "report has {} issues (> {MAX_REPORT_ISSUES})",
        report.len()
    );
    let text = rejected.hint_json();
    assert_eq!(
        text,
        rejected.hint().to_json(),
        "hint_json is not the built hint's JSON"
    );
    let hint: Value = serde_json::from_str(&text)
        .unwrap_or_else(|error| panic!("hint JSON does not parse ({error}): {text}"));
    let missing = hint["missing_fields"]
        .as_array()
        .unwrap_or_else(|| panic!("hint has no missing_fields array: {text}"));
    assert!(
        missing.len() <= 3,
        "{} missing_fields: {text}",
        missing.len()
    );
    let fields = hint["fields"]
        .as_array()
        .unwrap_or_else(|| panic!("hint has no fields array: {text}"));
    assert!(fields.len() <= 3, "{} fields: {text}", fields.len());
    match &hint["clarifying_question"] {
        Value::Null => {}
        Value::String(question) => {
            let chars = question.chars().count();
            assert!(
                chars <= 300,
                "clarifying_question has {chars} characters: {question:?}"
            );
        }
        other => panic!("clarifying_question is neither a string nor null: {other}"),
    }
}

/// The repairs of a second decode of re-encoded output: only `default` may appear (a field
/// the first decode filled in is present now, so even that is rare).
pub fn check_only_default_repairs(repairs: &[Repair], reencoded: &[u8]) {
    let others: Vec<&Repair> = repairs.iter().filter(|r| r.rule.is_repair()).collect();
    assert!(
        others.is_empty(),
        "re-decoding the encoded value made repairs {:?}; encoded: {}",
        others.iter().map(ToString::to_string).collect::<Vec<_>>(),
        String::from_utf8_lossy(reencoded)
    );
}

/// A value `tool` decoded, encoded as JSON and decoded again by the same tool: taken, equal
/// (JSON Schema's numeric equality), with no repair but `default`. `context` (the tool's
/// name, the definition) ends the panic message.
pub fn check_decodes_again(tool: &DynamicTool, value: &Value, context: &str) {
    let encoded = serde_json::to_vec(value).expect("serialize");
    match tool.decode_bytes(&encoded) {
        Ok(again) => {
            assert!(
                json_equal(&again.value, value),
                "re-decoding {} gives {}\n{context}",
                String::from_utf8_lossy(&encoded),
                again.value
            );
            check_only_default_repairs(&again.repairs, &encoded);
        }
        Err(rejected) => panic!(
            "re-encoded value is refused: {}\nencoded: {}\n{context}",
            rejected.report,
            String::from_utf8_lossy(&encoded)
        ),
    }
}

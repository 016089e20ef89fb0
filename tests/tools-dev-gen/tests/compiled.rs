//! The schema compiler on the real schemas of the tools-dev corpus (issue 11 §5): which tools
//! it takes, and whether the types it writes read the corpus's valid arguments exactly as the
//! run-time road does.

use serde_json::Value;
use toolgate::model::ToolModel;
use toolgate::DynamicTool;
use toolgate_core::values::json_equal;
use toolgate_tests::keywords::keyword_differences;
use toolgate_tests::tools_dev::{corpus_lines, tool_definition};
use toolgate_tools_dev_gen::{decode, model, LINE_TOOLS, REFUSED, TOOLS};

/// Issue 11 §5: every real schema compiles; a refusal is left only for what no road can
/// enforce (a remote reference), and the corpus has none.
#[test]
fn the_compiler_takes_every_corpus_tool() {
    for (tool, why) in REFUSED {
        println!("refused {tool}: {why}");
    }
    let compiled = TOOLS - REFUSED.len();
    println!("{compiled} of {TOOLS} tools compiled");
    assert_eq!(TOOLS, 802);
    assert!(
        REFUSED.is_empty(),
        "{compiled} of {TOOLS} tools compiled; refused: {REFUSED:#?}"
    );
}

/// Every valid case reads to the same value on both roads. Optional fields that take `null`
/// are `toolgate::Nullable` in the generated types (issue 11 §4), so absent and `null` are
/// written back as they came (Playwright's `browser_emulate_media`, PostHog's
/// `survey-create`, CloudWatch's `get_metric_data`, whose `null` defaults are filled).
#[test]
fn generated_types_read_valid_arguments_as_dynamic_tool_does() {
    let mut compared = 0;
    let mut differences = Vec::new();
    for (line, text) in corpus_lines().iter().enumerate() {
        let Some(tool) = LINE_TOOLS[line] else {
            continue;
        };
        let case: Value = serde_json::from_str(text).unwrap();
        let arguments = case["arguments"].to_string();
        let model = ToolModel::from_definition_json(tool_definition(text)).unwrap_or_else(|e| {
            panic!("line {line}: the compiler took a schema the reader refuses: {e}")
        });
        let dynamic = DynamicTool::from_model(model).decode(&arguments);
        let typed = decode(tool, &arguments).expect("every compiled tool has a decoder");
        compared += 1;
        match (typed, dynamic) {
            (Ok(typed), Ok(dynamic)) if json_equal(&typed.value, &dynamic.value) => {}
            (typed, dynamic) => differences.push(format!(
                "{}: typed {:?} / dynamic {:?}",
                case["id"].as_str().unwrap_or_default(),
                typed
                    .map(|d| d.value.to_string())
                    .map_err(|r| r.report.to_string()),
                dynamic
                    .map(|d| d.value.to_string())
                    .map_err(|r| r.report.to_string()),
            )),
        }
    }
    println!("{compared} valid cases compared");
    assert!(
        differences.is_empty(),
        "{} of {compared} valid cases read differently, first ones:\n{:#?}",
        differences.len(),
        &differences[..differences.len().min(10)]
    );
}

/// Issue 27 §5: every compiled tool's written schema against the schema as read, keyword
/// for keyword and byte for byte (`toolgate_tests::keywords`): nothing lost, changed or
/// added but the kinds of difference that module documents, counted here (753 lines of 802
/// tools before issue 27 §5; none since the annotations of named definitions, of elements
/// and of definitions written in place are kept, and a tagged union keeps `anyOf`).
#[test]
fn generated_schemas_match_keyword_for_keyword() {
    let mut compared = std::collections::BTreeSet::new();
    let mut lost = Vec::new();
    let mut known = std::collections::BTreeMap::<&str, usize>::new();
    for (line, text) in corpus_lines().iter().enumerate() {
        let Some(tool) = LINE_TOOLS[line] else {
            continue;
        };
        if !compared.insert(tool) {
            continue;
        }
        let original = ToolModel::from_definition_json(tool_definition(text)).unwrap();
        let generated = model(tool).expect("every compiled tool has a model");
        let found = keyword_differences(original.json_schema(), generated.json_schema());
        lost.extend(
            found
                .lost
                .iter()
                .map(|d| format!("{}: {d}", original.name())),
        );
        for (kind, _) in found.known {
            *known.entry(kind).or_default() += 1;
        }
    }
    println!("{} tools compared; by design: {known:?}", compared.len());
    for line in &lost {
        println!("open: {}", line.chars().take(300).collect::<String>());
    }
    assert!(
        lost.is_empty(),
        "{} lost, changed or added, first ones:\n{}",
        lost.len(),
        lost[..lost.len().min(40)].join("\n")
    );
}

//! Issue 27 §8: every line within [`MAX_LINE_CHARS`], the whole within the budget, and no
//! rule that fits left out because a heavier one did not.

use proptest::prelude::*;
use serde_json::{json, Value};

use super::*;

fn model(schema: Value) -> ToolModel {
    ToolModel::from_definition(&schema).expect("the schema is usable")
}

fn gathered(tools: &[ToolModel]) -> Gathered {
    let mut gathered = Gathered::default();
    for tool in tools {
        gathered.tool(tool);
    }
    gathered
}

/// Checks the fragment of `tools` within `budget`: each line, the whole, the count, and
/// that each rule left out would not fit (the text with it passes the budget, or its line
/// the line cap).
fn check(tools: &[ToolModel], budget: usize) -> Result<PromptRules, String> {
    let rules = prompt_rules_within(tools, budget);
    if rules.text.chars().count() > budget {
        return Err(format!(
            "{} characters over {budget}",
            rules.text.chars().count()
        ));
    }
    if let Some(line) = rules
        .text
        .lines()
        .find(|l| l.chars().count() > MAX_LINE_CHARS)
    {
        return Err(format!("a line of {} characters", line.chars().count()));
    }
    let gathered = gathered(tools);
    let kept = gathered.kept_within(budget);
    let all = gathered.rules.len() + gathered.over;
    if rules.left_out != all - kept.len() {
        return Err(format!(
            "{} left out of {all}, {} kept",
            rules.left_out,
            kept.len()
        ));
    }
    for index in 0..gathered.rules.len() {
        if kept.binary_search(&index).is_ok() {
            continue;
        }
        let mut with = kept.clone();
        with.push(index);
        with.sort_unstable();
        let text = gathered.render(&with, all - with.len());
        let line_over = text.lines().any(|l| l.chars().count() > MAX_LINE_CHARS);
        if text.chars().count() <= budget && !line_over {
            return Err(format!(
                "rule {:?} fits ({} of {budget} characters with it) but was left out",
                gathered.rules[index].text,
                text.chars().count()
            ));
        }
    }
    Ok(rules)
}

#[test]
fn ten_thousand_required_fields_make_no_line_longer_than_the_cap() {
    let properties: serde_json::Map<String, Value> = (0..10_000)
        .map(|i| (format!("field_{i}"), json!({"type": "integer"})))
        .collect();
    let names: Vec<&String> = properties.keys().collect();
    let tool = model(json!({"name": "wide", "parameters": {"type": "object",
        "properties": properties, "required": names}}));
    let rules = check(std::slice::from_ref(&tool), usize::MAX).unwrap();
    let heading = rules
        .text
        .lines()
        .find(|line| line.starts_with("wide (required: "))
        .unwrap();
    assert!(heading.chars().count() <= MAX_LINE_CHARS, "{heading}");
    assert!(heading.ends_with(" more)):"), "{heading}");
    assert!(rules.left_out >= 10_000 - MAX_RULES);
}

#[test]
fn a_rule_that_does_not_fit_leaves_room_for_the_lighter_ones() {
    // The heaviest rule of the tool (its required fields, 240 characters) does not fit in
    // what the general lines leave; the lighter ones after it still go in.
    let properties: serde_json::Map<String, Value> = (0..8)
        .map(|i| {
            let name = format!("{i}{}", "n".repeat(40));
            (name, json!({"type": "integer", "minimum": 0}))
        })
        .collect();
    let names: Vec<&String> = properties.keys().collect();
    let tool = model(json!({"name": "t", "parameters": {"type": "object",
        "properties": properties, "required": names}}));
    let general: usize = GENERAL.iter().map(|line| line.chars().count() + 1).sum();
    let budget = general + 200;
    let rules = check(std::slice::from_ref(&tool), budget).unwrap();
    assert!(!rules.text.contains("required:"), "{}", rules.text);
    assert!(rules.text.contains(": integer"), "{}", rules.text);
    // Most of the budget is used, not a third of it.
    assert!(rules.text.chars().count() > budget - 60, "{}", rules.text);
}

/// A random tool: many fields, long names and descriptions, long enums, some required,
/// objects nested.
fn tool() -> impl Strategy<Value = ToolModel> {
    let field = prop_oneof![
        (1usize..300).prop_map(|n| json!({"type": "string", "maxLength": n})),
        Just(json!({"type": "integer", "minimum": 1, "maximum": 9})),
        (1usize..60, 1usize..120).prop_map(|(count, chars)| {
            let values: Vec<String> = (0..count)
                .map(|i| format!("{i}{}", "v".repeat(chars)))
                .collect();
            json!({"enum": values})
        }),
        (1usize..200).prop_map(
            |chars| json!({"type": "string", "description": "d".repeat(chars), "format": "email"})
        ),
        Just(json!({"type": "array", "items": {"type": "string", "minLength": 2}, "maxItems": 4})),
        Just(
            json!({"type": "object", "properties": {"inner": {"type": "integer", "minimum": 0}}, "required": ["inner"]})
        ),
    ];
    (
        prop::collection::vec((field, 1usize..150, any::<bool>()), 0..80),
        1usize..100,
    )
        .prop_map(|(fields, name_chars)| {
            let mut properties = serde_json::Map::new();
            let mut required = Vec::new();
            for (index, (schema, chars, is_required)) in fields.into_iter().enumerate() {
                let name = format!("{index}{}", "f".repeat(chars));
                if is_required {
                    required.push(name.clone());
                }
                properties.insert(name, schema);
            }
            model(
                json!({"name": "t".repeat(name_chars), "parameters": {"type": "object",
                "properties": properties, "required": required}}),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random tools and budgets: every line within [`MAX_LINE_CHARS`], the whole within the
    /// budget, and every rule left out one that would not fit.
    #[test]
    fn lines_are_capped_the_budget_holds_and_no_rule_that_fits_is_starved(
        tools in prop::collection::vec(tool(), 1..3),
        budget in prop_oneof![0usize..600, 600usize..6000, Just(usize::MAX)],
    ) {
        if let Err(why) = check(&tools, budget) {
            return Err(TestCaseError::fail(why));
        }
    }
}

use serde_json::{json, Value};

use super::*;

fn model(schema: Value) -> ToolModel {
    ToolModel::from_definition(&schema).expect("the schema is usable")
}

fn flight() -> ToolModel {
    model(json!({
        "name": "book_flight",
        "inputSchema": {
            "type": "object",
            "properties": {
                "origin": {"type": "string", "pattern": "^[A-Z]{3}$", "examples": ["CDG"]},
                "passengers": {"type": "integer", "minimum": 1, "maximum": 9},
                "cabin": {"enum": ["economy", "premium_economy", "business", "first"]},
                "date": {"type": "string", "format": "date"},
                "loyalty_ids": {"type": "array", "items": {"type": "string", "minLength": 4}, "maxItems": 5},
                "refundable": {"type": "boolean"},
                "notes": {"type": "string"},
                "contact": {
                    "type": "object",
                    "properties": {"email": {"type": "string", "format": "email"}, "phone": {"type": ["string", "null"]}},
                    "required": ["email"]
                }
            },
            "required": ["origin", "passengers", "cabin", "date", "contact"]
        }
    }))
}

#[test]
fn each_field_gets_its_type_and_the_constraints_models_break() {
    let rules = prompt_rules([&flight()]);
    assert_eq!(rules.left_out, 0);
    let lines: Vec<&str> = rules.text.lines().skip(GENERAL.len()).collect();
    // serde_json's maps are ordered by key: the fields come in that order here (a derived
    // tool keeps its declaration order).
    assert_eq!(
        lines,
        [
            "book_flight (required: cabin, contact, date, origin, passengers):",
            r#"- cabin: one of "economy", "premium_economy", "business", "first""#,
            "- contact: object",
            r#"- contact.email: string, email, e.g. "name@example.com""#,
            "- contact.phone: string, or null",
            r#"- date: string, date, e.g. "2026-11-24""#,
            "- loyalty_ids: array of strings, at most 5 items",
            "- loyalty_ids[]: string, at least 4 characters",
            "- notes: string",
            r#"- origin: string, matching ^[A-Z]{3}$, e.g. "CDG""#,
            "- passengers: integer, 1 to 9",
            "- refundable: boolean",
        ]
    );
}

#[test]
fn the_fragment_never_passes_its_budget_and_counts_what_it_left_out() {
    let tools = [
        flight(),
        model(json!({"name": "ping", "parameters": {"type": "object"}})),
    ];
    let full = prompt_rules_within(&tools, usize::MAX);
    let length = full.text.chars().count();
    for budget in (0..=length + 5).rev() {
        let rules = prompt_rules_within(&tools, budget);
        assert!(
            rules.text.chars().count() <= budget,
            "budget {budget}: {}",
            rules.text
        );
        // (A smaller budget may keep more rules: shorter ones, where a long one no longer
        // fits.)
        if rules.left_out > 0 && !rules.text.is_empty() {
            assert!(rules.text.ends_with(&format!(
                "({} less important rules left out)",
                rules.left_out
            )));
        }
    }
    assert_eq!(prompt_rules_within(&tools, 0).text, "");
}

#[test]
fn the_lightest_rules_go_first() {
    let tools = [flight()];
    let full = prompt_rules_within(&tools, usize::MAX);
    // Just short of the whole: the plain string of `notes` goes before anything else.
    let short = prompt_rules_within(&tools, full.text.chars().count() - 1);
    assert!(!short.text.contains("- notes:"), "{}", short.text);
    assert!(short.text.contains("- passengers: integer, 1 to 9"));
    // Tight: the general lines, the required fields and the enum values stay longest.
    let tight = prompt_rules_within(&tools, 520);
    assert!(tight.text.contains(GENERAL[1]), "{}", tight.text);
    assert!(
        tight.text.contains("required: cabin, contact"),
        "{}",
        tight.text
    );
    assert!(tight.text.contains(r#"one of "economy""#), "{}", tight.text);
    assert!(
        !tight.text.contains("at least 4 characters"),
        "{}",
        tight.text
    );
}

#[test]
fn a_width_says_only_the_sign_of_an_unsigned_integer() {
    let tool = model(
        json!({"name": "t", "parameters": {"type": "object", "properties": {
            "count": {"type": "integer", "format": "uint32"},
            "offset": {"type": "integer", "format": "int64"},
            "small": {"type": "integer", "format": "uint8", "maximum": 100}
        }}}),
    );
    let text = prompt_rules([&tool]).text;
    assert!(text.contains("- count: integer, at least 0\n"), "{text}");
    assert!(text.contains("- offset: integer\n"), "{text}");
    assert!(text.contains("- small: integer, 0 to 100"), "{text}");
}

#[test]
fn a_hostile_schema_gives_bounded_work_and_text() {
    // 2,500 fields with long names, each a 1,000-value enum of long values (shared through
    // one `$ref`): the rules gathered stop at MAX_RULES, names and values are shortened, the
    // enum lists capped.
    let values: Vec<String> = (0..1000)
        .map(|i| format!("value-{i}-{}", "x".repeat(200)))
        .collect();
    let properties: serde_json::Map<String, Value> = (0..2500)
        .map(|i| {
            (
                format!("{i}{}", "n".repeat(300)),
                json!({"$ref": "#/$defs/Many"}),
            )
        })
        .collect();
    let tool = model(json!({"name": "t".repeat(500), "parameters": {
        "$defs": {"Many": {"enum": values}},
        "type": "object", "properties": properties
    }}));
    let rules = prompt_rules_within([&tool], 1_000_000);
    assert!(rules.text.chars().count() <= 1_000_000);
    assert!(rules.left_out >= 2500 - MAX_RULES);
    let longest = 2 * MAX_QUOTED_CHARS + MAX_LISTED_VALUES * (MAX_QUOTED_CHARS + 6) + 40;
    for line in rules.text.lines().skip(GENERAL.len() + 1) {
        assert!(line.chars().count() < longest, "{line}");
    }
}

#[test]
fn nested_objects_are_followed_a_few_levels_and_cycles_end() {
    let tool = model(json!({"name": "tree", "parameters": {
        "$defs": {"Node": {"type": "object", "properties": {
            "label": {"type": "string", "maxLength": 10},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        }}},
        "type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}
    }}));
    let text = prompt_rules_within([&tool], usize::MAX).text;
    assert!(
        text.contains("- root.label: string, at most 10 characters"),
        "{text}"
    );
    assert!(text.contains("- root.children[].label:"), "{text}");
    let deepest = text.lines().map(|line| line.matches('.').count()).max();
    assert!(deepest <= Some(MAX_FIELD_DEPTH), "{text}");
}

#[test]
fn keys_that_are_not_names_are_quoted() {
    let tool = model(
        json!({"name": "t", "parameters": {"type": "object", "properties": {
            "Content Type": {"enum": ["a"]}
        }}}),
    );
    let text = prompt_rules([&tool]).text;
    assert!(
        text.contains(r#"- ["Content Type"]: exactly "a""#),
        "{text}"
    );
}

//! Issue 43 §8: the hint's clarifying question and placeholders read right whatever a
//! field's description is. Over every described field of both corpora (BFCL and tools-dev),
//! and over generated descriptions (instructions, third-person verbs, clauses, plurals,
//! abbreviations, several sentences, nothing), the question for the field left out is one
//! question: "What should <subject> be?", where the subject is non-empty, one sentence, not
//! cut at an abbreviation, and "the" is put only before a phrase that does not start as a
//! verb or a clause; the placeholder is never `<type: >`.

use proptest::prelude::*;
use toolgate::hint::HintReason;
use toolgate::model::{Kind, ToolModel};
use toolgate::RetryHint;
use toolgate::{Constraint, Issue, Path, Report};
use toolgate_tests::corpus;
use toolgate_tests::tools_dev;

/// Abbreviations no noun phrase ends with (lowercase, without periods).
const ABBREVIATIONS: [&str; 3] = ["eg", "ie", "vs"];
/// Instruction verbs a description may start with.
const VERBS: [&str; 6] = ["choose", "select", "enter", "specify", "provide", "pick"];
/// Words that, second, show the first was a verb.
const OBJECTS: [&str; 5] = ["the", "a", "whether", "which", "your"];

/// The question and the placeholder for the field `key` of `model` left out.
fn asked(model: &ToolModel, key: &str) -> (String, String) {
    let mut report = Report::new();
    report.push(Issue::new(
        Path::root().key(key),
        Constraint::Required,
        "is required",
    ));
    let hint = RetryHint::build(model, &report, HintReason::InvalidArguments);
    let placeholder = hint
        .example_input
        .as_ref()
        .map(|example| example.to_value()[key].clone())
        .and_then(|value| value.as_str().map(str::to_owned))
        .unwrap_or_default();
    (hint.clarifying_question.unwrap_or_default(), placeholder)
}

/// Why the question asked for a field described `description` misreads, if it does.
fn misread(question: &str, placeholder: &str, description: &str) -> Option<String> {
    let subject = question
        .strip_prefix("What should ")
        .and_then(|rest| rest.strip_suffix(" be?"))?;
    if question.ends_with("…?") {
        return None; // Capped: the cut is the cap's, said by the ellipsis.
    }
    let words: Vec<String> = subject
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    if subject.trim().is_empty() || subject == "``" || subject == "the" {
        return Some("an empty subject".into());
    }
    let last = words.last().map(|w| w.replace('.', "")).unwrap_or_default();
    if subject.ends_with('.') && ABBREVIATIONS.contains(&last.as_str()) {
        return Some("cut at an abbreviation".into());
    }
    let bytes = subject.as_bytes();
    for (at, pair) in bytes.windows(3).enumerate() {
        let ends =
            matches!(pair[0], b'?' | b'!') && pair[1] == b' ' && pair[2].is_ascii_uppercase();
        if ends && !subject[..at].ends_with('`') {
            return Some(format!("a second sentence at byte {at}"));
        }
    }
    // "the" the hint put before the description's own first word.
    let own_article = description
        .split_whitespace()
        .find(|w| !["optional.", "required."].contains(&w.to_lowercase().as_str()))
        .is_some_and(|w| ["the", "a", "an", "your"].contains(&w.to_lowercase().as_str()));
    if words.first().is_some_and(|w| w == "the") && !own_article {
        let (first, second) = (words.get(1), words.get(2));
        let third_person = first.is_some_and(|w| w.ends_with("es") || w.ends_with("ing"));
        if first.is_some_and(|w| VERBS.contains(&w.as_str()))
            || (third_person && second.is_some_and(|w| OBJECTS.contains(&w.as_str())))
        {
            return Some("\"the\" before a verb".into());
        }
    }
    if placeholder.ends_with(": >") {
        return Some(format!("the placeholder {placeholder}"));
    }
    None
}

/// Every described field at the top of a tool: (key, description).
fn described_fields(model: &ToolModel) -> Vec<(String, String)> {
    let Kind::Object(object) = &model.input().kind else {
        return Vec::new();
    };
    object
        .fields
        .iter()
        .filter_map(|field| Some((field.name.clone(), field.schema.description.clone()?)))
        .collect()
}

#[test]
fn every_corpus_description_makes_one_question() {
    let models: Vec<ToolModel> = corpus::corpus_models()
        .into_iter()
        .chain(tools_dev::corpus_models().into_iter().flatten())
        .collect();
    let mut asked_count = 0;
    let mut wrong = Vec::new();
    for model in &models {
        for (key, description) in described_fields(model) {
            let (question, placeholder) = asked(model, &key);
            asked_count += 1;
            if let Some(why) = misread(&question, &placeholder, &description) {
                wrong.push(format!("{why}: {description:?} -> {question:?}"));
            }
        }
    }
    assert!(asked_count > 2_000, "{asked_count}");
    assert!(
        wrong.is_empty(),
        "{} of {asked_count}:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

fn described(description: &str) -> ToolModel {
    let schema = serde_json::json!({"type": "object", "properties": {
        "f": {"type": "string", "description": description}}, "required": ["f"]});
    ToolModel::from_json_schema(&schema.to_string()).unwrap()
}

/// Descriptions of every shape the module's rules name, and their mixes.
fn descriptions() -> impl Strategy<Value = String> {
    let start = prop::sample::select(vec![
        "Choose",
        "Specify",
        "Enter",
        "Returns",
        "Determines",
        "Whether",
        "How",
        "Words",
        "The",
        "A",
        "URL",
        "IDs",
        "Optional.",
        "Required.",
        "",
    ]);
    let middle = prop::sample::select(vec![
        "the",
        "a",
        "whether",
        "city",
        "cities",
        "to search for",
        "e.g.",
        "i.e.",
        "No.",
        "U.S.",
        "etc.",
        "1.5",
        "example.com",
        "(see docs)",
        "?",
        "!",
        ".",
        "\n",
        "",
    ]);
    let end = prop::sample::select(vec!["", ".", "?", "!", " More text.", " Two. Three."]);
    (start, prop::collection::vec(middle, 0..6), end)
        .prop_map(|(start, middle, end)| format!("{start} {}{end}", middle.join(" ")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn a_generated_description_makes_one_question(description in descriptions()) {
        let model = described(&description);
        let (question, placeholder) = asked(&model, "f");
        let why = misread(&question, &placeholder, &description);
        prop_assert!(why.is_none(), "{why:?}: {description:?} -> {question:?}");
    }
}

#[test]
fn the_named_members_read_right() {
    for (description, question) in [
        (
            "Words to search for",
            "What should the words to search for be?",
        ),
        ("Choose city", "What should `f` (choose city) be?"),
        (
            "The city, e.g. Paris. Required.",
            "What should the city, e.g. Paris be?",
        ),
        ("A U.S. state. Two letters.", "What should a U.S. state be?"),
        (
            "Which city? Any will do!",
            "What should `f` (which city) be?",
        ),
        ("", "What should `f` be?"),
    ] {
        assert_eq!(
            asked(&described(description), "f").0,
            question,
            "{description:?}"
        );
    }
}

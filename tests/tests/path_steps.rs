//! Every walk of a path over a model takes the model's one step (`ToolModel::step`):
//! `schema_at` (and so the retry hint) and `foreign::align` (keys sent in another case or
//! spelling renamed to the field's) agree on where a path leads, on the tools of both
//! corpora and paths into their calls.
//!
//! The class: a path walked by its own rules in one place (aliases taken in one, folding or
//! `additionalProperties` in another) leads the hint to one schema and the alignment to
//! another. Generated here: every path into a call's arguments, its keys re-spelled
//! (upper case, the alias-free folded spellings) or left as sent.

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::Value;
use toolgate::foreign::align;
use toolgate::model::ToolModel;
use toolgate::path::Segment;
use toolgate::{Constraint, Issue, Path};
use toolgate_tests::corpus::{corpus_models, EXPANDED};

/// Every path to a value inside `value` (its root excluded).
fn paths(value: &Value, at: Path, out: &mut Vec<Path>) {
    match value {
        Value::Object(members) => {
            for (key, member) in members {
                let path = at.clone().key(key.clone());
                out.push(path.clone());
                paths(member, path, out);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                let path = at.clone().index(index);
                out.push(path.clone());
                paths(item, path, out);
            }
        }
        _ => {}
    }
}

fn respelled(path: &Path, how: u8) -> Path {
    path.segments()
        .iter()
        .fold(Path::root(), |out, segment| match segment {
            Segment::Key(key) => out.key(match how % 3 {
                0 => key.clone(),
                1 => key.to_uppercase(),
                _ => key.replace('_', "-"),
            }),
            Segment::Index(index) => out.index(*index),
        })
}

/// BFCL's tools, and each call's tool (its line) and arguments.
type Cases = (Vec<ToolModel>, Vec<(usize, Value)>);

fn cases() -> &'static Cases {
    static CASES: std::sync::OnceLock<Cases> = std::sync::OnceLock::new();
    CASES.get_or_init(|| {
        let calls = EXPANDED
            .lines()
            .filter_map(|line| {
                let case: Value = serde_json::from_str(line).unwrap();
                let arguments = serde_json::from_str(case["arguments"].as_str()?).ok()?;
                Some((case["corpus_line"].as_u64()? as usize, arguments))
            })
            .collect();
        (corpus_models(), calls)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn schema_at_and_the_alignment_step_alike(call in any::<Index>(), at in any::<Index>(), how in any::<u8>()) {
        let (models, calls) = cases();
        let (line, arguments) = &calls[call.index(calls.len())];
        let model = &models[*line];
        let mut all = Vec::new();
        paths(arguments, Path::root(), &mut all);
        if all.is_empty() {
            return Ok(());
        }
        let path = &all[at.index(all.len())];
        let sent = respelled(path, how);
        let mut issue = Issue::new(sent.clone(), Constraint::Type, "wrong");
        align(model, &mut issue);
        // Aligning twice changes nothing: the aligned path names fields by their names.
        let mut again = issue.clone();
        align(model, &mut again);
        prop_assert_eq!(&again.path, &issue.path);
        // Where the path as sent leads, the aligned one leads to the same schema (aligning
        // only renames keys to the fields they fold to).
        if let Some(schema) = model.schema_at(&sent) {
            let aligned = model.schema_at(&issue.path);
            prop_assert!(aligned.is_some_and(|aligned| std::ptr::eq(aligned, schema)));
        }
        // A path that leads somewhere as sent (each key a field's name, an undeclared key's
        // or a map's) is kept as it is (BFCL's tools declare no aliases, which alignment
        // would rename to their field's name).
        if model.schema_at(path).is_some() {
            let mut kept = Issue::new(path.clone(), Constraint::Type, "wrong");
            align(model, &mut kept);
            prop_assert_eq!(&kept.path, path);
        }
    }
}

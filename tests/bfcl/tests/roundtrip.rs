//! Every BFCL corpus tool: schema → generated Rust → `Tool::model()` keeps every constraint
//! of the schema as read (see `toolgate_tests::roundtrip`), and the JSON Schema the type
//! writes reads back to the type's own model.

use serde_json::Value;
use toolgate::model::ToolModel;
use toolgate_tests::corpus::{corpus_models, CASES};
use toolgate_tests::roundtrip::constraint_differences;

#[test]
fn generated_types_keep_every_constraint_of_their_schema() {
    let mut checked = vec![false; toolgate_bfcl::TOOLS];
    let mut differences = Vec::new();
    let mut known = Vec::new();
    let models = corpus_models();
    for ((line, text), original) in CASES.lines().enumerate().zip(&models) {
        let tool = toolgate_bfcl::LINE_TYPES[line];
        if std::mem::replace(&mut checked[tool], true) {
            continue;
        }
        let case: Value = serde_json::from_str(text).unwrap();
        let generated = toolgate_bfcl::model(tool).unwrap();
        let found = constraint_differences(original, generated);
        for difference in found.lost {
            differences.push(format!(
                "{} ({}): {difference}",
                case["id"],
                original.name()
            ));
        }
        known.extend(found.known);
        let reread = ToolModel::from_json_schema(generated.json_schema()).unwrap();
        assert!(
            constraint_differences(generated, &reread).lost.is_empty(),
            "{}: the generated type's JSON Schema does not read back to its model",
            case["id"]
        );
    }
    assert!(checked.iter().all(|c| *c));
    println!(
        "{} tools compared; known differences: {}",
        checked.len(),
        known.len()
    );
    for line in &known {
        println!("  {line}");
    }
    assert!(
        differences.is_empty(),
        "{} differences:\n{}",
        differences.len(),
        differences.join("\n")
    );
}

/// The same for every golden schema (`tests/schemas`): nothing lost; what differs by design
/// is printed.
#[test]
fn golden_types_keep_every_constraint_of_their_schema() {
    use toolgate::model::Json;
    use toolgate_core::model::read::{read_parts, unwrap_definition};

    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let mut originals = Vec::new();
    for entry in std::fs::read_dir(folder).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let json: Json = serde_json::from_str(&text).unwrap();
        let definitions = match json {
            Json::Array(items) => items,
            one => vec![one],
        };
        for definition in definitions {
            let parts = unwrap_definition(definition);
            if let (Some(name), Some((_, output))) = (&parts.name, parts.output_schema) {
                originals.push(read_parts(Some(format!("{name}_output")), None, output).unwrap());
            }
            originals.push(read_parts(parts.name, parts.description, parts.schema).unwrap());
        }
    }
    assert_eq!(originals.len(), toolgate_bfcl::goldens::TOOLS.len());
    let mut lost = Vec::new();
    for (name, model) in toolgate_bfcl::goldens::TOOLS {
        let original = originals.iter().find(|m| m.name() == *name).unwrap();
        let found = constraint_differences(original, model());
        lost.extend(found.lost.iter().map(|d| format!("{name}: {d}")));
        for known in found.known {
            println!("  {name}: {known}");
        }
    }
    assert!(lost.is_empty(), "constraints lost:\n{}", lost.join("\n"));
}

//! Issue 27 §5 and §9 (G3-G5): what the schema compiler writes, the derive reads back to the
//! very schema. Tested at the layer the derive sees: the generated file's text, parsed with
//! syn, read by the derive's front end (parse and check) or expanded by the whole derive.
//! (The compiled corpora, `tests/hostile-gen` and `tests/tools-dev-gen`, compare the
//! generated types' models with the schemas as read.)
//!
//! Exact means: the description character for character (`None` stays `None`), and every
//! keyword of the schema, spelled as the reader writes it (`2.0` stays `2.0`). The one
//! addition is documented: a Rust integer or float type brings its width (`format`, and
//! the type's range as `minimum`/`maximum` where the schema sets none).

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use toolgate_core::model::{Kind, Schema, ToolModel};

use super::hostile::described;
use crate::schema::Builder;

/// Text that is hard to carry through a doc comment or an attribute.
pub(super) fn description() -> impl Strategy<Value = String> {
    let pieces = prop_oneof![
        8 => prop::sample::select(vec![
            "two", "paragraphs", " ", "  ", "\t", "\n", "\n\n", "\n \n", "\r", "\r\n", "*/",
            "/*", "```", "```rust\n", "~~~", "#", "# ", "#]", "\"", "\"#", "r#\"", "'", "\\",
            "é", "名前", "😀", "\u{202E}", "\u{0}", "\u{7f}", "- ", "* ", "1. ", "> ", "<b>",
            "[x]", "    ", "https://a.io", "`code`", "|", "---", "\u{a0}", "\u{feff}",
        ])
        .prop_map(str::to_owned),
        1 => any::<String>(),
    ];
    prop::collection::vec(pieces, 0..16).prop_map(|pieces| pieces.concat())
}

/// A JSON number as a schema may write it.
fn number_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i32>().prop_map(|n| n.to_string()),
        any::<i32>().prop_map(|n| format!("{n}.0")),
        (1u32..100).prop_map(|n| format!("{n}e2")),
        (1u32..2000).prop_map(|n| format!("{}", f64::from(n) / 8.0)),
        prop::sample::select(vec![
            "0.5",
            "1.5",
            "0.25",
            "0.1",
            "2.0",
            "1e20",
            "-1e20",
            "9007199254740993",
            "18446744073709551615",
            "-9223372036854775808",
            "9223372036854775807",
            "1e-3",
        ])
        .prop_map(str::to_owned),
    ]
}

/// Numeric keywords: each present or not.
fn numeric_keywords() -> impl Strategy<Value = Vec<(&'static str, String)>> {
    let keywords = [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
    ];
    prop::collection::vec(prop::option::of(number_text()), 5).prop_map(move |texts| {
        keywords
            .iter()
            .zip(texts)
            .filter_map(|(keyword, text)| Some((*keyword, text?)))
            // `multipleOf` is above 0 (the reader refuses others).
            .map(|(keyword, text)| match keyword {
                "multipleOf" if text.parse::<f64>().is_ok_and(|n| n == 0.0) => {
                    (keyword, "3".to_owned())
                }
                "multipleOf" => (keyword, text.trim_start_matches('-').to_owned()),
                _ => (keyword, text),
            })
            .collect()
    })
}

/// A schema object of `kind` with the numeric keywords written as given (by hand: the
/// number text stays as generated).
fn numeric_schema(kind: &str, keywords: &[(&str, String)], description: &str) -> String {
    let mut text = format!(
        r#"{{"type": "{kind}", "description": {}"#,
        Value::from(description)
    );
    for (keyword, number) in keywords {
        text.push_str(&format!(r#", "{keyword}": {number}"#));
    }
    text.push('}');
    text
}

/// The generated struct called `name`, parsed.
pub(super) fn generated_struct(code: &str, name: &str) -> syn::ItemStruct {
    let file = syn::parse_file(code).expect("generated code parses");
    file.items
        .into_iter()
        .find_map(|item| match item {
            syn::Item::Struct(item) if item.ident == name => Some(item),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no struct {name} in\n{code}"))
}

/// Every keyword of `source` is in `derived` with the same text; `derived` adds only its
/// type's width. Descriptions are compared apart.
fn same_keywords(source: &Schema, derived: &Schema) -> Result<(), String> {
    let object = |schema: &Schema| match schema.to_json_value() {
        Value::Object(mut members) => {
            members.remove("description");
            members
        }
        other => Map::from_iter([("(schema)".to_owned(), other)]),
    };
    let (source, derived) = (object(source), object(derived));
    for (keyword, value) in &source {
        match derived.get(keyword) {
            // `Value` equality tells `2` from `2.0`, as the text does.
            Some(found) if found == value => {}
            found => return Err(format!("{keyword}: {value} became {found:?}")),
        }
    }
    for (keyword, value) in &derived {
        let width = keyword == "format" || keyword == "minimum" || keyword == "maximum";
        if !source.contains_key(keyword) && !width {
            return Err(format!("{keyword}: {value} added"));
        }
    }
    Ok(())
}

/// Every item of the generated code, run through the whole derive: the `compile_error!`s
/// it writes.
pub(super) fn derive_errors(code: &str) -> Vec<String> {
    let file = syn::parse_file(code).expect("generated code parses");
    let mut errors = Vec::new();
    for item in file.items {
        let tokens = match item {
            syn::Item::Struct(item) => quote::ToTokens::into_token_stream(item),
            syn::Item::Enum(item) => quote::ToTokens::into_token_stream(item),
            _ => continue,
        };
        let expanded = crate::derive_tool(tokens).to_string();
        if let Some(at) = expanded.find("compile_error") {
            errors.push(expanded[at..].chars().take(300).collect());
        }
    }
    errors
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random descriptions on the tool, a string, an integer and a number, and random
    /// numeric keywords on the integer and the number: the derive reads back each
    /// description exactly and each keyword as written.
    #[test]
    fn descriptions_and_numeric_keywords_are_read_back_exactly(
        tool_description in description(),
        texts in prop::collection::vec(description(), 3),
        integer in numeric_keywords(),
        number in numeric_keywords(),
    ) {
        let definition = format!(
            r#"{{"name": "t", "description": {}, "parameters": {{"type": "object", "properties": {{
                "s": {{"type": "string", "description": {}}},
                "n": {},
                "x": {}}}}}}}"#,
            Value::from(tool_description.as_str()),
            Value::from(texts[0].as_str()),
            numeric_schema("integer", &integer, &texts[1]),
            numeric_schema("number", &number, &texts[2]),
        );
        let source = ToolModel::from_definition_text(&definition)
            .unwrap_or_else(|e| panic!("{e}\n{definition}"));
        let code = Builder::new()
            .generate_text("t.json", &definition)
            .unwrap_or_else(|e| panic!("{e}\n{definition}"));
        let item = generated_struct(&code, "T");
        let tool_description = described(&item.attrs);
        prop_assert_eq!(tool_description.as_deref(), source.description(), "{}", code);
        let fields = crate::derive::front_end_fields(&item)
            .unwrap_or_else(|e| panic!("{e}\n{code}"));
        let Kind::Object(object) = &source.input().kind else {
            panic!("an object: {definition}")
        };
        prop_assert_eq!(fields.len(), object.fields.len());
        for (field, read) in object.fields.iter().zip(&fields) {
            prop_assert_eq!(&field.name, &read.wire_name);
            if let Some(text) = &read.schema_text {
                // Held as JSON: the text is the schema, description included.
                let held: Value = serde_json::from_str(text).unwrap();
                prop_assert_eq!(&held, &field.schema.to_json_value(), "{}", code);
                continue;
            }
            prop_assert_eq!(&field.schema.description, &read.description, "{}", code);
            if let Some(derived) = &read.schema {
                if let Err(difference) = same_keywords(&field.schema, derived) {
                    prop_assert!(false, "{}: {}\n{}\n{}", field.name, difference, definition, code);
                }
            }
        }
        prop_assert_eq!(derive_errors(&code), Vec::<String>::new(), "{}", code);
    }

    /// G3-G5: string enums with values written twice, examples that fit or not, and
    /// definitions named like the types the derive reads by name: the derive takes every
    /// item the compiler writes.
    #[test]
    fn the_derive_takes_what_the_compiler_writes(
        values in prop::collection::vec(prop::sample::select(vec!["a", "b", "A", "a b", ""]), 1..6),
        examples in prop::collection::vec(prop_oneof![
            any::<i64>().prop_map(Value::from),
            any::<bool>().prop_map(Value::from),
            "[a-z]{0,3}".prop_map(Value::from),
            (0u8..10).prop_map(|n| Value::from(f64::from(n) + 0.5)),
        ], 0..4),
        names in prop::collection::vec(prop::sample::select(vec![
            "Box", "Vec", "Option", "HashMap", "BTreeMap", "Duration", "PathBuf", "Arc",
            "String", "Value", "Nullable", "Result", "Some", "None", "Place", "i64", "bool",
        ]), 1..4),
    ) {
        let mut defs = Map::new();
        let mut properties = Map::new();
        properties.insert("e".into(), json!({"type": "string", "enum": values}));
        properties.insert("n".into(), json!({"type": "integer", "maximum": 5, "examples": examples}));
        for (index, name) in names.iter().enumerate() {
            defs.insert((*name).to_owned(), json!({"type": "object", "properties": {"v": {"type": "integer"}}}));
            let reference = json!({"$ref": format!("#/$defs/{name}")});
            let property = match index % 3 {
                0 => reference,
                1 => json!({"type": "array", "items": reference}),
                _ => json!({"type": "object", "additionalProperties": reference}),
            };
            properties.insert(format!("p{index}"), property);
        }
        let definition = json!({"name": "t", "parameters": {
            "type": "object", "properties": properties, "$defs": defs}});
        let code = Builder::new()
            .generate_text("t.json", &definition.to_string())
            .unwrap_or_else(|e| panic!("{e}\n{definition}"));
        prop_assert_eq!(derive_errors(&code), Vec::<String>::new(), "{}", code);
    }
}

/// The fuzz seeds of G3-G5 (`fuzz/seeds/gen/crash-*.json`): compiled, and taken by the derive.
#[test]
fn the_fuzz_findings_compile() {
    for seed in [
        r#"{"name":"t","parameters":{"type":"object","properties":{"c":{"type":"string","enum":["a","a"]}}}}"#,
        r#"{"name":"t","parameters":{"type":"object","properties":{"n":{"type":"integer","examples":["x"]}}}}"#,
        r##"{"title":"t","type":"object","properties":{"s":{"$ref":"#/$defs/Box"}},"required":["s"],"$defs":{"Box":{"type":"object","properties":{"x":{"type":"integer"}}}}}"##,
    ] {
        let code = Builder::new().generate_text("t.json", seed).unwrap();
        assert_eq!(derive_errors(&code), Vec::<String>::new(), "{code}");
    }
}

use serde_json::json;

use super::*;

fn model(schema: Value) -> ToolModel {
    ToolModel::from_json_schema(&schema.to_string()).expect("a usable schema")
}

#[test]
fn the_flavours_that_take_every_keyword_keep_the_schema_and_drop_nothing() {
    let tool = model(
        json!({"title": "t", "type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}}),
    );
    for flavour in [
        Flavour::JsonSchema,
        Flavour::Mcp,
        Flavour::OpenAi,
        Flavour::Anthropic,
    ] {
        let flavoured = tool.schema_for(flavour).unwrap();
        assert_eq!(flavoured.schema.to_string(), tool.json_schema());
        assert_eq!(
            serde_json::to_string(&flavoured.schema).unwrap(),
            tool.json_schema()
        );
        assert!(flavoured.dropped.is_empty());
        assert_eq!(flavoured.size.bytes, tool.json_schema().len());
        assert_eq!(flavoured.size.tokens, tool.json_schema().len().div_ceil(4));
    }
}

#[test]
fn a_root_union_of_objects_is_an_mcp_input_schema_but_not_a_strict_one() {
    let tool = model(json!({"title": "t", "type": "object", "anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"]}
    ]}));
    for flavour in [Flavour::Mcp, Flavour::OpenAi] {
        let flavoured = tool.schema_for(flavour).unwrap();
        let schema = flavoured.schema.to_value();
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["anyOf"].as_array().unwrap().len(), 2);
        assert_eq!(flavoured.dropped.len(), 1);
        assert_eq!(flavoured.dropped[0].to_string(), "/ type rewritten");
    }
    let error = tool.schema_for(Flavour::Anthropic).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("anthropic cannot express a union at the root"),
        "{error}"
    );
    let error = tool.schema_for(Flavour::OpenAiStrict).unwrap_err();
    assert_eq!(
        error.to_string(),
        "t: openai-strict cannot express arguments that are not one object (no root anyOf) (at )"
    );
}

#[test]
fn the_schema_true_is_an_object_for_the_flavours_that_want_one_and_false_is_refused() {
    for flavour in [Flavour::Mcp, Flavour::OpenAi, Flavour::Anthropic] {
        let flavoured = flavoured("t", flavour, Json::Bool(true), true).unwrap();
        assert_eq!(flavoured.schema.to_value(), json!({"type": "object"}));
        assert_eq!(flavoured.dropped.len(), 1);
        assert_eq!(flavoured.dropped[0].to_string(), "/ type rewritten");
        let error = flavoured_error("t", flavour, Json::Bool(false));
        assert!(
            error.contains("arguments that are not an object"),
            "{error}"
        );
    }
    let plain = flavoured("t", Flavour::JsonSchema, Json::Bool(true), true).unwrap();
    assert_eq!(plain.schema, Json::Bool(true));
}

fn flavoured_error(name: &str, flavour: Flavour, schema: Json) -> String {
    flavoured(name, flavour, schema, true)
        .unwrap_err()
        .to_string()
}

#[test]
fn strict_mode_closes_objects_requires_every_property_and_reports_each_change() {
    let tool = model(json!({
        "title": "t", "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "examples": ["Ada"]},
            "count": {"type": "integer", "format": "uint8"},
            "kind": {"enum": ["a", "b"]},
            "shape": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "when": {"type": "string", "format": "uri"}
        },
        "required": ["name"]
    }));
    let strict = tool.schema_for(Flavour::OpenAiStrict).unwrap();
    let schema = &strict.schema.to_value();
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(
        schema["required"],
        json!(["count", "kind", "name", "shape", "when"])
    );
    assert_eq!(
        schema["properties"]["count"]["type"],
        json!(["integer", "null"])
    );
    assert_eq!(schema["properties"]["count"]["minimum"], 0);
    assert_eq!(schema["properties"]["count"]["maximum"], 255);
    assert_eq!(
        schema["properties"]["kind"]["type"],
        json!(["string", "null"])
    );
    assert_eq!(
        schema["properties"]["kind"]["enum"],
        json!(["a", "b", null])
    );
    assert!(schema["properties"]["shape"].get("oneOf").is_none());
    assert_eq!(
        schema["properties"]["shape"]["anyOf"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(
        schema["properties"]["when"]["description"],
        "(format: \"uri\")"
    );
    let report: Vec<String> = strict.dropped.iter().map(ToString::to_string).collect();
    for line in [
        "/properties/name minLength moved_to_description",
        "/properties/name examples removed",
        "/properties/count format rewritten",
        "/properties/shape oneOf rewritten",
        "/properties/when format moved_to_description",
        "/ additionalProperties rewritten",
        "/ required rewritten (count)",
        "/ title removed",
    ] {
        assert!(
            report.iter().any(|l| l == line),
            "{line} not in {report:#?}"
        );
    }
    let without = tool.schema_for_with(Flavour::OpenAiStrict, false).unwrap();
    assert!(without.schema.to_value()["properties"]["when"]
        .get("description")
        .is_none());
    assert!(without
        .dropped
        .iter()
        .all(|d| d.action != Action::MovedToDescription));
}

#[test]
fn what_strict_mode_cannot_say_is_refused_with_its_path() {
    for (schema, what) in [
        (
            json!({"title": "t", "type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}),
            "/properties/m",
        ),
        (
            json!({"title": "t", "type": "object", "properties": {"any": {}}}),
            "/properties/any",
        ),
    ] {
        let error = model(schema).schema_for(Flavour::OpenAiStrict).unwrap_err();
        assert!(error.to_string().contains(what), "{error}");
    }
}

#[test]
fn strict_mode_limits_are_errors_naming_the_limit() {
    let values: Vec<String> = (0..1001).map(|i| format!("v{i}")).collect();
    let tool =
        model(json!({"title": "t", "type": "object", "properties": {"e": {"enum": values}}}));
    let error = tool.schema_for(Flavour::OpenAiStrict).unwrap_err();
    assert_eq!(
        error.to_string(),
        "t: openai-strict allows at most 1000 enum values; the schema has 1001"
    );
    let mut deep = json!({"type": "string"});
    for _ in 0..11 {
        deep = json!({"type": "object", "properties": {"n": deep}});
    }
    deep["title"] = json!("t");
    let error = model(deep).schema_for(Flavour::OpenAiStrict).unwrap_err();
    assert!(error.to_string().contains("levels of nesting"), "{error}");
}

#[test]
fn flavour_names_read_back() {
    for flavour in Flavour::ALL {
        assert_eq!(flavour.name().parse::<Flavour>(), Ok(flavour));
    }
    assert!("gemini-3".parse::<Flavour>().unwrap_err().contains(
        "openai-strict, openai, anthropic, anthropic-strict, gemini, gemini-json, mcp, json-schema"
    ));
}

fn report(flavoured: &FlavouredSchema) -> Vec<String> {
    flavoured.dropped.iter().map(ToString::to_string).collect()
}

fn assert_reports(flavoured: &FlavouredSchema, lines: &[&str]) {
    let report = report(flavoured);
    for line in lines {
        assert!(
            report.iter().any(|l| l == line),
            "{line} not in {report:#?}"
        );
    }
}

#[test]
fn anthropic_strict_closes_objects_keeps_optional_properties_and_moves_what_it_refuses() {
    let tool = model(json!({
        "title": "t", "type": "object",
        "properties": {
            "age": {"type": "integer", "minimum": 0, "maximum": 150},
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "maxLength": 3},
            "word": {"type": "string", "pattern": "\\bword\\b"},
            "long": {"type": "string", "pattern": "^a{1,500}$"},
            "site": {"type": "string", "format": "uri"},
            "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 5},
            "some": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "shape": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
        },
        "required": ["age"]
    }));
    let strict = tool.schema_for(Flavour::AnthropicStrict).unwrap();
    let schema = strict.schema.to_value();
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["required"], json!(["age"]));
    assert_eq!(schema["properties"]["code"]["pattern"], "^[A-Z]{3}$");
    assert_eq!(schema["properties"]["site"]["format"], "uri");
    assert_eq!(schema["properties"]["some"]["minItems"], 1);
    assert!(schema["properties"]["shape"].get("anyOf").is_some());
    assert_eq!(
        schema["properties"]["age"]["description"],
        "(minimum: 0; maximum: 150)"
    );
    assert_reports(
        &strict,
        &[
            "/properties/age minimum moved_to_description",
            "/properties/code maxLength moved_to_description",
            "/properties/word pattern moved_to_description",
            "/properties/long pattern moved_to_description",
            "/properties/tags minItems moved_to_description",
            "/properties/tags maxItems moved_to_description",
            "/properties/shape oneOf rewritten",
            "/ additionalProperties rewritten",
        ],
    );
    assert!(!report(&strict)
        .iter()
        .any(|l| l.starts_with("/properties/code pattern")));
}

#[test]
fn what_anthropic_strict_cannot_say_is_refused_and_its_limits_are_errors() {
    let recursive = json!({"title": "t", "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/node"}},
        "$defs": {"node": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}}});
    for (schema, expected) in [
        (
            recursive,
            "a recursive definition (strict tool use refuses recursive schemas) (at /$defs/node)",
        ),
        (
            json!({"title": "t", "type": "object", "properties": {"any": {}}}),
            "(at /properties/any)",
        ),
        (
            json!({"title": "t", "type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}),
            "free-form keys",
        ),
        (
            json!({"title": "t", "anyOf": [{"type": "object"}, {"type": "object", "properties": {"a": {"type": "string"}}}]}),
            "a union at the root",
        ),
    ] {
        let error = model(schema)
            .schema_for(Flavour::AnthropicStrict)
            .unwrap_err();
        assert!(error.to_string().contains(expected), "{error}");
    }
    let optional: serde_json::Map<String, Value> = (0..25)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let error = model(json!({"title": "t", "type": "object", "properties": optional}))
        .schema_for(Flavour::AnthropicStrict)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "t: anthropic-strict allows at most 24 optional properties; the schema has 25"
    );
    let unions: serde_json::Map<String, Value> = (0..17)
        .map(|i| (format!("p{i}"), json!({"type": ["string", "null"]})))
        .collect();
    let names: Vec<String> = unions.keys().cloned().collect();
    let error =
        model(json!({"title": "t", "type": "object", "properties": unions, "required": names}))
            .schema_for(Flavour::AnthropicStrict)
            .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("at most 16 properties with a union type"),
        "{error}"
    );
}

#[test]
fn gemini_inlines_definitions_makes_nulls_nullable_and_enums_text() {
    let tool = model(json!({
        "title": "t", "type": "object",
        "properties": {
            "note": {"type": ["string", "null"], "maxLength": 9},
            "level": {"type": "integer", "enum": [1, 2, 3]},
            "ratio": {"type": "number", "enum": [0.5, 1.5]},
            "flag": {"type": "boolean", "enum": [true]},
            "mode": {"const": "fast"},
            "small": {"type": "integer", "format": "uint8"},
            "count": {"type": "integer", "format": "int32", "exclusiveMinimum": 0},
            "home": {"$ref": "#/$defs/place", "description": "Where they live"},
            "work": {"anyOf": [{"$ref": "#/$defs/place"}, {"type": "null"}]},
            "extra": {"type": "object", "additionalProperties": {"type": "string"}}
        },
        "$defs": {"place": {"type": "object", "description": "A place",
            "properties": {"city": {"type": "string"}}, "required": ["city"]}}
    }));
    let gemini = tool.schema_for(Flavour::Gemini).unwrap();
    let schema = gemini.schema.to_value();
    let properties = &schema["properties"];
    assert!(schema.get("$defs").is_none());
    assert_eq!(properties["note"]["type"], "string");
    assert_eq!(properties["note"]["nullable"], true);
    assert_eq!(properties["note"]["maxLength"], 9);
    assert_eq!(properties["level"]["type"], "string");
    assert_eq!(properties["level"]["enum"], json!(["1", "2", "3"]));
    assert_eq!(properties["ratio"]["enum"], json!(["0.5", "1.5"]));
    assert_eq!(properties["flag"]["type"], "boolean");
    assert!(properties["flag"].get("enum").is_none());
    assert_eq!(
        properties["mode"],
        json!({"type": "string", "enum": ["fast"]})
    );
    assert_eq!(properties["count"]["format"], "int32");
    assert!(properties["small"].get("format").is_none());
    assert_eq!(properties["home"]["description"], "Where they live");
    assert_eq!(properties["home"]["properties"]["city"]["type"], "string");
    assert_eq!(properties["work"]["nullable"], true);
    assert_eq!(properties["work"]["properties"]["city"]["type"], "string");
    assert!(properties["work"].get("anyOf").is_none());
    assert_reports(
        &gemini,
        &[
            "/ $defs rewritten",
            "/properties/home $ref rewritten",
            "/properties/work/anyOf/0 $ref rewritten",
            "/properties/note type rewritten",
            "/properties/level enum rewritten",
            "/properties/flag enum moved_to_description",
            "/properties/mode const rewritten",
            "/properties/small format moved_to_description",
            "/properties/count exclusiveMinimum moved_to_description",
            "/properties/extra additionalProperties moved_to_description",
            "/properties/work anyOf rewritten",
        ],
    );
    // Every node has one type (or a union), and no keyword outside the Schema's fields.
    let text = gemini.schema.to_string();
    for gone in [
        "\"$ref\"",
        "\"const\"",
        "\"oneOf\"",
        "\"additionalProperties\"",
        "[\"string\",\"null\"]",
    ] {
        assert!(!text.contains(gone), "{gone} in {text}");
    }
}

#[test]
fn what_gemini_cannot_say_is_refused_and_inlining_is_bounded() {
    let recursive = json!({"title": "t", "type": "object",
        "properties": {"tree": {"$ref": "#/$defs/node"}},
        "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}}});
    let error = model(recursive).schema_for(Flavour::Gemini).unwrap_err();
    assert!(
        error.to_string().contains("a recursive definition"),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .ends_with("(at /properties/tree/properties/next)"),
        "{error}"
    );
    let error = model(json!({"title": "t", "type": "object", "properties": {"any": {}}}))
        .schema_for(Flavour::Gemini)
        .unwrap_err();
    assert!(error.to_string().contains("a value of any type"), "{error}");

    // Each definition uses the next twice: 2^30 nodes once inlined, stopped at the bound.
    let mut definitions = serde_json::Map::new();
    for level in 0..30 {
        let next = json!({"$ref": format!("#/$defs/d{}", level + 1)});
        definitions.insert(
            format!("d{level}"),
            json!({"type": "object", "properties": {"a": next, "b": next}}),
        );
    }
    definitions.insert("d30".into(), json!({"type": "string"}));
    let doubling = json!({"title": "t", "type": "object",
        "properties": {"root": {"$ref": "#/$defs/d0"}}, "$defs": definitions});
    match model(doubling).schema_for(Flavour::Gemini).unwrap_err() {
        FlavourError::OverLimit {
            max, found, limit, ..
        } => {
            assert_eq!((max, found), (MAX_INLINED_NODES, MAX_INLINED_NODES + 1));
            assert_eq!(limit, "schema nodes once definitions are inlined");
        }
        other => panic!("{other}"),
    }
}

#[test]
fn gemini_json_keeps_what_it_reads_and_moves_what_it_ignores_into_the_description() {
    let tool = model(json!({
        "title": "t", "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "title": "Name"},
            "mail": {"type": "string", "format": "email"},
            "day": {"type": "string", "format": "date"},
            "pick": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "mode": {"const": "fast"},
            "size": {"type": "integer", "minimum": 1, "multipleOf": 2},
            "home": {"$ref": "#/$defs/place", "description": "Where they live"}
        },
        "$defs": {"place": {"type": "object", "properties": {"city": {"type": "string"}}}}
    }));
    let flavoured = tool.schema_for(Flavour::GeminiJson).unwrap();
    let schema = flavoured.schema.to_value();
    let properties = &schema["properties"];
    assert_eq!(properties["name"]["title"], "Name");
    assert_eq!(properties["name"]["description"], "(minLength: 1)");
    assert_eq!(properties["day"]["format"], "date");
    assert!(properties["mail"].get("format").is_none());
    assert!(properties["pick"].get("anyOf").is_some());
    assert_eq!(properties["mode"]["enum"], json!(["fast"]));
    assert_eq!(properties["size"]["minimum"], 1);
    assert_eq!(properties["home"], json!({"$ref": "#/$defs/place"}));
    assert_eq!(
        schema["$defs"]["place"]["properties"]["city"]["type"],
        "string"
    );
    assert_reports(
        &flavoured,
        &[
            "/properties/name minLength moved_to_description",
            "/properties/mail format moved_to_description",
            "/properties/pick oneOf rewritten",
            "/properties/mode const rewritten",
            "/properties/size multipleOf moved_to_description",
            "/properties/home description removed",
        ],
    );
}

#[test]
fn the_losses_of_a_flavour_are_its_lost_constraints_or_why_it_cannot_say_the_tool() {
    let tool = model(json!({"title": "t", "type": "object",
        "properties": {"a": {"type": "string", "maxLength": 3, "title": "A"}}}));
    let losses: Vec<String> = tool
        .flavour_losses(Flavour::AnthropicStrict)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        losses,
        ["/properties/a: anthropic-strict drops `maxLength: 3` (moved to the description); the gate still enforces it"]
    );
    assert!(tool.flavour_losses(Flavour::Anthropic).is_empty());
    let map = model(json!({"title": "t", "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}));
    let losses = map.flavour_losses(Flavour::OpenAiStrict);
    assert_eq!(losses.len(), 1);
    assert_eq!(losses[0].path, "/properties/m");
    assert!(losses[0].message.contains("cannot express free-form keys"));
}

#[test]
fn a_long_chain_of_definitions_is_walked_once_for_recursion() {
    // 3,000 definitions, each using the next; the last uses the first. Each definition is
    // walked once (a walk per definition would be 4.5 million steps).
    let count = 3000;
    let mut definitions = serde_json::Map::new();
    for index in 0..count {
        let next = format!("#/$defs/d{}", (index + 1) % count);
        definitions.insert(
            format!("d{index}"),
            json!({"type": "object", "properties": {"next": {"$ref": next}}}),
        );
    }
    let schema = json!({"title": "t", "type": "object",
        "properties": {"head": {"$ref": "#/$defs/d0"}}, "$defs": definitions});
    let written: Json = serde_json::from_value(schema.clone()).unwrap();
    assert!(walk::recursive_definition(&written).is_some());
    let error = model(schema)
        .schema_for(Flavour::AnthropicStrict)
        .unwrap_err();
    assert!(
        error.to_string().contains("a recursive definition"),
        "{error}"
    );
    // Without the closing reference there is no recursion.
    definitions.insert(format!("d{}", count - 1), json!({"type": "string"}));
    let chain: Json = serde_json::from_value(json!({"$defs": definitions})).unwrap();
    assert_eq!(walk::first_cycle(&chain), (None, count));
}

#[test]
fn strict_mode_keeps_a_reference_s_description_in_a_one_branch_any_of() {
    let tool = model(json!({"title": "t", "type": "object",
        "properties": {
            "home": {"$ref": "#/$defs/place", "description": "Where they live"},
            "work": {"$ref": "#/$defs/place"}},
        "required": ["home", "work"],
        "$defs": {"place": {"type": "object", "properties": {"city": {"type": "string"}},
            "required": ["city"]}}}));
    let strict = tool.schema_for(Flavour::OpenAiStrict).unwrap();
    let schema = strict.schema.to_value();
    assert_eq!(
        schema["properties"]["home"],
        json!({"description": "Where they live", "anyOf": [{"$ref": "#/$defs/place"}]})
    );
    assert_eq!(
        schema["properties"]["work"],
        json!({"$ref": "#/$defs/place"})
    );
    assert_reports(&strict, &["/properties/home $ref rewritten"]);
}

#[test]
fn the_limits_of_a_request_count_every_strict_tool_together() {
    let tool = |name: &str, properties: Value| {
        model(json!({"title": name, "type": "object", "properties": properties}))
    };
    let unions: serde_json::Map<String, Value> = (0..9)
        .map(|i| (format!("u{i}"), json!({"type": ["string", "null"]})))
        .collect();
    let (a, b) = (tool("a", json!(unions)), tool("b", json!(unions)));
    let error = request_definitions(Flavour::AnthropicStrict, [&a, &b]).unwrap_err();
    assert_eq!(
        error.to_string(),
        "2 tools sent together: anthropic-strict allows at most 16 properties with a union type (anyOf or a list of types) over a request; they have 18"
    );
    // Each alone is within the limits.
    assert!(request_definitions(Flavour::AnthropicStrict, [&a]).is_ok());
    let many: Vec<ToolModel> = (0..21).map(|i| tool(&format!("t{i}"), json!({}))).collect();
    assert_eq!(
        request_definitions(Flavour::AnthropicStrict, &many)
            .unwrap_err()
            .to_string(),
        "21 tools sent together: anthropic-strict allows at most 20 strict tools over a request; they have 21"
    );
    // Other flavours set no limit over a request.
    let definitions = request_definitions(Flavour::Anthropic, &many).unwrap();
    assert_eq!(definitions.len(), 21);
    assert_eq!(
        definitions[0]
            .get("input_schema")
            .and_then(|s| s.get("type")),
        Some(&Json::String("object".into()))
    );
}

#[test]
fn inlining_a_long_chain_of_definitions_stops_at_the_depth_limit() {
    // 300 definitions, each holding the next: inlined, 300 levels deep; every later walk
    // would recurse that deep.
    let count = 300;
    let mut definitions = serde_json::Map::new();
    for index in 0..count {
        let next = json!({"$ref": format!("#/$defs/d{}", index + 1)});
        definitions.insert(
            format!("d{index}"),
            json!({"type": "object", "properties": {"next": next}}),
        );
    }
    definitions.insert(format!("d{count}"), json!({"type": "string"}));
    let schema = json!({"title": "t", "type": "object",
        "properties": {"head": {"$ref": "#/$defs/d0"}}, "$defs": definitions});
    match model(schema.clone())
        .schema_for(Flavour::Gemini)
        .unwrap_err()
    {
        FlavourError::OverLimit { limit, max, .. } => {
            assert_eq!(limit, "levels of nesting once definitions are inlined");
            assert_eq!(max, MAX_INLINED_DEPTH);
        }
        other => panic!("{other}"),
    }
    // The flavours that keep references send the chain as it is.
    assert!(model(schema).schema_for(Flavour::GeminiJson).is_ok());
}

/// A schema holding `inner` at `keyword`'s position of the shared table, as that position
/// holds it (one schema, a list of them, a map of them).
fn placed(keyword: &str, inner: Json) -> Json {
    use crate::model::positions::{holds, Holds};
    let value = match holds(keyword) {
        Some(Holds::One) => inner,
        Some(Holds::List) => Json::Array(vec![Json::Object(Vec::new()), inner]),
        _ => Json::Object(vec![("n".to_owned(), inner)]),
    };
    Json::Object(vec![(keyword.to_owned(), value)])
}

proptest::proptest! {
    /// The walks over a schema's text agree on where subschemas sit: a reference placed at
    /// any position of the shared table, nested any number of positions deep, is seen by the
    /// recursion check (Anthropic strict) and inlined by Gemini's inliner.
    #[test]
    fn every_walk_finds_a_reference_at_every_position(
        keywords in proptest::collection::vec(proptest::sample::select(
            crate::model::positions::ONE.iter()
                .chain(crate::model::positions::LISTS.iter())
                .chain(crate::model::positions::MAPS.iter().filter(|k| **k != "$defs"))
                .copied()
                .collect::<Vec<&str>>()
        ), 1..4),
    ) {
        let reference = Json::Object(vec![("$ref".to_owned(), Json::String("#/$defs/A".to_owned()))]);
        let body = keywords.iter().rev().fold(reference, |inner, keyword| placed(keyword, inner));
        let schema = Json::Object(vec![
            ("type".to_owned(), Json::String("object".to_owned())),
            ("$defs".to_owned(), Json::Object(vec![("A".to_owned(), body)])),
        ]);
        proptest::prop_assert_eq!(walk::recursive_definition(&schema), Some("A".to_owned()), "{}", schema);

        // A reference to a definition that holds none: inlined wherever it sits.
        let reference = Json::Object(vec![("$ref".to_owned(), Json::String("#/$defs/B".to_owned()))]);
        let body = keywords.iter().rev().fold(reference, |inner, keyword| placed(keyword, inner));
        let leaf = Json::Object(vec![("type".to_owned(), Json::String("string".to_owned()))]);
        let mut schema = Json::Object(vec![
            ("type".to_owned(), Json::String("object".to_owned())),
            ("properties".to_owned(), Json::Object(vec![("p".to_owned(), body)])),
            ("$defs".to_owned(), Json::Object(vec![("B".to_owned(), leaf)])),
        ]);
        let mut dropped = Vec::new();
        let mut walk = walk::Walk::new("t", Flavour::Gemini, &mut dropped, true);
        crate::provider::gemini::schema::inline_definitions(&mut walk, &mut schema).unwrap();
        proptest::prop_assert!(!schema.to_string().contains("$ref"), "{}", schema);
    }
}

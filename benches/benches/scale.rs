//! Does the run-time road stay linear as inputs grow? Each shape is decoded by a
//! [`toolgate::DynamicTool`] at two sizes, ten times apart; throughput is in items (fields,
//! enum values, array items, nesting levels), so criterion and `benches/ratios.py` show the
//! cost per item at both sizes. Linear work keeps that cost flat; an O(n²) path shows up as a
//! cost per item that grows with the size.
//!
//! | group | one call | items |
//! | --- | --- | --- |
//! | `scale_object` | an object of n fields, every key sent in another case (`key_case` finds each by folding) | n fields |
//! | `scale_enum` | one value of an n-value enum, sent in another case (`enum_case`): the lookup, not the list | 1 value (the cost per call should not grow with n) |
//! | `scale_array` | an array of n objects `{"id": i, "tag": "t"}` with `"id"` sent as a string (`string_to_number` on each) | n items |
//! | `scale_nesting` | n objects nested in one another, `{"next": {"next": … {"leaf": "7"}}}` | n levels |
//!
//! The folded lookups of wide objects and long enums are built once per model, before the
//! timing. Run it with `cargo bench -p toolgate-bench --bench scale`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde_json::{json, Value};
use toolgate::DynamicTool;

/// One shape at one size: the tool, the argument text, and how many items it decodes.
struct Case {
    items: usize,
    tool: DynamicTool,
    arguments: String,
}

/// A group: its name, how to build a case of a size, and the two sizes.
type Shape = (&'static str, fn(usize) -> Case, [usize; 2]);

fn tool(schema: Value) -> DynamicTool {
    DynamicTool::from_definition(&schema).expect("the bench schemas are usable")
}

fn wide_object(size: usize) -> Case {
    let names: Vec<String> = (0..size).map(|i| format!("field_{i}")).collect();
    let properties: serde_json::Map<String, Value> = names
        .iter()
        .map(|name| (name.clone(), json!({"type": "integer"})))
        .collect();
    let schema =
        json!({"title": "wide", "type": "object", "properties": properties, "required": names});
    let arguments: serde_json::Map<String, Value> = (0..size)
        .map(|i| (format!("FIELD_{i}"), json!(i)))
        .collect();
    Case {
        items: size,
        tool: tool(schema),
        arguments: Value::Object(arguments).to_string(),
    }
}

fn long_enum(size: usize) -> Case {
    let values: Vec<String> = (0..size).map(|i| format!("value_{i}")).collect();
    let schema = json!({"title": "pick", "type": "object",
        "properties": {"choice": {"type": "string", "enum": values}}, "required": ["choice"]});
    let arguments = json!({"choice": format!("VALUE-{}", size - 1)}).to_string();
    // One value is decoded, whatever the list's length.
    Case {
        items: 1,
        tool: tool(schema),
        arguments,
    }
}

fn long_array(size: usize) -> Case {
    let schema = json!({"title": "batch", "type": "object", "properties": {"items": {
        "type": "array",
        "items": {"type": "object", "properties": {"id": {"type": "integer"}, "tag": {"type": "string"}},
                  "required": ["id", "tag"]}}}, "required": ["items"]});
    let items: Vec<Value> = (0..size)
        .map(|i| json!({"id": i.to_string(), "tag": "t"}))
        .collect();
    Case {
        items: size,
        tool: tool(schema),
        arguments: json!({ "items": items }).to_string(),
    }
}

fn deep_nesting(size: usize) -> Case {
    let schema = json!({"title": "chain", "$defs": {"link": {"type": "object", "properties": {
            "next": {"$ref": "#/$defs/link"}, "leaf": {"type": "integer"}}}},
        "type": "object", "properties": {"next": {"$ref": "#/$defs/link"}}, "required": ["next"]});
    let mut arguments = json!({"leaf": "7"});
    for _ in 1..size {
        arguments = json!({ "next": arguments });
    }
    Case {
        items: size,
        tool: tool(schema),
        arguments: arguments.to_string(),
    }
}

fn scale(c: &mut Criterion) {
    let shapes: [Shape; 4] = [
        ("scale_object", wide_object, [20, 200]),
        ("scale_enum", long_enum, [500, 5_000]),
        ("scale_array", long_array, [1_000, 10_000]),
        ("scale_nesting", deep_nesting, [6, 64]),
    ];
    for (group_name, shape, sizes) in shapes {
        let mut group = c.benchmark_group(group_name);
        for size in sizes {
            let case = shape(size);
            // Every case is accepted, with its repairs: a refusal would time the wrong road.
            let decoded = case
                .tool
                .decode(&case.arguments)
                .unwrap_or_else(|rejected| panic!("{group_name}/{size} refused: {rejected}"));
            assert!(
                !decoded.repairs.is_empty(),
                "{group_name}/{size}: no repair made"
            );
            group.throughput(Throughput::Elements(case.items as u64));
            group.bench_with_input(BenchmarkId::from_parameter(size), &case, |b, case| {
                b.iter(|| case.tool.decode(black_box(&case.arguments)).is_ok())
            });
        }
        group.finish();
    }
}

criterion_group!(benches, scale);
criterion_main!(benches);

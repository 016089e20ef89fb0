//! Tools whose arguments are a union of object shapes (`{"type": "object", "anyOf": [{...},
//! {...}]}`: Cloudflare's and Finch's generated MCP tools, 12 tools of tools-dev) through the
//! run-time road. The definitions are copies, see `tests/data/root-unions/SOURCES.md`.

use serde_json::{json, Value};
use toolgate::DynamicTool;

fn tool(file: &str) -> DynamicTool {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/root-unions")
        .join(file);
    let definition: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    DynamicTool::from_definition(&definition).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn each_shape_of_purge_cache_is_taken() {
    let purge = tool("purge_cache.json");
    for arguments in [
        json!({"zone_id": "z1", "purge_everything": true}),
        json!({"zone_id": "z1", "tags": ["a", "b"]}),
        json!({"zone_id": "z1", "files": [{"url": "http://x/a.css", "headers": {"CF-IPCountry": "US"}}]}),
        json!({"zone_id": "z1", "jq_filter": ".id"}),
    ] {
        let decoded = purge.decode(&arguments.to_string()).unwrap();
        assert_eq!(decoded.value, arguments);
        assert!(decoded.repairs.is_empty(), "{:?}", decoded.repairs);
    }
}

#[test]
fn a_root_union_repairs_and_refuses_like_any_union() {
    let purge = tool("purge_cache.json");
    // A fence, and a number for the string every shape wants: repaired.
    let decoded = purge
        .decode("```json\n{\"zone_id\": 5, \"tags\": [\"a\"]}\n```")
        .unwrap();
    assert_eq!(decoded.value, json!({"zone_id": "5", "tags": ["a"]}));
    assert!(!decoded.repairs.is_empty());
    // No shape without `zone_id`.
    let rejected = purge.decode(r#"{"tags": ["a"]}"#).unwrap_err();
    assert!(!rejected.report.issues().is_empty());
    // Not an object at all, and not JSON.
    assert!(purge.decode("[1, 2]").is_err());
    assert!(purge.decode("null").is_err());
    assert!(purge.decode("{\"zone_id\": ").is_err());
}

#[test]
fn finch_job_shapes_are_told_apart_by_their_type() {
    let jobs = tool("create_jobs_automated.json");
    let sync = json!({"type": "data_sync_all"});
    assert_eq!(jobs.decode(&sync.to_string()).unwrap().value, sync);
    let w4 = json!({"type": "w4_form_employee_sync", "params": {"individual_id": "i1"}});
    assert_eq!(jobs.decode(&w4.to_string()).unwrap().value, w4);
    // The second shape needs its `params`.
    assert!(jobs.decode(r#"{"type": "w4_form_employee_sync"}"#).is_err());
    assert!(jobs.decode(r#"{"type": "other"}"#).is_err());
    // The enum's case, in the one shape that can take the value.
    let decoded = jobs.decode(r#"{"type": "DATA_SYNC_ALL"}"#).unwrap();
    assert_eq!(decoded.value, sync);
    assert!(!decoded.repairs.is_empty());
    // The property beside the union (`jq_filter`) is in every shape.
    let filtered = json!({"type": "data_sync_all", "jq_filter": ".job_id"});
    assert_eq!(jobs.decode(&filtered.to_string()).unwrap().value, filtered);
}

#[test]
fn a_root_union_with_a_shape_that_is_not_an_object_is_refused() {
    let definition = json!({"name": "t", "parameters": {"anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "string"}]}});
    let error = DynamicTool::from_definition(&definition).err().unwrap();
    assert!(
        error.to_string().contains("or a union of objects"),
        "{error}"
    );
}

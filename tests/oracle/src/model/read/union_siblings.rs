//! Constraints written beside a union (`{"type": "string", "anyOf": [...]}`), moved into
//! each of its alternatives, where they hold.

use super::keywords;
use crate::model::Json;

/// Annotations stay on a union when its sibling constraints move into the alternatives.
const UNION_ANNOTATIONS: [&str; 5] = ["description", "title", "default", "examples", "const"];

/// `{"type": "string", "anyOf": [A, B]}` as `{"anyOf": [{"allOf": [{"type": "string"}, A]},
/// ...]}`: constraints beside a union hold in every alternative, so each alternative gets them
/// (the same for `oneOf`: a value that fails them fails every alternative either way). `None`
/// when there is nothing to move, or when both `anyOf` and `oneOf` are written.
pub(super) fn distribute_into_union(
    members: &[(String, Json)],
    also_allowed: &[&str],
) -> Option<Json> {
    let is_union = |key: &str| key == "anyOf" || key == "oneOf";
    let mut unions = members.iter().filter(|(key, _)| is_union(key));
    let (union_key, Json::Array(variants)) = unions.next()? else {
        return None;
    };
    if unions.next().is_some() {
        return None;
    }
    // Annotations and unknown keywords stay on the union (reported once, there).
    let stays = |key: &str| {
        is_union(key)
            || UNION_ANNOTATIONS.contains(&key)
            || keywords::constrains_nothing(key)
            || also_allowed.contains(&key)
    };
    let moved: Vec<(String, Json)> = members
        .iter()
        .filter(|(key, _)| !stays(key))
        .cloned()
        .collect();
    if moved.is_empty() {
        return None;
    }
    let variants = variants
        .iter()
        .map(|variant| {
            Json::Object(vec![(
                "allOf".to_owned(),
                Json::Array(vec![Json::Object(moved.clone()), variant.clone()]),
            )])
        })
        .collect();
    let mut rewritten: Vec<(String, Json)> = members
        .iter()
        .filter(|(key, _)| stays(key) && !is_union(key))
        .cloned()
        .collect();
    rewritten.push((union_key.clone(), Json::Array(variants)));
    Some(Json::Object(rewritten))
}

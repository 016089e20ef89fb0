//! The hint's `example_input`: a placeholder for each missing field, nested as the arguments
//! nest, members in the order of the schema's fields.

use super::parts::capped_refs;
use super::{phrase, schema_pair};
use crate::model::{Json, Kind, ToolModel};
use crate::path::Segment;
use crate::plan::KeyMatch;
use crate::values::list_value_refs;
use crate::{Issue, Path};
use serde_json::Value;

fn placeholder(model: &ToolModel, path: &Path) -> Value {
    let Some((schema, resolved)) = schema_pair(model, path) else {
        return Value::String("<value>".into());
    };
    let kind = match &resolved.kind {
        Kind::Enum(enumeration) => format!(
            "one of {}",
            list_value_refs(
                capped_refs(enumeration.values.iter().map(|v| &v.value))
                    .iter()
                    .map(|v| &**v)
            )
        ),
        other => other.type_name().unwrap_or("value").to_owned(),
    };
    let description = schema
        .description
        .as_ref()
        .or(resolved.description.as_ref());
    let phrase = description.map(|d| phrase(d)).unwrap_or_default();
    let placeholder = if phrase.chars().any(char::is_alphanumeric) {
        format!("<{kind}: {phrase}>")
    } else {
        format!("<{kind}>")
    };
    // The schema's description and values, echoed: kept as short as the hint's message.
    Value::String(crate::issue::shorten_text(
        &placeholder,
        super::MAX_MESSAGE_CHARS,
    ))
}

/// Puts `value` at `parents.last`, making the parent objects on the way, each member in
/// the place of its field in the schema (`path` is the object's own path).
fn insert_at(
    model: &ToolModel,
    object: &mut Vec<(String, Json)>,
    path: Path,
    parents: &[&str],
    last: &str,
    value: Json,
) {
    let (key, rest) = match parents.split_first() {
        None => (last, None),
        Some((key, rest)) => (*key, Some(rest)),
    };
    let at = match object.iter().position(|(k, _)| k == key) {
        Some(at) => at,
        None => {
            let place = field_position(model, &path, key);
            let at = object
                .iter()
                .position(|(k, _)| field_position(model, &path, k) > place)
                .unwrap_or(object.len());
            let member = match rest {
                None => value.clone(),
                Some(_) => Json::Object(Vec::new()),
            };
            object.insert(at, (key.to_owned(), member));
            at
        }
    };
    if let (Some(rest), Json::Object(next)) = (rest, &mut object[at].1) {
        insert_at(model, next, path.key(key), rest, last, value);
    }
}

/// Where `key` is declared in the object at `path` (undeclared keys last).
pub(super) fn field_position(model: &ToolModel, path: &Path, key: &str) -> usize {
    let object = schema_pair(model, path).and_then(|(_, resolved)| match &resolved.kind {
        Kind::Object(object) => Some(object),
        _ => None,
    });
    object
        .and_then(|object| match model.key_match(object, key, false) {
            KeyMatch::Exact(at) => Some(at),
            _ => None,
        })
        .unwrap_or(usize::MAX)
}

/// Placeholders for the missing fields, nested as the arguments nest, members in the
/// order of the schema's fields. A field deeper than [`crate::path::SHOWN_SEGMENTS`] gets
/// none (its path is shown shortened, and an example nested that deep helps no one): the
/// example's size does not grow with the arguments' depth.
pub(super) fn example_input(model: &ToolModel, missing: &[&Issue]) -> Option<Json> {
    let mut root = Vec::new();
    for issue in missing {
        if issue.path.segments().len() > crate::path::SHOWN_SEGMENTS {
            continue;
        }
        let keys: Option<Vec<&str>> = issue
            .path
            .segments()
            .iter()
            .map(|s| match s {
                Segment::Key(key) => Some(key.as_str()),
                Segment::Index(_) => None,
            })
            .collect();
        let Some((last, parents)) = keys.as_deref().and_then(<[&str]>::split_last) else {
            continue;
        };
        let placeholder = Json::from(&placeholder(model, &issue.path));
        insert_at(model, &mut root, Path::root(), parents, last, placeholder);
    }
    (!root.is_empty()).then_some(Json::Object(root))
}

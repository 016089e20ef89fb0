//! Schema files → the tools they define: a bare JSON Schema, a tool definition of OpenAI,
//! MCP or Anthropic, or an array of those; each with the JSON pointer of its arguments
//! schema in the file, so errors can name where they are.

use std::path::{Path, PathBuf};

use toolgate_core::model::read::{unwrap_definition, Unwrapped};
use toolgate_core::model::Json;

use super::{Error, SchemaProblem};

/// One tool as found in a file.
pub(crate) struct ToolSource {
    /// The file it is in.
    pub file: PathBuf,
    /// The pointer of its arguments schema in the file.
    pub pointer: String,
    pub name: Option<String>,
    pub description: Option<String>,
    /// The arguments schema, ignored keywords removed.
    pub schema: Json,
    /// An MCP `outputSchema`: its pointer in the file and the schema.
    pub output: Option<(String, Json)>,
}

/// The files of `path`: the path itself, or the `.json` files of a folder (and its
/// subfolders), in name order.
pub(crate) fn schema_files(path: &Path) -> Result<Vec<PathBuf>, Error> {
    let io = |source| Error::Io {
        path: path.to_owned(),
        source,
    };
    if !path.is_dir() {
        // Reading it reports a missing file.
        return Ok(vec![path.to_owned()]);
    }
    let mut files = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(io)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort();
    for entry in entries {
        if entry.is_dir() {
            files.extend(schema_files(&entry)?);
        } else if entry.extension().is_some_and(|e| e == "json") {
            files.push(entry);
        }
    }
    Ok(files)
}

/// The tools of one file, ignored keywords removed from their schemas.
pub(crate) fn read_file(path: &Path, ignored: &[String]) -> Result<Vec<ToolSource>, Error> {
    let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })?;
    read_text(path, &text, ignored)
}

/// The tools of `text`, read as the file `path`.
pub(crate) fn read_text(
    path: &Path,
    text: &str,
    ignored: &[String],
) -> Result<Vec<ToolSource>, Error> {
    let json = Json::from_schema_text(text).map_err(|errors| {
        Error::Schema(
            errors
                .0
                .into_iter()
                .map(|error| SchemaProblem {
                    file: path.to_owned(),
                    pointer: error.pointer,
                    message: error.message,
                })
                .collect(),
        )
    })?;
    let definitions = match json {
        Json::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(index, item)| (format!("/{index}"), item))
            .collect(),
        other => vec![(String::new(), other)],
    };
    Ok(definitions
        .into_iter()
        .map(|(at, definition)| {
            let Unwrapped {
                name,
                description,
                mut schema,
                pointer,
                output_schema,
            } = unwrap_definition(definition);
            strip_keywords(&mut schema, ignored);
            let output = output_schema.map(|(output_pointer, mut output)| {
                strip_keywords(&mut output, ignored);
                (format!("{at}{output_pointer}"), output)
            });
            ToolSource {
                file: path.to_owned(),
                pointer: format!("{at}{pointer}"),
                name,
                description,
                schema,
                output,
            }
        })
        .collect())
}

// Keywords whose value is a schema, a list of schemas, or an object of schemas: the
// shared table's.
use toolgate_core::model::positions::{
    LISTS as SCHEMA_LISTS, MAPS as SCHEMA_OBJECTS, ONE as ONE_SCHEMA,
};

/// Removes the keywords named in `ignored` from `schema` and every subschema (property
/// names are not keywords: a property called like an ignored keyword stays).
pub(crate) fn strip_keywords(schema: &mut Json, ignored: &[String]) {
    if ignored.is_empty() {
        return;
    }
    let Json::Object(members) = schema else {
        return;
    };
    members.retain(|(key, _)| !ignored.contains(key));
    for (key, value) in members.iter_mut() {
        let key = key.as_str();
        if SCHEMA_LISTS.contains(&key) || (key == "items" && matches!(value, Json::Array(_))) {
            if let Json::Array(items) = value {
                items
                    .iter_mut()
                    .for_each(|item| strip_keywords(item, ignored));
            }
        } else if ONE_SCHEMA.contains(&key) {
            strip_keywords(value, ignored);
        } else if SCHEMA_OBJECTS.contains(&key) {
            if let Json::Object(entries) = value {
                entries
                    .iter_mut()
                    .for_each(|(_, item)| strip_keywords(item, ignored));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_every_kind_of_definition() {
        let text = r#"[
            {"type": "object", "title": "bare"},
            {"name": "openai", "parameters": {"type": "object"}},
            {"type": "function", "function": {"name": "wrapped", "parameters": {"type": "object"}}},
            {"name": "mcp", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}},
            {"name": "anthropic", "input_schema": {"type": "object"}}
        ]"#;
        let tools = read_text(Path::new("t.json"), text, &[]).unwrap();
        let pointers: Vec<&str> = tools.iter().map(|t| t.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/0",
                "/1/parameters",
                "/2/function/parameters",
                "/3/inputSchema",
                "/4/input_schema"
            ]
        );
        assert_eq!(
            tools[3].output.as_ref().map(|o| o.0.as_str()),
            Some("/3/outputSchema")
        );
        assert_eq!(tools[2].name.as_deref(), Some("wrapped"));
    }

    #[test]
    fn strips_keywords_but_not_property_names() {
        let mut schema: Json = serde_json::from_str(
            r#"{"type": "object", "x-order": 1, "properties": {"x-order": {"type": "string", "x-order": 2}},
                "anyOf": [{"x-order": 3}], "items": [{"x-order": 4}]}"#,
        )
        .unwrap();
        strip_keywords(&mut schema, &["x-order".to_owned()]);
        let text = serde_json::to_string(&schema.to_value()).unwrap();
        assert_eq!(
            text,
            r#"{"anyOf":[{}],"items":[{}],"properties":{"x-order":{"type":"string"}},"type":"object"}"#
        );
    }
}

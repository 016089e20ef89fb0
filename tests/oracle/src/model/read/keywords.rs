//! Which keywords the reader knows, and what it does with the others: the warnings report.
//!
//! Every member of a schema object is one of:
//!
//! | class | keywords | what the reader does |
//! | --- | --- | --- |
//! | held by the model | `type`, `enum`, `const`, `properties`, `required`, `additionalProperties`, `propertyNames`, `items`, `minItems`, `maxItems`, `uniqueItems`, `minLength`, `maxLength`, `pattern`, `format`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, `anyOf`, `oneOf`, `allOf` (merged), `not` (as `{}` only), `$ref`, `$defs`, `description`, `default`, `examples` | read into the model |
//! | annotations ([`ANNOTATIONS`]) | `title` (below the root), `$comment`, `deprecated`, `readOnly`, `writeOnly`, `contentMediaType`, `contentEncoding`, `contentSchema` | kept in [`Schema::annotations`](crate::model::Schema::annotations) and written back in that order; they constrain nothing |
//! | silent ([`SILENT`]) | `$schema`, `$id`, `$vocabulary` | taken and not kept (they say which dialect the text is in) |
//! | known, not held ([`UNSUPPORTED`]) | `if`/`then`/`else`, `contains`, `minContains`, `maxContains`, `unevaluatedItems`, `unevaluatedProperties`, `patternProperties`, `minProperties`, `maxProperties`, `dependentRequired`, `dependentSchemas`, `dependencies`, `$anchor`, `$dynamicRef`, `$dynamicAnchor`, `$recursiveRef`, `$recursiveAnchor` | an error at its pointer: they constrain values, and a constraint is never passed in silence |
//! | unknown | anything else: OpenAPI's `discriminator`, a typo such as `types`, vendor `x-…` keywords | ignored, as JSON Schema ignores them, and reported as a [`WarningKind::UnknownKeyword`] |
//!
//! Two more cases are warnings, not errors, because JSON Schema gives them a meaning the model
//! holds exactly:
//!
//! - a keyword that applies to values of other types than the schema's `type` allows
//!   (`maxLength` on an integer, `minProperties` on a string): it constrains nothing there
//!   ([`WarningKind::Inapplicable`]);
//! - a `format` the model does not know (`"json"`, `"textarea"` on a string, `"currency"` on a
//!   number): in JSON Schema 2020-12 an unknown format is an annotation. It is kept as the
//!   annotation `format` (written back) and reported ([`WarningKind::UnknownFormat`]). An
//!   integer format shaped like a width (`int7`, `uint12`) stays an error: it names a range
//!   the model cannot hold.
//!
//! And one where the schema contradicts itself ([`WarningKind::Contradiction`]): an `enum`
//! value that `type` rules out (`{"type": "string", "enum": [true, false]}`, the Cloudflare
//! shape) can never be valid, so the reader drops it and keeps the values that fit; when none
//! fits, the value's schema is the empty `enum`, which refuses every value with an `enum`
//! issue naming the contradiction, and the rest of the tool works.
//!
//! The report holds at most [`MAX_WARNINGS`] warnings, then one [`WarningKind::Limit`]
//! warning with the count of the others (which are counted, not built).
//! [`ToolModel::deny_warnings`](crate::model::ToolModel::deny_warnings) and
//! [`ReadOptions::deny_warnings`](super::ReadOptions::deny_warnings) turn the warnings into
//! errors for those who want every keyword understood.

use std::fmt;

use super::{escape_pointer_token, read_parts, Json, Members, Reader, SchemaErrors};
use crate::model::ToolModel;

/// Annotations the model keeps as they are written, in this order when written back (an
/// unknown `format`, kept too, comes after them).
pub const ANNOTATIONS: [&str; 8] = [
    "title",
    "$comment",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentMediaType",
    "contentEncoding",
    "contentSchema",
];

/// Keywords taken and not kept: they name the dialect or the document, and constrain nothing.
pub const SILENT: [&str; 3] = ["$schema", "$id", "$vocabulary"];

/// Known JSON Schema keywords (2020-12, and draft-07 names) that constrain values and that
/// the model does not hold: each is an error where it is written.
pub const UNSUPPORTED: [&str; 17] = [
    "if",
    "then",
    "else",
    "contains",
    "minContains",
    "maxContains",
    "unevaluatedItems",
    "unevaluatedProperties",
    "patternProperties",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
];

/// Keywords the model holds, and toolgate's own `x-` keywords; where one is left unused by
/// the reader, it is an error (unless it does not apply to the schema's `type`).
const HELD: [&str; 35] = [
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "items",
    "prefixItems",
    "additionalItems",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "$ref",
    "$defs",
    "definitions",
    "description",
    "default",
    "examples",
    "x-aliases",
    "x-rust-name",
    "x-enum-aliases",
];

/// draft 2019-09's recursion keywords: known, not held.
const RECURSIVE: [&str; 2] = ["$recursiveRef", "$recursiveAnchor"];

/// The most warnings a report holds; the others are counted in one last warning.
pub const MAX_WARNINGS: usize = 100;

/// Whether JSON Schema (or toolgate) gives `keyword` a meaning that may constrain values:
/// such a keyword is never ignored in silence.
pub fn is_known(keyword: &str) -> bool {
    HELD.contains(&keyword)
        || UNSUPPORTED.contains(&keyword)
        || RECURSIVE.contains(&keyword)
        || SILENT.contains(&keyword)
        || ANNOTATIONS.contains(&keyword)
}

/// Whether `keyword` describes and constrains nothing (an annotation, a silent keyword or an
/// unknown keyword): where `allOf` members disagree on one, the first wins.
pub fn constrains_nothing(keyword: &str) -> bool {
    ANNOTATIONS.contains(&keyword)
        || SILENT.contains(&keyword)
        || matches!(keyword, "description" | "examples")
        || !is_known(keyword)
}

/// The JSON types a type-specific keyword applies to; `None` for keywords of every type.
fn applies_to(keyword: &str) -> Option<&'static [&'static str]> {
    const NUMBERS: &[&str] = &["number", "integer"];
    Some(match keyword {
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => NUMBERS,
        "minLength" | "maxLength" | "pattern" => &["string"],
        "items" | "minItems" | "maxItems" | "uniqueItems" | "prefixItems" | "contains"
        | "minContains" | "maxContains" | "additionalItems" | "unevaluatedItems" => &["array"],
        "properties"
        | "required"
        | "additionalProperties"
        | "propertyNames"
        | "patternProperties"
        | "minProperties"
        | "maxProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "dependencies"
        | "unevaluatedProperties" => &["object"],
        _ => return None,
    })
}

/// Whether `keyword` applies to none of the types `type_names` allows (so it constrains
/// nothing): `maxLength` beside `"type": "integer"`. Number keywords apply to `integer` too.
pub fn inapplicable(keyword: &str, type_names: &[&str]) -> bool {
    let Some(types) = applies_to(keyword) else {
        return false;
    };
    !type_names.is_empty() && type_names.iter().all(|name| !types.contains(name))
}

/// What a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// A keyword JSON Schema does not define (`discriminator`, `types`, `x-order`): ignored.
    UnknownKeyword,
    /// A keyword of other types than the schema's `type` allows: it constrains nothing.
    Inapplicable,
    /// A `format` the model does not know: kept as an annotation, not checked.
    UnknownFormat,
    /// Constraints that contradict each other: some or all values can never be valid.
    Contradiction,
    /// The report is full: this warning counts the ones left out.
    Limit,
}

impl WarningKind {
    /// A stable snake_case name: `unknown_keyword`, `inapplicable`, `unknown_format`,
    /// `contradiction`, `limit`.
    pub fn as_str(self) -> &'static str {
        match self {
            WarningKind::UnknownKeyword => "unknown_keyword",
            WarningKind::Inapplicable => "inapplicable",
            WarningKind::UnknownFormat => "unknown_format",
            WarningKind::Contradiction => "contradiction",
            WarningKind::Limit => "limit",
        }
    }
}

/// Something in a schema that the reader read past: the schema is used, but not every
/// keyword of it constrains the values (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaWarning {
    /// Where in the schema: `/properties/kind/discriminator`.
    pub pointer: String,
    /// The keyword it is about (`discriminator`, `format`, `enum`); empty for a
    /// [`WarningKind::Limit`] warning.
    pub keyword: String,
    /// What kind of warning.
    pub kind: WarningKind,
    /// What the reader did, for people.
    pub message: String,
}

impl fmt::Display for SchemaWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        super::write_at_pointer(f, &self.pointer, &self.message)
    }
}

/// The warnings of one read, capped at [`MAX_WARNINGS`].
#[derive(Debug, Default)]
pub(super) struct Warnings {
    list: Vec<SchemaWarning>,
    omitted: usize,
}

impl Warnings {
    /// Adds a warning; past the cap it is only counted (`message` is not called).
    pub(super) fn push(
        &mut self,
        pointer: &str,
        keyword: &str,
        kind: WarningKind,
        message: impl FnOnce() -> String,
    ) {
        if self.list.len() >= MAX_WARNINGS {
            self.omitted += 1;
            return;
        }
        self.list.push(SchemaWarning {
            pointer: pointer.to_owned(),
            keyword: keyword.to_owned(),
            kind,
            message: message(),
        });
    }

    /// The report: the warnings, then one counting those left out.
    pub(super) fn finish(mut self) -> Vec<SchemaWarning> {
        if self.omitted > 0 {
            self.list.push(SchemaWarning {
                pointer: String::new(),
                keyword: String::new(),
                kind: WarningKind::Limit,
                message: format!(
                    "{} more warnings left out (the report keeps {MAX_WARNINGS})",
                    self.omitted
                ),
            });
        }
        self.list
    }
}

/// The message for an unknown keyword.
pub(super) fn unknown_message(keyword: &str) -> String {
    format!("keyword `{keyword}` is not JSON Schema: ignored")
}

/// The message for a keyword of other types.
pub(super) fn inapplicable_message(keyword: &str, type_names: &[&str]) -> String {
    let types = applies_to(keyword).unwrap_or_default().join(", ");
    format!(
        "keyword `{keyword}` applies to {types} values only, and `type` is {}: ignored",
        type_names.join(", ")
    )
}

/// How a schema is read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Warnings ([`ToolModel::schema_warnings`]) are errors: a schema is read only when the
    /// reader understands every keyword of it.
    pub deny_warnings: bool,
}

/// [`read_parts`] with options: under [`ReadOptions::deny_warnings`] every warning is an
/// error.
///
/// ```
/// use toolgate_core::model::read::{read_parts_with, ReadOptions};
/// use toolgate_core::model::Json;
///
/// let schema: Json = serde_json::from_str(r#"{"type": "object", "x-order": 1}"#).unwrap();
/// let strict = ReadOptions { deny_warnings: true };
/// let errors = read_parts_with(None, None, schema.clone(), strict).unwrap_err();
/// assert_eq!(errors.0[0].pointer, "/x-order");
/// assert_eq!(read_parts_with(None, None, schema, ReadOptions::default()).unwrap().schema_warnings().len(), 1);
/// ```
pub fn read_parts_with(
    name: Option<String>,
    description: Option<String>,
    schema: Json,
    options: ReadOptions,
) -> Result<ToolModel, SchemaErrors> {
    let model = read_parts(name, description, schema)?;
    if options.deny_warnings {
        model.deny_warnings()
    } else {
        Ok(model)
    }
}

impl Reader {
    /// The members no reader step used: an unknown keyword is ignored with a warning, a
    /// keyword of other types than `type` allows too; a known keyword is an error.
    pub(super) fn unused(&mut self, m: &Members<'_>, pointer: &str) {
        let type_names: Vec<&str> = match m.members.iter().find(|(key, _)| key == "type") {
            Some((_, Json::String(name))) => vec![name.as_str()],
            Some((_, Json::Array(names))) => names.iter().filter_map(Json::as_str).collect(),
            _ => Vec::new(),
        };
        for (position, (key, _)) in m.members.iter().enumerate() {
            if m.used[position] {
                continue;
            }
            let at = format!("{pointer}/{}", escape_pointer_token(key));
            if !is_known(key) {
                self.warnings
                    .push(&at, key, WarningKind::UnknownKeyword, || {
                        unknown_message(key)
                    });
            } else if inapplicable(key, &type_names) {
                self.warnings.push(&at, key, WarningKind::Inapplicable, || {
                    inapplicable_message(key, &type_names)
                });
            } else {
                self.error(&at, format!("keyword `{key}` is not supported here"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyword_classes_are_disjoint() {
        for keyword in HELD {
            assert!(!UNSUPPORTED.contains(&keyword), "{keyword}");
            assert!(!SILENT.contains(&keyword), "{keyword}");
        }
        for keyword in ANNOTATIONS {
            assert!(!UNSUPPORTED.contains(&keyword), "{keyword}");
        }
        // OpenAPI / pydantic's `discriminator`, a typo, a vendor keyword: unknown.
        for keyword in ["discriminator", "types", "x-order"] {
            assert!(!is_known(keyword));
            assert!(constrains_nothing(keyword));
        }
        assert!(!constrains_nothing("minimum"));
        assert!(!constrains_nothing("default"));
    }

    #[test]
    fn keywords_of_other_types_are_inapplicable() {
        assert!(inapplicable("maxLength", &["integer"]));
        assert!(inapplicable("minProperties", &["string", "null"]));
        assert!(!inapplicable("minimum", &["integer"]));
        assert!(!inapplicable("minimum", &["string", "number"]));
        assert!(!inapplicable("minimum", &[]));
        assert!(!inapplicable("enum", &["string"]));
    }

    #[test]
    fn the_report_is_capped() {
        let mut warnings = Warnings::default();
        for index in 0..MAX_WARNINGS + 5 {
            warnings.push("", "x", WarningKind::UnknownKeyword, || index.to_string());
        }
        let list = warnings.finish();
        assert_eq!(list.len(), MAX_WARNINGS + 1);
        assert_eq!(list[MAX_WARNINGS].kind, WarningKind::Limit);
        assert!(list[MAX_WARNINGS].message.starts_with("5 more warnings"));
    }
}

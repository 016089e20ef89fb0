//! The `#[serde(...)]` attributes that change the wire form, read so that the tool model
//! agrees with serde: names, aliases, defaults, skipped fields and the unknown-field policy.
//!
//! Attributes that only affect serialisation (`skip_serializing_if`, `serialize_with`, ...)
//! or compilation (`bound`, `crate`) are ignored. Attributes that change the wire form in ways
//! the tool model cannot follow (`flatten`, `with`, `deserialize_with`, `tag`, `untagged`,
//! `transparent`, `from`, `try_from`, `remote`, `other`, ...) are compile errors, so the schema
//! never disagrees with what serde accepts.

use syn::meta::ParseNestedMeta;
use syn::{Attribute, ExprPath, LitStr};

use crate::rename::RenameRule;

/// A default value, from `#[serde(default)]` or `#[serde(default = "path")]`.
#[derive(Clone)]
pub enum DefaultValue {
    /// `Default::default()`.
    Trait,
    /// A function to call.
    Function(ExprPath),
}

/// Container attributes.
#[derive(Default)]
pub struct SerdeContainer {
    pub rename_all: Option<RenameRule>,
    pub deny_unknown_fields: bool,
    pub default: Option<DefaultValue>,
}

/// Field or variant attributes.
#[derive(Default)]
pub struct SerdeMember {
    /// The wire name (the deserialize side of `rename`).
    pub rename: Option<String>,
    pub aliases: Vec<String>,
    pub default: Option<DefaultValue>,
    /// `skip` or `skip_deserializing`: not part of the input.
    pub skip: bool,
}

const IGNORED_ON_CONTAINER: [&str; 5] =
    ["bound", "crate", "expecting", "rename", "rename_all_fields"];
const REFUSED_ON_CONTAINER: [&str; 10] = [
    "tag",
    "content",
    "untagged",
    "transparent",
    "from",
    "try_from",
    "into",
    "remote",
    "field_identifier",
    "variant_identifier",
];
const IGNORED_ON_MEMBER: [&str; 6] = [
    "skip_serializing",
    "skip_serializing_if",
    "serialize_with",
    "borrow",
    "bound",
    "getter",
];
const REFUSED_ON_MEMBER: [&str; 5] = ["flatten", "with", "deserialize_with", "other", "untagged"];

/// Skips the value of a key we do not read: `= expr` or `(...)`.
fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

/// `key = "text"` or `key(deserialize = "text", serialize = "...")`: the deserialize side.
fn deserialize_side(meta: &ParseNestedMeta<'_>) -> syn::Result<Option<LitStr>> {
    if meta.input.peek(syn::Token![=]) {
        return Ok(Some(meta.value()?.parse()?));
    }
    let mut found = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("deserialize") {
            found = Some(inner.value()?.parse()?);
        } else {
            inner.value()?.parse::<LitStr>()?;
        }
        Ok(())
    })?;
    Ok(found)
}

fn default_value(meta: &ParseNestedMeta<'_>) -> syn::Result<DefaultValue> {
    if meta.input.peek(syn::Token![=]) {
        let path: LitStr = meta.value()?.parse()?;
        Ok(DefaultValue::Function(path.parse()?))
    } else {
        Ok(DefaultValue::Trait)
    }
}

fn refusal(meta: &ParseNestedMeta<'_>, key: &str) -> syn::Error {
    meta.error(format!(
        "`#[serde({key})]` changes the wire form in a way #[derive(Tool)] cannot describe"
    ))
}

/// Reads the container's `#[serde(...)]` attributes; errors go to `errors`.
pub fn container(attrs: &[Attribute], errors: &mut darling::error::Accumulator) -> SerdeContainer {
    let mut out = SerdeContainer::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "rename_all" => {
                    if let Some(rule) = deserialize_side(&meta)? {
                        out.rename_all =
                            Some(RenameRule::from_name(&rule.value()).ok_or_else(|| {
                                syn::Error::new(
                                    rule.span(),
                                    format!(
                                        "unknown rename rule {:?}; serde knows {}",
                                        rule.value(),
                                        RenameRule::NAMES.join(", ")
                                    ),
                                )
                            })?);
                    }
                }
                "deny_unknown_fields" => out.deny_unknown_fields = true,
                "default" => out.default = Some(default_value(&meta)?),
                key if REFUSED_ON_CONTAINER.contains(&key) => {
                    let error = refusal(&meta, key);
                    skip_value(&meta)?;
                    errors.push(error.into());
                }
                key if IGNORED_ON_CONTAINER.contains(&key) => skip_value(&meta)?,
                _ => skip_value(&meta)?,
            }
            Ok(())
        });
        if let Err(error) = result {
            errors.push(error.into());
        }
    }
    out
}

/// Reads a field's or variant's `#[serde(...)]` attributes; errors go to `errors`.
pub fn member(attrs: &[Attribute], errors: &mut darling::error::Accumulator) -> SerdeMember {
    let mut out = SerdeMember::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let result = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            match key.as_str() {
                "rename" => {
                    if let Some(name) = deserialize_side(&meta)? {
                        out.rename = Some(name.value());
                    }
                }
                "alias" => out.aliases.push(meta.value()?.parse::<LitStr>()?.value()),
                "default" => out.default = Some(default_value(&meta)?),
                "skip" | "skip_deserializing" => out.skip = true,
                key if REFUSED_ON_MEMBER.contains(&key) => {
                    let error = refusal(&meta, key);
                    skip_value(&meta)?;
                    errors.push(error.into());
                }
                key if IGNORED_ON_MEMBER.contains(&key) => skip_value(&meta)?,
                _ => skip_value(&meta)?,
            }
            Ok(())
        });
        if let Err(error) = result {
            errors.push(error.into());
        }
    }
    out
}

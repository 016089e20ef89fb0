//! The `#[serde(...)]` attributes that change the wire form, read so that the tool model
//! agrees with serde: names, aliases, defaults, skipped fields and the unknown-field policy.
//!
//! Attributes that only affect serialisation (`skip_serializing_if`, `serialize_with`, ...)
//! or compilation (`bound`, `crate`) are ignored. `flatten` is read: on a map field it
//! collects the keys a struct does not declare (see `plan_flatten`). Attributes that change
//! the wire form in ways the tool model cannot follow (`with`, `deserialize_with`, `content`,
//! `rename_all_fields`, `transparent`, `from`, `try_from`, `remote`, `other`, ...) are compile
//! errors, so the schema never disagrees with what serde accepts. `tag` and `untagged` are
//! read: they make an enum a union (see `data_enum`).

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
    /// `tag = "..."`: an internally tagged enum, with the span of the name.
    pub tag: Option<LitStr>,
    /// `untagged`: the enum's variants are tried in order.
    pub untagged: Option<syn::Path>,
}

impl SerdeContainer {
    /// A field's wire name, as serde decides it: its own `rename`, else the container's
    /// `rename_all` applied to its Rust name (without `r#`), else that name.
    pub fn field_wire_name(&self, rename: Option<String>, rust_name: &str) -> String {
        self.wire_name(rename, rust_name, RenameRule::apply_to_field)
    }

    /// A variant's wire name, as [`SerdeContainer::field_wire_name`] with serde's rule for
    /// variants.
    pub fn variant_wire_name(&self, rename: Option<String>, rust_name: &str) -> String {
        self.wire_name(rename, rust_name, RenameRule::apply_to_variant)
    }

    fn wire_name(
        &self,
        rename: Option<String>,
        rust_name: &str,
        apply: fn(RenameRule, &str) -> String,
    ) -> String {
        rename
            .or_else(|| self.rename_all.map(|rule| apply(rule, rust_name)))
            .unwrap_or_else(|| rust_name.to_owned())
    }
}

/// Field or variant attributes.
#[derive(Default)]
pub struct SerdeMember {
    /// The wire name (the deserialize side of `rename`).
    pub rename: Option<String>,
    pub aliases: Vec<String>,
    pub default: Option<DefaultValue>,
    /// The `default` key as written, for errors about it.
    pub default_key: Option<syn::Path>,
    /// `skip` or `skip_deserializing`: not part of the input.
    pub skip: bool,
    /// `flatten`, as written.
    pub flatten: Option<syn::Path>,
}

const REFUSED_ON_CONTAINER: [&str; 9] = [
    "content",
    "rename_all_fields",
    "transparent",
    "from",
    "try_from",
    "into",
    "remote",
    "field_identifier",
    "variant_identifier",
];
const REFUSED_ON_MEMBER: [&str; 4] = ["with", "deserialize_with", "other", "untagged"];

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

/// Walks the keys of every `#[serde(...)]` attribute: `read` handles a key and says whether
/// it knew it; a key in `refused` is an error; any other key is skipped (serialisation-only
/// and compile-only keys such as `skip_serializing_if`, `serialize_with`, `bound`, `crate`).
fn each_key(
    attrs: &[Attribute],
    refused: &[&str],
    errors: &mut darling::error::Accumulator,
    mut read: impl FnMut(&str, &ParseNestedMeta<'_>) -> syn::Result<bool>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let mut refusals = Vec::new();
        let result = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(ToString::to_string)
                .unwrap_or_default();
            if read(&key, &meta)? {
                return Ok(());
            }
            if refused.contains(&key.as_str()) {
                refusals.push(refusal(&meta, &key));
            }
            skip_value(&meta)
        });
        errors.extend(refusals.into_iter().map(darling::Error::from));
        if let Err(error) = result {
            errors.push(error.into());
        }
    }
}

/// Reads the container's `#[serde(...)]` attributes; errors go to `errors`.
pub fn container(attrs: &[Attribute], errors: &mut darling::error::Accumulator) -> SerdeContainer {
    let mut out = SerdeContainer::default();
    each_key(attrs, &REFUSED_ON_CONTAINER, errors, |key, meta| {
        match key {
            "rename_all" => {
                if let Some(rule) = deserialize_side(meta)? {
                    let known = RenameRule::from_name(&rule.value()).ok_or_else(|| {
                        let names = RenameRule::NAMES.join(", ");
                        syn::Error::new(
                            rule.span(),
                            format!(
                                "unknown rename rule {:?}; serde knows {names}",
                                rule.value()
                            ),
                        )
                    })?;
                    out.rename_all = Some(known);
                }
            }
            "deny_unknown_fields" => out.deny_unknown_fields = true,
            "tag" => out.tag = Some(meta.value()?.parse()?),
            "untagged" => out.untagged = Some(meta.path.clone()),
            "default" => out.default = Some(default_value(meta)?),
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}

/// Reads a field's or variant's `#[serde(...)]` attributes; errors go to `errors`.
pub fn member(attrs: &[Attribute], errors: &mut darling::error::Accumulator) -> SerdeMember {
    let mut out = SerdeMember::default();
    each_key(attrs, &REFUSED_ON_MEMBER, errors, |key, meta| {
        match key {
            "rename" => {
                if let Some(name) = deserialize_side(meta)? {
                    out.rename = Some(name.value());
                }
            }
            "alias" => out.aliases.push(meta.value()?.parse::<LitStr>()?.value()),
            "default" => {
                out.default_key = Some(meta.path.clone());
                out.default = Some(default_value(meta)?);
            }
            "skip" | "skip_deserializing" => out.skip = true,
            "flatten" => out.flatten = Some(meta.path.clone()),
            _ => return Ok(false),
        }
        Ok(true)
    });
    out
}

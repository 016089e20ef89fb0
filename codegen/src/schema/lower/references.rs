//! `$ref`s: a definition that is an object or a string enum is a named type (boxed where it
//! contains itself or is used more than once); any other is written in place.

use std::collections::{BTreeMap, BTreeSet};

use quote::quote;
use toolgate_core::model::{Kind, Schema, ToolModel};
use toolgate_core::path::escape_pointer_token;

use super::{string_enum, type_name, Described, Lowered, Lowering, Scope};

impl Lowering<'_> {
    pub(super) fn reference(&mut self, scope: &mut Scope<'_>, key: &str, direct: bool) -> Lowered {
        let pointer = format!("/$defs/{}", escape_pointer_token(key));
        let Some(definition) = scope.model.definitions().get(key) else {
            scope
                .errors
                .push((pointer, format!("no definition {key:?}")));
            return Lowered::any();
        };
        if !is_named(definition) {
            // Met again inside itself: written again only when a struct and a `Vec` or map
            // lie between (`children: [{..., children: <the same>}]`, a JSON-pointer
            // reference to an array of inline objects); the structs inside are the ones
            // already being written, so the second writing stops at them.
            let around = scope.inlining.iter().rev().find(|(k, _)| k == key);
            if let Some(&(_, structs_then)) = around {
                let through_collection = matches!(definition.kind, Kind::Array(_) | Kind::Map(_));
                if !through_collection || scope.open_structs <= structs_then {
                    scope.errors.push((
                        pointer,
                        "a definition that contains itself is written as a Rust type only through an object with properties and an array or map".to_owned(),
                    ));
                    return Lowered::any();
                }
            }
            scope.inlining.push((key.to_owned(), scope.open_structs));
            let hint = type_name(key, "Type");
            let lowered = self.lower(scope, definition, &hint, &pointer, direct);
            scope.inlining.pop();
            return lowered;
        }
        let name = match scope.named.get(key) {
            Some(name) => name.clone(),
            None => {
                let name = self.types.claim(&type_name(key, "Type"), "");
                scope.named.insert(key.to_owned(), name.clone());
                match &definition.kind {
                    Kind::Object(object) => self.structure(
                        scope,
                        &name,
                        object,
                        Described::of(definition),
                        None,
                        &pointer,
                    ),
                    Kind::Enum(enumeration) => self.enumeration(
                        scope,
                        &name,
                        enumeration,
                        Described::of(definition),
                        &pointer,
                    ),
                    _ => unreachable!("named above"),
                }
                name
            }
        };
        let path = super::type_path(&name);
        let boxed = scope.recursive.contains(key) || scope.shared.contains(key);
        let ty = if direct && boxed {
            quote!(::std::boxed::Box<#path>)
        } else {
            path
        };
        Lowered::plain(ty)
    }
}

/// Whether a definition is written as a named Rust type: an object with properties or an
/// enum of strings. Other definitions are written in place where they are used.
/// `schema` with the description and annotations of the definitions it refers to that are
/// written in place (not named types, which carry their own): `{"$ref": "#/$defs/app_id"}`
/// to `{"type": "string", "description": "Identifier."}` is a `String` field described
/// "Identifier." (issue 27 §5). The use's own keywords win; a chain of references is
/// followed up to [`MOST_FOLLOWED_REFERENCES`](toolgate_core::model::MOST_FOLLOWED_REFERENCES).
pub(super) fn with_carried_annotations<'s>(
    schema: &'s Schema,
    definitions: &BTreeMap<String, Schema>,
) -> std::borrow::Cow<'s, Schema> {
    let mut at = schema;
    let mut merged: Option<Schema> = None;
    for _ in 0..toolgate_core::model::MOST_FOLLOWED_REFERENCES {
        let Kind::Ref(key) = &at.kind else { break };
        let Some(definition) = definitions.get(key) else {
            break;
        };
        if is_named(definition) {
            break;
        }
        let carried = definition.description.is_some() || !definition.annotations.is_empty();
        if carried {
            let schema = merged.get_or_insert_with(|| schema.clone());
            if schema.description.is_none() {
                schema.description = definition.description.clone();
            }
            for (keyword, value) in &definition.annotations {
                if !schema.annotations.iter().any(|(held, _)| held == keyword) {
                    schema.annotations.push((keyword.clone(), value.clone()));
                }
            }
        }
        at = definition;
    }
    match merged {
        Some(schema) => std::borrow::Cow::Owned(schema),
        None => std::borrow::Cow::Borrowed(schema),
    }
}

pub(super) fn is_named(definition: &Schema) -> bool {
    match &definition.kind {
        Kind::Object(object) => !object.fields.is_empty(),
        Kind::Enum(enumeration) => string_enum(enumeration),
        _ => false,
    }
}

/// The structs of named definitions (see [`is_named`]) that the Rust code uses more than
/// once: each such use is boxed, so that a struct holding two of the struct below is not
/// twice its size, 2⁴⁰ times over at 40 levels. A definition written in place counts the
/// uses inside it once per place, as it is written. A loop among such definitions is
/// refused by the lowering, and cut here.
pub(super) fn shared_definitions(model: &ToolModel) -> BTreeSet<String> {
    let definitions = model.definitions();
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    let mut written: BTreeSet<&str> = BTreeSet::new();
    // Each pending schema with the definitions written in place around it.
    let mut pending: Vec<(&Schema, Vec<&str>)> = vec![(model.input(), Vec::new())];
    while let Some((schema, inlining)) = pending.pop() {
        let Kind::Ref(key) = &schema.kind else {
            pending.extend(
                schema
                    .kind
                    .children()
                    .into_iter()
                    .map(|c| (c, inlining.clone())),
            );
            continue;
        };
        let Some((key, definition)) = definitions.get_key_value(key.as_str()) else {
            continue;
        };
        if is_named(definition) {
            *uses.entry(key).or_default() += 1;
            if written.insert(key) {
                pending.push((definition, Vec::new()));
            }
        } else if !inlining.contains(&key.as_str()) {
            let mut around = inlining.clone();
            around.push(key);
            pending.extend(
                definition
                    .kind
                    .children()
                    .into_iter()
                    .map(|c| (c, around.clone())),
            );
            if let Kind::Ref(_) = definition.kind {
                pending.push((definition, around));
            }
        }
    }
    // An enum is a byte wherever it is: only structs are boxed.
    uses.into_iter()
        .filter(|(key, count)| *count > 1 && matches!(definitions[*key].kind, Kind::Object(_)))
        .map(|(key, _)| key.to_owned())
        .collect()
}

/// Most schemas a tool's Rust code may write out, counting each definition written in place
/// once per place: beyond it the code would be unreadable (and its writing exponential).
pub(super) const MOST_WRITTEN_SCHEMAS: u64 = 50_000;

/// The definition whose writing in place makes a tool's code larger than
/// [`MOST_WRITTEN_SCHEMAS`] schemas, with how large (`A_k = array of anyOf[A_k-1, A_k-1]`
/// doubles at every level). Each definition is sized once: linear in the model.
pub(super) fn oversized_in_place(model: &ToolModel) -> Option<(String, u64)> {
    fn size<'m>(
        schema: &'m Schema,
        model: &'m ToolModel,
        sizes: &mut BTreeMap<&'m str, u64>,
        sizing: &mut BTreeSet<&'m str>,
    ) -> u64 {
        if let Kind::Ref(key) = &schema.kind {
            let Some((key, definition)) = model.definitions().get_key_value(key.as_str()) else {
                return 1;
            };
            if is_named(definition) {
                return 1;
            }
            if let Some(&known) = sizes.get(key.as_str()) {
                return known;
            }
            // A loop of definitions written in place is refused by the lowering.
            if !sizing.insert(key) {
                return 1;
            }
            let written = size(definition, model, sizes, sizing);
            sizing.remove(key.as_str());
            sizes.insert(key, written);
            return written;
        }
        schema
            .kind
            .children()
            .into_iter()
            .fold(1u64, |total, child| {
                total.saturating_add(size(child, model, sizes, sizing))
            })
    }
    let mut sizes = BTreeMap::new();
    let mut sizing = BTreeSet::new();
    let mut total = size(model.input(), model, &mut sizes, &mut sizing);
    for definition in model.definitions().values().filter(|d| is_named(d)) {
        total = total.saturating_add(size(definition, model, &mut sizes, &mut sizing));
    }
    if total <= MOST_WRITTEN_SCHEMAS {
        return None;
    }
    let largest = sizes.into_iter().max_by_key(|(_, written)| *written);
    Some(match largest {
        Some((key, _)) => (format!("/$defs/{}", escape_pointer_token(key)), total),
        None => (String::new(), total),
    })
}

/// The definitions that contain themselves, through any number of references.
pub(super) fn recursive_definitions(model: &ToolModel) -> BTreeSet<String> {
    fn references(schema: &Schema, out: &mut BTreeSet<String>) {
        if let Kind::Ref(key) = &schema.kind {
            out.insert(key.clone());
        }
        for child in schema.kind.children() {
            references(child, out);
        }
    }
    let edges: BTreeMap<&String, BTreeSet<String>> = model
        .definitions()
        .iter()
        .map(|(key, schema)| {
            let mut out = BTreeSet::new();
            references(schema, &mut out);
            (key, out)
        })
        .collect();
    edges
        .keys()
        .filter(|start| {
            let mut seen = BTreeSet::new();
            let mut pending: Vec<&String> = edges[*start].iter().collect();
            while let Some(next) = pending.pop() {
                if next == **start {
                    return true;
                }
                if seen.insert(next.clone()) {
                    if let Some(more) = edges.get(next) {
                        pending.extend(more.iter());
                    }
                }
            }
            false
        })
        .map(|key| (*key).clone())
        .collect()
}

//! `$ref`s: a definition that is an object or a string enum is a named type (boxed where it
//! contains itself); any other is written in place.

use std::collections::{BTreeMap, BTreeSet};

use quote::{format_ident, quote};
use toolgate_core::model::{Additional, Kind, Schema, ToolModel};
use toolgate_core::path::escape_pointer_token;

use super::{string_enum, type_name, Lowered, Lowering, Scope};

impl Lowering<'_> {
    pub(super) fn reference(&mut self, scope: &mut Scope<'_>, key: &str, direct: bool) -> Lowered {
        let pointer = format!("/$defs/{}", escape_pointer_token(key));
        let Some(definition) = scope.model.definitions().get(key) else {
            scope
                .errors
                .push((pointer, format!("no definition {key:?}")));
            return Lowered::any();
        };
        let named = match &definition.kind {
            Kind::Object(object) => !object.fields.is_empty(),
            Kind::Enum(enumeration) => string_enum(enumeration),
            _ => false,
        };
        if !named {
            if scope.inlining.iter().any(|k| k == key) {
                scope.errors.push((
                    pointer,
                    "a definition that contains itself must be an object with properties"
                        .to_owned(),
                ));
                return Lowered::any();
            }
            scope.inlining.push(key.to_owned());
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
                        definition.description.as_deref(),
                        None,
                        &pointer,
                    ),
                    Kind::Enum(enumeration) => self.enumeration(
                        scope,
                        &name,
                        enumeration,
                        definition.description.as_deref(),
                        &pointer,
                    ),
                    _ => unreachable!("named above"),
                }
                name
            }
        };
        let ident = format_ident!("{}", name);
        let ty = if direct && scope.recursive.contains(key) {
            quote!(::std::boxed::Box<#ident>)
        } else {
            quote!(#ident)
        };
        Lowered::plain(ty)
    }
}

/// The definitions that contain themselves, through any number of references.
pub(super) fn recursive_definitions(model: &ToolModel) -> BTreeSet<String> {
    fn references(schema: &Schema, out: &mut BTreeSet<String>) {
        match &schema.kind {
            Kind::Ref(key) => {
                out.insert(key.clone());
            }
            Kind::Array(array) => references(&array.items, out),
            Kind::Map(map) => references(&map.values, out),
            Kind::Object(object) => {
                for field in &object.fields {
                    references(&field.schema, out);
                }
                if let Additional::Schema(extra) = &object.additional {
                    references(extra, out);
                }
            }
            Kind::Union(union) => union.variants.iter().for_each(|v| references(v, out)),
            _ => {}
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

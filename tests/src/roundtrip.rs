//! Round trip of the schema compiler: every constraint of a schema as read must be in the
//! model of the Rust type generated from it.
//!
//! Compared: kinds (an object without properties and a map are the same thing), bounds,
//! `multipleOf`, lengths, patterns, formats, enum values and aliases, item and value
//! schemas, fields (names, order, required), `additionalProperties: false`, `nullable`,
//! `const`, descriptions, defaults of optional fields, and the widths a schema names
//! (`"format": "int32"`, `"float"`). Not compared: widths and ranges the generated type adds (an `integer` becomes `i64`), `examples` (kept as
//! doc comments when the derive cannot take them), and defaults of required fields (never
//! applied).
//!
//! Two differences are reported apart, as [`Differences::known`], so a test can count them
//! without failing: a default that does not fit its own schema (neither road applies it; the
//! generated field is an `Option` and its doc comment keeps the default), and `oneOf`
//! written as `anyOf` where the alternatives exclude each other. (An integer's `multipleOf`
//! that is not a whole number is kept since issue 27 §5.)

use serde_json::Value;
use toolgate::model::{Additional, Kind, Schema, ToolModel};
use toolgate_core::values::json_equal;

/// What the generated model lacks or changes, one line each, with the path.
#[derive(Debug, Default)]
pub struct Differences {
    /// Lost or changed: a defect of the schema compiler.
    pub lost: Vec<String>,
    /// Known and documented (see the module docs).
    pub known: Vec<String>,
}

/// Compares the model read from a schema with the model of the type generated from it.
pub fn constraint_differences(original: &ToolModel, generated: &ToolModel) -> Differences {
    let mut walk = Walk {
        original,
        generated,
        out: Vec::new(),
        known: Vec::new(),
        seen: Vec::new(),
    };
    walk.schema(original.input(), generated.input(), "", true);
    if original.description() != generated.description() {
        walk.out.push(format!(
            "(tool): description {:?} became {:?}",
            original.description(),
            generated.description()
        ));
    }
    Differences {
        lost: walk.out,
        known: walk.known,
    }
}

struct Walk<'m> {
    original: &'m ToolModel,
    generated: &'m ToolModel,
    out: Vec<String>,
    known: Vec<String>,
    seen: Vec<(*const Schema, *const Schema)>,
}

/// The map an object without properties stands for.
fn as_map(kind: &Kind) -> Option<Schema> {
    match kind {
        Kind::Map(map) => Some((*map.values).clone()),
        Kind::Object(object) if object.fields.is_empty() => match &object.additional {
            Additional::Schema(values) => Some((**values).clone()),
            Additional::Allow => Some(Schema::any()),
            Additional::Deny => None,
        },
        _ => None,
    }
}

impl Walk<'_> {
    fn differ(
        &mut self,
        at: &str,
        what: &str,
        original: impl std::fmt::Debug,
        generated: impl std::fmt::Debug,
    ) {
        let at = if at.is_empty() { "(root)" } else { at };
        self.out
            .push(format!("{at}: {what} {original:?} became {generated:?}"));
    }

    fn schema(&mut self, original: &Schema, generated: &Schema, at: &str, top: bool) {
        let (Some(o), Some(g)) = (
            self.original.resolve(original),
            self.generated.resolve(generated),
        ) else {
            return self.differ(at, "reference", "resolves", "does not resolve");
        };
        let pair = (o as *const Schema, g as *const Schema);
        if self.seen.contains(&pair) {
            return;
        }
        self.seen.push(pair);
        if !top {
            let description = |outer: &Schema, inner: &Schema| {
                outer
                    .description
                    .clone()
                    .or_else(|| inner.description.clone())
            };
            let (od, gd) = (description(original, o), description(generated, g));
            if od != gd {
                self.differ(at, "description", od, gd);
            }
        }
        // `null` is taken where the reference or its target says so.
        let (on, gn) = (
            original.nullable || o.nullable,
            generated.nullable || g.nullable,
        );
        if on != gn {
            self.differ(at, "nullable", on, gn);
        }
        match (&o.constant, &g.constant) {
            (Some(a), Some(b)) if json_equal(a, b) => {}
            (None, _) => {}
            (a, b) => self.differ(at, "const", a, b),
        }
        match (&o.kind, &g.kind) {
            (Kind::Integer(a), Kind::Integer(b)) => {
                self.bounds(at, &a.bounds, &b.bounds);
                if a.multiple_of.is_some() && a.multiple_of != b.multiple_of {
                    self.differ(at, "multipleOf", a.multiple_of, b.multiple_of);
                }
                // A width the schema names (`format`) is named by the generated type too.
                if a.written_width().is_some() && a.written_width() != b.written_width() {
                    self.differ(at, "format", a.written_width(), b.written_width());
                }
            }
            (Kind::Number(a), Kind::Number(b)) => {
                self.bounds(at, &a.bounds, &b.bounds);
                if a.multiple_of.is_some() && a.multiple_of != b.multiple_of {
                    self.differ(at, "multipleOf", a.multiple_of, b.multiple_of);
                }
                if a.written_width().is_some() && a.written_width() != b.written_width() {
                    self.differ(at, "format", a.written_width(), b.written_width());
                }
            }
            (Kind::String(a), Kind::String(b)) => {
                if a != b {
                    self.differ(at, "string constraints", a, b);
                }
            }
            (Kind::Enum(a), Kind::Enum(b)) => {
                if a != b {
                    self.differ(at, "enum", a.value_list(), b.value_list());
                }
            }
            (Kind::Array(a), Kind::Array(b)) => {
                if (a.min_items, a.max_items, a.unique_items)
                    != (b.min_items, b.max_items, b.unique_items)
                {
                    self.differ(
                        at,
                        "array sizes",
                        (a.min_items, a.max_items, a.unique_items),
                        (b.min_items, b.max_items, b.unique_items),
                    );
                }
                self.schema(&a.items, &b.items, &format!("{at}/items"), false);
            }
            (Kind::Object(a), Kind::Object(b)) if !a.fields.is_empty() || !b.fields.is_empty() => {
                let names = |o: &toolgate::model::ObjectSchema| -> Vec<(String, bool)> {
                    o.fields
                        .iter()
                        .map(|f| (f.name.clone(), f.required))
                        .collect()
                };
                if names(a) != names(b) {
                    self.differ(at, "fields", names(a), names(b));
                    return;
                }
                match (&a.additional, &b.additional) {
                    (Additional::Schema(x), Additional::Schema(y)) => {
                        self.schema(x, y, &format!("{at}/additionalProperties"), false)
                    }
                    (Additional::Allow, Additional::Allow)
                    | (Additional::Deny, Additional::Deny) => {}
                    // `keep_undeclared_keys`: allowed keys kept as any value, the same rule.
                    (Additional::Allow, Additional::Schema(y)) if matches!(y.kind, Kind::Any) => {}
                    (x, y) => self.differ(at, "additionalProperties", x, y),
                }
                for (fa, fb) in a.fields.iter().zip(&b.fields) {
                    let here = format!("{at}/{}", fa.name);
                    if fa.aliases != fb.aliases {
                        self.differ(&here, "aliases", &fa.aliases, &fb.aliases);
                    }
                    if !fa.required {
                        let (da, db): (Option<&Value>, Option<&Value>) =
                            (fa.schema.default.as_ref(), fb.schema.default.as_ref());
                        let fits = match (da, db) {
                            (Some(x), Some(y)) => json_equal(x, y),
                            (None, None) => true,
                            _ => false,
                        };
                        match da {
                            Some(d)
                                if !fits
                                    && db.is_none()
                                    && self.original.check_against(&fa.schema, d).is_err() =>
                            {
                                self.known.push(format!(
                                    "{here}: default {d} does not fit its schema, not applied"
                                ))
                            }
                            _ if !fits => self.differ(&here, "default", da, db),
                            _ => {}
                        }
                    }
                    self.schema(&fa.schema, &fb.schema, &here, false);
                }
            }
            (Kind::Union(a), Kind::Union(b)) => {
                if a.mode != b.mode {
                    // The compiler writes only unions whose alternatives exclude each other
                    // (distinct tags, or distinct JSON types): `oneOf` and `anyOf` agree.
                    self.known.push(format!(
                        "{at}: {:?} written as {:?} (the alternatives exclude each other)",
                        a.mode, b.mode
                    ));
                }
                if a.variants.len() != b.variants.len() {
                    return self.differ(at, "alternatives", a.variants.len(), b.variants.len());
                }
                for (index, (x, y)) in a.variants.iter().zip(&b.variants).enumerate() {
                    self.schema(x, y, &format!("{at}/{index}"), false);
                }
            }
            // A `{"const": ...}` without a type (a union's tag, say) comes back as a value of
            // the constant's type: the constant says the rest.
            (Kind::Any, _) if o.constant.is_some() && g.constant.is_some() => {}
            (Kind::Any, Kind::Any)
            | (Kind::Boolean, Kind::Boolean)
            | (Kind::Null, Kind::Null)
            | (Kind::Never, Kind::Never) => {}
            (a, b) => match (as_map(a), as_map(b)) {
                (Some(x), Some(y)) => self.schema(&x, &y, &format!("{at}/*"), false),
                _ => self.differ(at, "kind", a.type_name(), b.type_name()),
            },
        }
    }

    fn bounds(&mut self, at: &str, a: &toolgate::model::Bounds, b: &toolgate::model::Bounds) {
        for (name, x, y) in [
            ("minimum", a.minimum, b.minimum),
            ("maximum", a.maximum, b.maximum),
            ("exclusiveMinimum", a.exclusive_minimum, b.exclusive_minimum),
            ("exclusiveMaximum", a.exclusive_maximum, b.exclusive_maximum),
        ] {
            if x.is_some() && x != y {
                self.differ(at, name, x, y);
            }
        }
    }
}

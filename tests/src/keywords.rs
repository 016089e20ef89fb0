//! The written schemas of a generated type and of the schema it was generated from,
//! compared keyword for keyword and byte for byte (issue 27 §5), node by node: `$ref`s are
//! followed on both sides (the compiler writes a definition used once in place, the derive
//! gives a type used twice a definition), so the layout of `$defs` may differ, never a
//! keyword's text.
//!
//! What a generated type adds or writes otherwise, by design, is reported apart
//! ([`KeywordDifferences::known`]), each kind named:
//! - `width`: a Rust number type's `format` and its range as `minimum`/`maximum` where the
//!   schema sets none (an `integer` becomes `i64`);
//! - `rust-name`: `x-rust-name`, the Rust name of a field whose name Rust cannot take;
//! - `kept-keys`: `additionalProperties: {}` where undeclared keys are kept
//!   (`keep_undeclared_keys`) and the schema said nothing;
//! - `union`: `oneOf` written as `anyOf` where the alternatives exclude each other;
//! - `example`: an example that does not fit its schema (in the doc comment, not the model);
//! - `default`: a default that is not applied (it does not fit, or the field is required;
//!   the doc comment says so), or written as the Rust type writes it (`5.0` of an integer
//!   is `5`);
//! - `const-type`: `{"const": "a"}` written with the constant's `type`;
//! - `map`: `properties: {}` not written (an object without properties is a Rust map).

use serde_json::{Map, Value};
use toolgate_core::values::json_equal;

/// What differs, one line each, with the JSON pointer of the source node.
#[derive(Debug, Default)]
pub struct KeywordDifferences {
    /// Lost, changed or added: a defect.
    pub lost: Vec<String>,
    /// By design (see the module docs): `(kind, line)`.
    pub known: Vec<(&'static str, String)>,
}

/// Compares the written schema of `generated` with that of `original` (both
/// `ToolModel::json_schema()` texts).
pub fn keyword_differences(original: &str, generated: &str) -> KeywordDifferences {
    let original: Value = serde_json::from_str(original).expect("a written schema is JSON");
    let generated: Value = serde_json::from_str(generated).expect("a written schema is JSON");
    let mut walk = Walk {
        original_defs: defs(&original),
        generated_defs: defs(&generated),
        out: KeywordDifferences::default(),
        seen: Vec::new(),
    };
    walk.node(&original, &generated, "");
    walk.out
}

fn defs(root: &Value) -> Map<String, Value> {
    root.get("$defs")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

struct Walk {
    original_defs: Map<String, Value>,
    generated_defs: Map<String, Value>,
    out: KeywordDifferences,
    seen: Vec<(String, String)>,
}

/// Keywords whose value is one schema.
const ONE: [&str; 3] = ["items", "additionalProperties", "propertyNames"];
/// Keywords whose value is a list of schemas.
const LIST: [&str; 3] = ["anyOf", "oneOf", "prefixItems"];

fn text(value: &Value) -> String {
    value.to_string()
}

/// The JSON Schema type of a constant.
fn const_type(constant: &Value) -> Option<&'static str> {
    Some(match constant {
        Value::String(_) => "string",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        Value::Null => return None,
    })
}

impl Walk {
    fn lost(&mut self, at: &str, line: String) {
        let at = if at.is_empty() { "(root)" } else { at };
        self.out.lost.push(format!("{at}: {line}"));
    }

    fn known(&mut self, kind: &'static str, at: &str, line: String) {
        let at = if at.is_empty() { "(root)" } else { at };
        self.out.known.push((kind, format!("{at}: {line}")));
    }

    /// Follows a `$ref` (keeping the referring node's own keywords, which win).
    fn resolve(&mut self, node: &Value, original: bool) -> Option<(Map<String, Value>, String)> {
        let Value::Object(members) = node else {
            return None;
        };
        let Some(target) = members.get("$ref").and_then(Value::as_str) else {
            return Some((members.clone(), String::new()));
        };
        let name = target.strip_prefix("#/$defs/")?;
        let defs = if original {
            &self.original_defs
        } else {
            &self.generated_defs
        };
        let mut body = defs.get(name)?.as_object()?.clone();
        for (key, value) in members {
            if key != "$ref" {
                body.insert(key.clone(), value.clone());
            }
        }
        Some((body, target.to_owned()))
    }

    fn node(&mut self, original: &Value, generated: &Value, at: &str) {
        if let (Value::Bool(_), _) | (_, Value::Bool(_)) = (original, generated) {
            if text(original) != text(generated) {
                self.lost(at, format!("{original} became {generated}"));
            }
            return;
        }
        let (Some((o, o_ref)), Some((g, g_ref))) =
            (self.resolve(original, true), self.resolve(generated, false))
        else {
            return self.lost(at, "a reference does not resolve".to_owned());
        };
        // `null` allowed is written `anyOf: [X, {"type": "null"}]` around a reference or a
        // union, `"type": [X, "null"]` otherwise: compare what is allowed besides `null`.
        let (o, o_null) = self.without_null(o, true);
        let (g, g_null) = self.without_null(g, false);
        if o_null != g_null {
            self.lost(at, format!("null allowed {o_null} became {g_null}"));
        }
        if (o_null || g_null) && (o.contains_key("$ref") || g.contains_key("$ref")) {
            return self.node(&Value::Object(o), &Value::Object(g), at);
        }
        if !o_ref.is_empty() || !g_ref.is_empty() {
            let pair = (o_ref, g_ref);
            if self.seen.contains(&pair) {
                return;
            }
            self.seen.push(pair);
        }
        let numeric = matches!(
            o.get("type").and_then(Value::as_str),
            Some("integer" | "number")
        );
        for (keyword, value) in &o {
            let here = format!("{at}/{keyword}");
            let found = g.get(keyword);
            match keyword.as_str() {
                "$defs" => {}
                "properties" => self.properties(value, found, &here),
                key if ONE.contains(&key) => match found {
                    Some(found) => self.node(value, found, &here),
                    None => self.lost(at, format!("{keyword} {value} lost")),
                },
                key if LIST.contains(&key) => {
                    let other = if key == "oneOf" { g.get("anyOf") } else { None };
                    match (value, found.or(other)) {
                        (Value::Array(a), Some(Value::Array(b))) if a.len() == b.len() => {
                            if found.is_none() {
                                self.known("union", at, "oneOf written as anyOf".to_owned());
                            }
                            for (index, (x, y)) in a.iter().zip(b).enumerate() {
                                self.node(x, y, &format!("{here}/{index}"));
                            }
                        }
                        (_, found) => self.lost(at, format!("{keyword} {value} became {found:?}")),
                    }
                }
                "examples" => self.examples(value, found, at),
                "default" if found.is_none() => {
                    self.known("default", at, format!("default {value} not applied"))
                }
                // A default is a value of the Rust type, written as that type writes it.
                "default" if found.is_some_and(|found| json_equal(found, value)) => {
                    if found.is_some_and(|found| text(found) != text(value)) {
                        self.known("default", at, format!("default {value} written {found:?}"));
                    }
                }
                _ => match found {
                    Some(found) if text(found) == text(value) => {}
                    found => self.lost(at, format!("{keyword} {value} became {found:?}")),
                },
            }
        }
        for (keyword, value) in &g {
            if o.contains_key(keyword) || keyword == "$defs" || keyword == "$ref" {
                continue;
            }
            match keyword.as_str() {
                "format" | "minimum" | "maximum" if numeric => {
                    self.known("width", at, format!("{keyword} {value} added"))
                }
                "x-rust-name" => self.known("rust-name", at, format!("x-rust-name {value}")),
                "additionalProperties" if *value == Value::Object(Map::new()) => {
                    self.known("kept-keys", at, "additionalProperties {} added".to_owned())
                }
                "anyOf" if o.contains_key("oneOf") => {}
                // `{"const": "a"}` comes back as a value of the constant's type.
                "type"
                    if o.get("const")
                        .is_some_and(|c| const_type(c) == value.as_str()) =>
                {
                    self.known("const-type", at, format!("type {value} of the const"))
                }
                _ => self.lost(at, format!("{keyword} {value} added")),
            }
        }
    }

    /// The node without the `null` it allows, and whether it allows it.
    fn without_null(
        &mut self,
        mut node: Map<String, Value>,
        original: bool,
    ) -> (Map<String, Value>, bool) {
        let null = serde_json::json!({"type": "null"});
        if let Some(Value::Array(members)) = node.get("anyOf") {
            if members.len() == 2 && members.contains(&null) {
                let inner = members.iter().find(|m| **m != null).cloned();
                node.remove("anyOf");
                if let Some((inner, _)) = inner.and_then(|inner| self.resolve(&inner, original)) {
                    for (key, value) in inner {
                        node.entry(key).or_insert(value);
                    }
                }
                return (node, true);
            }
        }
        if let Some(Value::Array(types)) = node.get("type") {
            if types.contains(&Value::from("null")) {
                let rest: Vec<Value> = types.iter().filter(|t| **t != "null").cloned().collect();
                match rest.as_slice() {
                    [] => node.remove("type"),
                    [one] => node.insert("type".to_owned(), one.clone()),
                    _ => node.insert("type".to_owned(), Value::Array(rest)),
                };
                return (node, true);
            }
        }
        (node, false)
    }

    fn properties(&mut self, value: &Value, found: Option<&Value>, at: &str) {
        if found.is_none() && *value == Value::Object(Map::new()) {
            return self.known("map", at, "properties {} not written".to_owned());
        }
        let (Value::Object(a), Some(Value::Object(b))) = (value, found) else {
            return self.lost(at, format!("properties became {found:?}"));
        };
        let names = |m: &Map<String, Value>| m.keys().cloned().collect::<Vec<_>>();
        if names(a) != names(b) {
            return self.lost(at, format!("names {:?} became {:?}", names(a), names(b)));
        }
        for (name, schema) in a {
            let escaped = name.replace('~', "~0").replace('/', "~1");
            self.node(schema, &b[name], &format!("{at}/{escaped}"));
        }
    }

    fn examples(&mut self, value: &Value, found: Option<&Value>, at: &str) {
        let empty = Vec::new();
        let (written, kept) = (
            value.as_array().unwrap_or(&empty),
            found.and_then(Value::as_array).unwrap_or(&empty),
        );
        // The kept ones, in order, each with its text; the others are reported.
        let mut rest = kept.iter().peekable();
        for example in written {
            if rest.peek().is_some_and(|k| text(k) == text(example)) {
                rest.next();
            } else {
                self.known("example", at, format!("example {example} not in the model"));
            }
        }
        if rest.peek().is_some() {
            self.lost(at, format!("examples {value} became {found:?}"));
        }
    }
}

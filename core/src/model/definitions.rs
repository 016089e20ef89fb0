//! [`Definitions`]: the named types of a model while it is built, and the rule that decides
//! which of them are written once under `$defs` and which are written where they are used.

use std::any::TypeId;
use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Kind, Schema};

/// Collects the named types of a model while it is built (the `#[derive(Tool)]` structs and
/// enums, through [`Definitions::named`]), then decides where each is written
/// ([`Definitions::finish`]):
///
/// - **A type used once is written inline**, where it is used, as if it had no name. A tool
///   whose nested types are each used once (most tools) gets the schema it would get with no
///   names at all: its schema reads top to bottom without a `$ref` to follow, the
///   description of a field and the shape of its value sit together, and a model's schema
///   does not change when a type gains a name.
/// - **A type used more than once, or that contains itself, is written once** under `$defs`,
///   by its Rust name (numbered when two such types share one), and each use is a reference
///   (`{"$ref": "#/$defs/Name"}`). Written inline at every use, a type with two fields of
///   one type, nested 40 deep, would be 2⁴⁰ schemas; as references it is 40 definitions.
///
/// Whatever the number of uses, each type's body is described once per model (a use met
/// after the first is answered from the types collected so far), so building a model is
/// linear in the number of distinct types and the size of their bodies.
///
/// A reference keeps what its use adds: the use's description (or else the type's own, as
/// the type written inline would show it; references inside the type's own body excepted),
/// `nullable`, its default and examples. Constraint setters change nothing on a reference
/// ([`Schema::maximum`] on a [`Kind::Ref`] is a no-op), so a named type's constraints belong
/// in its body; the derive accepts only a description, aliases and examples on a field of
/// a named type.
///
/// ```
/// use toolgate_core::model::{Definitions, Field, Kind, Schema};
///
/// struct Point;
/// fn point(definitions: &mut Definitions) -> Schema {
///     definitions.named::<Point>("Point", |_| Schema::object(vec![Field::required("x", Schema::integer())]))
/// }
///
/// let mut definitions = Definitions::new();
/// let line = Schema::object(vec![
///     Field::required("from", point(&mut definitions)),
///     Field::required("to", point(&mut definitions).with_description("Where it ends")),
/// ]);
/// let (line, shared) = definitions.finish(line);
/// assert_eq!(shared.len(), 1);
/// let Kind::Object(object) = &line.kind else { unreachable!() };
/// assert_eq!(object.fields[1].schema.kind, Kind::Ref("Point".into()));
/// assert_eq!(object.fields[1].schema.description.as_deref(), Some("Where it ends"));
/// ```
#[derive(Debug, Default)]
pub struct Definitions {
    /// Every named type met, in the order first met.
    types: Vec<NamedType>,
    /// The position in `types` of each Rust type.
    by_type: HashMap<TypeId, usize>,
    /// The position in `types` of each key references hold while the model is built.
    by_key: HashMap<String, usize>,
    /// The position in `types` of each definition of a schema given as text
    /// ([`Definitions::schema_text`]): the text, then the definition's name in it.
    by_text: HashMap<(String, String), usize>,
}

#[derive(Debug)]
struct NamedType {
    /// The name asked for: the Rust type's name.
    name: String,
    /// What its references hold until [`Definitions::finish`]: `name`, numbered when another
    /// type took it.
    key: String,
    /// Its schema; `None` while it is being described.
    body: Option<Schema>,
}

impl Definitions {
    /// No definitions yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A reference to the named type `T`, whose schema `body` gives. `body` runs the first
    /// time `T` is met in this model; every later use (those inside `body`, when `T`
    /// contains itself, included) gets a reference without running it again.
    /// [`Definitions::finish`] writes the body in place of the reference when `T` turns out to
    /// be used once.
    pub fn named<T: ?Sized + 'static>(
        &mut self,
        name: &str,
        body: impl FnOnce(&mut Definitions) -> Schema,
    ) -> Schema {
        let id = TypeId::of::<T>();
        if let Some(&index) = self.by_type.get(&id) {
            return self.reference(index);
        }
        let index = self.types.len();
        let key = numbered(name, |candidate| self.by_key.contains_key(candidate));
        self.by_key.insert(key.clone(), index);
        self.by_type.insert(id, index);
        self.types.push(NamedType {
            name: name.to_owned(),
            key,
            body: None,
        });
        let schema = body(self);
        self.types[index].body = Some(schema);
        self.reference(index)
    }

    /// The schema that the JSON Schema `text` (draft 2020-12, any value, with its own
    /// `$defs`) describes, for a value the Rust type holds as JSON (a field of
    /// `serde_json::Value` with `#[tool(schema = "...")]`, written by the schema compiler
    /// where serde cannot read the shape as a Rust type). The text's definitions join this
    /// model's, renamed where a name is taken, and are read once however many times the
    /// same text is met.
    ///
    /// # Panics
    ///
    /// When the text is not a schema the model reads: the derive reads it at compile time
    /// and refuses it there, so generated code does not panic.
    ///
    /// ```
    /// use toolgate_core::model::{Definitions, Kind};
    ///
    /// let mut definitions = Definitions::new();
    /// let schema = definitions.schema_text(r#"{"anyOf": [{"type": "string", "maxLength": 3}, {"type": "string", "pattern": "^x"}]}"#);
    /// assert!(matches!(schema.kind, Kind::Union(_)));
    /// ```
    pub fn schema_text(&mut self, text: &str) -> Schema {
        let json = match super::Json::from_schema_text(text) {
            Ok(json) => json,
            Err(error) => panic!("toolgate: a field's schema is not JSON: {error}"),
        };
        let model = match super::read::read_value_schema(&json) {
            Ok(model) => model,
            Err(errors) => panic!("toolgate: a field's schema cannot be read: {errors}"),
        };
        let mut keys = HashMap::new();
        let mut fresh = Vec::new();
        for name in model.definitions().keys() {
            let id = (text.to_owned(), name.clone());
            let index = match self.by_text.get(&id) {
                Some(&index) => index,
                None => {
                    let index = self.types.len();
                    let key = numbered(name, |candidate| self.by_key.contains_key(candidate));
                    self.by_key.insert(key.clone(), index);
                    self.by_text.insert(id, index);
                    self.types.push(NamedType {
                        name: name.clone(),
                        key,
                        body: None,
                    });
                    fresh.push((index, name));
                    index
                }
            };
            keys.insert(name.clone(), self.types[index].key.clone());
        }
        for (index, name) in fresh {
            let mut body = model.definitions()[name].clone();
            rename_references(&mut body, &keys);
            self.types[index].body = Some(body);
        }
        let mut root = model.input().clone();
        rename_references(&mut root, &keys);
        // The reader keeps a root's description and `title` on the model: here they are
        // the value's.
        if root.description.is_none() {
            root.description = model.description().map(str::to_owned);
        }
        if let Some(super::Json::String(title)) = json.get("title") {
            let title = ("title".to_owned(), serde_json::Value::String(title.clone()));
            root.annotations.insert(0, title);
        }
        root
    }

    /// A reference to the type at `index`, with the type's description once its body is
    /// known.
    fn reference(&self, index: usize) -> Schema {
        let named = &self.types[index];
        let mut reference = Schema::reference(named.key.clone());
        reference.description = named.body.as_ref().and_then(|b| b.description.clone());
        reference
    }

    /// The schema `root` (built with these definitions) with every type used once written in
    /// place, and the definitions its references name: the types used more than once.
    /// Types that `root` does not reach are left out.
    pub fn finish(mut self, mut root: Schema) -> (Schema, BTreeMap<String, Schema>) {
        let uses = self.count_uses(&root);
        let mut taken = HashSet::new();
        let names: Vec<Option<String>> = self
            .types
            .iter()
            .zip(&uses)
            .map(|(named, &uses)| {
                (uses > 1).then(|| {
                    let name = numbered(&named.name, |candidate| taken.contains(candidate));
                    taken.insert(name.clone());
                    name
                })
            })
            .collect();
        let mut writer = Writer {
            by_key: &self.by_key,
            bodies: self.types.iter_mut().map(|t| t.body.take()).collect(),
            names: &names,
        };
        writer.write(&mut root);
        let mut definitions = BTreeMap::new();
        for (index, name) in names.iter().enumerate() {
            if let (Some(name), Some(mut body)) = (name, writer.bodies[index].take()) {
                writer.write(&mut body);
                definitions.insert(name.clone(), body);
            }
        }
        (root, definitions)
    }

    /// How many references to each type `root` holds, counting those inside each body
    /// reached once (the body is written once, in place or under `$defs`).
    fn count_uses(&self, root: &Schema) -> Vec<usize> {
        let mut uses = vec![0; self.types.len()];
        let mut pending = vec![root];
        while let Some(schema) = pending.pop() {
            if let Kind::Ref(key) = &schema.kind {
                if let Some(&index) = self.by_key.get(key) {
                    uses[index] += 1;
                    if uses[index] == 1 {
                        pending.extend(&self.types[index].body);
                    }
                }
            }
            pending.extend(schema.kind.children());
        }
        uses
    }
}

/// `name`, or `name2`, `name3`, ... : the first that is not `taken`.
fn numbered(name: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut candidate = name.to_owned();
    let mut number = 2;
    while taken(&candidate) {
        candidate = format!("{name}{number}");
        number += 1;
    }
    candidate
}

/// Every reference in `schema` to a name of `keys` is changed to the key it maps to.
fn rename_references(schema: &mut Schema, keys: &HashMap<String, String>) {
    let mut pending = vec![schema];
    while let Some(schema) = pending.pop() {
        if let Kind::Ref(key) = &mut schema.kind {
            if let Some(renamed) = keys.get(key.as_str()) {
                *key = renamed.clone();
            }
        }
        pending.extend(schema.kind.children_mut());
    }
}

/// Writes the finished schemas: references to types used once become their bodies, the
/// others take their final names.
struct Writer<'d> {
    by_key: &'d HashMap<String, usize>,
    /// Each type's body until it is written.
    bodies: Vec<Option<Schema>>,
    /// The name under `$defs` of each type used more than once.
    names: &'d [Option<String>],
}

impl Writer<'_> {
    fn write(&mut self, schema: &mut Schema) {
        let mut pending = vec![schema];
        while let Some(schema) = pending.pop() {
            // A body may itself be a reference (a type described as another), hence a loop.
            // Every step takes a body out, so it ends.
            while let Kind::Ref(key) = &schema.kind {
                let Some(&index) = self.by_key.get(key) else {
                    break; // Not a reference these definitions made.
                };
                if let Some(name) = &self.names[index] {
                    schema.kind = Kind::Ref(name.clone());
                    break;
                }
                let Some(body) = self.bodies[index].take() else {
                    break;
                };
                let site = std::mem::replace(schema, Schema::any());
                *schema = in_place(body, site);
            }
            pending.extend(schema.kind.children_mut());
        }
    }
}

/// The body of a type used once, with what its use adds (as the use's setters would have
/// changed the body written inline).
fn in_place(mut body: Schema, site: Schema) -> Schema {
    if site.description.is_some() {
        body.description = site.description;
    }
    if site.nullable {
        body = body.nullable();
    }
    if site.default.is_some() {
        body.default = site.default;
    }
    if site.constant.is_some() {
        body.constant = site.constant;
    }
    body.examples.extend(site.examples);
    // The use's annotations (`title`...) win over the type's own, keyword by keyword.
    for (keyword, value) in site.annotations {
        match body
            .annotations
            .iter_mut()
            .find(|(known, _)| *known == keyword)
        {
            Some((_, old)) => *old = value,
            None => body.annotations.push((keyword, value)),
        }
    }
    body
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::marker::PhantomData;

    use super::*;
    use crate::model::{Field, ToolModel};

    struct Node;

    fn node(defs: &mut Definitions) -> Schema {
        defs.named::<Node>("Node", |defs| {
            Schema::object(vec![Field::optional("children", Schema::array(node(defs)))])
                .with_description("A tree node")
        })
    }

    #[test]
    fn recursive_types_become_references() {
        let mut defs = Definitions::new();
        let schema = node(&mut defs);
        assert_eq!(schema.kind, Kind::Ref("Node".into()));
        assert_eq!(schema.description.as_deref(), Some("A tree node"));
        let (schema, definitions) = defs.finish(schema);
        assert_eq!(schema.kind, Kind::Ref("Node".into()));
        let Kind::Object(body) = &definitions["Node"].kind else {
            panic!("not an object")
        };
        let Kind::Array(children) = &body.fields[0].schema.kind else {
            panic!("not an array")
        };
        assert_eq!(children.items.kind, Kind::Ref("Node".into()));
        // The reference inside the body is written before the body is known.
        assert_eq!(children.items.description, None);
    }

    struct Leaf;
    struct Point;

    thread_local! {
        static BODIES_DESCRIBED: Cell<usize> = const { Cell::new(0) };
    }

    fn leaf(defs: &mut Definitions) -> Schema {
        defs.named::<Leaf>("Leaf", |_| {
            BODIES_DESCRIBED.set(BODIES_DESCRIBED.get() + 1);
            Schema::object(vec![Field::required("n", Schema::integer().maximum(9))])
        })
    }

    /// `{l: T, r: T}`, named `Pair`: nested, each level uses the one below twice.
    struct Pair<T>(PhantomData<T>);

    trait Describe {
        fn describe(defs: &mut Definitions) -> Schema;
    }

    impl Describe for Leaf {
        fn describe(defs: &mut Definitions) -> Schema {
            leaf(defs)
        }
    }

    impl<T: Describe + 'static> Describe for Pair<T> {
        fn describe(defs: &mut Definitions) -> Schema {
            defs.named::<Self>("Pair", |defs| {
                BODIES_DESCRIBED.set(BODIES_DESCRIBED.get() + 1);
                Schema::object(vec![
                    Field::optional("l", T::describe(defs)),
                    Field::optional("r", T::describe(defs).with_description("Right")),
                ])
            })
        }
    }

    macro_rules! nested_pairs {
        ($inner:ty;) => { $inner };
        ($inner:ty; $level:tt $($rest:tt)*) => { nested_pairs!(Pair<$inner>; $($rest)*) };
    }

    type FortyLevels = nested_pairs!(Leaf; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20
        21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40);

    #[test]
    fn a_shared_type_is_described_once_and_referenced() {
        BODIES_DESCRIBED.set(0);
        let mut defs = Definitions::new();
        let root = FortyLevels::describe(&mut defs);
        // One body per distinct type: 40 pairs and the leaf, not 2⁴¹ - 1.
        assert_eq!(BODIES_DESCRIBED.get(), 41);
        let (root, definitions) = defs.finish(root);
        // The leaf and 39 pairs are used twice each; the outermost pair, once, is in place.
        assert_eq!(definitions.len(), 40);
        assert!(definitions.contains_key("Leaf"));
        assert!(definitions.contains_key("Pair") && definitions.contains_key("Pair39"));
        let Kind::Object(top) = &root.kind else {
            panic!("the root is written in place")
        };
        assert_eq!(top.fields[0].schema.kind, Kind::Ref("Pair".into()));
        assert_eq!(top.fields[1].schema.description.as_deref(), Some("Right"));
        let written = serde_json::to_string(&root.to_json_value()).unwrap();
        assert!(written.len() < 200, "{written}");
    }

    #[test]
    fn a_type_used_once_is_written_in_place_with_what_its_use_adds() {
        let mut defs = Definitions::new();
        let one_use = leaf(&mut defs)
            .nullable()
            .with_description("The only leaf")
            .with_example(serde_json::json!({"n": 1}));
        let root = Schema::object(vec![Field::optional("leaf", one_use)]);
        let (root, definitions) = defs.finish(root);
        assert!(definitions.is_empty());
        let mut alone = Definitions::new();
        let expected = leaf(&mut alone);
        let (expected, _) = alone.finish(expected);
        let Kind::Object(object) = &root.kind else {
            panic!("not an object")
        };
        let written = &object.fields[0].schema;
        assert_eq!(written.kind, expected.kind);
        assert!(written.nullable);
        assert_eq!(written.description.as_deref(), Some("The only leaf"));
        assert_eq!(written.examples, vec![serde_json::json!({"n": 1})]);
    }

    #[test]
    fn names_are_numbered_among_the_types_kept() {
        let mut defs = Definitions::new();
        struct OtherPoint;
        let point =
            |defs: &mut Definitions| defs.named::<Point>("Point", |_| Schema::object(Vec::new()));
        let other = |defs: &mut Definitions| {
            defs.named::<OtherPoint>("Point", |_| Schema::object(Vec::new()))
        };
        // `Point` is used once (written in place); the other `Point` twice.
        let root = Schema::object(vec![
            Field::required("a", point(&mut defs)),
            Field::required("b", other(&mut defs)),
            Field::required("c", other(&mut defs)),
        ]);
        let (root, definitions) = defs.finish(root);
        assert_eq!(definitions.keys().collect::<Vec<_>>(), ["Point"]);
        let Kind::Object(object) = &root.kind else {
            panic!("not an object")
        };
        assert!(matches!(object.fields[0].schema.kind, Kind::Object(_)));
        assert_eq!(object.fields[2].schema.kind, Kind::Ref("Point".into()));
    }

    /// Issue 43 §8: a reference at any place a schema holds one (each of the eight, both
    /// `propertyNames` included) is followed by every walk: counted and written in place by
    /// `finish`, renamed by `Definitions::schema_text`, and carried by
    /// `ToolModel::schema_text`.
    #[test]
    fn a_reference_at_every_child_place_is_kept_by_every_walk() {
        let key = r##"{"$ref": "#/$defs/key"}"##;
        let places = [
            format!(r#"{{"type": "array", "prefixItems": [{key}]}}"#),
            format!(r#"{{"type": "array", "items": {key}}}"#),
            format!(r#"{{"type": "object", "additionalProperties": {key}}}"#),
            format!(
                r#"{{"type": "object", "additionalProperties": {{"type": "integer"}}, "propertyNames": {key}}}"#
            ),
            format!(r#"{{"type": "object", "properties": {{"a": {key}}}}}"#),
            format!(
                r#"{{"type": "object", "properties": {{"a": {{"type": "string"}}}}, "additionalProperties": {key}}}"#
            ),
            format!(
                r#"{{"type": "object", "properties": {{"a": {{"type": "string"}}}}, "propertyNames": {key}}}"#
            ),
            format!(r#"{{"anyOf": [{{"type": "integer"}}, {key}]}}"#),
        ];
        let defs = r#""$defs": {"key": {"type": "string", "maxLength": 3}}"#;
        for place in places {
            let text = format!(r#"{{"type": "object", "properties": {{"p": {place}}}, {defs}}}"#);
            let model = ToolModel::from_json_schema(&text).unwrap_or_else(|e| panic!("{e}"));
            let Kind::Object(object) = &model.input().kind else {
                panic!("{text}")
            };
            // `schema_text` carries the definition the field reaches.
            let field_text = model.schema_text(&object.fields[0].schema);
            assert!(field_text.contains(r#""$defs":{"key""#), "{field_text}");
            // Read into other definitions (renamed), and finished: nothing dangles.
            let mut definitions = Definitions::new();
            definitions.named::<Node>("key", |_| Schema::string());
            let schema = definitions.schema_text(&field_text);
            let (root, written) =
                definitions.finish(Schema::object(vec![Field::required("p", schema)]));
            let tool = ToolModel::new("t", None, root, written);
            let again = ToolModel::from_json_schema(tool.json_schema())
                .unwrap_or_else(|e| panic!("{e}\n{}", tool.json_schema()));
            assert!(
                again.json_schema().contains("maxLength"),
                "{place}: {}",
                again.json_schema()
            );
        }
    }
}

//! The tool model → Rust items that `#[derive(toolgate::Tool)]` turns back into the same
//! model: a struct per object, a unit enum per string enum, `#[tool(...)]` for the
//! constraints, `#[serde(...)]` for wire names and defaults, doc comments for descriptions
//! (written as text, never code: see `docs.rs`).
//!
//! Decisions (the model holds more than Rust types say; nothing is dropped in silence; what
//! the derive would refuse is refused here, at its JSON pointer):
//! - an integer without a `format` is the first of `i64`, `u64`, `i128` that holds its
//!   bounds, with `format` the type of that width; a number is `f64` (`f32` for
//!   `format: float`); bounds and `multipleOf` as in `numbers.rs`;
//! - an object with properties is a struct (unknown keys dropped with a log entry, or refused
//!   under `additionalProperties: false`; with a schema, they are kept in a
//!   `#[serde(flatten)] additional_properties: BTreeMap<String, _>`); an object without
//!   properties is a `BTreeMap<String, _>` of its `additionalProperties` (any value when
//!   absent), constraints on the values in `#[tool(values(...))]`;
//! - `const` is `#[tool(constant = ...)]` (refused when the schema's other constraints refuse
//!   it: no value would fit); an `enum` of strings is a Rust enum, any other
//!   `enum` a value of the narrowest type holding its values (`bool`, `i64`, `u64`, `f64`,
//!   `serde_json::Value`) with `#[tool(enum_values = [...])]`; `{"type": "null"}` is `()`;
//!   the `false` schema is `toolgate::model::Never` (an optional property of it must be absent); an
//!   `enum` left without values (`{"type": "string", "enum": [true, false]}`: the reader drops
//!   the values `type` rules out) is an enum without variants, which no value decodes into
//!   and whose model is the same empty `enum`, so both roads refuse any value with the same
//!   issue;
//! - `propertyNames` on a map is `#[tool(keys(...))]` (`keys.rs`); beside declared
//!   properties it is refused;
//! - an optional property is `Option<T>`; with a default that fits its schema it is `T`
//!   with `#[serde(default = "...")]`; a default that does not fit is not applied (the
//!   dynamic road does not apply it either) and the doc comment says so; an optional
//!   property that takes `null` (a `["T", "null"]` type, `any`, `null`) and has no default
//!   to fill it is `toolgate::Nullable<T>`, which keeps absent apart from `null` and writes
//!   each back as it came (`Option<T>` would read both as `None`); a required property
//!   that takes `null` is `Option<T>` with `#[tool(nullable)]`;
//! - a `$ref` to an object or enum is that type, boxed where a definition contains itself or
//!   is used more than once (without a `Vec` or map between: a type holding two fields of one
//!   type, 40 levels deep, would otherwise be 2⁴⁰ times the size of the bottom one); a `$ref`
//!   to anything else is written in place. (Proving `Send` for a type nested more than about
//!   30 boxes deep, as rustdoc does for every type, needs a `#![recursion_limit]` above the
//!   default 128 in the crate that includes the code.)
//! - whatever of the above cannot be written (a union serde cannot tell apart, an
//!   object-valued `const`, bounds no value meets, ...) is not an error: the field is a
//!   `serde_json::Value` with its exact schema as `#[tool(schema = "...")]`, and a root that
//!   is not an object with properties is a tool struct around one JSON value (`checked.rs`).
//!   The errors left are the reader's (a remote `$ref`) and a tool name Rust cannot report.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;
use toolgate_core::model::{Additional, EnumSchema, Kind, ObjectSchema, Schema, ToolModel};

use crate::derive::{valid_tool_name, TOOL_NAME_RULE};

use super::names::{field_name, type_name, variant_name, Taken};

mod checked;
mod docs;
mod fields;
mod keys;
mod literals;
mod numbers;
mod references;
mod tuples;
mod unions;

use docs::{doc_attr, doc_reproduces};
use literals::*;
use references::{
    oversized_in_place, recursive_definitions, shared_definitions, MOST_WRITTEN_SCHEMAS,
};

/// The path by which generated code names its type `name`: the name, or `self::Name` where
/// the derive would read the bare name as a std type (`Box`, `Vec`, `Option`, `HashMap`,
/// `Duration`...: issue 27 §9, G5). The type keeps the schema's name; every std type the
/// generated code uses is written by its absolute path, so no std name is shadowed either.
pub(crate) fn type_path(name: &str) -> TokenStream {
    let ident = format_ident!("{}", name);
    if crate::derive::reads_by_name(name) {
        quote!(self::#ident)
    } else {
        quote!(#ident)
    }
}

/// What a generated type says of itself: its description (doc comment or
/// `#[tool(description)]`) and its annotations (`#[tool(annotations)]`).
#[derive(Clone, Copy)]
struct Described<'a> {
    description: Option<&'a str>,
    annotations: &'a [(String, Value)],
}

impl<'a> Described<'a> {
    /// A description alone (the annotations of a type written in place are its use's).
    fn text(description: Option<&'a str>) -> Self {
        Described {
            description,
            annotations: &[],
        }
    }

    /// A named definition's own.
    fn of(definition: &'a Schema) -> Self {
        Described {
            description: definition.description.as_deref(),
            annotations: &definition.annotations,
        }
    }
}

/// `annotations = "{...}"`: a schema's annotations (`title`, `$comment`, an unknown
/// `format`...) as the derive keeps them, in order (issue 27 §5); none when it has none.
fn annotations_key(annotations: &[(String, Value)]) -> Option<TokenStream> {
    if annotations.is_empty() {
        return None;
    }
    let members: Vec<String> = annotations
        .iter()
        .map(|(key, value)| format!("{}:{value}", Value::from(key.as_str())))
        .collect();
    let text = format!("{{{}}}", members.join(","));
    Some(quote!(annotations = #text))
}

/// One schema error while lowering: a pointer relative to the tool's arguments schema.
pub(crate) type LowerError = (String, String);

/// The Rust type of a value and the `#[tool(...)]` constraints on it.
struct Lowered {
    ty: TokenStream,
    constraints: Vec<TokenStream>,
    /// `T` where `ty` is `Option<T>` because the schema takes `null`.
    value_ty: Option<TokenStream>,
}

impl Lowered {
    /// Adds `keys(...)` for a map's `propertyNames` (at `pointer`'s `/propertyNames`).
    fn keys(&mut self, keys: Option<&Schema>, pointer: &str, scope: &mut Scope<'_>) {
        if let Some(keys) = keys {
            let at = format!("{pointer}/propertyNames");
            if let Some(constraint) = keys::key_constraints(keys, &at, &mut scope.errors) {
                self.constraints.push(constraint);
            }
        }
    }

    /// A type without constraints.
    fn plain(ty: TokenStream) -> Self {
        Lowered {
            ty,
            constraints: Vec::new(),
            value_ty: None,
        }
    }

    /// Any JSON value: the type of values that take any value, and the stand-in where a
    /// schema error was recorded.
    fn any() -> Self {
        Self::plain(quote!(::toolgate::serde_json::Value))
    }
}

/// What is written for every generated type besides `toolgate::Tool`.
pub(crate) struct Style {
    pub derives: Vec<syn::Path>,
    /// Structs whose schema allows undeclared keys keep them in a flattened map.
    pub keep_undeclared_keys: bool,
    /// Refuse what would be held as JSON (`Builder::typed_only`).
    pub typed_only: bool,
}

/// Items for a whole file: type names are unique across its tools.
pub(crate) struct Lowering<'s> {
    style: &'s Style,
    types: Taken,
    functions: Taken,
    items: Vec<TokenStream>,
}

/// One tool being lowered.
struct Scope<'m> {
    model: &'m ToolModel,
    /// Rust names of the definitions given a type so far.
    named: BTreeMap<String, String>,
    /// Definitions that contain themselves.
    recursive: BTreeSet<String>,
    /// Named definitions used more than once.
    shared: BTreeSet<String>,
    /// Definitions being written in place, each with the number of structs being written
    /// around it then (a loop among them is written only through a struct and a `Vec` or
    /// map: `references.rs`).
    inlining: Vec<(String, usize)>,
    /// Structs being written on the current path.
    open_structs: usize,
    /// The struct written for each inline object of a definition that contains itself, by
    /// the object's JSON pointer: met again through the loop, it is that struct.
    loop_objects: BTreeMap<String, String>,
    /// The model that values held as JSON are written from (`checked::keeping_model`).
    json_model: Option<ToolModel>,
    errors: Vec<LowerError>,
}

impl<'s> Lowering<'s> {
    pub(crate) fn new(style: &'s Style) -> Self {
        Lowering {
            style,
            types: Taken::default(),
            functions: Taken::default(),
            items: Vec::new(),
        }
    }

    /// The items written so far.
    pub(crate) fn into_items(self) -> Vec<TokenStream> {
        self.items
    }

    /// Lowers one tool under the Rust name `rust_name` (already free of clashes when the
    /// user chose it). Returns the type's name.
    pub(crate) fn tool(
        &mut self,
        model: &ToolModel,
        rust_name: &str,
    ) -> Result<String, Vec<LowerError>> {
        // Before anything walks the definitions in place: that walk is what would explode.
        // Held as JSON, each definition is written once.
        let name = self.types.claim(rust_name, "");
        let mut errors = Vec::new();
        if !valid_tool_name(model.name()) {
            errors.push((
                String::new(),
                format!("{TOOL_NAME_RULE} (the name is {:?})", model.name()),
            ));
        }
        if let Some((pointer, written)) = oversized_in_place(model) {
            let message = format!(
                "definitions that are not objects with properties or string enums are written in place at each use; here that writes {written} schemas, more than {MOST_WRITTEN_SCHEMAS}"
            );
            if !errors.is_empty() || self.style.typed_only {
                errors.push((pointer, message));
                return Err(errors);
            }
            self.checked_tool(model, &name, &(pointer, message));
            return Ok(name);
        }
        let mut scope = Scope {
            model,
            named: BTreeMap::new(),
            recursive: recursive_definitions(model),
            shared: shared_definitions(model),
            inlining: Vec::new(),
            open_structs: 0,
            loop_objects: BTreeMap::new(),
            json_model: None,
            errors,
        };
        let input = model.input();
        let attempt = self.attempt(&scope);
        match model.resolve(input).map(|s| &s.kind) {
            Some(Kind::Object(object)) => {
                let tool = Some(model.name());
                self.structure(
                    &mut scope,
                    &name,
                    object,
                    Described::text(model.description()),
                    tool,
                    "",
                );
            }
            _ => scope.errors.push((
                String::new(),
                "the arguments are not an object with `properties` (a union of object shapes, say)"
                    .to_owned(),
            )),
        }
        // A tool whose arguments cannot be a struct holds them as JSON (`checked.rs`).
        if !self.style.typed_only {
            if let Some(why) = self.failed(&mut scope, attempt) {
                if scope.errors.is_empty() {
                    self.checked_tool(model, &name, &why);
                }
            }
        }
        if scope.errors.is_empty() {
            Ok(name)
        } else {
            Err(scope.errors)
        }
    }

    /// `impl ToolOutput` linking a tool's type to the type of its result.
    pub(crate) fn link_output(&mut self, tool: &str, output: &str) {
        let (tool, output) = (format_ident!("{}", tool), format_ident!("{}", output));
        self.items.push(quote! {
            impl ::toolgate::ToolOutput for #tool {
                type Output = #output;
            }
        });
    }

    fn derives(&self, extra: TokenStream) -> TokenStream {
        let more = &self.style.derives;
        quote! {
            #[derive(::toolgate::Tool, Debug, Clone, PartialEq, #extra ::toolgate::__private::serde::Serialize, ::toolgate::__private::serde::Deserialize #(, #more)*)]
            #[serde(crate = "::toolgate::__private::serde")]
        }
    }

    fn structure(
        &mut self,
        scope: &mut Scope<'_>,
        name: &str,
        object: &ObjectSchema,
        described: Described<'_>,
        tool_name: Option<&str>,
        pointer: &str,
    ) {
        let Described {
            description,
            annotations,
        } = described;
        let ident = format_ident!("{}", name);
        // The struct comes before the types and defaults its fields bring.
        let slot = self.items.len();
        self.items.push(TokenStream::new());
        scope.open_structs += 1;
        let fields = self.fields(scope, name, object, pointer, None);
        scope.open_structs -= 1;
        let doc = description.map(doc_attr);
        let derives = self.derives(quote!());
        let mut container_keys = Vec::new();
        if let Some(tool) = tool_name {
            container_keys.push(quote!(name = #tool));
        }
        if let Some(text) = description.filter(|text| !doc_reproduces(text)) {
            container_keys.push(quote!(description = #text));
        }
        container_keys.extend(annotations_key(annotations));
        let tool_attr = (!container_keys.is_empty()).then(|| quote!(#[tool(#(#container_keys),*)]));
        let deny = matches!(object.additional, Additional::Deny)
            .then(|| quote!(#[serde(deny_unknown_fields)]));
        self.items[slot] = quote! {
            #doc
            #derives
            #tool_attr
            #deny
            pub struct #ident {
                #(#fields,)*
            }
        };
    }

    fn enumeration(
        &mut self,
        scope: &mut Scope<'_>,
        name: &str,
        enumeration: &EnumSchema,
        described: Described<'_>,
        pointer: &str,
    ) {
        let Described {
            description,
            annotations,
        } = described;
        let ident = format_ident!("{}", name);
        let doc = description.map(doc_attr);
        // `{"type": "string", "enum": [true, false]}`: the reader kept no value, and an enum
        // without variants can hold none (an optional field of it must be absent). The doc
        // comment then says so: a note, not the description.
        let empty = enumeration.values.is_empty();
        let mut container_keys = Vec::new();
        match description {
            Some(text) if empty || !doc_reproduces(text) => {
                container_keys.push(quote!(description = #text));
            }
            None if empty => container_keys.push(quote!(no_description)),
            _ => {}
        }
        container_keys.extend(annotations_key(annotations));
        let described = (!container_keys.is_empty()).then(|| quote!(#[tool(#(#container_keys),*)]));
        let mut variants = Vec::new();
        let mut taken = Taken::default();
        // A value listed twice (PostHog's operators) is one variant: the same values pass.
        let mut listed = BTreeSet::new();
        for value in &enumeration.values {
            let Value::String(text) = &value.value else {
                scope.errors.push((
                    format!("{pointer}/enum"),
                    format!(
                        "the enum value {} is not a string (a Rust enum holds strings only)",
                        value.value
                    ),
                ));
                return;
            };
            if !listed.insert(text.as_str()) {
                continue;
            }
            let variant = format_ident!("{}", taken.claim(&variant_name(text), ""));
            let aliases = &value.aliases;
            variants.push(quote! {
                #[serde(rename = #text #(, alias = #aliases)*)]
                #variant
            });
        }
        let derives = self.derives(quote!(Copy, Eq, Hash,));
        let empty = empty.then(|| {
            quote!(#[doc = " No value fits: the schema's `type` rules out every `enum` value, so any value sent is refused."])
        });
        self.items.push(quote! {
            #doc
            #empty
            #derives
            #described
            pub enum #ident {
                #(#variants,)*
            }
        });
    }

    /// The Rust type of `schema` and its constraints; nested objects and enums become types
    /// named `hint`. `direct`: not inside a `Vec` or map (a self-containing type needs a box).
    fn lower(
        &mut self,
        scope: &mut Scope<'_>,
        schema: &Schema,
        hint: &str,
        pointer: &str,
        direct: bool,
    ) -> Lowered {
        if schema.nullable && !matches!(schema.kind, Kind::Any | Kind::Null) {
            let mut value = schema.clone();
            value.nullable = false;
            let inner = self.lower(scope, &value, hint, pointer, direct);
            let ty = inner.ty;
            return Lowered {
                ty: quote!(::std::option::Option<#ty>),
                constraints: inner.constraints,
                value_ty: Some(ty),
            };
        }
        let mut lowered = self.lower_kind(scope, schema, hint, pointer, direct);
        if let Some(constant) = &schema.constant {
            // A constant the schema's other constraints refuse leaves no value (the derive
            // refuses it too).
            let mut others = schema.clone();
            others.constant = None;
            let misfit = scope.model.check_against(&others, constant).err();
            match (literal(constant), misfit) {
                (Some(value), None) => lowered.constraints.push(quote!(constant = #value)),
                (_, Some(report)) => scope.errors.push((
                    format!("{pointer}/const"),
                    format!("the `const` value {constant} does not meet the schema's other constraints, so no value fits: {report}"),
                )),
                (None, None) => scope.errors.push((
                    format!("{pointer}/const"),
                    format!("the `const` value {constant} is not a literal the derive takes (a string, number, bool, or an array of them)"),
                )),
            }
        }
        lowered
    }

    /// [`Lowering::lower`] of the schema's kind, without `nullable` and `const`.
    fn lower_kind(
        &mut self,
        scope: &mut Scope<'_>,
        schema: &Schema,
        hint: &str,
        pointer: &str,
        direct: bool,
    ) -> Lowered {
        match &schema.kind {
            // `{"const": "v2"}`: the constant's type (the constant says the rest).
            Kind::Any => match &schema.constant {
                Some(constant) => Lowered::plain(value_type(std::slice::from_ref(constant))),
                None => Lowered::any(),
            },
            Kind::Boolean => Lowered::plain(quote!(bool)),
            Kind::Union(union) => self.union(scope, schema, union, hint, pointer),
            // `()` reads and writes `null`.
            Kind::Null => Lowered::plain(quote!(())),
            // No value: `Option<Never>` is a property that must be absent.
            Kind::Never => Lowered::plain(quote!(::toolgate::model::Never)),
            Kind::Integer(integer) => numbers::integer(integer, pointer, &mut scope.errors),
            Kind::Number(float) => numbers::float(float, pointer, &mut scope.errors),
            Kind::String(string) => {
                let constraints = numbers::string_constraints(string, pointer, &mut scope.errors);
                Lowered {
                    ty: quote!(::std::string::String),
                    constraints,
                    value_ty: None,
                }
            }
            Kind::Enum(enumeration) if !string_enum(enumeration) => {
                self.value_enum(scope, enumeration, pointer)
            }
            Kind::Enum(enumeration) => {
                let name = self.types.claim(hint, "");
                self.enumeration(scope, &name, enumeration, Described::text(None), pointer);
                Lowered::plain(type_path(&name))
            }
            Kind::Array(array) if !array.prefix_items.is_empty() => {
                self.tuple(scope, array, hint, pointer)
            }
            Kind::Array(array) => {
                let items = self.lower(
                    scope,
                    &array.items,
                    &format!("{hint}Item"),
                    &format!("{pointer}/items"),
                    false,
                );
                let item_ty = items.ty;
                let mut constraints = Vec::new();
                let min = ("minItems", array.min_items);
                let max = ("maxItems", array.max_items);
                if let Some(length) = numbers::length(min, max, pointer, &mut scope.errors) {
                    constraints.push(length);
                }
                if array.unique_items {
                    constraints.push(quote!(unique));
                }
                let inner =
                    element_keys(items.constraints, &array.items, scope.model.definitions());
                if !inner.is_empty() {
                    constraints.push(quote!(items(#(#inner),*)));
                }
                Lowered {
                    ty: quote!(::std::vec::Vec<#item_ty>),
                    constraints,
                    value_ty: None,
                }
            }
            Kind::Map(map) => {
                let mut lowered = self.map(
                    scope,
                    &map.values,
                    hint,
                    &format!("{pointer}/additionalProperties"),
                );
                lowered.keys(map.property_names.as_deref(), pointer, scope);
                lowered
            }
            Kind::Object(object) if object.fields.is_empty() => {
                let mut lowered = match &object.additional {
                    Additional::Schema(values) => self.map(
                        scope,
                        values,
                        hint,
                        &format!("{pointer}/additionalProperties"),
                    ),
                    _ => self.map(scope, &Schema::any(), hint, pointer),
                };
                lowered.keys(object.property_names.as_deref(), pointer, scope);
                lowered
            }
            Kind::Object(object) => {
                let in_loop = scope
                    .inlining
                    .iter()
                    .any(|(key, _)| scope.recursive.contains(key));
                if let Some(name) = scope.loop_objects.get(pointer).filter(|_| in_loop) {
                    return Lowered::plain(type_path(name));
                }
                let name = self.types.claim(hint, "");
                if in_loop {
                    scope.loop_objects.insert(pointer.to_owned(), name.clone());
                }
                self.structure(
                    scope,
                    &name,
                    object,
                    Described::text(schema.description.as_deref()),
                    None,
                    pointer,
                );
                Lowered::plain(type_path(&name))
            }
            Kind::Ref(key) => self.reference(scope, key, direct),
        }
    }

    /// An enum whose values are not all strings: a value of the narrowest type that holds
    /// them all (`bool`, `i64`, `u64`, `f64`, else any JSON value) with `enum_values`.
    /// Values equal as JSON (`1` and `1.0`) are one value (the reader keeps the first).
    fn value_enum(
        &mut self,
        scope: &mut Scope<'_>,
        enumeration: &EnumSchema,
        pointer: &str,
    ) -> Lowered {
        if enumeration.values.iter().any(|v| !v.aliases.is_empty()) {
            scope.errors.push((
                format!("{pointer}/x-enum-aliases"),
                "aliases need an enum of strings only (the schema compiler writes it as a Rust enum)".to_owned(),
            ));
        }
        // The reader holds each value once (`1` and `1.0` are one).
        let values = enumeration.value_list();
        let literals: Option<Vec<TokenStream>> = values.iter().map(literal).collect();
        let Some(literals) = literals else {
            scope.errors.push((
                format!("{pointer}/enum"),
                "an `enum` value that is an object (or an array holding one) is not a literal the derive takes".to_owned(),
            ));
            return Lowered::any();
        };
        Lowered {
            ty: value_type(&values),
            constraints: vec![quote!(enum_values = [#(#literals),*])],
            value_ty: None,
        }
    }

    fn map(
        &mut self,
        scope: &mut Scope<'_>,
        values: &Schema,
        hint: &str,
        pointer: &str,
    ) -> Lowered {
        let lowered = self.lower(scope, values, &format!("{hint}Value"), pointer, false);
        let value = lowered.ty;
        let inner = element_keys(lowered.constraints, values, scope.model.definitions());
        let constraints = if inner.is_empty() {
            Vec::new()
        } else {
            vec![quote!(values(#(#inner),*))]
        };
        Lowered {
            ty: quote!(::std::collections::BTreeMap<::std::string::String, #value>),
            constraints,
            value_ty: None,
        }
    }
}

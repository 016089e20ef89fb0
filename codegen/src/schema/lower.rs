//! The tool model → Rust items that `#[derive(toolgate::Tool)]` turns back into the same
//! model: a struct per object, a unit enum per string enum, `#[tool(...)]` for the
//! constraints, `#[serde(...)]` for wire names and defaults, doc comments for descriptions.
//!
//! Decisions (the model holds more than Rust types say; nothing is dropped in silence):
//! - an integer without a `format` is `i64` (`u64` when its bounds need it), with `format`
//!   the type of that width; a number is `f64` (`f32` for `format: float`);
//! - an object with properties is a struct (unknown keys dropped with a log entry, or refused
//!   under `additionalProperties: false`); an object without properties is a
//!   `BTreeMap<String, _>` of its `additionalProperties` (any value when absent);
//! - an optional property is `Option<T>`; with a default that fits its schema it is `T`
//!   with `#[serde(default = "...")]`; a default that does not fit is not applied (the
//!   dynamic road does not apply it either) and the doc comment says so;
//! - a `$ref` to an object or enum is that type (boxed where a definition contains itself
//!   without a `Vec` or map between); a `$ref` to anything else is written in place.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use serde_json::Value;
use toolgate_core::model::{
    Additional, EnumSchema, FloatWidth, IntWidth, Kind, Num, ObjectSchema, Schema, ToolModel,
};

use toolgate_core::path::escape_pointer_token;

use crate::derive::{valid_tool_name, TOOL_NAME_RULE};

use super::names::{field_name, type_name, variant_name, Taken};

mod unions;

/// One schema error while lowering: a pointer relative to the tool's arguments schema.
pub(crate) type LowerError = (String, String);

/// The Rust type of a value and the `#[tool(...)]` constraints on it.
struct Lowered {
    ty: TokenStream,
    constraints: Vec<TokenStream>,
    /// `ty` is `Option<T>` because the schema takes `null`.
    nullable: bool,
}

impl Lowered {
    /// A type without constraints.
    fn plain(ty: TokenStream) -> Self {
        Lowered {
            ty,
            constraints: Vec::new(),
            nullable: false,
        }
    }

    /// Any JSON value: the type of values that take any value, and the stand-in where a
    /// schema error was recorded.
    fn any() -> Self {
        Self::plain(quote!(::toolgate::__private::serde_json::Value))
    }
}

/// What is written for every generated type besides `toolgate::Tool`.
pub(crate) struct Style {
    pub derives: Vec<syn::Path>,
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
    /// Definitions being written in place (a loop among them cannot be written).
    inlining: Vec<String>,
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
        let mut scope = Scope {
            model,
            named: BTreeMap::new(),
            recursive: recursive_definitions(model),
            inlining: Vec::new(),
            errors: Vec::new(),
        };
        let name = self.types.claim(rust_name, "");
        if !valid_tool_name(model.name()) {
            scope.errors.push((
                String::new(),
                format!("{TOOL_NAME_RULE} (the name is {:?})", model.name()),
            ));
        }
        let input = model.input();
        match model.resolve(input).map(|s| &s.kind) {
            Some(Kind::Object(object)) => {
                let tool = Some(model.name());
                self.structure(&mut scope, &name, object, model.description(), tool, "");
            }
            _ => scope.errors.push((
                String::new(),
                "a tool's arguments must be an object with `properties`".to_owned(),
            )),
        }
        if scope.errors.is_empty() {
            Ok(name)
        } else {
            Err(scope.errors)
        }
    }

    fn derives(&self, extra: TokenStream) -> TokenStream {
        let more = &self.style.derives;
        quote! {
            #[derive(::toolgate::Tool, Debug, Clone, PartialEq, #extra ::serde::Serialize, ::serde::Deserialize #(, #more)*)]
        }
    }

    fn structure(
        &mut self,
        scope: &mut Scope<'_>,
        name: &str,
        object: &ObjectSchema,
        description: Option<&str>,
        tool_name: Option<&str>,
        pointer: &str,
    ) {
        let ident = format_ident!("{}", name);
        // The struct comes before the types and defaults its fields bring.
        let slot = self.items.len();
        self.items.push(TokenStream::new());
        let fields = self.fields(scope, name, object, pointer, None);
        let doc = description.map(doc_attr);
        let derives = self.derives(quote!());
        let mut container_keys = Vec::new();
        if let Some(tool) = tool_name {
            container_keys.push(quote!(name = #tool));
        }
        if let Some(text) = description.filter(|text| !doc_reproduces(text)) {
            container_keys.push(quote!(description = #text));
        }
        let tool_attr = (!container_keys.is_empty()).then(|| quote!(#[tool(#(#container_keys),*)]));
        let deny = matches!(object.additional, Additional::Deny)
            .then(|| quote!(#[serde(deny_unknown_fields)]));
        if let Additional::Schema(_) = object.additional {
            scope.errors.push((
                format!("{pointer}/additionalProperties"),
                "`additionalProperties` with a schema beside `properties` is not supported by the schema compiler yet".to_owned(),
            ));
        }
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

    /// The fields of a struct (or of a struct variant: `skip` names its tag), with the types,
    /// enums and default functions they bring pushed as items. `name` is the owner's name,
    /// which nested types and default functions are named after.
    fn fields(
        &mut self,
        scope: &mut Scope<'_>,
        name: &str,
        object: &ObjectSchema,
        pointer: &str,
        skip: Option<&str>,
    ) -> Vec<TokenStream> {
        let mut field_names = Taken::default();
        let mut fields = Vec::new();
        for field in object
            .fields
            .iter()
            .filter(|f| Some(f.name.as_str()) != skip)
        {
            let at = format!("{pointer}/properties/{}", escape_pointer_token(&field.name));
            let rust = field_names.claim(&field_name(&field.name), "_");
            let field_ident: syn::Ident =
                syn::parse_str(&rust).expect("names.rs makes identifiers");
            let hint = format!("{name}{}", type_name(&field.name, "Field"));
            let schema = &field.schema;
            let lowered = self.lower(scope, schema, &hint, &at, true);
            let mut attrs = Vec::new();
            if let Some(doc) = &schema.description {
                attrs.push(doc_attr(doc));
            }
            // Notes for the reader go into the doc comment after the description; the
            // description itself is then given to the derive as written.
            let mut noted = false;
            let unraw = rust.strip_prefix("r#").unwrap_or(&rust);
            if unraw != field.name {
                let wire = &field.name;
                attrs.push(quote!(#[serde(rename = #wire)]));
            }
            for alias in &field.aliases {
                attrs.push(quote!(#[serde(alias = #alias)]));
            }
            let nullable = lowered.nullable;
            let mut tool_keys = lowered.constraints;
            if nullable {
                tool_keys.insert(0, quote!(nullable));
            }
            // An optional field that takes `null` is `Option<T>` already: serde's default
            // (`None`) stands for absent.
            let serde_default = quote!(#[serde(default)]);
            tool_keys.extend(schema.examples.iter().filter_map(example_literal));
            let other_examples: Vec<&Value> = schema
                .examples
                .iter()
                .filter(|e| example_literal(e).is_none())
                .collect();
            if !other_examples.is_empty() {
                let shown: Vec<String> = other_examples.iter().map(|e| e.to_string()).collect();
                attrs.push(doc_attr(&format!("\nExamples: {}", shown.join(", "))));
                noted = true;
            }
            if schema.constant.is_some() {
                scope.errors.push((
                    at.clone(),
                    "`const` is not supported by the schema compiler yet".to_owned(),
                ));
            }
            let ty = lowered.ty;
            let ty = match (&field.required, &schema.default) {
                (true, None) => ty,
                (true, Some(default)) => {
                    attrs.push(doc_attr(&format!(
                        "\nThe schema's default, {default}, does not apply: the field is required."
                    )));
                    noted = true;
                    ty
                }
                (false, None) if nullable => {
                    attrs.push(serde_default);
                    ty
                }
                (false, None) => quote!(::std::option::Option<#ty>),
                (false, Some(default)) => {
                    if scope.model.check_against(schema, default).is_ok() {
                        let function = self.functions.claim(
                            &format!(
                                "default_{}_{}",
                                heck::ToSnakeCase::to_snake_case(name),
                                unraw
                            ),
                            "_",
                        );
                        let function_ident = format_ident!("{}", function);
                        let kind = scope.model.resolve(schema).map(|s| &s.kind);
                        let body = match (nullable, default) {
                            (true, Value::Null) => quote!(::std::option::Option::None),
                            (true, _) => {
                                let value = default_expression(default, kind);
                                quote!(::std::option::Option::Some(#value))
                            }
                            (false, _) => default_expression(default, kind),
                        };
                        self.items.push(quote! {
                            fn #function_ident() -> #ty { #body }
                        });
                        attrs.push(quote!(#[serde(default = #function)]));
                        ty
                    } else {
                        attrs.push(doc_attr(&format!("\nThe schema's default, {default}, does not fit the field's own schema and is not applied.")));
                        noted = true;
                        if nullable {
                            attrs.push(serde_default);
                            ty
                        } else {
                            quote!(::std::option::Option<#ty>)
                        }
                    }
                }
            };
            if let Some(text) = &schema.description {
                if noted || !doc_reproduces(text) {
                    tool_keys.push(quote!(description = #text));
                }
            }
            if !tool_keys.is_empty() {
                attrs.push(quote!(#[tool(#(#tool_keys),*)]));
            }
            // Fields of an enum variant take no visibility.
            let public = skip.is_none().then(|| quote!(pub));
            fields.push(quote! {
                #(#attrs)*
                #public #field_ident: #ty
            });
        }
        fields
    }

    fn enumeration(
        &mut self,
        scope: &mut Scope<'_>,
        name: &str,
        enumeration: &EnumSchema,
        description: Option<&str>,
        pointer: &str,
    ) {
        let ident = format_ident!("{}", name);
        let doc = description.map(doc_attr);
        let described = description
            .filter(|text| !doc_reproduces(text))
            .map(|text| quote!(#[tool(description = #text)]));
        let mut variants = Vec::new();
        let mut taken = Taken::default();
        for value in &enumeration.values {
            let Value::String(text) = &value.value else {
                scope.errors.push((
                    format!("{pointer}/enum"),
                    format!("the enum value {} is not a string; the schema compiler writes enums of strings only (yet)", value.value),
                ));
                return;
            };
            let variant = format_ident!("{}", taken.claim(&variant_name(text), ""));
            let aliases = &value.aliases;
            variants.push(quote! {
                #[serde(rename = #text #(, alias = #aliases)*)]
                #variant
            });
        }
        let derives = self.derives(quote!(Copy, Eq, Hash,));
        self.items.push(quote! {
            #doc
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
                nullable: true,
            };
        }
        match &schema.kind {
            Kind::Any => Lowered::any(),
            Kind::Boolean => Lowered::plain(quote!(bool)),
            Kind::Union(union) => self.union(scope, schema, union, hint, pointer),
            Kind::Null | Kind::Never => {
                let what = match schema.kind {
                    Kind::Null => "a value that must be `null`",
                    _ => "the `false` schema (no value allowed)",
                };
                scope.errors.push((
                    pointer.to_owned(),
                    format!("{what} is not supported by the schema compiler yet"),
                ));
                Lowered::any()
            }
            Kind::Integer(integer) => {
                let width = integer
                    .width
                    .unwrap_or_else(|| default_width(&integer.bounds));
                let ty = format_ident!("{}{}", if width.signed { "i" } else { "u" }, width.bits);
                let mut constraints = bounds(&without_range(&integer.bounds, Some(width.range())));
                if let Some(divisor) = integer.multiple_of {
                    let divisor = number(divisor);
                    constraints.push(quote!(multiple_of = #divisor));
                }
                Lowered {
                    ty: quote!(#ty),
                    constraints,
                    nullable: false,
                }
            }
            Kind::Number(float) => {
                let ty = match float.width {
                    Some(FloatWidth::F32) => quote!(f32),
                    _ => quote!(f64),
                };
                let range = float.width.and_then(FloatWidth::range);
                let mut constraints = bounds(&without_range(&float.bounds, range));
                if let Some(divisor) = float.multiple_of {
                    let divisor = number(divisor);
                    constraints.push(quote!(multiple_of = #divisor));
                }
                Lowered {
                    ty,
                    constraints,
                    nullable: false,
                }
            }
            Kind::String(string) => {
                let mut constraints = Vec::new();
                if let Some(length) = range_key("length", string.min_length, string.max_length) {
                    constraints.push(length);
                }
                if let Some(pattern) = &string.pattern {
                    let pattern = pattern.as_str();
                    constraints.push(quote!(pattern = #pattern));
                }
                if let Some(format) = string.format {
                    let format = format.as_str();
                    constraints.push(quote!(format = #format));
                }
                Lowered {
                    ty: quote!(::std::string::String),
                    constraints,
                    nullable: false,
                }
            }
            Kind::Enum(enumeration) => {
                let name = self.types.claim(hint, "");
                self.enumeration(scope, &name, enumeration, None, pointer);
                let ident = format_ident!("{}", name);
                Lowered::plain(quote!(#ident))
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
                if let Some(length) = range_key("length", array.min_items, array.max_items) {
                    constraints.push(length);
                }
                if array.unique_items {
                    constraints.push(quote!(unique));
                }
                if !items.constraints.is_empty() {
                    let inner = items.constraints;
                    constraints.push(quote!(items(#(#inner),*)));
                }
                Lowered {
                    ty: quote!(::std::vec::Vec<#item_ty>),
                    constraints,
                    nullable: false,
                }
            }
            Kind::Map(map) => self.map(
                scope,
                &map.values,
                hint,
                &format!("{pointer}/additionalProperties"),
            ),
            Kind::Object(object) if object.fields.is_empty() => match &object.additional {
                Additional::Schema(values) => self.map(
                    scope,
                    values,
                    hint,
                    &format!("{pointer}/additionalProperties"),
                ),
                _ => self.map(scope, &Schema::any(), hint, pointer),
            },
            Kind::Object(object) => {
                let name = self.types.claim(hint, "");
                self.structure(
                    scope,
                    &name,
                    object,
                    schema.description.as_deref(),
                    None,
                    pointer,
                );
                let ident = format_ident!("{}", name);
                Lowered::plain(quote!(#ident))
            }
            Kind::Ref(key) => self.reference(scope, key, direct),
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
        if !lowered.constraints.is_empty() {
            scope.errors.push((
                pointer.to_owned(),
                "constraints on the values of a map are not supported by the schema compiler yet"
                    .to_owned(),
            ));
        }
        let value = lowered.ty;
        Lowered::plain(quote!(::std::collections::BTreeMap<::std::string::String, #value>))
    }

    fn reference(&mut self, scope: &mut Scope<'_>, key: &str, direct: bool) -> Lowered {
        let pointer = format!("/$defs/{}", escape_pointer_token(key));
        let Some(definition) = scope.model.definitions().get(key) else {
            scope
                .errors
                .push((pointer, format!("no definition {key:?}")));
            return Lowered::any();
        };
        let named = match &definition.kind {
            Kind::Object(object) => !object.fields.is_empty(),
            Kind::Enum(_) => true,
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

/// `i64`, or `u64` when the bounds reach above `i64::MAX`.
fn default_width(bounds: &toolgate_core::model::Bounds) -> IntWidth {
    let above = [bounds.maximum, bounds.exclusive_maximum, bounds.minimum]
        .into_iter()
        .flatten()
        .any(|bound| bound > Num::from(i64::MAX));
    IntWidth {
        bits: 64,
        signed: !above,
    }
}

/// Whether the derive reads `text` back unchanged from a doc comment (it trims lines and
/// joins them); if not, the description is also given as `#[tool(description = ...)]`.
fn doc_reproduces(text: &str) -> bool {
    !text.is_empty()
        && !text.contains('\n')
        && text.trim() == text
        && !text.contains("  ")
        && !text.contains(MARKDOWN_ESCAPED)
}

/// Characters rustdoc would read as HTML or links: escaped in doc comments.
const MARKDOWN_ESCAPED: [char; 5] = ['<', '>', '[', ']', '\\'];

/// A doc comment of `text`, escaped so rustdoc shows it as written.
fn doc_attr(text: &str) -> TokenStream {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        if MARKDOWN_ESCAPED.contains(&c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    let lines = escaped.lines().map(|line| format!(" {line}"));
    quote!(#(#[doc = #lines])*)
}

/// A number as a literal the derive reads: `-3`, `0.5`.
fn number(value: Num) -> TokenStream {
    match value {
        Num::Int(integer) if integer < 0 => {
            let literal = Literal::u128_unsuffixed(integer.unsigned_abs());
            quote!(-#literal)
        }
        Num::Int(integer) => {
            let literal = Literal::u128_unsuffixed(integer.unsigned_abs());
            quote!(#literal)
        }
        Num::Float(float) if float < 0.0 => {
            let literal = Literal::f64_unsuffixed(-float);
            quote!(-#literal)
        }
        Num::Float(float) => {
            let literal = Literal::f64_unsuffixed(float);
            quote!(#literal)
        }
    }
}

/// The bounds without those the Rust type implies (the reader fills a width's range in;
/// the derive fills it in again from the type).
fn without_range(
    bounds: &toolgate_core::model::Bounds,
    range: Option<(Num, Num)>,
) -> toolgate_core::model::Bounds {
    let mut bounds = bounds.clone();
    if let Some((low, high)) = range {
        if bounds.minimum == Some(low) {
            bounds.minimum = None;
        }
        if bounds.maximum == Some(high) {
            bounds.maximum = None;
        }
    }
    bounds
}

fn bounds(bounds: &toolgate_core::model::Bounds) -> Vec<TokenStream> {
    let mut keys = Vec::new();
    let pair = |min: Option<Num>, max: Option<Num>| {
        let min = min.map(|m| {
            let m = number(m);
            quote!(min = #m)
        });
        let max = max.map(|m| {
            let m = number(m);
            quote!(max = #m)
        });
        let parts: Vec<TokenStream> = min.into_iter().chain(max).collect();
        (!parts.is_empty()).then(|| quote!(#(#parts),*))
    };
    if let Some(inner) = pair(bounds.minimum, bounds.maximum) {
        keys.push(quote!(range(#inner)));
    }
    if let Some(inner) = pair(bounds.exclusive_minimum, bounds.exclusive_maximum) {
        keys.push(quote!(exclusive_range(#inner)));
    }
    keys
}

fn range_key(key: &str, min: Option<u64>, max: Option<u64>) -> Option<TokenStream> {
    let key = format_ident!("{}", key);
    let min = min.map(|m| {
        let m = Literal::u64_unsuffixed(m);
        quote!(min = #m)
    });
    let max = max.map(|m| {
        let m = Literal::u64_unsuffixed(m);
        quote!(max = #m)
    });
    let parts: Vec<TokenStream> = min.into_iter().chain(max).collect();
    (!parts.is_empty()).then(|| quote!(#key(#(#parts),*)))
}

/// `example = <literal>` for the examples the derive can take: scalars and arrays of them.
fn example_literal(example: &Value) -> Option<TokenStream> {
    fn scalar(value: &Value) -> Option<TokenStream> {
        Some(match value {
            Value::Bool(flag) => quote!(#flag),
            Value::String(text) => quote!(#text),
            Value::Number(n) => number(Num::from_json(n)),
            _ => return None,
        })
    }
    let literal = match example {
        Value::Array(items) => {
            let items: Option<Vec<TokenStream>> = items.iter().map(scalar).collect();
            let items = items?;
            quote!([#(#items),*])
        }
        other => scalar(other)?,
    };
    Some(quote!(example = #literal))
}

/// The Rust expression of a default of a value of `kind`: a literal for scalars, else read
/// from its JSON.
fn default_expression(default: &Value, kind: Option<&Kind>) -> TokenStream {
    match (default, kind) {
        (Value::Bool(flag), Some(Kind::Boolean)) => quote!(#flag),
        (Value::Number(n), Some(Kind::Number(_))) => {
            number(Num::Float(n.as_f64().unwrap_or_default()))
        }
        (Value::Number(n), Some(Kind::Integer(_))) => number(Num::from_json(n)),
        (Value::String(text), Some(Kind::String(_))) => {
            quote!(::std::string::String::from(#text))
        }
        (other, _) => {
            let json = other.to_string();
            quote!(::toolgate::__private::from_json_default(#json))
        }
    }
}

/// The definitions that contain themselves, through any number of references.
fn recursive_definitions(model: &ToolModel) -> BTreeSet<String> {
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

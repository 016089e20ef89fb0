//! The schema compiler: JSON Schema tool files → Rust types that `#[derive(toolgate::Tool)]`
//! turns back into the same tool model, written from `build.rs` in the style of
//! prost-build.
//!
//! Files are read with toolgate's one JSON Schema reader (the run-time road reads them the
//! same way), the model is lowered to Rust items ([`lower`](self)), and the items are
//! formatted with prettyplease. The output is deterministic: the same files give the same
//! bytes.
//!
//! # One reader
//!
//! The compiler refuses a schema if and only if the run-time reader refuses it (what
//! `toolgate check` and `DynamicTool` use: one reading, one set of refusals, each at its
//! JSON pointer), plus these compile-only limits:
//! - a tool name the derive cannot report: 1 to 128 ASCII letters, digits, `_`, `-` and `.`
//!   (MCP's rule);
//! - two tools of one name in the files compiled together (one type each would report it);
//! - what a [`Builder`] option asks to refuse: [`Builder::typed_only`],
//!   [`Builder::deny_warnings`], a flavour lint set to [`Lint::Deny`](crate::Lint::Deny),
//!   a derive path that is not a path.
//!
//! Anything else the reader reads and Rust cannot say as a type is held as checked JSON
//! (`lower/checked.rs`), never refused. Generated names never refuse a file: Rust names
//! that meet (after case conversion, or a definition named like a tool) are numbered, and a
//! result type whose `<tool>_output` another tool has takes the first free
//! `<tool>_output_N` ([`GeneratedTool::output_name`]). `tests/tests/one_reader.rs` checks
//! both roads over every schema of the corpora.

mod input;
mod lower;
mod names;
mod tools;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

pub use names::{field_name, type_name, variant_name};

/// Why the schema compiler stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Schemas the compiler cannot turn into Rust: every reason, each at its JSON pointer.
    #[error("{}", SchemaLines(.0))]
    Schema(Vec<SchemaProblem>),
    /// `compile()` outside a build script: `OUT_DIR` is not set.
    #[error("OUT_DIR is not set: call `compile()` from a build script (build.rs), or `generate()` and write the code yourself")]
    OutDirUnset,
}

/// One reason a schema cannot be compiled, or one warning about it
/// ([`Generated::warnings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaProblem {
    /// The file.
    pub file: PathBuf,
    /// The JSON pointer into the file (`/0/parameters/properties/unit`).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SchemaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = display_pointer(&self.pointer);
        write!(f, "{}: {pointer}: {}", self.file.display(), self.message)
    }
}

/// A JSON pointer as errors show it: the root, which is empty, as `(root)`.
fn display_pointer(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

struct SchemaLines<'a>(&'a [SchemaProblem]);

impl fmt::Display for SchemaLines<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, problem) in self.0.iter().enumerate() {
            if index > 0 {
                writeln!(f)?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

/// Compiles JSON Schema tool files into Rust types, from `build.rs`.
///
/// ```no_run
/// // build.rs
/// fn main() -> Result<(), Box<dyn std::error::Error>> {
///     toolgate_codegen::Builder::new()
///         .schemas("schemas")
///         .compile()?;
///     Ok(())
/// }
/// ```
/// ```text
/// // src/lib.rs (a snippet: only a crate with that build script has the file to include)
/// include!(concat!(env!("OUT_DIR"), "/toolgate_tools.rs"));
/// ```
///
/// The crate then depends on `toolgate` and on `serde` (with `derive`).
///
/// A definition used more than once is one Rust type, held in a `Box` where a struct holds it
/// directly (its schema is one `$defs` entry, too). Schemas whose definitions nest more than
/// about 30 deep that way need `#![recursion_limit = "256"]` in the crate that includes the
/// code: proving such a type `Send`, as rustdoc does for every type, goes through each box.
#[derive(Clone, Debug, Default)]
pub struct Builder {
    inputs: Vec<PathBuf>,
    type_names: BTreeMap<String, String>,
    derives: Vec<String>,
    ignored_keywords: Vec<String>,
    out_file: Option<String>,
    keep_undeclared_keys: bool,
    typed_only: bool,
    deny_warnings: bool,
    flavour_lints: Vec<(
        toolgate_core::flavour::Flavour,
        toolgate_core::flavour::Lint,
    )>,
}

/// The first line of every generated file.
pub const GENERATED_HEADER: &str =
    "// @generated by toolgate-codegen from JSON Schema tool files. Do not edit.";

impl Builder {
    /// A builder with no input; the output file is `toolgate_tools.rs`.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a schema file, or a folder whose `.json` files (and those of its subfolders)
    /// are read in name order.
    ///
    /// ```no_run
    /// // build.rs
    /// toolgate_codegen::Builder::new()
    ///     .schemas("schemas/weather.json")
    ///     .schemas("schemas/mcp")
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn schemas(&mut self, path: impl AsRef<Path>) -> &mut Self {
        self.inputs.push(path.as_ref().to_owned());
        self
    }

    /// Names the type of the tool `tool` (its `name`, or its schema's `title`) `rust_name`
    /// instead of the name made from the tool's name.
    ///
    /// ```no_run
    /// // build.rs
    /// toolgate_codegen::Builder::new()
    ///     .schemas("schemas")
    ///     .type_name("math.factorial", "Factorial")
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn type_name(
        &mut self,
        tool: impl Into<String>,
        rust_name: impl Into<String>,
    ) -> &mut Self {
        self.type_names.insert(tool.into(), rust_name.into());
        self
    }

    /// Adds a derive to every generated type (`"Eq"`, `"schemars::JsonSchema"`, ...).
    ///
    /// ```no_run
    /// // build.rs
    /// toolgate_codegen::Builder::new()
    ///     .schemas("schemas")
    ///     .derive("Default")
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn derive(&mut self, path: impl Into<String>) -> &mut Self {
        self.derives.push(path.into());
        self
    }

    /// Removes the keyword `keyword` from every schema before reading it: a known keyword
    /// the compiler would refuse, or a vendor keyword (such as `x-order`) that would
    /// otherwise be ignored with a warning. Property names are not keywords: a property
    /// called `keyword` stays.
    ///
    /// ```no_run
    /// // build.rs
    /// toolgate_codegen::Builder::new()
    ///     .schemas("schemas")
    ///     .ignore_keyword("x-order")
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn ignore_keyword(&mut self, keyword: impl Into<String>) -> &mut Self {
        self.ignored_keywords.push(keyword.into());
        self
    }

    /// Keeps the keys an object does not declare, where its schema allows them
    /// (`additionalProperties` absent or `true`): every struct gets
    /// `#[serde(flatten)] additional_properties: BTreeMap<String, serde_json::Value>`, and
    /// the arguments come out with every key the model sent.
    ///
    /// By default a generated struct drops such keys with a `drop_unknown_key` log entry, as
    /// every typed tool does (the value holds what the type declares). A proxy that passes
    /// arguments on, or a tool that must not lose data, turns this on.
    ///
    /// ```
    /// let code = toolgate_codegen::Builder::new()
    ///     .keep_undeclared_keys(true)
    ///     .generate_text(
    ///         "ping.json",
    ///         r#"{"name": "ping", "parameters": {"type": "object", "properties": {"host": {"type": "string"}}}}"#,
    ///     )
    ///     .unwrap();
    /// assert!(code.contains("#[serde(flatten)]"));
    /// assert!(code.contains("pub additional_properties: ::std::collections::BTreeMap<"));
    /// ```
    pub fn keep_undeclared_keys(&mut self, keep: bool) -> &mut Self {
        self.keep_undeclared_keys = keep;
        self
    }

    /// Refuses, at the file and JSON pointer, every schema that would be held as JSON
    /// (the default writes a field of `serde_json::Value` with `#[tool(schema = "...")]`
    /// where serde cannot read a shape as a Rust type, and a tool struct around one JSON
    /// value where the arguments are not an object with properties): for a crate that wants
    /// a Rust type for every value, and to see why a value would be JSON.
    ///
    /// ```
    /// let definition = r#"{"name": "move_page", "parameters": {"type": "object", "properties": {"parent": {"anyOf": [
    ///     {"type": "object", "properties": {"page_id": {"type": "string"}}, "required": ["page_id"]},
    ///     {"type": "object", "properties": {"database_id": {"type": "string"}}, "required": ["database_id"]}]}}}}"#;
    /// let code = toolgate_codegen::Builder::new().generate_text("move.json", definition).unwrap();
    /// assert!(code.contains("pub parent: ::std::option::Option<::toolgate::serde_json::Value>,"));
    /// let refused = toolgate_codegen::Builder::new().typed_only(true).generate_text("move.json", definition);
    /// assert!(refused.unwrap_err().to_string().contains("/parameters/properties/parent: "));
    /// ```
    pub fn typed_only(&mut self, typed_only: bool) -> &mut Self {
        self.typed_only = typed_only;
        self
    }

    /// Makes the schemas' warnings errors: a keyword JSON Schema does not define
    /// (`discriminator`, `x-order`), a keyword of other types than `type` allows, an unknown
    /// `format`, an `enum` value that `type` rules out. By default they are read past and
    /// reported in [`Generated::warnings`] (and by `compile()` as `cargo:warning=` lines);
    /// see `toolgate_core::model::read::keywords` for what each means.
    ///
    /// ```
    /// let text = r#"{"name": "ping", "parameters": {"type": "object", "x-order": []}}"#;
    /// let generated = toolgate_codegen::Builder::new().generate_text_tools("ping.json", text).unwrap();
    /// assert_eq!(generated.warnings[0].to_string(), "ping.json: /parameters/x-order: keyword `x-order` is not JSON Schema: ignored");
    /// assert!(toolgate_codegen::Builder::new().deny_warnings(true).generate_text("ping.json", text).is_err());
    /// ```
    pub fn deny_warnings(&mut self, deny: bool) -> &mut Self {
        self.deny_warnings = deny;
        self
    }

    /// Checks every tool against a provider's flavour of JSON Schema
    /// ([`ToolModel::schema_for`](toolgate_core::model::ToolModel::schema_for)): each
    /// constraint the flavour would take out of the schema the provider sees (the gate still
    /// enforces it), or the reason it cannot express the tool at all, is a warning
    /// ([`Lint::Warn`](crate::Lint::Warn): in [`Generated::warnings`], and `cargo:warning=`
    /// lines from `compile()`) or an error that stops the build
    /// ([`Lint::Deny`](crate::Lint::Deny)), at the file and the JSON pointer of the tool's
    /// schema followed by the node's pointer in the flavoured schema. Call it once per
    /// flavour the tools are sent in; the last call for a flavour wins.
    ///
    /// ```
    /// use toolgate_codegen::{Builder, Flavour, Lint};
    ///
    /// let definition = r#"{"name": "note", "parameters": {"type": "object",
    ///     "properties": {"text": {"type": "string", "maxLength": 500}}, "required": ["text"]}}"#;
    /// let generated = Builder::new()
    ///     .flavour(Flavour::OpenAiStrict, Lint::Warn)
    ///     .generate_text_tools("note.json", definition)
    ///     .unwrap();
    /// assert_eq!(
    ///     generated.warnings[0].to_string(),
    ///     "note.json: /parameters/properties/text: openai-strict drops `maxLength: 500` (moved to the description); the gate still enforces it"
    /// );
    /// let denied = Builder::new()
    ///     .flavour(Flavour::OpenAiStrict, Lint::Deny)
    ///     .generate_text("note.json", definition);
    /// assert!(denied.unwrap_err().to_string().contains("(the openai-strict lint denies it)"));
    /// ```
    pub fn flavour(
        &mut self,
        flavour: toolgate_core::flavour::Flavour,
        lint: toolgate_core::flavour::Lint,
    ) -> &mut Self {
        self.flavour_lints.retain(|(known, _)| *known != flavour);
        self.flavour_lints.push((flavour, lint));
        self
    }

    /// The name of the file `compile()` writes in `OUT_DIR` (default `toolgate_tools.rs`).
    ///
    /// ```no_run
    /// // build.rs
    /// toolgate_codegen::Builder::new()
    ///     .schemas("schemas")
    ///     .out_file("tools.rs")
    ///     .compile()
    ///     .unwrap();
    /// ```
    pub fn out_file(&mut self, name: impl Into<String>) -> &mut Self {
        self.out_file = Some(name.into());
        self
    }

    /// The generated code, formatted, or every reason it cannot be made. Pure: reads the
    /// inputs and writes nothing.
    ///
    /// ```
    /// # let folder = std::env::temp_dir().join("toolgate-doc-generate");
    /// # std::fs::create_dir_all(&folder).unwrap();
    /// # let file = folder.join("ping.json");
    /// std::fs::write(&file, r#"{"name": "ping", "parameters": {"type": "object",
    ///     "properties": {"host": {"type": "string"}}, "required": ["host"]}}"#).unwrap();
    /// let code = toolgate_codegen::Builder::new().schemas(&file).generate().unwrap();
    /// assert!(code.contains("pub struct Ping {"));
    /// assert!(code.contains("pub host: ::std::string::String,"));
    /// ```
    pub fn generate(&self) -> Result<String, Error> {
        self.generate_tools().map(|generated| generated.code)
    }

    /// [`generate`](Self::generate), with the name given to each tool's type.
    ///
    /// ```
    /// # let folder = std::env::temp_dir().join("toolgate-doc-generate-tools");
    /// # std::fs::create_dir_all(&folder).unwrap();
    /// # let file = folder.join("math.json");
    /// std::fs::write(&file, r#"[{"name": "math.factorial", "parameters": {"type": "object",
    ///     "properties": {"n": {"type": "integer"}}}}]"#).unwrap();
    /// let generated = toolgate_codegen::Builder::new().schemas(&file).generate_tools().unwrap();
    /// assert_eq!(generated.tools[0].rust_name, "MathFactorial");
    /// assert_eq!(generated.tools[0].pointer, "/0/parameters");
    /// ```
    pub fn generate_tools(&self) -> Result<Generated, Error> {
        let mut sources = Vec::new();
        for input in &self.inputs {
            for file in input::schema_files(input)? {
                sources.extend(input::read_file(&file, &self.ignored_keywords)?);
            }
        }
        self.generate_from(sources)
    }

    /// [`generate`](Self::generate) for one file's text, read as if from `path` (for tests
    /// and tools that hold schemas in memory).
    ///
    /// ```
    /// let code = toolgate_codegen::Builder::new()
    ///     .generate_text("ping.json", r#"{"title": "ping", "type": "object", "properties": {}}"#)
    ///     .unwrap();
    /// assert!(code.contains("#[tool(name = \"ping\")]"));
    /// ```
    pub fn generate_text(&self, path: impl AsRef<Path>, text: &str) -> Result<String, Error> {
        self.generate_text_tools(path, text)
            .map(|generated| generated.code)
    }

    /// [`generate_text`](Self::generate_text), with the name given to each tool's type.
    pub fn generate_text_tools(
        &self,
        path: impl AsRef<Path>,
        text: &str,
    ) -> Result<Generated, Error> {
        let sources = input::read_text(path.as_ref(), text, &self.ignored_keywords)?;
        self.generate_from(sources)
    }

    fn generate_from(&self, sources: Vec<input::ToolSource>) -> Result<Generated, Error> {
        let mut tools = Vec::new();
        let mut derives = Vec::new();
        let mut problems = Vec::new();
        for derive in &self.derives {
            match syn::parse_str::<syn::Path>(derive) {
                Ok(path) => derives.push(path),
                Err(_) => problems.push(SchemaProblem {
                    file: PathBuf::from("build.rs"),
                    pointer: String::new(),
                    message: format!("`derive({derive:?})`: not a path to a derive macro"),
                }),
            }
        }
        let style = lower::Style {
            derives,
            keep_undeclared_keys: self.keep_undeclared_keys,
            typed_only: self.typed_only,
        };
        let mut lowering = tools::ToolLowering::new(&style, &self.flavour_lints);
        lowering.declare(&sources);
        for source in sources {
            let input::ToolSource {
                file,
                pointer,
                name,
                description,
                schema,
                output,
            } = source;
            let lowered = lowering.tool(&file, &pointer, name, description, schema, |name| {
                self.type_names
                    .get(name)
                    .cloned()
                    .unwrap_or_else(|| type_name(name, "Tool"))
            });
            let (name, rust_name) = match lowered {
                Ok(lowered) => lowered,
                Err(found) => {
                    problems.extend(found);
                    continue;
                }
            };
            // The result is described like arguments, under the tool's name with `_output`
            // (numbered when a tool has that name); its type is the tool's type with `Output`.
            let output = output.and_then(|(output_pointer, output)| {
                let output_name = lowering.output_name(&name);
                match lowering.tool(
                    &file,
                    &output_pointer,
                    Some(output_name),
                    None,
                    output,
                    |_| format!("{rust_name}Output"),
                ) {
                    Ok((output_name, output)) => {
                        lowering.link_output(&rust_name, &output);
                        Some((output_name, output))
                    }
                    Err(found) => {
                        problems.extend(found);
                        None
                    }
                }
            });
            let (output_name, output) = output.unzip();
            tools.push(GeneratedTool {
                name,
                rust_name,
                output,
                output_name,
                file,
                pointer,
            });
        }
        problems.extend(lowering.take_denied());
        let warnings = lowering.take_warnings();
        if self.deny_warnings {
            problems.extend(warnings.iter().map(|warning| SchemaProblem {
                message: format!("{} (warnings are denied)", warning.message),
                ..warning.clone()
            }));
        }
        if !problems.is_empty() {
            return Err(Error::Schema(problems));
        }
        let items = lowering.into_items();
        let file: syn::File = syn::parse2(quote::quote!(#(#items)*))
            .expect("the schema compiler writes items syn can read");
        let code = prettyplease::unparse(&file);
        Ok(Generated {
            code: format!("{GENERATED_HEADER}\n\n{}", space_items(&code)),
            tools,
            warnings,
        })
    }

    /// Writes the generated code to `OUT_DIR/<out_file>` when it differs from what is there
    /// (so cargo does not rebuild for nothing), and tells cargo to run the build script
    /// again when an input changes.
    ///
    /// ```no_run
    /// // build.rs, in `fn main()`
    /// if let Err(error) = toolgate_codegen::Builder::new().schemas("schemas").compile() {
    ///     panic!("{error}");
    /// }
    /// ```
    pub fn compile(&self) -> Result<(), Error> {
        self.compile_tools().map(drop)
    }

    /// [`Builder::compile`], giving back each tool's type (for build scripts that write more
    /// code about the tools, such as a table of them).
    ///
    /// ```no_run
    /// // build.rs, in `fn main()`
    /// let tools = toolgate_codegen::Builder::new().schemas("schemas").compile_tools().unwrap();
    /// let names: Vec<&str> = tools.iter().map(|tool| tool.rust_name.as_str()).collect();
    /// ```
    pub fn compile_tools(&self) -> Result<Vec<GeneratedTool>, Error> {
        let out_dir = std::env::var_os("OUT_DIR").ok_or(Error::OutDirUnset)?;
        for input in &self.inputs {
            println!("cargo:rerun-if-changed={}", input.display());
        }
        let generated = self.generate_tools()?;
        for warning in &generated.warnings {
            // One line each: cargo shows a warning's text up to its first line end.
            let line = warning.to_string().replace(['\r', '\n'], " ");
            println!("cargo:warning={line}");
        }
        let path =
            Path::new(&out_dir).join(self.out_file.as_deref().unwrap_or("toolgate_tools.rs"));
        write_if_changed(&path, &generated.code)?;
        Ok(generated.tools)
    }
}

/// A blank line after each top-level item, as rustfmt leaves them.
fn space_items(code: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 20);
    for line in code.lines() {
        out.push_str(line);
        out.push('\n');
        let top_level = !line.starts_with([' ', '#', '/']);
        if line == "}" || (top_level && (line.ends_with(';') || line.ends_with("{}"))) {
            out.push('\n');
        }
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// What [`Builder::generate_tools`] made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The formatted code, with its `@generated` header.
    pub code: String,
    /// Each tool's type, in the order of the inputs.
    pub tools: Vec<GeneratedTool>,
    /// What the reader read past in the schemas, each at its file and JSON pointer (see
    /// [`Builder::deny_warnings`]).
    pub warnings: Vec<SchemaProblem>,
}

/// The type made for one tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneratedTool {
    /// The tool's name (its `name`, or its schema's `title`).
    pub name: String,
    /// The Rust type's name.
    pub rust_name: String,
    /// The name of the type of its result, for an MCP definition with an `outputSchema`
    /// (the tool's type implements `toolgate::ToolOutput`).
    pub output: Option<String>,
    /// The tool name that result type reports: `<name>_output`, numbered
    /// (`<name>_output_2`...) when a tool of the files has that name.
    pub output_name: Option<String>,
    /// The file it was read from.
    pub file: PathBuf,
    /// The JSON pointer of its arguments schema in the file.
    pub pointer: String,
}

/// Writes `code` to `path` unless the file already holds exactly that.
pub fn write_if_changed(path: &Path, code: &str) -> Result<(), Error> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == code) {
        return Ok(());
    }
    std::fs::write(path, code).map_err(|source| Error::Io {
        path: path.to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests;
